package launch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// Executor runs the actions of one launcher type (Config.Type: shell, java,
// hive, map-reduce, spark and the other types plan.go builds a launch of) as
// YARN applications whose ApplicationMaster is `gozie launcher`. It is safe
// for concurrent use.
type Executor struct {
	cfg    Config
	binary *localBinary

	mu           sync.Mutex
	lastCheckAll time.Time // when the last successful CheckAll query started
}

var (
	_ actions.Executor     = (*Executor)(nil)
	_ actions.BatchChecker = (*Executor)(nil)
)

// New returns an executor for cfg.Type.
func New(cfg Config) (*Executor, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	return &Executor{cfg: cfg, binary: &localBinary{path: cfg.Binary}}, nil
}

// Start launches the run, unless it was launched already: an application
// carrying the run's tag, or a result file in the run's action directory (an
// application the RM has forgotten), is reported instead of a second launch.
// A run whose tag is new (Attempt.NewTag) cannot have been launched, and is
// launched without those two lookups (a query of the RM's applications, a
// NameNode call).
func (e *Executor) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	ctx = hadoop.AsUser(ctx, run.User) // staging, submission, lookups: the job's user
	if run.Tag == "" || run.ActionDir == "" {
		return actions.Status{}, actions.Errorf(actions.NonTransient, codeIO, "action %s: a launch needs the run's tag and action directory", run.ActionID)
	}
	log := e.cfg.Logger.With("action_id", run.ActionID)
	if !run.NewTag {
		if st, done, err := e.launchedBefore(ctx, run, log); err != nil || done {
			return st, err
		}
	}
	p, err := e.makePlan(ctx, run)
	if err != nil {
		return actions.Status{}, err
	}
	sc, err := e.stage(ctx, run, p)
	if err != nil {
		return actions.Status{}, err
	}
	na, err := e.cfg.YARN.NewApplication(ctx)
	if err != nil {
		return actions.Status{}, yarnError(err, "reserving an application id")
	}
	sc.ApplicationID = na.ApplicationID
	if err := e.cfg.YARN.Submit(ctx, sc); err != nil {
		return actions.Status{}, yarnError(err, "submitting the launcher of %s", run.ActionID)
	}
	log.Info("launched", "yarn_app_id", na.ApplicationID.String(), "queue", sc.Queue)
	return actions.Status{
		ExternalID:     na.ApplicationID.String(),
		ExternalStatus: string(yarn.StateAccepted),
		TrackerURI:     run.ResourceManager,
	}, nil
}

// launchedBefore reports the status of an earlier launch of the run, if
// there was one: its application, found by the run's tag, or, where the RM
// has forgotten it, its result file.
func (e *Executor) launchedBefore(ctx context.Context, run *actions.Attempt, log *slog.Logger) (actions.Status, bool, error) {
	if rep, ok, err := e.findApp(ctx, run.Tag); err != nil {
		return actions.Status{}, false, err
	} else if ok {
		log.Info("found the run's application; not launching again", "yarn_app_id", rep.ID.String())
		st, err := e.status(ctx, run, rep)
		return st, true, err
	}
	if res, err := e.readResult(ctx, run); err != nil {
		return actions.Status{}, false, err
	} else if res != nil {
		log.Info("the run already ended and its application is forgotten; not launching again")
		st, err := e.resultStatus(ctx, run, res.ApplicationID, res)
		return st, true, err
	}
	return actions.Status{}, false, nil
}

