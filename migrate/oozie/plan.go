package oozie

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// Verdict is what the import does with one job.
type Verdict string

// Verdicts.
const (
	Import Verdict = "import" // taken over by gozie
	Skip   Verdict = "skip"   // left out: finished before -since
	Refuse Verdict = "refuse" // left in Oozie: Reason says why and what to do
)

// RunningActions is the choice for workflow actions running in an Oozie
// launcher when the import happens.
type RunningActions string

// The choices for running actions.
const (
	// RefuseRunning leaves the workflow (and its coordinator) in Oozie.
	RefuseRunning RunningActions = "refuse"
	// FollowRunning imports the action as RUNNING: gozie follows the YARN
	// application Oozie's launcher runs as, by its id, and goes on with the
	// workflow when it ends.
	FollowRunning RunningActions = "follow"
	// RerunRunning imports the action as not started: gozie runs the node
	// again (the Oozie launcher must have been killed first).
	RerunRunning RunningActions = "rerun"
)

// ParseRunningActions reads the -running-actions flag.
func ParseRunningActions(s string) (RunningActions, error) {
	switch r := RunningActions(s); r {
	case RefuseRunning, FollowRunning, RerunRunning:
		return r, nil
	}
	return "", oozieerr.New(oozieerr.E0303, "Invalid parameter value, [running-actions] = [%s], want refuse, follow or rerun", s)
}

// Options are the choices of one plan.
type Options struct {
	// Since: finished jobs last modified before it are skipped; zero keeps
	// all of them.
	Since time.Time
	// Running is what to do with actions running in Oozie launchers.
	Running RunningActions
	// Format is gozie's processing time zone (the definitions' date format).
	Format oozietime.Format
}

// Source reads the per-job rows Plan needs (a Reader).
type Source interface {
	CoordActions(ctx context.Context, jobID string) ([]CoordAction, error)
	WorkflowActions(ctx context.Context, wfID string) ([]WorkflowAction, error)
}

// CoordUnit is one coordinator with its actions, as gozie stores them.
type CoordUnit struct {
	Job     store.CoordJob
	Actions []store.CoordAction
}

// WorkflowUnit is one workflow with its actions, as gozie stores them.
type WorkflowUnit struct {
	Job     store.WorkflowJob
	Actions []store.WorkflowAction
	// Follow and Rerun are the ids of the actions gozie follows (running
	// in a YARN application) or starts (not started yet in Oozie, or to run
	// again).
	Follow, Rerun []string
}

// Unit is one top-level job and everything imported with it in one
// transaction: a bundle with its coordinators, a coordinator with its
// actions and their workflows, a workflow with its actions; SLA
// registrations of all of them.
type Unit struct {
	Kind    string // "bundle", "coordinator" or "workflow"
	ID      string
	AppName string
	Status  string
	Verdict Verdict
	// Reason says why a job is skipped or refused; Err is the value that
	// could not be read, when that is the reason.
	Reason string
	Err    *FieldError
	// Notes say what gozie will do with what it takes over (followed and
	// rerun actions).
	Notes []string

	Bundle        *store.BundleJob
	BundleActions []store.BundleAction
	Coords        []CoordUnit
	Workflows     []WorkflowUnit
	SLAs          []store.SLA
}

// refuse marks u refused for err (a FieldError, or another error).
func (u *Unit) refuse(err error) {
	u.Verdict = Refuse
	if fe, ok := err.(*FieldError); ok {
		u.Err = fe
	}
	u.Reason = err.Error()
}

