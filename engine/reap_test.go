package engine_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
)

// exitedPID returns the id of a process of this host that has exited (and
// been waited for).
func exitedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestLeasesOfAnExitedEngineAreTakenBackAtOnce: the leases that an engine
// of this host held when its process was killed are ended by another
// engine at once, without waiting for them to expire (the clock never
// moves here); the leases of a live process of this host, of another
// host's or another PID namespace's engine and of an owner named otherwise
// wait for their expiry.
func TestLeasesOfAnExitedEngineAreTakenBackAtOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		host, err := os.Hostname()
		if err != nil {
			t.Fatal(err)
		}
		ns, err := os.Readlink("/proc/self/ns/pid")
		if err != nil {
			t.Skipf("no PID namespace to name (%v): owners are then never taken back early", err)
		}
		ns = strings.TrimSuffix(strings.TrimPrefix(ns, "pid:["), "]")
		holders := map[string]string{
			"dead":       fmt.Sprintf("%s-%s-%d-0a1b2c3d", host, ns, exitedPID(t)),
			"live":       fmt.Sprintf("%s-%s-%d-0a1b2c3d", host, ns, os.Getppid()),
			"other-host": fmt.Sprintf("elsewhere.%s-%s-%d-0a1b2c3d", host, ns, exitedPID(t)),
			"other-ns":   fmt.Sprintf("%s-1%s-%d-0a1b2c3d", host, ns, exitedPID(t)),
			"custom":     "server-a",
		}
		ctx := context.Background()
		for entity, owner := range holders {
			schedule(t, s, "work", entity, t0)
			claimed, err := s.ClaimTriggers(ctx, store.ClaimRequest{Owner: owner, Now: t0, LeaseUntil: t0.Add(time.Hour),
				Limit: 1, Kinds: []store.TriggerKind{"work"}})
			if err != nil || len(claimed) != 1 || claimed[0].EntityID != entity {
				t.Fatalf("claiming %s as %s: %+v, %v", entity, owner, claimed, err)
			}
		}

		fake := clock.NewFake(t0.Add(time.Second))
		ran := make(chan string, len(holders))
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), Lease: time.Minute})
		e.Handle("work", func(ctx context.Context, r *engine.Claim) error { ran <- r.Trigger.EntityID; return nil })
		start(t, e)
		select {
		case got := <-ran:
			if got != "dead" {
				t.Fatalf("ran %s, whose holder's lease still holds", got)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the exited engine's trigger was not taken back")
		}

		want := []string{holders["custom"], holders["live"], holders["other-host"], holders["other-ns"]}
		slices.Sort(want)
		var owners []string
		testwait.WaitFor(t, 20*time.Second, "the taken-back trigger to be released", func() bool {
			if err := s.Tx(ctx, func(x store.Tx) (err error) { owners, err = x.LeaseOwners(ctx); return }); err != nil {
				t.Fatal(err)
			}
			return slices.Equal(owners, want)
		})
		select {
		case got := <-ran:
			t.Errorf("ran %s, whose holder's lease still holds", got)
		default:
		}
	})
}
