package cli

import (
	"context"
	"flag"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/server/client"
)

// coordFlags are the options of `job` that only coordinators take.
type coordFlags struct {
	value                      string // -change value
	action, date               string // -action 1,3-4 / -date d1::d2,d3
	order                      string // -info order: asc or desc
	refresh, noCleanup, failed bool   // -rerun choices
	coordinators               string // -coordinator c1,c2 of a bundle
}

// register adds the coordinator options to fs.
func (c *coordFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.value, "value", "", "-change value, `endtime=...;concurrency=...;pausetime=...;status=...`")
	fs.StringVar(&c.action, "action", "", "coordinator actions for -rerun, -kill, -ignore, by `NUMBERS` (1,3-5)")
	fs.StringVar(&c.date, "date", "", "coordinator actions for -rerun and -kill, by nominal `DATES` (d1::d2,d3)")
	fs.StringVar(&c.order, "order", "", "order of a coordinator's actions in -info, asc or desc")
	fs.BoolVar(&c.refresh, "refresh", false, "-rerun of a coordinator: resolve and check the inputs again")
	fs.BoolVar(&c.noCleanup, "nocleanup", false, "-rerun of a coordinator: keep the actions' output directories")
	fs.StringVar(&c.coordinators, "coordinator", "", "a bundle's coordinators for -rerun and the SLA commands, by `NAMES` or ids (c1,c2)")
	fs.BoolVar(&c.failed, "failed", false, "-rerun of a coordinator: rerun only the failed nodes of the same workflows")
}

// isCoordinatorID reports whether id names a coordinator job.
func isCoordinatorID(id string) bool { return ids.EndsWithKind(id, ids.Coordinator) }

// scope reads -action or -date for a command (exactly one of them, as Oozie's CLI wants).
func (f *jobFlags) scope(cmd string) (client.Scope, error) {
	switch {
	case f.set["action"] && f.set["date"]:
		return client.Scope{}, &plainError{"Invalid options provided for " + cmd + ": either -date or -action expected. Don't use both at the same time."}
	case f.set["date"]:
		return client.Scope{Type: "date", Scope: f.coord.date}, nil
	case f.set["action"]:
		return client.Scope{Type: "action", Scope: f.coord.action}, nil
	}
	return client.Scope{}, &plainError{"Invalid options provided for " + cmd + ": -date or -action expected."}
}

// coordInfo is `job -info` of a coordinator job or action.
func (f *jobFlags) coordInfo(ctx context.Context, env Env, cl *client.Client, id string, loc *time.Location) error {
	if !isCoordinatorID(id) {
		if f.filter != "" {
			return &plainError{"Filter option is not supported for a Coordinator action"}
		}
		a, err := cl.CoordActionInfo(ctx, id)
		if err != nil {
			return err
		}
		return printCoordAction(env.Stdout, &a, loc)
	}
	var desc bool
	switch f.coord.order {
	case "", "asc":
	case "desc":
		desc = true
	default:
		return &plainError{"Invalid -order [" + f.coord.order + "], expected asc or desc"}
	}
	job, err := cl.CoordinatorInfo(ctx, id, client.CoordQuery{Offset: f.offset, Len: f.length, Desc: desc, Filter: f.filter})
	if err != nil {
		return err
	}
	return printCoordJob(env.Stdout, &job, loc, f.verbose)
}

// change is `job -change ID -value ...`.
func (f *jobFlags) change(ctx context.Context, cl *client.Client, id string) error {
	if !f.set["value"] {
		return &plainError{"-value option is required for -change"}
	}
	return cl.Change(ctx, id, f.coord.value)
}

// ignore is `job -ignore ID [-action ...]`: the job, or some of its actions (printed).
func (f *jobFlags) ignore(ctx context.Context, env Env, cl *client.Client, id string) error {
	if !f.set["action"] {
		return cl.Ignore(ctx, id)
	}
	if f.coord.action == "" {
		return &plainError{"-action is empty"}
	}
	acts, err := cl.IgnoreActions(ctx, id, client.Scope{Type: "action", Scope: f.coord.action})
	if err != nil {
		return err
	}
	return printCoordActionsStatus(env.Stdout, acts)
}

// killActions is `job -kill <coordinator id> -action|-date ...`; it prints the killed actions.
func (f *jobFlags) killActions(ctx context.Context, env Env, cl *client.Client, id string) error {
	s, err := f.scope("kill")
	if err != nil {
		return err
	}
	acts, err := cl.KillActions(ctx, id, s)
	if err != nil {
		return err
	}
	return printCoordActions(env.Stdout, acts)
}

// coordRerun is `job -rerun <coordinator id> -action|-date ... [-refresh] [-nocleanup]
// [-failed] [-config ...]`; it prints the rerun actions.
func (f *jobFlags) coordRerun(ctx context.Context, env Env, cl *client.Client, id string) error {
	s, err := f.scope("rerun")
	if err != nil {
		return err
	}
	o := client.CoordRerunOptions{Refresh: f.coord.refresh, NoCleanup: f.coord.noCleanup, Failed: f.coord.failed}
	if configured(f.config, &f.defs) {
		var props *conf.Properties
		if props, err = jobConfiguration(env, f.config, &f.defs); err != nil {
			return err
		}
		o.Conf = props
	}
	acts, err := cl.CoordRerun(ctx, id, s, o)
	if err != nil {
		return err
	}
	return printCoordActions(env.Stdout, acts)
}
