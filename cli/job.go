package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/server/client"
)

// jobCommands are the options of `job` that name what to do; exactly one is given.
var jobCommands = []string{"run", "submit", "dryrun", "start", "suspend", "resume", "kill", "rerun", "info", "log", "definition",
	"change", "ignore", "slaenable", "sladisable", "slachange", "poll", "errorlog", "missingdeps", "update", "retries", "auditlog"}

// jobFlags are the parsed flags of `job`.
type jobFlags struct {
	common
	config              string
	defs                defines
	run, submit, dryrun bool
	id                  map[string]*string // -start, -info, ... → job id
	offset, length      int
	filter, timezone    string
	verbose, localtime  bool
	set                 map[string]bool
	coord               coordFlags
	poll                pollFlags
	audit               auditFlags
}

// runJob is `gozie job`: submit, run, control and inspect one job, printing what Oozie's
// CLI prints (`job: <id>`, the -info block, the log, the definition).
func runJob(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("job", env)
	f := jobFlags{id: map[string]*string{}, set: map[string]bool{}}
	f.register(fs)
	fs.StringVar(&f.config, "config", "", "job configuration file, `FILE`.properties or FILE.xml (for -run, -submit, -dryrun, -rerun)")
	fs.Var(&f.defs, "D", "set a configuration property, `name=value` (repeatable; wins over -config)")
	fs.BoolVar(&f.run, "run", false, "submit and start a job")
	fs.BoolVar(&f.submit, "submit", false, "submit a job (in PREP)")
	fs.BoolVar(&f.dryrun, "dryrun", false, "check a job configuration and its app without submitting")
	for _, c := range []struct{ name, usage string }{
		{"start", "start a submitted job"}, {"suspend", "suspend a job"}, {"resume", "resume a job"},
		{"kill", "kill a job"}, {"rerun", "rerun a finished workflow job (with -config or -D)"},
		{"info", "info of a job or action"}, {"definition", "definition of a job"},
		{"log", "log of a job (narrow with -logfilter; a coordinator's also with -action or -date); of a workflow action (<wf>@<action>), its YARN container logs"},
		{"change", "change a coordinator or a bundle (with -value)"}, {"ignore", "ignore a coordinator, or its actions with -action"},
		{"errorlog", "warnings and errors of a job's log (narrow as -log)"},
		{"auditlog", "audit trail of a job: who did what to it (narrow with -logfilter)"},
		{"update", "update a coordinator from its app path (with -config, -D; -dryrun shows the differences only)"},
		{"missingdeps", "what a coordinator's waiting actions need (narrow with -action or -date, or give ID@n)"},
		{"poll", "poll a job until it ends (with -interval, -timeout, -verbose)"},
		{"retries", "the user-retry attempts of a workflow action (its ID is <job id>@<action name>)"},
		{"slaenable", "enable SLA alerts of a job (narrow with -action, -date or -coordinator)"},
		{"sladisable", "disable SLA alerts of a job (narrow with -action, -date or -coordinator)"},
		{"slachange", "change SLA expectations of a job with -value 'sla-should-end=...;sla-max-duration=...'"},
	} {
		f.id[c.name] = fs.String(c.name, "", c.usage+", by `ID`")
	}
	fs.IntVar(&f.offset, "offset", 0, "first action shown by -info (1-based; default 1)")
	fs.IntVar(&f.length, "len", 0, "number of actions shown by -info (default all; coordinators 1000)")
	fs.StringVar(&f.filter, "filter", "", "action filter of -info (coordinators only)")
	fs.BoolVar(&f.verbose, "verbose", false, "verbose -info")
	fs.StringVar(&f.timezone, "timezone", "", "show dates in the time zone `ID` (default $OOZIE_TIMEZONE, then GMT)")
	fs.BoolVar(&f.localtime, "localtime", false, "show dates in the local time zone (overrides -timezone)")
	f.coord.register(fs)
	f.audit.register(fs)
	fs.Float64Var(&f.poll.interval, "interval", defaultPollInterval, "-poll interval in `minutes` (fractions allowed: 0.5 is 30 seconds)")
	fs.Float64Var(&f.poll.timeout, "timeout", defaultPollTimeout, "-poll timeout in `minutes`; 0 or less: no timeout")
	if err := parse(fs, splitDefines(args)); err != nil {
		return err
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	updateDryRun := f.set["update"] && f.set["dryrun"]
	if updateDryRun {
		delete(f.set, "dryrun") // -update ID -dryrun only shows the differences
	}
	var chosen []string
	for _, c := range jobCommands {
		if f.set[c] {
			chosen = append(chosen, "-"+c)
		}
	}
	if len(chosen) != 1 {
		fmt.Fprintf(env.Stderr, "job: give exactly one of -%s (got %s)\n", strings.Join(jobCommands, ", -"), strings.Join(chosen, " "))
		fs.Usage()
		return errUsage
	}
	cmd := strings.TrimPrefix(chosen[0], "-")
	if p, ok := f.id[cmd]; ok && strings.TrimSpace(*p) == "" {
		fmt.Fprintf(env.Stderr, "job: -%s needs a job id\n", cmd)
		return errUsage
	}
	cl, err := f.client(env)
	if err != nil {
		return err
	}
	out := env.Stdout
	switch cmd {
	case "run", "submit":
		props, err := jobConfiguration(env, f.config, &f.defs)
		if err != nil {
			return err
		}
		id, err := cl.Submit(ctx, props, cmd == "run")
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "job: %s\n", id)
	case "dryrun":
		props, err := jobConfiguration(env, f.config, &f.defs)
		if err != nil {
			return err
		}
		res, err := cl.DryRun(ctx, props)
		if err != nil {
			return err
		}
		return printDryRun(out, res)
	case "start":
		return cl.Start(ctx, *f.id[cmd])
	case "suspend":
		return cl.Suspend(ctx, *f.id[cmd])
	case "resume":
		return cl.Resume(ctx, *f.id[cmd])
	case "kill":
		if isCoordinatorID(*f.id[cmd]) && (f.set["action"] || f.set["date"]) {
			return f.killActions(ctx, env, cl, *f.id[cmd])
		}
		return cl.Kill(ctx, *f.id[cmd])
	case "change":
		return f.change(ctx, cl, *f.id[cmd])
	case "ignore":
		return f.ignore(ctx, env, cl, *f.id[cmd])
	case "update":
		props := &conf.Properties{}
		if configured(f.config, &f.defs) {
			if props, err = jobConfiguration(env, f.config, &f.defs); err != nil {
				return err
			}
		}
		diff, err := cl.Update(ctx, *f.id[cmd], props, updateDryRun)
		if err != nil {
			return err
		}
		fmt.Fprint(out, diff)
	case "errorlog":
		return f.jobLog(ctx, env, cl, out, cmd, *f.id[cmd])
	case "auditlog":
		return f.auditLog(ctx, env, cl, out, *f.id[cmd])
	case "missingdeps":
		return f.missingDeps(ctx, cl, out, *f.id[cmd])
	case "retries":
		return retries(ctx, cl, out, *f.id[cmd])
	case "poll":
		return f.poll.poll(ctx, cl, env, *f.id[cmd], f.verbose)
	case "slaenable", "sladisable", "slachange":
		return f.slaCommand(ctx, cl, cmd, *f.id[cmd])
	case "rerun":
		if isCoordinatorID(*f.id[cmd]) {
			return f.coordRerun(ctx, env, cl, *f.id[cmd])
		}
		if isBundleID(*f.id[cmd]) {
			return f.bundleRerun(ctx, env, cl, *f.id[cmd])
		}
		// Without a configuration Oozie reruns with an empty one (not even user.name).
		props := &conf.Properties{}
		if configured(f.config, &f.defs) {
			if props, err = jobConfiguration(env, f.config, &f.defs); err != nil {
				return err
			}
		}
		return cl.Rerun(ctx, *f.id[cmd], props)
	case "info":
		return f.info(ctx, env, cl, *f.id[cmd])
	case "log":
		return f.jobLog(ctx, env, cl, out, cmd, *f.id[cmd])
	case "definition":
		def, err := cl.Definition(ctx, *f.id[cmd])
		if err != nil {
			return err
		}
		fmt.Fprintln(out, def)
	}
	return nil
}

// info is `job -info ID`: a workflow job with its actions, or one workflow action.
func (f *jobFlags) info(ctx context.Context, env Env, cl *client.Client, id string) error {
	loc, err := displayZone(env, f.timezone, f.localtime)
	if err != nil {
		return err
	}
	if isCoordinatorID(id) || ids.HasActionOf(id, ids.Coordinator) {
		return f.coordInfo(ctx, env, cl, id, loc)
	}
	if isBundleID(id) {
		return f.bundleInfo(ctx, env, cl, id, loc)
	}
	if ids.HasActionOf(id, ids.Workflow) {
		if f.filter != "" {
			return &plainError{"Filter option is not supported for a Workflow action"}
		}
		a, err := cl.ActionInfo(ctx, id)
		if err != nil {
			return err
		}
		return printAction(env.Stdout, &a, loc, f.verbose)
	}
	if f.filter != "" && ids.EndsWithKind(id, ids.Workflow) {
		return &plainError{"Filter option is currently not supported for a Workflow job"}
	}
	job, err := cl.Info(ctx, id, f.offset, f.length)
	if err != nil {
		return err
	}
	return printJob(env.Stdout, &job, loc, f.verbose)
}
