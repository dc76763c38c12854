package daemon

import (
	"context"
	"log/slog"
	"strings"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator/coordrun/editwatch"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
)

// newEditWatch returns the watcher of the default filesystem's edit stream
// (gozie.coord.input-check.edit-stream), or nil when it is off or the
// default filesystem is not HDFS. It reads as the server's own identity:
// the NameNode serves the stream to HDFS superusers only, and the watcher
// falls back to polling, logged, where it is refused.
func newEditWatch(cfg *conf.Server, fs *hadoop.Resolver, st store.Store, notify editwatch.Notifier, owner string,
	clk clock.Clock, log *slog.Logger) (*editwatch.Watcher, error) {
	def := fs.DefaultFS()
	if !cfg.Coord.EditStream || !strings.HasPrefix(def, "hdfs://") {
		return nil, nil
	}
	stream, err := fs.EditStream(def)
	if err != nil {
		return nil, err
	}
	return editwatch.New(editwatch.Config{FS: def, Store: st, Stream: stream, Notifier: notify, Owner: owner,
		Clock: clk, Logger: log})
}

// runEditWatch starts w (nil: nothing); the returned function stops it and
// waits. Its stream's connection goes with the Resolver's (FS.Close).
func runEditWatch(ctx context.Context, w *editwatch.Watcher) func() {
	if w == nil {
		return func() {}
	}
	if err := w.Start(ctx); err != nil {
		return func() {}
	}
	return w.Stop
}
