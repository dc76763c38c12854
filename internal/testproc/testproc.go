// Package testproc holds the tests' look at Linux processes: whether a
// process group still has live members, and waits for a group to die or
// for a script to write a file. The launcher (yarn/launcher), MiniYARN,
// the YARN client and the launch action test the same promise (killing
// an attempt kills its whole process group), so they share one reading
// of /proc.
package testproc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
)

// GroupAlive reports whether a live process is in group pgid. Zombies
// (and dead entries) are left out: a killed grandchild waits for init to
// reap it.
func GroupAlive(t testing.TB, pgid int) bool {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("reading /proc: %v", err)
	}
	want := strconv.Itoa(pgid)
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The fields after the command (in parentheses): state ppid pgrp ...
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) >= 3 && f[0] != "Z" && f[0] != "X" && f[2] == want {
			return true
		}
	}
	return false
}

// WaitGroupGone waits until no live process is left in group pgid.
func WaitGroupGone(t testing.TB, timeout time.Duration, pgid int) {
	t.Helper()
	testwait.WaitFor(t, timeout, "process group "+strconv.Itoa(pgid)+" to die", func() bool {
		return !GroupAlive(t, pgid)
	})
}

// WaitLine waits until a script has written a whole line to path (the
// file ends in a newline) and returns the file's trimmed content.
func WaitLine(t testing.TB, timeout time.Duration, path string) string {
	t.Helper()
	var b []byte
	testwait.WaitForLast(t, timeout, path+" to hold a line", func() (bool, string) {
		var err error
		b, err = os.ReadFile(path)
		return err == nil && strings.HasSuffix(string(b), "\n"), strconv.Quote(string(b))
	})
	return strings.TrimSpace(string(b))
}

// WaitPid waits until a script has written its pid to path, as a whole
// line, and returns it. The file exists before the line is in it (a shell
// creates it for the redirection first), so its existence is not enough.
func WaitPid(t testing.TB, timeout time.Duration, path string) int {
	t.Helper()
	line := WaitLine(t, timeout, path)
	pid, err := strconv.Atoi(line)
	if err != nil {
		t.Fatalf("pid file %s holds %q: %v", path, line, err)
	}
	return pid
}
