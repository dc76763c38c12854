package coordinator

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/store"
)

// InputCheckRequest is one input check of a WAITING action.
type InputCheckRequest struct {
	// Job is the job's resolved definition; JobID its id.
	Job   *Job
	JobID string
	// Row is the job row (start, end, execution order).
	Row store.CoordJob
	// Action is the action row: its XML, missing dependencies, number, nominal and created
	// times and run configuration.
	Action store.CoordAction
	// RunConf is the action's run configuration (the job configuration at materialization).
	RunConf *conf.Properties
	// Timeout is the action's timeout in minutes (negative: never).
	Timeout int
	// Exists answers whether a URI (with done-flag) exists.
	Exists ExistsFunc
	// Now is the current time.
	Now time.Time
	// Settings are the server defaults (re-check interval, NONE tolerance, coord:latest mode).
	Settings Settings
	// Doc, when set, is Action.ActionXML already parsed with RunConf (ParseActionXML), so
	// that a caller checking an action again and again parses it once; CheckInputs never
	// modifies it. Nil: CheckInputs parses the XML itself.
	Doc *ActionDoc
}

// InputCheckResult is the decision of CheckInputs.
type InputCheckResult struct {
	// Status is the action's new status: WAITING, READY, TIMEDOUT, SKIPPED or FAILED.
	Status store.CoordActionStatus
	// MissingDependencies is the new missing-dependency string (Oozie's format: URIs joined by
	// '#', then "!!" and the unresolved latest/future instances); "" once all are met.
	MissingDependencies string
	// FirstMissing is the dependency the action is blocked on, "" when none.
	FirstMissing string
	// ActionXML is the updated action document: latest/future instances resolved into
	// <uris>, and once READY the workflow configuration values evaluated.
	ActionXML string
	// Changed reports whether the missing dependencies changed.
	Changed bool
	// NextCheckAt is when to check again while WAITING.
	NextCheckAt time.Time
	// Reason explains a skip, a time-out or a failure.
	Reason string
	// Err is an error met while checking (an unreachable filesystem, an EL error); the
	// decision above already accounts for it.
	Err error
}

// CheckInputs decides what happens to a WAITING action, as Oozie's input check does:
//
//  1. before its nominal time the action keeps waiting until then;
//  2. LAST_ONLY skips it once the next action's nominal time has passed; NONE skips it once
//     its own nominal time plus the tolerance has passed;
//  3. the resolved dependencies are checked in order, stopping at the first missing one
//     (with <input-logic>, the logic tree decides instead);
//  4. when they all exist, unresolved coord:latest/future instances are resolved (they are
//     existence checks themselves);
//  5. all met: the workflow configuration is evaluated (an EL error fails the action) and the
//     action is READY;
//  6. a coord:latest or coord:future over the instance bound (Settings.MaxInstances) fails
//     the action: it could never resolve;
//  7. otherwise it times out when (now − max(nominal, created)) in whole minutes exceeds the
//     timeout, or waits for the next check.
func CheckInputs(req InputCheckRequest) InputCheckResult {
	c := inputChecker{req: req, s: req.Settings.WithDefaults()}
	return c.run()
}

// inputChecker carries one input check.
type inputChecker struct {
	req    InputCheckRequest
	s      Settings
	doc    *ActionDoc
	exists map[string]bool
}

