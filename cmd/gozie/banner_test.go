package main

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/testenv/localcluster"
)

// TestLocalBanner: once `gozie server -local` (make run) serves, it prints
// the console's URL and the one command that installs the examples and
// runs the README's pipeline on the cluster it started.
func TestLocalBanner(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	dir := t.TempDir()
	cmd := exec.Command(binary, "server", "-local", "-addr", addr, "-data-dir", dir, "-config-dir", t.TempDir())
	cmd.Dir = t.TempDir()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	got := map[string]string{}
	deadline := time.After(60 * time.Second)
	for got["Examples:"] == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the server's stdout ended before the banner: %v", got)
			}
			if k, v, ok := strings.Cut(strings.TrimSpace(l), ": "); ok {
				got[k+":"] = strings.TrimSpace(v)
			}
		case <-deadline:
			t.Fatalf("no banner on stdout: %v", got)
		}
	}
	if want := "http://localhost:" + port + "/oozie/"; got["Console:"] != want {
		t.Errorf("Console: %q, want %q", got["Console:"], want)
	}
	props := readProps(t, filepath.Join(dir, localcluster.PropertiesFile))
	install := binary + " examples install -oozie http://localhost:" + port + "/oozie -data-dir " + dir + " && "
	run := binary + " job -oozie http://localhost:" + port + "/oozie -config " +
		filepath.Join(dir, "dfs", "user") // then <user>/examples/apps/nightly-hive/job.properties
	ex := got["Examples:"]
	if !strings.HasPrefix(ex, install+run) || !strings.Contains(ex, "/examples/apps/nightly-hive/job.properties -D nameNode="+props["nameNode"]+
		" -D resourceManager="+props["resourceManager"]+" -D jdbcURL="+props["hive2JdbcUrl"]+" -run") {
		t.Errorf("Examples: %q", ex)
	}
}

func TestHostPort(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"127.0.0.1:11000": "localhost:11000", "0.0.0.0:80": "localhost:80",
		"[::1]:5": "localhost:5", "10.1.2.3:11000": "10.1.2.3:11000"} {
		a, err := net.ResolveTCPAddr("tcp", in)
		if err != nil {
			t.Fatal(err)
		}
		if got := hostPort(a); got != want {
			t.Errorf("hostPort(%s) = %s, want %s", in, got, want)
		}
	}
}

func readProps(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := conf.ReadProperties(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return p.Map()
}
