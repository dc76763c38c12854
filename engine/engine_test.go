package engine_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/backends"
	"github.com/gozie/gozie/store/postgres/pgtest"
)

var t0 = time.Date(2026, 3, 8, 9, 0, 0, 0, time.UTC)

// backend is one database to run a test on; open may be called repeatedly
// for several handles (several servers).
type backend struct {
	name string
	url  string
}

func eachBackend(t *testing.T, fn func(t *testing.T, b backend)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, backend{"sqlite", "sqlite:" + filepath.Join(t.TempDir(), "gozie.db")})
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, backend{"postgres", pgtest.NewDatabase(t)})
	})
}

func (b backend) open(t *testing.T) store.Store {
	t.Helper()
	s, err := backends.Open(context.Background(), b.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func schedule(t *testing.T, s store.Store, kind store.TriggerKind, id string, due time.Time) {
	t.Helper()
	if err := s.Tx(context.Background(), func(x store.Tx) error { return x.Schedule(context.Background(), kind, id, due, "") }); err != nil {
		t.Fatal(err)
	}
}

func start(t *testing.T, e *engine.Engine) {
	t.Helper()
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Stop)
}

// waitTimerAt waits until the fake clock has a timer armed for at.
func waitTimerAt(t *testing.T, f *clock.Fake, at time.Time) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		ch := f.Changed()
		if next, ok := f.NextDeadline(); ok && next.Equal(at) {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			next, _ := f.NextDeadline()
			t.Fatalf("no timer armed for %v (next %v)", at, next)
		}
	}
}

func TestTriggerRunsAtItsDueTime(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		fake := clock.NewFake(t0)
		ran := make(chan *engine.Claim, 1)
		// The fallback sleep is longer than the wait for the due time.
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), MaxSleep: 30 * time.Second})
		e.Handle("materialize", func(ctx context.Context, r *engine.Claim) error { ran <- r; return nil })
		due := t0.Add(10 * time.Second)
		schedule(t, s, "materialize", "C1", due)
		start(t, e)

		waitTimerAt(t, fake, due) // the engine sleeps exactly until the due time
		fake.Set(due.Add(-time.Millisecond))
		select {
		case <-ran:
			t.Fatal("ran before its due time")
		default:
		}
		fake.Set(due)
		select {
		case r := <-ran:
			if !r.Now.Equal(due) || r.Trigger.EntityID != "C1" {
				t.Fatalf("run at %v for %s", r.Now, r.Trigger.EntityID)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("did not run at its due time")
		}
	})
}

// movingClock is a fake clock that another goroutine moves forward by step
// each time the engine is about to arm a timer, after it looked at the time:
// the widest form of a race a loaded machine makes rare.
type movingClock struct {
	*clock.Fake
	step time.Duration
}

func (m movingClock) NewTimer(d time.Duration) clock.Timer {
	m.Advance(m.step)
	return m.Fake.NewTimer(d)
}

func (m movingClock) NewTimerAt(deadline time.Time) clock.Timer {
	m.Advance(m.step)
	return m.Fake.NewTimerAt(deadline)
}

// TestSleepEndsAtTheDueTimeWhenTheClockMoves: the engine's sleep ends at
// the next due time even when the clock moved between the engine's look at
// the time and its timer (a timer anchored at the moved time would wake it
// late, and a test's fake clock, not moving again, never).
func TestSleepEndsAtTheDueTimeWhenTheClockMoves(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		fake := clock.NewFake(t0)
		ran := make(chan *engine.Claim, 1)
		e := engine.New(engine.Config{Store: s, Clock: movingClock{fake, 4 * time.Second}, Logger: quietLogger(),
			MaxSleep: time.Hour})
		e.Handle("materialize", func(ctx context.Context, r *engine.Claim) error { ran <- r; return nil })
		due := t0.Add(10 * time.Second)
		schedule(t, s, "materialize", "C1", due)
		start(t, e)
		waitTimerAt(t, fake, due)
		fake.Set(due)
		select {
		case r := <-ran:
			if r.Trigger.EntityID != "C1" {
				t.Fatalf("ran %s", r.Trigger.EntityID)
			}
		case <-time.After(20 * time.Second):
			next, _ := fake.NextDeadline()
			t.Fatalf("did not run at its due time %v (the engine's timer is at %v)", due, next)
		}
	})
}