// run performs the check.
func (c *inputChecker) run() InputCheckResult {
	req := c.req
	a := req.Action
	res := InputCheckResult{Status: store.CoordActionWaiting, MissingDependencies: a.MissingDependencies,
		ActionXML: a.ActionXML}
	if a.NominalTime.After(req.Now) {
		res.NextCheckAt = a.NominalTime
		return res
	}
	if reason := c.skipReason(a); reason != "" {
		res.Status, res.Reason = store.CoordActionSkipped, reason
		return res
	}
	doc, err := c.actionDoc()
	if err != nil {
		res.Status, res.Reason, res.Err = store.CoordActionFailed, "unreadable action document", err
		return res
	}
	c.doc = doc
	c.exists = map[string]bool{}

	resolved, unresolved, _ := strings.Cut(a.MissingDependencies, unresolvedSeparator)
	var met bool
	var missing []string
	var checkErr error
	if req.Job.InputLogic != nil {
		met, missing, checkErr = c.checkLogic()
	} else {
		missing, checkErr = c.checkInOrder(splitNonEmpty(resolved))
		met = len(missing) == 0 && checkErr == nil
		if met && unresolved != "" {
			met, checkErr = c.resolveLatestFuture()
		}
	}
	newMissing := strings.Join(missing, instanceSeparator)
	switch {
	case met:
		newMissing = ""
	case req.Job.InputLogic == nil && unresolved != "":
		newMissing += unresolvedSeparator + unresolved
	case req.Job.InputLogic != nil:
		for _, ev := range c.doc.DataIns {
			if len(ev.Unresolved) > 0 {
				newMissing += unresolvedSeparator + strings.Join(ev.Unresolved, instanceSeparator)
			}
		}
	}
	res.Changed = newMissing != a.MissingDependencies || a.MissingDependencies == ""
	res.MissingDependencies = newMissing
	res.ActionXML = c.doc.XML()
	if len(missing) > 0 {
		res.FirstMissing = missing[0]
	} else if !met && unresolved != "" {
		res.FirstMissing = strings.SplitN(unresolved, unresolvedSeparator, 2)[0]
	}
	if met {
		xml, err := c.readyXML()
		if err != nil {
			res.Status, res.Reason, res.Err = store.CoordActionFailed, "cannot evaluate the workflow configuration", err
			return res
		}
		res.Status, res.ActionXML = store.CoordActionReady, xml
		return res
	}
	res.Err = checkErr
	if errors.Is(checkErr, ErrTooManyInstances) {
		res.Status, res.Reason = store.CoordActionFailed, "the action's inputs name more dataset instances than allowed"
		return res
	}
	if c.timedOut() {
		res.Status = store.CoordActionTimedOut
		res.Reason = "input dependencies not met within the timeout"
		return res
	}
	interval := c.s.InputCheckInterval
	if checkErr != nil && errors.Is(checkErr, fs.ErrPermission) {
		interval *= 2
	}
	res.NextCheckAt = req.Now.Add(interval)
	return res
}

// actionDoc returns the action document to check: a copy of the request's parsed Doc (its
// events are resolved in place by the check), or the action XML parsed now.
func (c *inputChecker) actionDoc() (*ActionDoc, error) {
	if c.req.Doc == nil {
		return ParseActionXML(c.req.Action.ActionXML, c.req.RunConf, c.req.Job.Format)
	}
	d := *c.req.Doc
	d.DataIns = slices.Clone(d.DataIns)
	return &d, nil
}

// skipReason applies the LAST_ONLY and NONE rules to an action (also used when starting
// READY actions).
func (c *inputChecker) skipReason(a store.CoordAction) string {
	return skipReason(c.req.Job, c.req.Row, a, c.req.Now, c.s)
}

// skipReason returns why a LAST_ONLY or NONE action must be skipped now, or "".
func skipReason(job *Job, row store.CoordJob, a store.CoordAction, now time.Time, s Settings) string {
	switch Execution(row.ExecutionOrder) {
	case LastOnly:
		next, ok := job.NextNominalTime(row.StartTime, row.EndTime, a.ActionNumber, a.NominalTime)
		if ok && now.After(next) {
			return "LAST_ONLY execution: the next action's nominal time " + job.Format.Format(next) + " has passed"
		}
	case None:
		if now.After(a.NominalTime.Add(s.NoneTolerance)) {
			return "NONE execution: more than the tolerance after the nominal time " + job.Format.Format(a.NominalTime)
		}
	}
	return ""
}