// stage writes the launch spec and the binary and returns the submission,
// still without its application id.
func (e *Executor) stage(ctx context.Context, run *actions.Attempt, p *plan) (yarn.ApplicationSubmissionContext, error) {
	var sc yarn.ApplicationSubmissionContext
	res, links, err := e.resources(ctx, p)
	if err != nil {
		return sc, err
	}
	p.spec.Resources = links
	p.sparkResources(res, links)
	bin, err := e.stageBinary(ctx, run, p.root)
	if err != nil {
		return sc, err
	}
	res[launcher.Binary] = bin
	// Before the spec is written: a hive run's token decides its URL.
	creds, err := e.credentials(ctx, run, p)
	if err != nil {
		return sc, err
	}
	if err := p.spec.Validate(); err != nil {
		return sc, actions.Errorf(actions.ActionFailed, codeBadXML, "action %s: %w", run.ActionID, err)
	}
	b, err := p.spec.Encode()
	if err != nil {
		return sc, actions.Errorf(actions.NonTransient, codeIO, "%w", err)
	}
	// Nothing reads the spec before the submission below hands it to YARN:
	// it is written in place, and a retried start replaces its own.
	specURI := p.spec.ActionDir + "/" + launcher.SpecFile
	if err := e.cfg.FS.WriteNew(ctx, specURI, b, 0o644); err != nil {
		return sc, fsError(err, "writing the launch spec")
	}
	if res[launcher.SpecFile], err = e.localResource(ctx, specURI, yarn.ResourceFile); err != nil {
		return sc, err
	}
	return yarn.ApplicationSubmissionContext{
		ApplicationName: fmt.Sprintf("gozie:launcher:T=%s:A=%s:ID=%s", e.cfg.Type, run.Node, run.JobID),
		Queue:           p.queue,
		AMContainerSpec: yarn.ContainerLaunchContext{
			LocalResources: res,
			Environment:    p.env,
			Commands: yarn.Commands{"./" + launcher.Binary + " launcher -spec " + launcher.SpecFile +
				" 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"},
			Credentials: creds,
		},
		// One attempt only: a second attempt would run the user's command
		// again, and commands are not idempotent (a script that appends, a
		// load that doubles rows). A failed attempt ends the action, and the
		// workflow's retry rules decide. The launcher's id guard would refuse
		// a second attempt anyway.
		MaxAppAttempts:  1,
		Resource:        &yarn.Resource{MemoryMB: int64(p.memoryMB), VCores: int64(p.vcores)},
		ApplicationType: ApplicationType,
		// The server's tokens are cached and shared by the user's runs: the
		// RM must not cancel them when this application ends (Oozie's
		// mapreduce.job.complete.cancel.delegation.tokens=false).
		CancelTokensWhenComplete: cancelTokens(creds),
		ApplicationTags:          yarn.Tags{run.Tag, CommonTag},
	}, nil
}

// cancelTokens is the submission's cancel-tokens-when-complete: false when
// it carries tokens, unset (the RM's default) otherwise.
func cancelTokens(creds *yarn.Credentials) *bool {
	if creds == nil {
		return nil
	}
	no := false
	return &no
}

// credentials collects the run's delegation tokens as the submission's
// credentials (nil when there are none): Config.Credentials', and for a
// hive run the HiveServer2 token its beeline authenticates with
// (hiveToken).
func (e *Executor) credentials(ctx context.Context, run *actions.Attempt, p *plan) (*yarn.Credentials, error) {
	var toks []hadoop.Token
	if e.cfg.Credentials != nil {
		var err error
		if toks, err = e.cfg.Credentials(ctx, run); err != nil {
			return nil, tokenError(run, err)
		}
	}
	toks, err := e.hiveToken(ctx, run, p.spec.Hive, toks)
	if err != nil {
		return nil, tokenError(run, err)
	}
	return yarn.TokenCredentials(toks), nil
}

// tokenError keeps an *actions.ExecError as it is and makes any other
// failure to get a token transient (JA009).
func tokenError(run *actions.Attempt, err error) error {
	var ee *actions.ExecError
	if errors.As(err, &ee) {
		return err
	}
	return actions.Errorf(actions.Transient, codeIO, "action %s: getting delegation tokens: %w", run.ActionID, err)
}

