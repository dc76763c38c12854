// Package editwatch follows a NameNode's edit stream (HDFS inotify) and
// wakes the coordinator actions whose dataset dependencies appear in it,
// so that a done-flag is seen when it is written, not at the action's next
// input check.
//
// A file closed by its writer (CLOSE), the destination of a rename
// (RENAME: a flag written under a temporary name, or an instance directory
// moved into place) and a directory made (CREATE of a directory: the
// instance of a dataset whose done-flag is empty) are what can complete a
// dependency. Their URIs (the followed filesystem and the path) that some
// waiting action waits on (store coord_waits, one query per read) go to
// the coordinator engine's notify entry, coordrun.Runner.Notify, the one
// PUT /oozie/v2/dataset?action=notify uses: it schedules an input check of
// each waiting action at once, and the input check decides, as for any
// other wake-up. Nothing here decides whether a dependency is met.
//
// The stream is followed from the last transaction id handled, kept in the
// store (stream_positions, under "edits " and the filesystem), so a
// restarted server, or another one, goes on where the last reader
// stopped; a first start begins at the NameNode's current transaction
// (the input checks find what happened before). The position is recorded
// after the wake-ups (at most once a second, Config.RecordEvery), so a
// crash repeats the wake-ups since, never loses one; a repeated wake-up
// only checks an action once more.
//
// Only one server follows a filesystem at a time: the holder of the store
// lease "edits <filesystem>" (store.Servers.AcquireLease), renewed as it
// reads and checked in the transaction that records the position, so that
// one reader loads the NameNode and each event is handled once; another
// server takes over when the lease expires. (Were two to read at once, the
// wake-ups would still be right: Notify is idempotent.)
//
// Polling stays as it is: the edit stream only brings checks forward.
// Where the server may not read the stream (it is not an HDFS superuser:
// AccessControlException) or the stream fails (NameNode down, standby,
// edits purged before they were read), the watcher logs it once, leaves
// the input checks' polling to find the flags, and tries again later.
package editwatch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
)

// Defaults of Config.
const (
	// DefaultInterval is how often an idle stream is read again.
	DefaultInterval = 200 * time.Millisecond
	// DefaultRetry is the longest wait before trying a failing stream again.
	DefaultRetry = time.Minute
	// DefaultRefusedRetry is how long a refused reader waits before asking
	// again (a superuser group may be granted while the server runs).
	DefaultRefusedRetry = 10 * time.Minute
	// DefaultLease is how long the lease of a reader lasts unless renewed.
	DefaultLease = 30 * time.Second
	// DefaultRecordEvery is how often a moving position is recorded.
	DefaultRecordEvery = time.Second
)

// Stream reads the followed filesystem's edit stream: a
// hadoop.EditStream (one kept connection to the active NameNode).
type Stream interface {
	CurrentEditLogTxid(ctx context.Context) (int64, error)
	EditsFromTxid(ctx context.Context, txid int64) (hadoop.EditBatch, error)
}

// Notifier wakes the actions waiting on a dataset URI:
// coordrun.Runner.Notify.
type Notifier interface {
	Notify(ctx context.Context, uri string) (int, error)
}

// Config configures a Watcher.
type Config struct {
	// FS is the filesystem followed, "hdfs://<authority>" (a NameNode or
	// an HA nameservice); event paths are URIs below it.
	FS       string
	Store    store.Store
	Stream   Stream
	Notifier Notifier
	// Owner names this server for the lease (the engine's owner id).
	Owner  string
	Clock  clock.Clock
	Logger *slog.Logger
	// Interval, Retry, RefusedRetry and Lease default to the Default
	// constants.
	Interval, Retry, RefusedRetry, Lease time.Duration
	// RecordEvery is how often the position is written to the store while
	// the stream moves (default DefaultRecordEvery): a restarted reader
	// reads again at most that much, and wakes those actions once more.
	RecordEvery time.Duration
}

// Watcher follows one filesystem's edit stream.
type Watcher struct {
	cfg  Config
	name string // of the lease and of the stream position

	heldUntil time.Time // the lease, as last renewed
	position  int64     // the last transaction handled (valid when known)
	known     bool
	recorded  time.Time // when the position was last written
	stored    int64     // the position last written
	failing   bool      // the last read failed (logged once until it recovers)

	stop context.CancelFunc
	done chan struct{}
	once sync.Once
}

