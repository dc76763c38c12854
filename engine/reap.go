package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gozie/gozie/store"
)

// An engine's lease owner names its host, PID namespace and process:
// host-pidns-pid-random. A lease outlives the engine that took it when its
// server is killed (a SIGKILL, the OOM killer, a crash), and its triggers
// wait out the lease (gozie.engine.lease, 30 s) before another engine may
// take them over. An engine restarted on the same host, or any engine
// there, need not wait: it sees in the owner's name that the holder was a
// process of its host and of its PID namespace (containers sharing a host
// name, with host networking, each have their own), and that the process
// has exited, and ends its leases at once. An owner on another host or in
// another namespace, or one named otherwise (Config.Owner), is left to its
// lease: liveness across hosts is what the lease itself is for.

// defaultOwner is host-pidns-pid-random, the owner name reapDeadOwners
// reads.
func defaultOwner() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%s-%d-%s", host, pidNamespace(), os.Getpid(), hex.EncodeToString(b[:]))
}

// pidNamespace is the inode number of this process's PID namespace
// (/proc/self/ns/pid is "pid:[N]"), or "0" when it cannot be read.
func pidNamespace() string {
	link, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return "0"
	}
	n := strings.TrimSuffix(strings.TrimPrefix(link, "pid:["), "]")
	if _, err := strconv.ParseUint(n, 10, 64); err != nil {
		return "0"
	}
	return n
}

// owner is what a defaultOwner name says of its engine's process.
type owner struct {
	host, pidNS string
	pid         int
}

// parseOwner reads a defaultOwner name; the host may itself hold dashes.
func parseOwner(name string) (owner, bool) {
	rest, suffix, ok := cutLast(name, "-")
	if !ok || suffix == "" {
		return owner{}, false
	}
	rest, p, ok := cutLast(rest, "-")
	if !ok {
		return owner{}, false
	}
	host, ns, ok := cutLast(rest, "-")
	if !ok || host == "" || ns == "" || ns == "0" {
		return owner{}, false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return owner{}, false
	}
	return owner{host: host, pidNS: ns, pid: pid}, true
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// processExited reports whether no process pid runs on this host: kill(2)
// with signal 0 finds none, or /proc shows it a zombie (killed, not yet
// waited for by its parent). A process of another user (EPERM) runs.
func processExited(pid int) bool {
	err := syscall.Kill(pid, 0)
	if errors.Is(err, syscall.ESRCH) {
		return true
	}
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return false
	}
	state := s[i+2]
	return state == 'Z' || state == 'X'
}

// reapLoop ends the leases of exited engines of this host at once, then
// every third of a lease, until ctx ends. Its pace is real time, whatever
// the engine's clock: whether a process runs is a fact of the host, not of
// the clock the work is scheduled by.
func (e *Engine) reapLoop(ctx context.Context) {
	self, ok := parseOwner(e.cfg.Owner)
	if !ok {
		return
	}
	t := time.NewTicker(e.cfg.Lease / 3)
	defer t.Stop()
	for {
		if e.reapDeadOwners(ctx, self) > 0 {
			e.Wake()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// reapDeadOwners ends the leases of every owner of self's host and PID
// namespace, other than self's process, whose process has exited, and
// returns how many it ended.
func (e *Engine) reapDeadOwners(ctx context.Context, self owner) int {
	var owners []string
	err := e.cfg.Store.Tx(ctx, func(x store.Tx) (err error) { owners, err = x.LeaseOwners(ctx); return })
	if err != nil {
		if ctx.Err() == nil {
			e.cfg.Logger.Warn("listing lease owners", "err", err)
		}
		return 0
	}
	ended := 0
	for _, name := range owners {
		o, ok := parseOwner(name)
		if !ok || o.host != self.host || o.pidNS != self.pidNS || o.pid == self.pid || !processExited(o.pid) {
			continue
		}
		var n int
		now := e.cfg.Clock.Now()
		err := e.cfg.Store.Tx(ctx, func(x store.Tx) (err error) { n, err = x.EndLeases(ctx, name, now); return })
		if err != nil {
			if ctx.Err() == nil {
				e.cfg.Logger.Warn("ending the leases of an exited engine", "owner", name, "err", err)
			}
			continue
		}
		if n > 0 {
			e.cfg.Logger.Info("took back the leases of an engine whose process exited", "owner", name, "leases", n)
			ended += n
		}
	}
	return ended
}
