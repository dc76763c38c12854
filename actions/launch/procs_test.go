package launch_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// groupAlive reports whether a live (not zombie) process is in group pgid.
func groupAlive(t *testing.T, pgid int) bool {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("reading /proc: %v", err)
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) >= 3 && f[0] != "Z" && f[0] != "X" && f[2] == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}

// waitGroupGone polls until no live process is left in group pgid.
func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for groupAlive(t, pgid) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d survived", pgid)
		}
		time.Sleep(10 * time.Millisecond) // polling a condition with a deadline
	}
}

// waitPid polls until a script wrote its pid into p.
func waitPid(t *testing.T, p string) int {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		if b, err := os.ReadFile(p); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("pid file %q: %v", b, err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear", p)
		}
		time.Sleep(10 * time.Millisecond) // polling a condition with a deadline
	}
}