// New returns a Watcher of cfg.FS; Start starts it.
func New(cfg Config) (*Watcher, error) {
	if !strings.HasPrefix(cfg.FS, "hdfs://") || len(cfg.FS) == len("hdfs://") {
		return nil, fmt.Errorf("editwatch: %q is not an HDFS filesystem (hdfs://<authority>)", cfg.FS)
	}
	if cfg.Store == nil || cfg.Stream == nil || cfg.Notifier == nil || cfg.Owner == "" {
		return nil, errors.New("editwatch: Store, Stream, Notifier and Owner are required")
	}
	cfg.FS = strings.TrimSuffix(cfg.FS, "/")
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.Logger = cfg.Logger.With("filesystem", cfg.FS)
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&cfg.Interval, DefaultInterval}, {&cfg.Retry, DefaultRetry}, {&cfg.RefusedRetry, DefaultRefusedRetry}, {&cfg.Lease, DefaultLease}, {&cfg.RecordEvery, DefaultRecordEvery}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	return &Watcher{cfg: cfg, name: "edits " + cfg.FS}, nil
}

// Start follows the stream in the background until ctx ends or Stop.
func (w *Watcher) Start(ctx context.Context) error {
	if w.done != nil {
		return errors.New("editwatch: already started")
	}
	ctx, w.stop = context.WithCancel(ctx)
	w.done = make(chan struct{})
	go func() {
		defer close(w.done)
		w.run(ctx)
	}()
	return nil
}

// Stop stops following and waits; it may be called more than once.
func (w *Watcher) Stop() {
	w.once.Do(func() {
		if w.stop != nil {
			w.stop()
			<-w.done
		}
	})
}

// run reads until ctx ends, waiting between reads as step's outcome says.
func (w *Watcher) run(ctx context.Context) {
	backoff := w.cfg.Interval
	for ctx.Err() == nil {
		more, err := w.step(ctx)
		wait := w.cfg.Interval
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, errNotReader):
			wait = w.cfg.Lease / 2
		case err != nil:
			wait = w.failed(err, &backoff)
		default:
			w.recovered()
			backoff = w.cfg.Interval
			if more {
				continue
			}
		}
		t := w.cfg.Clock.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}

// failed logs a failing stream once and returns how long to wait: the
// refused wait for a reader who is not a superuser, else a backoff that
// doubles up to Retry.
func (w *Watcher) failed(err error, backoff *time.Duration) time.Duration {
	refused := errors.Is(err, fs.ErrPermission)
	if !w.failing {
		var simple *hadoop.SimpleRefusedError
		switch {
		case errors.As(err, &simple):
			// Nothing on this HDFS works for the server: said loudly.
			w.cfg.Logger.Error("the NameNode refuses the server's SIMPLE authentication; dataset waits are found by polling, which fails too", "err", err)
		case refused:
			w.cfg.Logger.Warn("the NameNode refuses its edit stream (the server is not an HDFS superuser); dataset waits are found by polling", "err", err)
		default:
			w.cfg.Logger.Warn("the edit stream failed; dataset waits are found by polling until it is back", "err", err)
		}
		w.failing = true
	} else {
		w.cfg.Logger.Debug("the edit stream still fails", "err", err)
	}
	if refused {
		return w.cfg.RefusedRetry
	}
	wait := *backoff
	*backoff = min(2**backoff, w.cfg.Retry)
	return wait
}

// recovered logs a stream that works again.
func (w *Watcher) recovered() {
	if w.failing {
		w.cfg.Logger.Info("following the edit stream again", "txid", w.position)
		w.failing = false
	}
}

// errNotReader reports that another server holds the lease.
var errNotReader = errors.New("editwatch: another server follows the edit stream")

// step reads the stream once from the recorded position, wakes the
// actions the events may complete and records the new position; more
// reports a full answer (read again at once).
func (w *Watcher) step(ctx context.Context) (more bool, err error) {
	if err := w.lead(ctx); err != nil {
		return false, err
	}
	if !w.known {
		if err := w.begin(ctx); err != nil {
			return false, err
		}
	}
	b, err := w.cfg.Stream.EditsFromTxid(ctx, w.position+1)
	switch {
	case errors.Is(err, hadoop.ErrMissingEvents):
		w.cfg.Logger.Warn("edits were purged before they were read; polling finds what they held",
			"from_txid", w.position+1, "to_txid", b.FirstTxid-1)
	case err != nil:
		return false, err
	}
	if b.LastTxid == -1 {
		if b.SyncTxid < w.position {
			// A NameNode whose journal starts again (a new namespace).
			w.cfg.Logger.Warn("the edit stream restarted below the recorded position", "position", w.position, "txid", b.SyncTxid)
			return false, w.record(ctx, b.SyncTxid)
		}
		if w.position != w.stored && !w.cfg.Clock.Now().Before(w.recorded.Add(w.cfg.RecordEvery)) {
			return false, w.record(ctx, w.position) // the last moves, once idle
		}
		return false, nil
	}
	if err := w.wake(ctx, b.Events); err != nil {
		return false, err
	}
	more = b.LastTxid < b.SyncTxid
	if w.cfg.Clock.Now().Before(w.recorded.Add(w.cfg.RecordEvery)) {
		w.position = b.LastTxid // recorded later; the lease was checked by lead
		return more, nil
	}
	return more, w.record(ctx, b.LastTxid)
}