// timedOut reports whether the action has waited longer than its timeout.
func (c *inputChecker) timedOut() bool {
	a := c.req.Action
	since := a.NominalTime
	if a.CreatedTime.After(since) {
		since = a.CreatedTime
	}
	waited := int64(c.req.Now.Sub(since) / time.Minute)
	return c.req.Timeout >= 0 && waited > int64(c.req.Timeout)
}

// exist checks a URI once per input check.
func (c *inputChecker) exist(uri string) (bool, error) {
	if ok, seen := c.exists[uri]; seen {
		return ok, nil
	}
	if c.req.Exists == nil {
		return false, errNoExists
	}
	ok, err := c.req.Exists(uri)
	if err != nil {
		return false, err
	}
	c.exists[uri] = ok
	return ok, nil
}

// checkInOrder checks dependencies in order and returns the first missing one and all after
// it (they are not checked). An error leaves the failing dependency and the rest missing.
func (c *inputChecker) checkInOrder(deps []string) ([]string, error) {
	for i, d := range deps {
		ok, err := c.exist(d)
		if err != nil {
			return deps[i:], err
		}
		if !ok {
			return deps[i:], nil
		}
	}
	return nil, nil
}

// resolveLatestFuture resolves every unresolved latest/future instance of the data-ins. All
// must resolve, as in Oozie; only then are their URIs put in front of each event's <uris>.
func (c *inputChecker) resolveLatestFuture() (bool, error) {
	resolved := append([]ResolvedEvent(nil), c.doc.DataIns...)
	for i, ev := range resolved {
		if len(ev.Unresolved) == 0 {
			continue
		}
		uris, ok, err := c.resolveEvent(ev)
		if err != nil || !ok {
			return false, err
		}
		ev.URIs = append(uris, ev.URIs...)
		ev.Unresolved = nil
		resolved[i] = ev
	}
	c.doc.DataIns = resolved
	return true, nil
}

// resolveEvent evaluates the unresolved instances of one event; ok is false as soon as one
// cannot be resolved.
func (c *inputChecker) resolveEvent(ev ResolvedEvent) ([]string, bool, error) {
	ctx := &ELContext{Format: c.doc.Job.Format, User: c.doc.Job.User, Conf: c.doc.Job.Conf, Dataset: ev.Dataset,
		Action: c.doc.actionContext(c.req.JobID), Exists: c.exist, Now: c.req.Now,
		LatestUsesCurrentTime: c.s.LatestUsesCurrentTime, MaxInstances: c.s.MaxInstances}
	var uris []string
	for _, u := range ev.Unresolved {
		if _, err := ctx.EvalString(PhaseActionStart, u); err != nil {
			return nil, false, err
		}
		if !ctx.resolved {
			return nil, false, nil
		}
		uris = append(uris, ctx.resolvedURIs...)
	}
	return uris, true, nil
}

// readyXML evaluates the workflow configuration values in the action-start phase and
// returns the action document with them.
func (c *inputChecker) readyXML() (string, error) {
	doc := c.doc
	ctx := &ELContext{Format: doc.Job.Format, User: doc.Job.User, Conf: doc.Job.Conf,
		Action: doc.actionContext(c.req.JobID), DataIn: eventValues(doc.DataIns), DataOut: eventValues(doc.DataOuts),
		Now: c.req.Now}
	if doc.Job.InputLogic != nil {
		ctx.Logic = c.logicDataIn
	}
	conf := make([]Property, len(doc.Job.Configuration))
	for i, p := range doc.Job.Configuration {
		v, err := ctx.EvalString(PhaseActionStart, p.Value)
		if err != nil {
			return "", atWhere(err, "action/workflow/configuration/property["+p.Name+"]")
		}
		conf[i] = Property{Name: p.Name, Value: v}
	}
	job := *doc.Job
	job.Configuration = conf
	resolved := *doc
	resolved.Job = &job
	return resolved.XML(), nil
}

// splitNonEmpty splits a '#'-joined list, dropping empty items.
func splitNonEmpty(s string) []string {
	var out []string
	for _, p := range strings.Split(s, instanceSeparator) {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}
