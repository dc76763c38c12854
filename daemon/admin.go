package daemon

import (
	"context"
	"log/slog"
	"time"

	"github.com/gozie/gozie/buildinfo"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
)

// Server heartbeats: every live server refreshes its row this often, and
// admin/available-oozie-servers lists those seen within serverAlive.
const (
	heartbeatEvery = 10 * time.Second
	serverAlive    = 3 * heartbeatEvery
)

// queueDumpLimit bounds each list of admin/queue-dump.
const queueDumpLimit = 1000

// adminSources answers the admin endpoints that read the store: the
// trigger queue and the live servers.
func adminSources(st store.Store, clk clock.Clock) server.AdminSources {
	item := func(t store.Trigger) server.QueueItem {
		q := server.QueueItem{Kind: string(t.Kind), Entity: t.EntityID, Due: t.DueAt.UTC().Format(time.RFC3339Nano),
			Attempts: t.Attempts, LastError: t.LastError}
		if t.LeaseOwner != "" {
			q.Lease = t.LeaseOwner + " until " + t.LeaseExpires.UTC().Format(time.RFC3339Nano)
			q.Attempts-- // the claim running now is counted already; the dump shows those that ended
		}
		return q
	}
	return server.AdminSources{
		QueueDump: func(ctx context.Context) (server.QueueDump, error) {
			var d server.QueueDump
			err := st.Tx(ctx, func(x store.Tx) error {
				d = server.QueueDump{}
				running, err := x.ListTriggers(ctx, true, queueDumpLimit)
				if err != nil {
					return err
				}
				waiting, err := x.ListTriggers(ctx, false, queueDumpLimit)
				for _, t := range running {
					d.Running = append(d.Running, item(t))
				}
				for _, t := range waiting {
					d.Waiting = append(d.Waiting, item(t))
				}
				return err
			})
			return d, err
		},
		Servers: func(ctx context.Context) (map[string]string, error) {
			var list []store.ServerInstance
			err := st.Tx(ctx, func(x store.Tx) (err error) {
				list, err = x.ListServers(ctx, clk.Now().Add(-serverAlive))
				return err
			})
			out := map[string]string{}
			for _, s := range list {
				out[s.ID] = s.Host
			}
			return out, err
		},
	}
}

// heartbeat keeps this server's row fresh until ctx ends, so that
// available-oozie-servers lists it; id is the engine's owner name and url
// the server's public REST URL.
func heartbeat(ctx context.Context, st store.Store, clk clock.Clock, log *slog.Logger, id, url string) {
	started := clk.Now()
	for {
		err := st.Tx(ctx, func(x store.Tx) error {
			return x.Heartbeat(ctx, store.ServerInstance{ID: id, Host: url, Version: buildinfo.Get().Version,
				StartedAt: started, Heartbeat: clk.Now()})
		})
		if err != nil && ctx.Err() == nil {
			log.Warn("server heartbeat", "error", err)
		}
		t := clk.NewTimer(heartbeatEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}