// lead takes or renews the lease when half of it has passed.
func (w *Watcher) lead(ctx context.Context) error {
	now := w.cfg.Clock.Now()
	if now.Before(w.heldUntil.Add(-w.cfg.Lease / 2)) {
		return nil
	}
	var held bool
	until := now.Add(w.cfg.Lease)
	err := w.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		held, err = x.AcquireLease(ctx, w.name, w.cfg.Owner, now, until)
		return err
	})
	if err != nil {
		return fmt.Errorf("editwatch: the lease %s: %w", w.name, err)
	}
	if !held {
		w.heldUntil, w.known = time.Time{}, false // another reader moves the position
		return errNotReader
	}
	w.heldUntil = until
	return nil
}

// begin loads the recorded position, or starts at the NameNode's current
// transaction.
func (w *Watcher) begin(ctx context.Context) error {
	var pos int64
	err := w.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		pos, err = x.GetStreamPosition(ctx, w.name)
		return err
	})
	if err == nil {
		w.position, w.stored, w.known = pos, pos, true
		return nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	cur, err := w.cfg.Stream.CurrentEditLogTxid(ctx)
	if err != nil {
		return err
	}
	if cur < 0 {
		return errors.New("editwatch: the NameNode's edit log is not open yet")
	}
	if err := w.record(ctx, cur); err != nil {
		return err
	}
	w.cfg.Logger.Info("following the edit stream", "txid", cur)
	return nil
}

// record stores pos as handled, if this server still holds the lease.
func (w *Watcher) record(ctx context.Context, pos int64) error {
	err := w.cfg.Store.Tx(ctx, func(x store.Tx) error {
		now := w.cfg.Clock.Now()
		held, err := x.AcquireLease(ctx, w.name, w.cfg.Owner, now, now.Add(w.cfg.Lease))
		if err != nil {
			return err
		}
		if !held {
			return errNotReader
		}
		w.heldUntil, w.recorded = now.Add(w.cfg.Lease), now
		return x.SetStreamPosition(ctx, w.name, pos)
	})
	if errors.Is(err, errNotReader) {
		w.heldUntil, w.known = time.Time{}, false
		return err
	}
	if err != nil {
		return fmt.Errorf("editwatch: recording transaction %d: %w", pos, err)
	}
	w.position, w.stored, w.known = pos, pos, true
	return nil
}

// wake notifies the URIs of events that some action waits on.
func (w *Watcher) wake(ctx context.Context, events []hadoop.EditEvent) error {
	uris := Candidates(w.cfg.FS, events)
	if len(uris) == 0 {
		return nil
	}
	var waited []string
	err := w.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		waited, err = x.ListWaitedURIs(ctx, uris)
		return err
	})
	if err != nil {
		return fmt.Errorf("editwatch: %w", err)
	}
	for _, u := range waited {
		n, err := w.cfg.Notifier.Notify(ctx, u)
		if err != nil {
			return fmt.Errorf("editwatch: %w", err)
		}
		w.cfg.Logger.Debug("a dataset appeared in the edit stream", "uri", u, "actions", n)
	}
	return nil
}

// Candidates returns the URIs below fs that events may complete as
// dataset dependencies, each once: files closed, rename destinations and
// directories made.
func Candidates(fs string, events []hadoop.EditEvent) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range events {
		var p string
		switch {
		case e.Type == hadoop.EditClose:
			p = e.Path
		case e.Type == hadoop.EditRename:
			p = e.Dest
		case e.Type == hadoop.EditCreate && e.Dir:
			p = e.Path
		}
		if p == "" || !strings.HasPrefix(p, "/") {
			continue
		}
		u := fs + strings.TrimSuffix(p, "/")
		if p == "/" {
			u = fs + "/"
		}
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}
