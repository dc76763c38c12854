package portpick

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestListenPicksBelowTheEphemeralRange: a port-0 address listens on a port
// below the kernel's ephemeral range, and a given port is listened on as
// given (and refused, naming nothing else, when taken).
func TestListenPicksBelowTheEphemeralRange(t *testing.T) {
	t.Parallel()
	high := ephemeralLow()
	if high <= lowest {
		t.Skipf("the ephemeral range starts at %d, leaving no room below it above %d", high, lowest)
	}
	for _, addr := range []string{"", "127.0.0.1:0"} {
		l, err := Listen(context.Background(), addr)
		if err != nil {
			t.Fatalf("Listen(%q): %v", addr, err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if port < lowest || port >= high {
			t.Errorf("Listen(%q) took port %d, outside [%d, %d)", addr, port, lowest, high)
		}
	}

	l, err := Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	taken := l.Addr().String()
	// A given port in use is waited for, as long as the context allows.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := Listen(ctx, taken); err == nil {
		t.Errorf("a second listener on %s", taken)
	}
	// And taken once it is free.
	_, port, _ := net.SplitHostPort(taken)
	l.Close()
	again, err := Listen(context.Background(), taken)
	if err != nil {
		t.Fatalf("listening again on %s: %v", taken, err)
	}
	again.Close()
	if _, err := Listen(context.Background(), "no-port"); err == nil {
		t.Error("an address without a port was accepted")
	}
	if n, _ := strconv.Atoi(port); n == 0 {
		t.Errorf("listener address %s", taken)
	}
}

// TestReserveSkipsPortsHeldElsewhere: a port whose lock another process
// holds is not picked, and a port this process picked is not picked again,
// even once its server has closed (a restart takes it back by number).
func TestReserveSkipsPortsHeldElsewhere(t *testing.T) {
	// Ports below lowest are never picked by Bind, so no other test
	// reserves this one meanwhile.
	reserved.Lock()
	dir, port := lockDirLocked(), 1
	for reserved.files[port] != nil {
		port++ // an earlier run of this test (-count) took it
	}
	reserved.Unlock()
	if dir == "" {
		t.Skip("no writable temporary directory for the port locks: ports are not reserved across processes here")
	}
	// A lock on its own open file stands for another process's (flock
	// locks belong to the open file).
	other, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(port)), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	if reserve(port) {
		t.Fatal("a port another process holds was reserved")
	}
	other.Close() // the other process exits
	if !reserve(port) {
		t.Fatal("a port nobody holds was not reserved")
	}
	if reserve(port) {
		t.Error("a port this process picked was reserved again")
	}
}