// Check reports the run: the application report while it runs, and once it
// ended the outcome from the result file. An application the RM no longer
// knows is judged by the result file alone (JA017 when there is none).
func (e *Executor) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	ctx = hadoop.AsUser(ctx, run.User)
	if yarn.IsOozieTag(run.Tag) {
		return e.checkAdopted(ctx, run) // an Oozie launcher adopted at the migration
	}
	id, err := yarn.ParseApplicationID(run.ExternalID)
	if err != nil {
		rep, ok, ferr := e.findApp(ctx, run.Tag)
		if ferr != nil {
			return actions.Status{}, ferr
		}
		if ok {
			return e.status(ctx, run, rep)
		}
		return e.forgotten(ctx, run, run.ExternalID)
	}
	rep, err := e.cfg.YARN.App(ctx, id)
	if errors.Is(err, yarn.ErrAppNotFound) {
		return e.forgotten(ctx, run, id.String())
	}
	if err != nil {
		return actions.Status{}, yarnError(err, "reading the report of %s", id)
	}
	if !strings.EqualFold(rep.ApplicationType, ApplicationType) {
		// A map-reduce run that follows its job already.
		return e.endedJobStatus(ctx, run, rep)
	}
	return e.status(ctx, run, rep)
}

// forgotten judges a run whose application the RM does not know.
func (e *Executor) forgotten(ctx context.Context, run *actions.Attempt, appID string) (actions.Status, error) {
	res, err := e.readResult(ctx, run)
	if err != nil {
		return actions.Status{}, err
	}
	if res == nil {
		return actions.Status{
			ExternalID: appID, ExternalStatus: string(yarn.StateFailed), TrackerURI: run.ResourceManager,
			Done: true, Outcome: workflow.OutcomeFailed, ErrorCode: codeUnknownJob,
			ErrorMessage: fmt.Sprintf(unknownJobText, appID, run.ActionID),
		}, nil
	}
	if appID == "" {
		appID = res.ApplicationID
	}
	return e.resultStatus(ctx, run, appID, res)
}

// Kill kills the run's launcher and every application started by the action
// (those carrying the child tag). Killing ended or unknown applications is
// not an error.
func (e *Executor) Kill(ctx context.Context, run *actions.Attempt) error {
	ctx = hadoop.AsUser(ctx, run.User)
	var ids []yarn.ApplicationID
	if id, err := yarn.ParseApplicationID(run.ExternalID); err == nil {
		ids = append(ids, id)
	}
	if run.Tag != "" {
		reps, err := e.cfg.YARN.Apps(ctx, yarn.AppsFilter{
			Tags:   []string{run.Tag, ChildTag(run.Tag)},
			States: []yarn.AppState{yarn.StateNew, yarn.StateNewSaving, yarn.StateSubmitted, yarn.StateAccepted, yarn.StateRunning},
		})
		if err != nil {
			return yarnError(err, "finding the applications of %s", run.ActionID)
		}
		// The launcher first, so that it starts no more children.
		slices.SortStableFunc(reps, func(a, b yarn.AppReport) int {
			return boolInt(!a.HasTag(run.Tag)) - boolInt(!b.HasTag(run.Tag))
		})
		for _, r := range reps {
			if !slices.Contains(ids, r.ID) {
				ids = append(ids, r.ID)
			}
		}
	}
	var errs []error
	for _, id := range ids {
		err := e.cfg.YARN.Kill(ctx, id)
		if err != nil && !errors.Is(err, yarn.ErrAppNotFound) {
			errs = append(errs, yarnError(err, "killing %s", id))
			continue
		}
		e.cfg.Logger.Info("killed", "action_id", run.ActionID, "yarn_app_id", id.String())
	}
	return errors.Join(errs...)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// findApp returns the launcher carrying tag, if the RM knows one.
func (e *Executor) findApp(ctx context.Context, tag string) (yarn.AppReport, bool, error) {
	if tag == "" {
		return yarn.AppReport{}, false, nil
	}
	reps, err := e.cfg.YARN.Apps(ctx, yarn.AppsFilter{Tags: []string{tag}})
	if err != nil {
		return yarn.AppReport{}, false, yarnError(err, "looking for the application tagged %s", tag)
	}
	var found *yarn.AppReport
	for i := range reps {
		r := &reps[i]
		if !r.HasTag(tag) || !strings.EqualFold(r.ApplicationType, ApplicationType) {
			continue
		}
		// Only one should exist; if several do, follow the first submitted.
		if found == nil || r.ID.Sequence < found.ID.Sequence && r.ID.ClusterTimestamp == found.ID.ClusterTimestamp {
			found = r
		}
	}
	if found == nil {
		return yarn.AppReport{}, false, nil
	}
	return *found, true, nil
}
