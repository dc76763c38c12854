// Package portpick picks loopback ports below the kernel's ephemeral range
// (net.ipv4.ip_local_port_range). A stand-in that closes a port and opens it
// again later (a standby ResourceManager's scheduler, a cluster restarted on
// its recorded ports) must not have it taken meanwhile: a port of the
// ephemeral range is handed to the next outgoing connection of any process,
// while one below it is taken only by an explicit bind; and every port a
// process picked stays reserved to it until it exits (see reserve), so that
// the explicit binds of other processes picking at random skip it too.
package portpick

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// lowest is the lowest port picked: above the well-known and most
// registered service ports.
const lowest = 20000

// attempts bounds the ports tried before the kernel is left to pick.
const attempts = 100

// ephemeralLow reads the start of the kernel's ephemeral range; Linux's
// default when it cannot be read.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				return n
			}
		}
	}
	return 32768
}

// Bind calls bind with host:port for random ports below the ephemeral range
// until one binds, and returns that address. The port is taken by bind
// itself, so no other process can take it between the pick and the bind
// (picking a free port and binding it later races with every other test
// process picking ports). A port in use (EADDRINUSE) moves on to the next;
// any other error is returned. Where the range leaves no room, or every
// attempt found its port in use, bind gets host:0 and the kernel picks.
func Bind(host string, bind func(addr string) error) (string, error) {
	high := ephemeralLow()
	for attempt := 0; high > lowest && attempt < attempts; attempt++ {
		port := lowest + rand.IntN(high-lowest)
		if !reserve(port) {
			continue
		}
		addr := net.JoinHostPort(host, strconv.Itoa(port))
		err := bind(addr)
		if err == nil {
			return addr, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			return "", err
		}
	}
	addr := net.JoinHostPort(host, "0")
	if err := bind(addr); err != nil {
		return "", fmt.Errorf("binding a port on %s: %w", host, err)
	}
	return addr, nil
}

// Listen listens on addr ("" is 127.0.0.1:0). An address of port 0 gets a
// port below the ephemeral range, taken by the listen itself (see Bind):
// a server that records its port and listens on it again after a restart
// must not have picked it from the range the kernel hands to outgoing
// connections, which may hold it by then. A given port that is in use is
// waited for, up to busyWait (see listenAgain).
func Listen(ctx context.Context, addr string) (net.Listener, error) {
	return listen(ctx, addr, true)
}

// ListenNoWait is Listen for a server that decides itself what a given
// port in use means (MiniYARN holds the ports of a stopped RM, and listens
// around its own holds): it fails at once.
func ListenNoWait(ctx context.Context, addr string) (net.Listener, error) {
	return listen(ctx, addr, false)
}

func listen(ctx context.Context, addr string, wait bool) (net.Listener, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", addr, err)
	}
	var lc net.ListenConfig
	switch {
	case port != "0" && wait:
		return listenAgain(ctx, &lc, addr)
	case port != "0":
		return lc.Listen(ctx, "tcp", addr)
	}
	var l net.Listener
	if _, err := Bind(host, func(a string) error {
		var err error
		l, err = lc.Listen(ctx, "tcp", a)
		return err
	}); err != nil {
		return nil, err
	}
	return l, nil
}

// Ports a process picked stay its own until it exits, even once the server
// on one has closed: a cluster that restarts takes its recorded ports again,
// and another process picking at random in the meantime (test processes run
// side by side, each starting clusters) must not take one. A pick takes an
// exclusive flock on a file named after the port in a directory shared by
// the processes of the user, and keeps it open; a port whose file another
// process holds is skipped. The kernel releases the locks when the process
// exits, so a crash leaves nothing held.
var reserved struct {
	sync.Mutex
	dir   string
	files map[int]*os.File
}

// reserve takes port for this process; false when another process (or an
// earlier pick of this one) holds it. Where locks cannot be taken at all
// (no writable temporary directory), every port counts as free and the
// bind alone decides.
func reserve(port int) bool {
	reserved.Lock()
	defer reserved.Unlock()
	if _, ok := reserved.files[port]; ok {
		return false
	}
	dir := lockDirLocked()
	if dir == "" {
		return true
	}
	f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(port)), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return true
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return false
	}
	reserved.files[port] = f
	return true
}

// lockDirLocked returns the directory of the port locks, made on first
// use; "" when it cannot be made. reserved's lock is held.
func lockDirLocked() string {
	if reserved.files == nil {
		reserved.files = map[int]*os.File{}
		reserved.dir = filepath.Join(os.TempDir(), fmt.Sprintf("gozie-ports-%d", os.Getuid()))
		if err := os.MkdirAll(reserved.dir, 0o700); err != nil {
			reserved.dir = ""
		}
	}
	return reserved.dir
}

// busyWait bounds how long a given port that is in use is waited for.
const busyWait = 10 * time.Second

// listenAgain listens on a given address, waiting up to busyWait while it
// is in use: a cluster restarted at once takes its recorded ports again,
// and a socket of its last run (or a brief bind by another process, such
// as a cluster pinned to nearby ports failing its start) may still hold
// one for a moment.
func listenAgain(ctx context.Context, lc *net.ListenConfig, addr string) (net.Listener, error) {
	deadline := time.Now().Add(busyWait)
	for {
		l, err := lc.Listen(ctx, "tcp", addr)
		if err == nil || !errors.Is(err, syscall.EADDRINUSE) || time.Now().After(deadline) {
			return l, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(50 * time.Millisecond): // polling the port, bounded by the deadline
		}
	}
}
