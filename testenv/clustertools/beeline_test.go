package clustertools_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
)

var childApp = regexp.MustCompile(`Executing on YARN cluster with App id (application_\d+_\d+)`)

func TestBeelineRunsScriptWithVariables(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/data.txt", "1\n2\n3\n")
	script := filepath.Join(t.TempDir(), "script.q")
	if err := os.WriteFile(script, []byte(`-- a comment; with a semicolon
DROP TABLE IF EXISTS test;
CREATE EXTERNAL TABLE test (a INT) STORED AS TEXTFILE LOCATION '${INPUT}';
INSERT OVERWRITE DIRECTORY '${hivevar:OUTPUT}' SELECT * FROM test WHERE a > ${MIN};
`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.run(t, ctxT(t), "beeline", "-u", e.c.HS2.JDBCURL(""), "-n", "alice", "-p", "DUMMY",
		"-d", "org.apache.hive.jdbc.HiveDriver", "--hivevar", "INPUT=/user/alice/in", "--hivevar=OUTPUT=/user/alice/out",
		"--hiveconf", "tez.application.tags=my-tag", "--hivevar", "MIN=1", "-f", script)
	if r.code != 0 {
		t.Fatalf("beeline exited %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if got := strings.Fields(e.read(t, "/user/alice/out/000000_0")); strings.Join(got, ",") != "2,3" {
		t.Errorf("output rows %v, want 2,3", got)
	}
	m := childApp.FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no application in the operation log:\n%s", r.stderr)
	}
	var tagged bool
	for _, st := range e.c.HS2.Statements() {
		if st.AppID == m[1] {
			tagged = len(st.Tags) == 1 && st.Tags[0] == "my-tag"
		}
		if st.User != "alice" {
			t.Errorf("statement %q ran as %q", st.Text, st.User)
		}
	}
	if !tagged {
		t.Errorf("the INSERT's application %s does not carry the --hiveconf tag: %+v", m[1], e.c.HS2.Statements())
	}
	if n := strings.Count(r.stdout, "0: jdbc:hive2://"); n != 3 {
		t.Errorf("%d statements echoed, want 3:\n%s", n, r.stdout)
	}
}

func TestBeelineSelectPrintsTable(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/t/data.txt", "1,x\n2,y\n")
	r := e.run(t, ctxT(t), "beeline", "-u", e.c.HS2.JDBCURL(""), "-n", "alice",
		"-e", "CREATE EXTERNAL TABLE t (a INT, b STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' LOCATION '/user/alice/t'",
		"-e", "SELECT b, a FROM t WHERE a = 2")
	if r.code != 0 {
		t.Fatalf("beeline exited %d: %s", r.code, r.stderr)
	}
	if !regexp.MustCompile(`\| y +\| 2 +\|`).MatchString(r.stdout) || !strings.Contains(r.stdout, "1 row selected") {
		t.Errorf("no table with the row:\n%s", r.stdout)
	}
}

func TestBeelineReportsHiveErrorCode(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, tc := range []struct {
		name, stmt string
		prepare    func()
		want       string
	}{
		{"compile error", "SELECT * FROM missing", nil, "(state=42S02,code=10001)"},
		{"parse error", "SELEKT 1", nil, "code=40000)"},
		{"execution error", "INSERT OVERWRITE DIRECTORY '/user/alice/x' SELECT 1", func() { e.c.HS2.FailOn("/user/alice/x", 2, "task died") },
			"(state=08S01,code=2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.prepare != nil {
				tc.prepare()
			}
			r := e.run(t, ctxT(t), "beeline", "-u", e.c.HS2.JDBCURL(""), "-e", tc.stmt, "-e", "SELECT 1")
			if r.code != 2 {
				t.Fatalf("exit code %d, want 2", r.code)
			}
			if !strings.Contains(r.stderr, "Error: ") || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, r.stderr)
			}
			if strings.Contains(r.stdout, "> SELECT 1;") {
				t.Error("the statement after the failed one ran")
			}
		})
	}
}

func TestBeelineTerminatedCancelsStatement(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.c.HS2.HangNext()
	ctx, cancel := context.WithCancel(ctxT(t))
	done := make(chan result, 1)
	go func() { done <- e.run(t, ctx, "beeline", "-u", e.c.HS2.JDBCURL(""), "-e", "SELECT 1") }()
	testwait.Poll{Timeout: waitTimeout, Every: 10 * time.Millisecond}.WaitFor(t, "the statement to run",
		func() bool { return e.c.HS2.Running() != 0 })
	cancel()
	r := <-done
	if r.code != 143 {
		t.Errorf("exit code %d, want 143", r.code)
	}
	sts := e.c.HS2.Statements()
	if len(sts) != 1 || sts[0].State != "CANCELED" {
		t.Errorf("statements %+v, want the one CANCELED", sts)
	}
}

func TestBeelineUsageErrors(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, args := range [][]string{
		{"beeline", "-e", "SELECT 1"},
		{"beeline", "-u", e.c.HS2.JDBCURL("")},
		{"beeline", "-u", "jdbc:mysql://x/y", "-e", "SELECT 1"},
		{"beeline", "-u", e.c.HS2.JDBCURL(""), "--hivevar", "novalue", "-e", "SELECT 1"},
		{"beeline", "-u", e.c.HS2.JDBCURL(""), "-f", "/does/not/exist.q"},
	} {
		if r := e.run(t, ctxT(t), args...); r.code == 0 {
			t.Errorf("%q succeeded", args)
		}
	}
}
