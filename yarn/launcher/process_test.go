package launcher

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testproc"
	"github.com/gozie/gozie/internal/testwait"
)

// waitTimeout bounds every wait on a condition.
const waitTimeout = 30 * time.Second

func writeScript(t *testing.T, dir, name, body string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func bash(t *testing.T, dir, script string, args ...string) command {
	t.Helper()
	p := writeScript(t, dir, "script.sh", "#!/bin/bash\n"+script, 0o755)
	return command{path: p, args: append([]string{"script.sh"}, args...), env: []string{"PATH=/usr/bin:/bin"}, dir: dir,
		stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
}

func TestCommandExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		script string
		code   int
		stderr string
	}{
		{"success", "echo out; echo err >&2", 0, "err\n"},
		{"exit code", "exit 3", 3, ""},
		{"killed by a signal", "kill -9 $$", 128 + 9, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := bash(t, t.TempDir(), tt.script)
			ex := c.run(context.Background(), time.Second)
			if ex.startErr != nil || ex.code != tt.code || ex.terminated || ex.stderrTail != tt.stderr {
				t.Errorf("exit = %+v, want code %d and stderr %q", ex, tt.code, tt.stderr)
			}
		})
	}
}

func TestCommandWithoutShebangRunsWithSh(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := writeScript(t, dir, "plain", "echo \"ran $1\"\n", 0o755)
	out := &bytes.Buffer{}
	c := command{path: p, args: []string{"plain", "x"}, env: []string{"PATH=/usr/bin:/bin"}, dir: dir, stdout: out, stderr: &bytes.Buffer{}}
	if ex := c.run(context.Background(), time.Second); ex.code != 0 || ex.startErr != nil {
		t.Fatalf("exit %+v", ex)
	}
	if out.String() != "ran x\n" {
		t.Errorf("stdout %q", out.String())
	}
}

func TestCommandThatCannotStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := command{path: filepath.Join(dir, "missing"), args: []string{"missing"}, dir: dir, stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	if ex := c.run(context.Background(), time.Second); ex.startErr == nil {
		t.Fatalf("exit %+v, want a start error", ex)
	}
}

func TestCommandTerminationReachesTheWholeGroup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		script string
	}{
		// bash waits for a foreground sleep; both get SIGTERM.
		{"foreground", `echo $$ > "$1"; sleep 300; echo not reached`},
		// A script that ignores SIGTERM gets SIGKILL after the grace.
		{"ignores SIGTERM", `trap '' TERM; echo $$ > "$1"; sleep 300 & wait; wait`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			c := bash(t, dir, tt.script, pidFile)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan exit, 1)
			go func() { done <- c.run(ctx, 100*time.Millisecond) }()
			pgid, err := strconv.Atoi(testproc.WaitLine(t, waitTimeout, pidFile))
			if err != nil {
				t.Fatal(err)
			}
			cancel()
			var ex exit
			select {
			case ex = <-done:
			case <-time.After(waitTimeout):
				t.Fatal("the command did not stop")
			}
			if !ex.terminated || ex.code < 128 {
				t.Errorf("exit = %+v, want terminated by a signal", ex)
			}
			testproc.WaitGroupGone(t, waitTimeout, pgid)
		})
	}
}

func TestCommandLeftoversAreKilled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "bg")
	// The background job keeps stdout open; run still returns (after
	// waitDelay) and kills it.
	c := bash(t, dir, `sleep 300 & echo $! > "$1"; echo started`, pidFile)
	ex := c.run(context.Background(), time.Second)
	if ex.code != 0 {
		t.Fatalf("exit %+v", ex)
	}
	pid, err := strconv.Atoi(testproc.WaitLine(t, waitTimeout, pidFile))
	if err != nil {
		t.Fatal(err)
	}
	testwait.WaitFor(t, waitTimeout, fmt.Sprintf("background process %d to end with the command", pid),
		func() bool { return !processAlive(pid) })
}

// processAlive reports whether pid runs and is not a zombie.
func processAlive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[i+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

func TestTailBuffer(t *testing.T) {
	t.Parallel()
	tb := &tailBuffer{max: 5}
	for _, s := range []string{"ab", "cdef", "g"} {
		if n, err := tb.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if tb.String() != "cdefg" {
		t.Errorf("tail %q, want cdefg", tb.String())
	}
}
