package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/store/postgres/pgtest"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gozie-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "gozie")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building gozie: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServer starts `gozie server` and waits until it logs that it serves.
func startServer(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(binary, append([]string{"server", "-addr", addr, "-config-dir", t.TempDir()}, args...)...)
	cmd.Dir = t.TempDir()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	started := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			if !once && strings.Contains(sc.Text(), "gozie server started") {
				once = true
				close(started)
			}
		}
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("server did not start")
	}
	return cmd, "http://" + addr + "/oozie"
}

func getJSON(t *testing.T, url string, v any) *http.Response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	return resp
}

func TestServerServesAndStopsOnSIGTERM(t *testing.T) {
	dbs := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "data", "gozie.db") },
		"postgres": func(t *testing.T) string { return pgtest.NewDatabase(t) },
	}
	for name, db := range dbs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			begin := time.Now()
			cmd, base := startServer(t, "-db", db(t))
			t.Logf("%s: serving after %v", name, time.Since(begin))

			var status map[string]string
			if resp := getJSON(t, base+"/v2/admin/status", &status); resp.StatusCode != 200 || status["systemMode"] != "NORMAL" {
				t.Fatalf("status %d %v", resp.StatusCode, status)
			}
			resp := getJSON(t, base+"/v2/nonsense", nil)
			if resp.StatusCode != 404 || resp.Header.Get("oozie-error-code") == "" || resp.Header.Get("oozie-error-message") == "" {
				t.Fatalf("unknown path: %d %v", resp.StatusCode, resp.Header)
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("exit after SIGTERM: %v", err)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("server did not stop on SIGTERM")
			}
		})
	}
}

func TestServerRejectsBadDatabaseURL(t *testing.T) {
	out, err := exec.Command(binary, "server", "-db", "bogus:x", "-config-dir", t.TempDir()).CombinedOutput()
	if err == nil {
		t.Fatal("bad -db accepted")
	}
	if !strings.Contains(string(out), "-db") || !strings.Contains(string(out), "bogus:x") {
		t.Fatalf("message does not name -db: %s", out)
	}
}

func TestAdminCLIAgainstServer(t *testing.T) {
	_, base := startServer(t, "-db", "sqlite:"+filepath.Join(t.TempDir(), "gozie.db"))
	run := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(nil, "admin", "-oozie", base, "-status"); err != nil || out != "System mode: NORMAL\n" {
		t.Fatalf("-status: %q %v", out, err)
	}
	// OOZIE_URL is honoured when -oozie and GOZIE_URL are absent.
	if out, err := run([]string{"GOZIE_URL=", "OOZIE_URL=" + base}, "admin", "-version"); err != nil || !strings.HasPrefix(out, "Oozie server build version: ") {
		t.Fatalf("-version: %q %v", out, err)
	}
	if out, err := run([]string{"GOZIE_URL=" + base}, "admin", "-systemmode", "SAFEMODE"); err != nil || out != "System mode: SAFEMODE\n" {
		t.Fatalf("-systemmode: %q %v", out, err)
	}
	out, err := run(nil, "admin", "-oozie", base, "-systemmode", "BOGUS")
	if err == nil || !strings.HasPrefix(out, "Error: E0303 : ") {
		t.Fatalf("bad mode: %q %v", out, err)
	}
	if out, err := run(nil, "version"); err != nil || !strings.HasPrefix(out, "Oozie client build version: ") {
		t.Fatalf("version: %q %v", out, err)
	}
}

// TestLocalListensOnLoopbackByDefault: -local keeps the server on the loopback interface
// unless a flag, a variable or the site file chose the address.
func TestLocalListensOnLoopbackByDefault(t *testing.T) {
	t.Parallel()
	none := func(string) (string, bool) { return "", false }
	for _, tt := range []struct {
		name string
		src  conf.Sources
		want bool
	}{
		{"default", conf.Sources{ConfigDir: t.TempDir(), LookupEnv: none}, true},
		{"flag", conf.Sources{ConfigDir: t.TempDir(), LookupEnv: none, Flags: map[string]string{"gozie.http.address": ":11000"}}, false},
		{"env", conf.Sources{ConfigDir: t.TempDir(), LookupEnv: func(k string) (string, bool) {
			return "0.0.0.0:11000", k == "GOZIE_HTTP_ADDRESS"
		}}, false},
	} {
		cfg, err := conf.Load(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := loopbackByDefault(cfg); got != tt.want {
			t.Errorf("%s: loopbackByDefault = %v, want %v", tt.name, got, tt.want)
		}
	}
}
