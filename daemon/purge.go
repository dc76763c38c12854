package daemon

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/purge"
	"github.com/gozie/gozie/store"
)

// newPurge builds the purge from the gozie.purge.* settings and registers
// its trigger handler with eng. With the purge on, its trigger is armed (a
// first run at once on a new database); with it off, the handler only
// passes a run on to the next interval. Either way PUT admin/purge works.
func newPurge(ctx context.Context, cfg *conf.Server, st store.Store, eng *engine.Engine, clk clock.Clock, log *slog.Logger,
	reg prometheus.Registerer) (*purge.Purger, error) {
	p, err := purge.New(purge.Config{Store: st, Clock: clk, Logger: log, Metrics: reg, Paused: !cfg.Purge.Enabled,
		Settings: purge.Settings{
			WorkflowAge:     cfg.Purge.WorkflowOlderThan,
			CoordAge:        cfg.Purge.CoordOlderThan,
			BundleAge:       cfg.Purge.BundleOlderThan,
			Limit:           cfg.Purge.Limit,
			Interval:        cfg.Purge.Interval,
			OldCoordActions: cfg.Purge.OldCoordAction,
		}})
	if err != nil {
		return nil, err
	}
	p.Register(eng)
	if !cfg.Purge.Enabled {
		log.Info("the periodic purge is off (gozie.purge.enabled=false)")
		return p, nil
	}
	if err := p.Arm(ctx); err != nil {
		return nil, err
	}
	return p, nil
}
