package testproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
)

func TestWaitGroupGoneAfterTheGroupIsKilled(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command("sh", "-c", `echo $$ > `+pidFile+`; exec sleep 600`)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	pid := WaitPid(t, testwait.Timeout, pidFile)
	if pid != cmd.Process.Pid || !GroupAlive(t, pid) {
		t.Fatalf("pid %d (started %d), group alive %v", pid, cmd.Process.Pid, GroupAlive(t, pid))
	}
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-done
	WaitGroupGone(t, testwait.Timeout, pid)
}

func TestWaitLineWaitsForAWholeLine(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	WaitLine(r, time.Millisecond, p)
	if !r.failed {
		t.Fatal("WaitLine took a line without its newline")
	}
	if err := os.WriteFile(p, []byte("whole\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := WaitLine(t, testwait.Timeout, p); got != "whole" {
		t.Fatalf("WaitLine returned %q, want the whole line", got)
	}
}

// recorder is a testing.TB that records a failure instead of stopping.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(string, ...any) { r.failed = true }