func TestWriteWakesTheEngine(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		fake := clock.NewFake(t0)
		ran := make(chan string, 1)
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), MaxSleep: time.Hour})
		e.Handle("input-check", func(ctx context.Context, r *engine.Claim) error { ran <- r.Trigger.EntityID; return nil })
		start(t, e)
		// The engine is asleep on its fallback timer, and the clock never
		// moves: only the write's wake-up can make it run the trigger.
		testwait.WaitFor(t, testwait.Timeout, "the engine to sleep", func() bool { return fake.Waiters() > 0 })
		schedule(t, s, "input-check", "C1@1", t0)
		select {
		case id := <-ran:
			if id != "C1@1" {
				t.Fatal(id)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("a write that made work due did not wake the engine")
		}
	})
}

func TestWakeupFromAnotherServer(t *testing.T) {
	b := backend{"postgres", pgtest.NewDatabase(t)}
	s1, s2 := b.open(t), b.open(t)
	fake := clock.NewFake(t0)
	ran := make(chan string, 1)
	e := engine.New(engine.Config{Store: s1, Clock: fake, Logger: quietLogger(), MaxSleep: time.Hour})
	e.Handle("k", func(ctx context.Context, r *engine.Claim) error { ran <- r.Trigger.EntityID; return nil })
	start(t, e)
	testwait.WaitFor(t, testwait.Timeout, "the engine to sleep", func() bool { return fake.Waiters() > 0 })
	schedule(t, s2, "k", "from-other-server", t0)
	select {
	case <-ran:
	case <-time.After(20 * time.Second):
		t.Fatal("NOTIFY from another server did not wake the engine")
	}
}

func TestHandlerErrorRetriesWithBackoff(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		fake := clock.NewFake(t0)
		var calls atomic.Int32
		called := make(chan int, 10)
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), MaxSleep: time.Hour,
			Backoff: func(attempt int) time.Duration { return time.Duration(attempt) * 10 * time.Second }})
		e.Handle("action-start", func(ctx context.Context, r *engine.Claim) error {
			n := int(calls.Add(1))
			defer func() { called <- n }()
			if n <= 2 {
				return fmt.Errorf("ResourceManager unreachable (try %d)", n)
			}
			if n == 3 {
				panic("bug in handler")
			}
			return nil
		})
		schedule(t, s, "action-start", "W1@a", t0)
		start(t, e)

		trigger := func() (store.Trigger, error) {
			var tr store.Trigger
			err := s.Tx(context.Background(), func(x store.Tx) (err error) {
				tr, err = x.GetTrigger(context.Background(), "action-start", "W1@a")
				return
			})
			return tr, err
		}
		at := t0
		for try := 1; try <= 3; try++ {
			<-called
			testwait.WaitFor(t, testwait.Timeout, "the failure to be recorded", func() bool {
				tr, err := trigger()
				return err == nil && tr.Attempts == try && tr.LeaseOwner == ""
			})
			tr, _ := trigger()
			want := at.Add(time.Duration(try) * 10 * time.Second)
			if !tr.DueAt.Equal(want) || tr.LeaseOwner != "" {
				t.Fatalf("try %d: due %v (want %v), owner %q", try, tr.DueAt, want, tr.LeaseOwner)
			}
			wantMsg := fmt.Sprintf("ResourceManager unreachable (try %d)", try)
			if try == 3 {
				wantMsg = "handler panicked: bug in handler"
			}
			if tr.LastError != wantMsg {
				t.Fatalf("try %d: last error %q", try, tr.LastError)
			}
			waitTimerAt(t, fake, want)
			fake.Set(want)
			at = want
		}
		<-called
		testwait.WaitFor(t, testwait.Timeout, "the trigger to be deleted", func() bool { _, err := trigger(); return errors.Is(err, store.ErrNotFound) })
	})
}

