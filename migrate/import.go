// Package migrate takes over a running Apache Oozie's jobs: `gozie migrate
// oozie` reads Oozie's database (package migrate/oozie), decides per job
// what gozie imports, and writes each imported job into gozie's store in
// one transaction, with the engine work (triggers) that makes gozie carry
// on where Oozie stopped.
package migrate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gozie/gozie/bundle/bundlerun"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/migrate/oozie"
	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow/wfrun"
)

// Outcome is what the import did with one unit.
type Outcome string

// Outcomes.
const (
	Imported Outcome = "imported"
	// Already: the job is in gozie's store already (an earlier run imported
	// it); nothing is written.
	Already Outcome = "already imported"
	// Failed: the unit's transaction failed and was rolled back.
	Failed Outcome = "failed"
	// NotImported: the unit's verdict was skip or refuse.
	NotImported Outcome = "not imported"
)

// Result is the outcome of one unit.
type Result struct {
	Unit    oozie.Unit
	Outcome Outcome
	Err     error
}

// Importer writes planned units into gozie's store.
type Importer struct {
	Store store.Store
	// Now is the engine's time: the imported work is due at it.
	Now func() time.Time
	// hook, for tests, runs inside each unit's transaction after its rows
	// are written; an error rolls the unit back.
	hook func(u *oozie.Unit) error
}

// errAlready ends the transaction of a unit that is in the store already.
var errAlready = errors.New("already imported")

// Import writes every unit whose verdict is Import, each in its own
// transaction, and returns one Result per unit, in order. A unit that fails
// leaves nothing behind and the others go on; a unit whose top-level job is
// in the store already is left as it is, so running the import again
// imports only what the last run did not.
func (im *Importer) Import(ctx context.Context, units []oozie.Unit) []Result {
	out := make([]Result, 0, len(units))
	for i := range units {
		u := &units[i]
		if u.Verdict != oozie.Import {
			out = append(out, Result{Unit: *u, Outcome: NotImported})
			continue
		}
		if err := ctx.Err(); err != nil {
			out = append(out, Result{Unit: *u, Outcome: Failed, Err: err})
			continue
		}
		err := im.Store.Tx(ctx, func(x store.Tx) error { return im.write(ctx, x, u) })
		switch {
		case errors.Is(err, errAlready):
			out = append(out, Result{Unit: *u, Outcome: Already})
		case err != nil:
			out = append(out, Result{Unit: *u, Outcome: Failed, Err: fmt.Errorf("importing %s %s: %w", u.Kind, u.ID, err)})
		default:
			out = append(out, Result{Unit: *u, Outcome: Imported})
		}
	}
	return out
}

// exists reports whether the unit's top-level job is in the store.
func exists(ctx context.Context, x store.Tx, u *oozie.Unit) (bool, error) {
	var err error
	switch u.Kind {
	case "bundle":
		_, err = x.GetBundleJob(ctx, u.ID)
	case "coordinator":
		_, err = x.GetCoordJob(ctx, u.ID)
	default:
		_, err = x.GetWorkflowJob(ctx, u.ID)
	}
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// write stores one unit and schedules its work.
func (im *Importer) write(ctx context.Context, x store.Tx, u *oozie.Unit) error {
	if ok, err := exists(ctx, x, u); err != nil || ok {
		if ok {
			return errAlready
		}
		return err
	}
	now := store.StoredTime(im.Now())
	if u.Bundle != nil {
		if err := im.writeBundle(ctx, x, u, now); err != nil {
			return err
		}
	}
	for i := range u.Coords {
		if err := im.writeCoord(ctx, x, &u.Coords[i], now); err != nil {
			return err
		}
	}
	for i := range u.Workflows {
		if err := im.writeWorkflow(ctx, x, &u.Workflows[i], now); err != nil {
			return err
		}
	}
	for i := range u.SLAs {
		if err := sla.Insert(ctx, x, &u.SLAs[i]); err != nil {
			return fmt.Errorf("SLA registration %s: %w", u.SLAs[i].ID, err)
		}
	}
	if im.hook != nil {
		return im.hook(u)
	}
	return nil
}

func (im *Importer) writeBundle(ctx context.Context, x store.Tx, u *oozie.Unit, now time.Time) error {
	b := *u.Bundle
	if err := x.InsertBundleJob(ctx, &b); err != nil {
		return fmt.Errorf("bundle %s: %w", b.ID, err)
	}
	for i := range u.BundleActions {
		if err := x.InsertBundleAction(ctx, &u.BundleActions[i]); err != nil {
			return fmt.Errorf("bundle action %s: %w", u.BundleActions[i].ID, err)
		}
	}
	if b.Status.Terminal() {
		return nil
	}
	if b.Status == store.JobPrep {
		at := b.KickoffTime
		if at.Before(now) {
			at = now
		}
		return x.Schedule(ctx, bundlerun.KindKickoff, b.ID, at, "")
	}
	return x.Schedule(ctx, bundlerun.KindStatus, b.ID, now, "")
}

func (im *Importer) writeCoord(ctx context.Context, x store.Tx, c *oozie.CoordUnit, now time.Time) error {
	job := c.Job
	if err := x.InsertCoordJob(ctx, &job); err != nil {
		return fmt.Errorf("coordinator %s: %w", job.ID, err)
	}
	if len(c.Actions) > 0 {
		acts := make([]*store.CoordAction, len(c.Actions))
		for i := range c.Actions {
			acts[i] = &c.Actions[i]
		}
		if err := x.InsertCoordActions(ctx, acts); err != nil {
			return fmt.Errorf("coordinator %s actions: %w", job.ID, err)
		}
	}
	if job.Status.Terminal() {
		return nil
	}
	var reqs []store.ScheduleRequest
	add := func(kind store.TriggerKind, id string) {
		reqs = append(reqs, store.ScheduleRequest{Kind: kind, EntityID: id, Due: now})
	}
	if !job.DoneMaterialization {
		add(coordrun.KindMaterialize, job.ID) // the handler waits for the look-ahead itself
	}
	waiting, ready := false, false
	for _, a := range c.Actions {
		switch a.Status {
		case store.CoordActionWaiting:
			waiting = true
			add(coordrun.KindInputCheck, a.ID)
		case store.CoordActionReady:
			ready = true
		}
	}
	if ready {
		add(coordrun.KindStart, job.ID)
	}
	if waiting {
		add(coordrun.KindTimeout, job.ID)
	}
	add(coordrun.KindStatus, job.ID)
	return x.ScheduleTriggers(ctx, reqs)
}

func (im *Importer) writeWorkflow(ctx context.Context, x store.Tx, w *oozie.WorkflowUnit, now time.Time) error {
	job := w.Job
	if err := x.InsertWorkflowJob(ctx, &job); err != nil {
		return fmt.Errorf("workflow %s: %w", job.ID, err)
	}
	for i := range w.Actions {
		if err := x.InsertWorkflowAction(ctx, &w.Actions[i]); err != nil {
			return fmt.Errorf("workflow action %s: %w", w.Actions[i].ID, err)
		}
	}
	for _, id := range w.Follow {
		if err := x.Schedule(ctx, wfrun.KindActionCheck, id, now, ""); err != nil {
			return err
		}
	}
	for _, id := range w.Rerun {
		if err := x.Schedule(ctx, wfrun.KindActionStart, id, now, ""); err != nil {
			return err
		}
	}
	return nil
}