// Plan decides the verdict of every job of s and builds the rows of those
// imported. Units are ordered bundles, coordinators, workflows, each by id.
func Plan(ctx context.Context, s *Snapshot, src Source, o Options) ([]Unit, error) {
	p := &planner{s: s, src: src, o: o, wfs: map[string]WorkflowJob{}, taken: map[string]bool{}}
	if p.o.Running == "" {
		p.o.Running = RefuseRunning
	}
	for _, w := range s.Workflows {
		p.wfs[w.ID] = w
	}
	var units []Unit
	bundles := map[string]bool{}
	for _, b := range sortedBy(s.Bundles, func(b BundleJob) string { return b.ID }) {
		bundles[b.ID] = true
		u, err := p.bundle(ctx, b)
		if err != nil {
			return nil, err
		}
		units = append(units, u)
	}
	for _, c := range sortedBy(s.Coords, func(c CoordJob) string { return c.ID }) {
		if c.BundleID != "" && bundles[c.BundleID] {
			continue // in its bundle's unit
		}
		u := Unit{Kind: "coordinator", ID: c.ID, AppName: c.AppName, Status: c.Status, Verdict: Import}
		if skip, why := p.skipped(c.Status, c.LastModified, coordTerminal); skip {
			u.Verdict, u.Reason = Skip, why
		} else if cu, err := p.coord(ctx, c, &u); err != nil {
			return nil, err
		} else if u.Verdict == Import {
			u.Coords = []CoordUnit{cu}
		}
		p.attachSLAs(&u)
		units = append(units, u)
	}
	for _, w := range sortedBy(s.Workflows, func(w WorkflowJob) string { return w.ID }) {
		if p.taken[w.ID] || p.hasParent(w) {
			continue // imported with its coordinator or parent workflow
		}
		u := Unit{Kind: "workflow", ID: w.ID, AppName: w.AppName, Status: w.Status, Verdict: Import}
		if skip, why := p.skipped(w.Status, w.LastModified, wfTerminal); skip {
			u.Verdict, u.Reason = Skip, why
		} else if wu, err := p.workflow(ctx, w, &u); err != nil {
			return nil, err
		} else if u.Verdict == Import {
			u.Workflows = append(u.Workflows, wu)
			if err := p.children(ctx, w.ID, &u); err != nil {
				return nil, err
			}
		}
		p.attachSLAs(&u)
		units = append(units, u)
	}
	for i := range units {
		if units[i].Verdict != Import {
			units[i].Bundle, units[i].BundleActions, units[i].Coords, units[i].Workflows, units[i].SLAs = nil, nil, nil, nil, nil
		}
	}
	return units, nil
}

// planner carries one Plan.
type planner struct {
	s     *Snapshot
	src   Source
	o     Options
	wfs   map[string]WorkflowJob
	taken map[string]bool // workflows imported with another unit
}