func TestFinishCommitsStateWithRelease(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		fake := clock.NewFake(t0)
		done := make(chan error, 1)
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger()})
		e.Handle("materialize", func(ctx context.Context, r *engine.Claim) error {
			err := r.Finish(ctx, r.Now.Add(time.Hour), func(x store.Tx) error {
				j := store.CoordJob{ID: r.Trigger.EntityID, Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: r.Now}
				return x.InsertCoordJob(ctx, &j)
			})
			done <- err
			return err
		})
		schedule(t, s, "materialize", "C7", t0)
		start(t, e)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		err := s.Tx(context.Background(), func(x store.Tx) error {
			if _, err := x.GetCoordJob(context.Background(), "C7"); err != nil {
				return err
			}
			tr, err := x.GetTrigger(context.Background(), "materialize", "C7")
			if err != nil {
				return err
			}
			if !tr.DueAt.Equal(t0.Add(time.Hour)) || tr.LeaseOwner != "" {
				return fmt.Errorf("trigger after finish: %+v", tr)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestStopWaitsForRunningHandlers(t *testing.T) {
	s := backend{"sqlite", "sqlite:" + filepath.Join(t.TempDir(), "gozie.db")}.open(t)
	entered, unblock := make(chan struct{}), make(chan struct{})
	e := engine.New(engine.Config{Store: s, Logger: quietLogger()})
	e.Handle("k", func(ctx context.Context, r *engine.Claim) error {
		close(entered)
		<-unblock
		return nil
	})
	schedule(t, s, "k", "e", time.Now())
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-entered
	stopped := make(chan struct{})
	go func() { e.Stop(); close(stopped) }()
	select {
	case <-stopped:
		t.Fatal("Stop returned while a handler was running")
	case <-time.After(50 * time.Millisecond): // a bounded check that Stop is still blocked
	}
	close(unblock)
	<-stopped
	e.Stop() // idempotent
	var n int
	_ = s.Tx(context.Background(), func(x store.Tx) (err error) { n, err = x.CountTriggers(context.Background()); return })
	if n != 0 {
		t.Fatal("the handler's trigger was not released on shutdown")
	}
}

// TestTwoEnginesNeverRunATriggerTwice runs two engines over thousands of
// triggers. On PostgreSQL each has its own store handle, as two servers
// would; SQLite serves one server, so there the engines share one handle.
func TestTwoEnginesNeverRunATriggerTwice(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		n := 3000
		if raceEnabled && b.name == "sqlite" {
			n = 300
		}
		s1 := b.open(t)
		s2 := s1
		if b.name == "postgres" {
			s2 = b.open(t)
		}
		var mu sync.Mutex
		runs := map[string]string{}
		var dups []string
		var total atomic.Int64
		handler := func(owner string) engine.Handler {
			return func(ctx context.Context, r *engine.Claim) error {
				mu.Lock()
				if prev, ok := runs[r.Trigger.EntityID]; ok {
					dups = append(dups, fmt.Sprintf("%s by %s and %s", r.Trigger.EntityID, prev, owner))
				}
				runs[r.Trigger.EntityID] = owner
				mu.Unlock()
				total.Add(1)
				return nil
			}
		}
		now := time.Now()
		if err := s1.Tx(context.Background(), func(x store.Tx) error {
			for i := 0; i < n; i++ {
				if err := x.Schedule(context.Background(), "k", fmt.Sprintf("e%05d", i), now, ""); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var engines []*engine.Engine
		for i, s := range []store.Store{s1, s2} {
			e := engine.New(engine.Config{Store: s, Logger: quietLogger(), Owner: fmt.Sprintf("server%d", i+1), Workers: 8})
			e.Handle("k", handler(fmt.Sprintf("server%d", i+1)))
			start(t, e)
			engines = append(engines, e)
		}
		testwait.WaitFor(t, testwait.Timeout, "all triggers to run", func() bool {
			var left int
			_ = s1.Tx(context.Background(), func(x store.Tx) (err error) { left, err = x.CountTriggers(context.Background()); return })
			return left == 0
		})
		for _, e := range engines {
			e.Stop()
		}
		mu.Lock()
		defer mu.Unlock()
		if len(dups) > 0 {
			t.Fatalf("%d triggers ran twice, e.g. %s", len(dups), dups[0])
		}
		if len(runs) != n || total.Load() != int64(n) {
			t.Fatalf("ran %d distinct triggers in %d runs, want %d", len(runs), total.Load(), n)
		}
		byOwner := map[string]int{}
		for _, o := range runs {
			byOwner[o]++
		}
		t.Logf("%s: %v", b.name, byOwner)
	})
}

const childEnv = "GOZIE_ENGINE_TEST_CHILD_DB"

// TestMain lets the test binary act as a second server process that the
// takeover test kills with SIGKILL mid-handler.
func TestMain(m *testing.M) {
	if url := os.Getenv(childEnv); url != "" {
		runChild(url)
		return
	}
	os.Exit(m.Run())
}

func runChild(url string) {
	s, err := backends.Open(context.Background(), url)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	e := engine.New(engine.Config{Store: s, Logger: quietLogger(), Owner: "doomed", Lease: 2 * time.Second})
	e.Handle("action-start", func(ctx context.Context, r *engine.Claim) error {
		fmt.Println("running", r.Trigger.EntityID)
		select {} // killed here
	})
	if err := e.Start(context.Background()); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	select {}
}

func TestKilledEnginesTriggerIsTakenOver(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		schedule(t, s, "action-start", "W1@a", time.Now())

		child := exec.Command(os.Args[0], "-test.run=^$")
		child.Env = append(os.Environ(), childEnv+"="+b.url)
		out, err := child.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || strings.TrimSpace(line) != "running W1@a" {
			_ = child.Process.Kill()
			t.Fatalf("child said %q (%v)", line, err)
		}
		if err := child.Process.Kill(); err != nil { // SIGKILL mid-handler
			t.Fatal(err)
		}
		_ = child.Wait()

		ran := make(chan store.Trigger, 2)
		e := engine.New(engine.Config{Store: s, Logger: quietLogger(), Owner: "survivor", Lease: 2 * time.Second})
		e.Handle("action-start", func(ctx context.Context, r *engine.Claim) error { ran <- r.Trigger; return nil })
		start(t, e)
		select {
		case tr := <-ran:
			if tr.LeaseSeq != 2 || tr.LeaseOwner != "survivor" {
				t.Fatalf("taken over as %+v", tr)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the killed server's trigger was never taken over")
		}
		e.Stop()
		select {
		case tr := <-ran:
			t.Fatalf("ran twice after takeover: %+v", tr)
		default:
		}
	})
}

func TestHeldKindsWaitUntilReleased(t *testing.T) {
	s := backend{"sqlite", "sqlite:" + filepath.Join(t.TempDir(), "gozie.db")}.open(t)
	fake := clock.NewFake(t0)
	ran := make(chan store.TriggerKind, 2)
	e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), MaxSleep: time.Hour})
	e.Handle("coord-materialize", func(ctx context.Context, r *engine.Claim) error { ran <- r.Trigger.Kind; return nil })
	e.Handle("wf-action-check", func(ctx context.Context, r *engine.Claim) error { ran <- r.Trigger.Kind; return nil })
	e.Hold("coord-materialize")
	schedule(t, s, "coord-materialize", "C1", t0)
	start(t, e)
	schedule(t, s, "wf-action-check", "W@a", t0)
	if got := <-ran; got != "wf-action-check" {
		t.Fatalf("ran %s while it was held", got)
	}
	select {
	case got := <-ran:
		t.Fatalf("ran held %s", got)
	default:
	}
	e.Hold() // back to NORMAL
	select {
	case got := <-ran:
		if got != "coord-materialize" {
			t.Fatal(got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the held trigger did not run after release")
	}
}
