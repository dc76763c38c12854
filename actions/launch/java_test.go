package launch_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/workflow"
)

const javaMain = `package org.example;

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.util.Properties;

public class Main {
    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "ok";
        if (mode.equals("exit")) {
            System.exit(Integer.parseInt(args[1]));
        }
        if (mode.equals("throw")) {
            throw new IllegalStateException("boom " + args[1]);
        }
        Properties p = new Properties();
        p.setProperty("args", String.join(",", args));
        p.setProperty("xmx", String.valueOf(Runtime.getRuntime().maxMemory() / (1024 * 1024) <= 384));
        p.setProperty("opt", System.getProperty("gozie.test.opt", "missing"));
        p.setProperty("conf", String.valueOf(new File(System.getProperty("oozie.action.conf.xml")).length() > 0));
        try (OutputStream os = new FileOutputStream(System.getProperty("oozie.action.output.properties"))) {
            p.store(os, null);
        }
    }
}
`

// javaJar compiles the test's main class into a jar and returns its bytes;
// without a JDK the test ends through testreq (skipped, or failed under CI).
func javaJar(t *testing.T) []byte {
	t.Helper()
	for _, tool := range []string{"javac", "jar", "java"} {
		testreq.Program(t, "default-jdk-headless", tool)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "org", "example", "Main.java")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, []byte(javaMain), 0o644); err != nil {
		t.Fatal(err)
	}
	classes := filepath.Join(dir, "classes")
	if out, err := exec.Command("javac", "-d", classes, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	jar := filepath.Join(dir, "app.jar")
	if out, err := exec.Command("jar", "cf", jar, "-C", classes, ".").CombinedOutput(); err != nil {
		t.Fatalf("jar: %v\n%s", err, out)
	}
	b, err := os.ReadFile(jar)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func javaBody(inner string) string {
	return `<java xmlns="uri:oozie:workflow:0.5"><main-class>org.example.Main</main-class>` + inner + `</java>`
}

func TestJavaAction(t *testing.T) {
	t.Parallel()
	jar := javaJar(t)
	c := setup(t)
	c.put(t, "/user/alice/japp/lib/app.jar", string(jar))
	e := c.executor(t, "java", nil)

	t.Run("capture-output", func(t *testing.T) {
		run := c.run(t, "java", "ok", "/user/alice/japp", javaBody(`<java-opts>-Dgozie.test.opt=set</java-opts><arg>ok</arg><arg>two words</arg><capture-output/>`))
		st := c.finish(t, e, run)
		if st.Outcome != workflow.OutcomeOK {
			t.Fatalf("status %+v", st)
		}
		props, err := conf.ReadProperties(strings.NewReader(st.Data), "data")
		if err != nil {
			t.Fatalf("output %q: %v", st.Data, err)
		}
		for k, want := range map[string]string{"args": "ok,two words", "xmx": "true", "opt": "set", "conf": "true"} {
			if got := props.Value(k); got != want {
				t.Errorf("%s = %q, want %q (output %q)", k, got, want, st.Data)
			}
		}
	})
	t.Run("exit code", func(t *testing.T) {
		run := c.run(t, "java", "exit", "/user/alice/japp", javaBody(`<arg>exit</arg><arg>3</arg>`))
		st := c.finish(t, e, run)
		if st.Outcome != workflow.OutcomeError || st.ErrorCode != "3" || st.ErrorMessage != "Main Class [org.example.Main], exit code [3]" {
			t.Errorf("status %+v", st)
		}
	})
	t.Run("uncaught exception", func(t *testing.T) {
		run := c.run(t, "java", "throw", "/user/alice/japp", javaBody(`<arg>throw</arg><arg>here</arg>`))
		st := c.finish(t, e, run)
		if st.Outcome != workflow.OutcomeError || st.ErrorCode != "JA018" || st.ErrorMessage != "boom here" {
			t.Errorf("status %+v", st)
		}
	})
	t.Run("missing main class", func(t *testing.T) {
		run := c.run(t, "java", "nomain", "/user/alice/japp", `<java xmlns="uri:oozie:workflow:0.5"><main-class>org.example.Nope</main-class></java>`)
		st := c.finish(t, e, run)
		if st.Outcome != workflow.OutcomeError || st.ErrorCode != "JA018" || !strings.Contains(st.ErrorMessage, "org.example.Nope") {
			t.Errorf("status %+v", st)
		}
	})
}
