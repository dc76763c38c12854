package portpick

import (
	"context"
	"net"
	"strconv"
	"testing"
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
	defer l.Close()
	taken := l.Addr().String()
	if _, err := Listen(context.Background(), taken); err == nil {
		t.Errorf("a second listener on %s", taken)
	}
	if _, err := Listen(context.Background(), "no-port"); err == nil {
		t.Error("an address without a port was accepted")
	}
	_, port, _ := net.SplitHostPort(taken)
	if n, _ := strconv.Atoi(port); n == 0 {
		t.Errorf("listener address %s", taken)
	}
}