func sortedBy[T any](xs []T, key func(T) string) []T {
	out := slices.Clone(xs)
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

var (
	coordTerminal = []string{"SUCCEEDED", "DONEWITHERROR", "KILLED", "FAILED", "IGNORED"}
	wfTerminal    = []string{"SUCCEEDED", "KILLED", "FAILED"}
)

// skipped reports whether a job in status, last modified at lastMod, is
// finished before Since.
func (p *planner) skipped(status string, lastMod time.Time, terminal []string) (bool, string) {
	if p.o.Since.IsZero() || !slices.Contains(terminal, status) || !lastMod.Before(p.o.Since) {
		return false, ""
	}
	return true, fmt.Sprintf("finished (%s) before -since %s", status, p.o.Since.UTC().Format(time.RFC3339))
}

// hasParent reports whether w is a coordinator's or a workflow's child
// that is in the snapshot: it is imported (or not) with that parent.
func (p *planner) hasParent(w WorkflowJob) bool {
	if w.ParentID == "" {
		return false
	}
	if job, _, isAction := strings.Cut(w.ParentID, "@"); isAction {
		for _, c := range p.s.Coords {
			if c.ID == job {
				return true
			}
		}
		return false
	}
	_, ok := p.wfs[w.ParentID]
	return ok
}

// bundle plans a bundle with its coordinators.
func (p *planner) bundle(ctx context.Context, b BundleJob) (Unit, error) {
	u := Unit{Kind: "bundle", ID: b.ID, AppName: b.AppName, Status: b.Status, Verdict: Import}
	if skip, why := p.skipped(b.Status, b.LastModified, coordTerminal); skip {
		u.Verdict, u.Reason = Skip, why
		return u, nil
	}
	row, err := bundleRow(b)
	if err != nil {
		u.refuse(err)
		return u, nil
	}
	u.Bundle = &row
	for _, a := range p.s.BundleActions[b.ID] {
		ba, err := bundleActionRow(a)
		if err != nil {
			u.refuse(err)
			return u, nil
		}
		u.BundleActions = append(u.BundleActions, ba)
	}
	for _, c := range sortedBy(p.s.Coords, func(c CoordJob) string { return c.ID }) {
		if c.BundleID != b.ID {
			continue
		}
		cu, err := p.coord(ctx, c, &u)
		if err != nil {
			return u, err
		}
		if u.Verdict != Import {
			u.Reason = "coordinator " + c.ID + ": " + u.Reason
			return u, nil
		}
		u.Coords = append(u.Coords, cu)
	}
	p.attachSLAs(&u)
	return u, nil
}

// coord plans a coordinator with its actions and their workflows into u
// (refusing u when something cannot be taken over).
func (p *planner) coord(ctx context.Context, c CoordJob, u *Unit) (CoordUnit, error) {
	row, err := coordRow(c, p.o.Format)
	if err != nil {
		u.refuse(err)
		return CoordUnit{}, nil
	}
	cu := CoordUnit{Job: row}
	acts, err := p.src.CoordActions(ctx, c.ID)
	if err != nil {
		return cu, err
	}
	for _, a := range acts {
		ar, err := coordActionRow(a, row, p.o.Format)
		if err != nil {
			u.refuse(err)
			return cu, nil
		}
		cu.Actions = append(cu.Actions, ar)
		if a.ExternalID == "" {
			continue
		}
		w, ok := p.wfs[a.ExternalID]
		if !ok {
			if !ar.Status.Terminal() && ar.Status != store.CoordActionWaiting && ar.Status != store.CoordActionReady {
				u.refuse(fmt.Errorf("action %s is %s but its workflow %s is not in WF_JOBS", a.ID, a.Status, a.ExternalID))
				return cu, nil
			}
			continue // history whose workflow Oozie purged
		}
		wu, err := p.workflow(ctx, w, u)
		if err != nil || u.Verdict != Import {
			return cu, err
		}
		u.Workflows = append(u.Workflows, wu)
		p.taken[w.ID] = true
		if err := p.children(ctx, w.ID, u); err != nil {
			return cu, err
		}
	}
	return cu, nil
}

// children adds the sub-workflows of workflow id (and theirs) to u.
func (p *planner) children(ctx context.Context, id string, u *Unit) error {
	for _, w := range sortedBy(p.s.Workflows, func(w WorkflowJob) string { return w.ID }) {
		if w.ParentID != id || p.taken[w.ID] {
			continue
		}
		wu, err := p.workflow(ctx, w, u)
		if err != nil || u.Verdict != Import {
			return err
		}
		u.Workflows = append(u.Workflows, wu)
		p.taken[w.ID] = true
		if err := p.children(ctx, w.ID, u); err != nil {
			return err
		}
	}
	return nil
}

// workflow plans one workflow with its actions (refusing u when it
// cannot be taken over).
func (p *planner) workflow(ctx context.Context, w WorkflowJob, u *Unit) (WorkflowUnit, error) {
	row, err := workflowRow(w)
	if err != nil {
		u.refuse(err)
		return WorkflowUnit{}, nil
	}
	wu := WorkflowUnit{Job: row}
	acts, err := p.src.WorkflowActions(ctx, w.ID)
	if err != nil {
		return wu, err
	}
	in, _ := workflow.DecodeInstance(nil)
	for _, a := range acts {
		ar, err := workflowActionRow(a)
		if err != nil {
			u.refuse(err)
			return wu, nil
		}
		if !row.Status.Terminal() {
			if err := p.activeAction(&wu, &ar, a, u); err != nil {
				u.refuse(err)
				return wu, nil
			}
			if !topLevel(a.ExecutionPath) {
				u.refuse(fmt.Errorf("workflow %s is %s inside fork path %q (action %s): gozie does not rebuild "+
					"Oozie's fork state; let Oozie finish it, or rerun it in gozie after the import", w.ID, w.Status,
					a.ExecutionPath, a.Name))
				return wu, nil
			}
			in.Paths[a.Name] = ""
		}
		wu.Actions = append(wu.Actions, ar)
	}
	if !row.Status.Terminal() {
		if row.Status == store.WorkflowRunning && !hasActive(wu.Actions) {
			u.refuse(fmt.Errorf("workflow %s is RUNNING between nodes (Oozie has not started its next node yet): "+
				"import it again in a moment", w.ID))
			return wu, nil
		}
		wu.Job.Instance = in.Encode()
	}
	return wu, nil
}

// hasActive reports whether one of acts is PREP or RUNNING: the node a
// running workflow is at.
func hasActive(acts []store.WorkflowAction) bool {
	for _, a := range acts {
		if a.Status == store.ActionPrep || a.Status == store.ActionRunning {
			return true
		}
	}
	return false
}

// topLevel reports whether an Oozie execution path is the workflow's
// main path (not inside a fork).
func topLevel(path string) bool { return path == "" || path == "/" }

// activeAction decides what gozie does with an action of a workflow that
// is not finished.
func (p *planner) activeAction(wu *WorkflowUnit, ar *store.WorkflowAction, a WorkflowAction, u *Unit) error {
	switch ar.Status {
	case store.ActionRunning:
	case store.ActionPrep:
		if !strings.HasPrefix(a.Type, ":") {
			wu.Rerun = append(wu.Rerun, ar.ID) // Oozie was about to start it
		}
		return nil
	case store.ActionDone, store.ActionStartRetry, store.ActionStartManual, store.ActionEndRetry,
		store.ActionEndManual, store.ActionUserRetry:
		return fmt.Errorf("action %s is %s, a step Oozie is in the middle of: put Oozie in SAFEMODE, let it settle "+
			"and import again", a.ID, a.Status)
	default:
		return nil
	}
	if strings.HasPrefix(a.Type, ":") || a.ExternalID == "" {
		return nil // a control node, or an action not launched yet: nothing runs outside
	}
	switch p.o.Running {
	case FollowRunning:
		// The tag marks the action adopted: its outcome is the YARN
		// application's final status (Oozie's launcher writes no result
		// file of gozie's).
		ar.LaunchTag = yarn.OozieTag(yarn.OozieLauncherTag(wu.Job.ParentID, a.ID, a.Name))
		wu.Follow = append(wu.Follow, ar.ID)
		u.Notes = append(u.Notes, fmt.Sprintf("action %s RUNNING in Oozie launcher %s: gozie follows it by its "+
			"YARN id (tag %s) and continues the workflow when its application ends, by its final status",
			a.ID, a.ExternalID, ar.LaunchTag))
	case RerunRunning:
		ar.Status, ar.ExternalID, ar.ExternalStatus, ar.StartTime = store.ActionPrep, "", "", time.Time{}
		wu.Rerun = append(wu.Rerun, ar.ID)
		u.Notes = append(u.Notes, fmt.Sprintf("action %s RUNNING in Oozie launcher %s: gozie runs the node again "+
			"(kill the Oozie launcher first)", a.ID, a.ExternalID))
	default:
		return fmt.Errorf("action %s is RUNNING in Oozie launcher %s: gozie leaves it to Oozie; import with "+
			"-running-actions=follow to follow that YARN application, or -running-actions=rerun to run the node "+
			"again in gozie", a.ID, a.ExternalID)
	}
	return nil
}

// attachSLAs adds the SLA registrations of u's jobs and actions.
func (p *planner) attachSLAs(u *Unit) {
	if u.Verdict != Import {
		return
	}
	owned := map[string]string{} // id → bundle id
	add := func(id, bundle string) { owned[id] = bundle }
	if u.Bundle != nil {
		add(u.Bundle.ID, u.Bundle.ID)
	}
	for _, c := range u.Coords {
		add(c.Job.ID, c.Job.BundleID)
		for _, a := range c.Actions {
			add(a.ID, c.Job.BundleID)
		}
	}
	for _, w := range u.Workflows {
		add(w.Job.ID, "")
		for _, a := range w.Actions {
			add(a.ID, "")
		}
	}
	ids := make([]string, 0, len(owned))
	for id := range owned {
		if _, ok := p.s.SLAs[id]; ok {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		row, err := slaRow(p.s.SLAs[id], owned[id])
		if err != nil {
			u.refuse(err)
			return
		}
		u.SLAs = append(u.SLAs, row)
	}
}

// ---- conversions: Oozie's rows to gozie's ----

// status parses an Oozie status string against gozie's list of the same
// names; anything else is an E0303 on the column.
func status[S ~string](table, id, column, v string, all []S) (S, error) {
	for _, s := range all {
		if string(s) == v {
			return s, nil
		}
	}
	return "", &FieldError{Table: table, ID: id, Column: column, Code: oozieerr.E0303,
		Err: fmt.Errorf("unknown status %q", v)}
}

func coordRow(c CoordJob, f oozietime.Format) (store.CoordJob, error) {
	if c.Err != nil {
		return store.CoordJob{}, c.Err
	}
	st, err := status("COORD_JOBS", c.ID, "status", c.Status, store.JobStatuses)
	if err != nil {
		return store.CoordJob{}, err
	}
	props, err := conf.ParseConfigurationXML(c.Conf, "coordinator job "+c.ID+" configuration")
	if err != nil {
		return store.CoordJob{}, &FieldError{Table: "COORD_JOBS", ID: c.ID, Column: "conf", Code: oozieerr.E0700, Err: err}
	}
	if _, err := coordinator.LoadJob(c.JobXML, props, f); err != nil {
		return store.CoordJob{}, &FieldError{Table: "COORD_JOBS", ID: c.ID, Column: "job_xml", Code: oozieerr.E0701, Err: err}
	}
	return store.CoordJob{ID: c.ID, AppName: c.AppName, AppPath: c.AppPath, User: c.User, Group: c.Group, ACL: c.Group,
		Status: st, BundleID: c.BundleID, ExternalID: c.ExternalID, Conf: c.Conf, Definition: c.JobXML,
		OrigDefinition: c.OrigJobXML, Frequency: c.Frequency, TimeUnit: c.TimeUnit, TimeZone: c.TimeZone,
		Concurrency: c.Concurrency, Timeout: c.Timeout, Throttle: c.Throttle, ExecutionOrder: c.Execution,
		StartTime: c.Start, EndTime: c.End, PauseTime: c.Pause, LastActionNumber: c.LastActionNumber,
		LastActionTime: c.LastAction, NextMaterializedTime: c.NextMatd, DoneMaterialization: c.DoneMaterialization,
		Pending: c.Pending, SuspendedTime: c.Suspended, CreatedTime: c.Created, LastModified: c.LastModified}, nil
}

func coordActionRow(a CoordAction, job store.CoordJob, f oozietime.Format) (store.CoordAction, error) {
	if a.Err != nil {
		return store.CoordAction{}, a.Err
	}
	st, err := status("COORD_ACTIONS", a.ID, "status", a.Status, store.CoordActionStatuses)
	if err != nil {
		return store.CoordAction{}, err
	}
	if !st.Terminal() {
		props, err := conf.ParseConfigurationXML(job.Conf, "coordinator job "+job.ID+" configuration")
		if err == nil {
			_, err = coordinator.ParseActionXML(a.ActionXML, props, f)
		}
		if err != nil {
			return store.CoordAction{}, &FieldError{Table: "COORD_ACTIONS", ID: a.ID, Column: "action_xml",
				Code: oozieerr.E0701, Err: err}
		}
	}
	return store.CoordAction{ID: a.ID, JobID: a.JobID, ActionNumber: a.ActionNumber, Status: st,
		NominalTime: a.Nominal, ExternalID: a.ExternalID, ExternalStatus: a.ExternalStatus, TrackerURI: a.TrackerURI,
		ConsoleURL: a.ConsoleURL, ErrorCode: a.ErrorCode, ErrorMessage: a.ErrorMessage, CreatedConf: a.CreatedConf,
		RunConf: a.RunConf, ActionXML: a.ActionXML, MissingDependencies: a.MissingDeps,
		PushMissingDependencies: a.PushMissingDeps, Timeout: a.Timeout, Pending: a.Pending, CreatedTime: a.Created,
		LastModified: a.LastModified}, nil
}

func bundleRow(b BundleJob) (store.BundleJob, error) {
	if b.Err != nil {
		return store.BundleJob{}, b.Err
	}
	st, err := status("BUNDLE_JOBS", b.ID, "status", b.Status, store.JobStatuses)
	if err != nil {
		return store.BundleJob{}, err
	}
	return store.BundleJob{ID: b.ID, AppName: b.AppName, AppPath: b.AppPath, User: b.User, Group: b.Group, ACL: b.Group,
		Status: st, ExternalID: b.ExternalID, Conf: b.Conf, Definition: b.JobXML, OrigDefinition: b.OrigJobXML,
		KickoffTime: b.Kickoff, StartTime: b.Start, EndTime: b.End, PauseTime: b.Pause, SuspendedTime: b.Suspended,
		TimeOut: b.Timeout, CreatedTime: b.Created, LastModified: b.LastModified}, nil
}

func bundleActionRow(a BundleAction) (store.BundleAction, error) {
	if a.Err != nil {
		return store.BundleAction{}, a.Err
	}
	st, err := status("BUNDLE_ACTIONS", a.ID, "status", a.Status, store.JobStatuses)
	if err != nil {
		return store.BundleAction{}, err
	}
	return store.BundleAction{ID: a.ID, BundleID: a.BundleID, CoordName: a.CoordName, CoordID: a.CoordID, Status: st,
		Critical: a.Critical, LastModified: a.LastModified}, nil
}

func workflowRow(w WorkflowJob) (store.WorkflowJob, error) {
	if w.Err != nil {
		return store.WorkflowJob{}, w.Err
	}
	st, err := status("WF_JOBS", w.ID, "status", w.Status, store.WorkflowStatuses)
	if err != nil {
		return store.WorkflowJob{}, err
	}
	if _, err := workflow.Parse([]byte(w.Definition)); err != nil {
		return store.WorkflowJob{}, &FieldError{Table: "WF_JOBS", ID: w.ID, Column: "wf_instance", Code: oozieerr.E0701, Err: err}
	}
	return store.WorkflowJob{ID: w.ID, AppName: w.AppName, AppPath: w.AppPath, User: w.User, Group: w.Group, ACL: w.Group,
		Status: st, Run: w.Run, ParentID: w.ParentID, ExternalID: w.ExternalID, Conf: w.Conf, Definition: w.Definition,
		CreatedTime: w.Created, StartTime: w.Start, EndTime: w.End, LastModified: w.LastModified}, nil
}

func workflowActionRow(a WorkflowAction) (store.WorkflowAction, error) {
	if a.Err != nil {
		return store.WorkflowAction{}, a.Err
	}
	st, err := status("WF_ACTIONS", a.ID, "status", a.Status, store.ActionStatuses)
	if err != nil {
		return store.WorkflowAction{}, err
	}
	last := a.LastCheck
	for _, t := range []time.Time{a.End, a.Start, a.Created} {
		if t.After(last) {
			last = t
		}
	}
	return store.WorkflowAction{ID: a.ID, JobID: a.JobID, Name: a.Name, Type: a.Type, Status: st, Conf: a.Conf,
		Transition: a.Transition, ExternalID: a.ExternalID, ExternalStatus: a.ExternalStatus,
		ExternalChildIDs: a.ExternalChildIDs, TrackerURI: a.TrackerURI, ConsoleURL: a.Console, ErrorCode: a.ErrorCode,
		ErrorMessage: a.ErrorMessage, Data: a.Data, Stats: a.Stats, Retries: a.Retries, UserRetryCount: a.UserRetryCount,
		UserRetryMax: a.UserRetryMax, UserRetryInterval: a.UserRetryInterval, CreatedTime: a.Created,
		StartTime: a.Start, EndTime: a.End, LastCheckTime: a.LastCheck, LastModified: last}, nil
}

func slaRow(s SLA, bundleID string) (store.SLA, error) {
	if s.Err != nil {
		return store.SLA{}, s.Err
	}
	at, err := status("SLA_REGISTRATION", s.ID, "app_type", s.AppType, store.AppTypes)
	if err != nil {
		return store.SLA{}, err
	}
	row := store.SLA{ID: s.ID, ParentID: s.ParentID, BundleID: bundleID, AppName: s.AppName, AppType: at, User: s.User,
		NominalTime: s.Nominal, ExpectedStart: s.ExpectedStart, ExpectedEnd: s.ExpectedEnd,
		ExpectedDuration: s.ExpectedDuration, ActualDuration: -1, SLAStatus: store.SLANotStarted,
		NotificationMsg: s.NotificationMsg, UpstreamApps: s.UpstreamApps, CreatedTime: s.Created,
		LastModified: s.Created}
	row.AlertEvents, row.AlertContact = slaConfig(s.SLAConfig)
	row.AlertsEnabled = row.AlertEvents != "" || row.AlertContact != ""
	if !s.HasSummary {
		return row, nil
	}
	if s.SLAStatus != "" {
		if row.SLAStatus, err = status("SLA_SUMMARY", s.ID, "sla_status", s.SLAStatus, store.SLAStatuses); err != nil {
			return store.SLA{}, err
		}
	}
	for _, e := range strings.Split(s.EventStatus, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		if _, err := status("SLA_SUMMARY", s.ID, "event_status", e, store.SLAEventStatuses); err != nil {
			return store.SLA{}, err
		}
	}
	row.ActualStart, row.ActualEnd, row.ActualDuration = s.ActualStart, s.ActualEnd, s.ActualDuration
	row.JobStatus, row.EventStatus = s.JobStatus, s.EventStatus
	if !s.LastModified.IsZero() {
		row.LastModified = s.LastModified
	}
	return row, nil
}

// slaConfig reads SLA_REGISTRATION.sla_config, Oozie's
// "{alert_events=...},{alert_contact=...}," form.
func slaConfig(s string) (events, contact string) {
	for _, part := range strings.Split(s, "},") {
		k, v, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(part), "{"), "}"), "=")
		if !ok {
			continue
		}
		switch k {
		case "alert_events":
			events = v
		case "alert_contact":
			contact = v
		}
	}
	return events, contact
}
