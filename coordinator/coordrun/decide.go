package coordrun

import (
	"slices"
	"strings"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// The decisions of the handlers and commands that the coordinator core does
// not already make, as pure functions of rows and times.

// Separators of Oozie's missing-dependency string: resolved URIs are joined
// by '#', and "!!" precedes the still unresolved latest/future instances.
const (
	instanceSeparator   = "#"
	unresolvedSeparator = "!!"
)

// materializableStatuses are the job statuses materialization runs for
// (Oozie's materialization precondition): the from list of the job's update
// by a materialization, whose moves (PREP to RUNNING, or to FAILED) are in
// store.CoordJobMachine.
var materializableStatuses = []store.JobStatus{store.JobPrep, store.JobRunning, store.JobRunningWithError}

// materializable reports whether materialization runs for a job status.
func materializable(s store.JobStatus) bool {
	return slices.Contains(materializableStatuses, s)
}

// inputCheckable reports whether the waiting actions of a job are checked:
// only RUNNING and PAUSED jobs (with or without errors), as in Oozie; a
// suspended job's actions are checked again when it is resumed.
func inputCheckable(s store.JobStatus) bool {
	switch s {
	case store.JobRunning, store.JobRunningWithError, store.JobPaused, store.JobPausedWithError:
		return true
	}
	return false
}

// rerunStatus is a job's status after a rerun of some of its actions
// (store.JobStatus.OnRerun): SUCCEEDED, SUSPENDED and RUNNING jobs run again,
// paused ones (with or without errors) stay paused, the others run with
// errors.
func rerunStatus(s store.JobStatus) store.JobStatus {
	return s.OnRerun(store.JobPaused, store.JobPausedWithError)
}

// hide maps the *WITHERROR statuses to plain ones when the server hides
// them; the rule is the coordinator package's.
var hide = coordinator.HideErrors

// actionStatusForWorkflow maps a workflow's status to its coordinator
// action's: SUCCEEDED, FAILED, KILLED and SUSPENDED carry over, PREP and
// RUNNING mean RUNNING. Only an action whose workflow is its current run
// follows it (SUBMITTED, RUNNING or SUSPENDED); ok is false when nothing
// changes.
func actionStatusForWorkflow(cur store.CoordActionStatus, wf store.WorkflowStatus) (store.CoordActionStatus, bool) {
	switch cur {
	case store.CoordActionSubmitted, store.CoordActionRunning, store.CoordActionSuspended:
	default:
		return cur, false
	}
	next := cur
	switch wf {
	case store.WorkflowSucceeded:
		next = store.CoordActionSucceeded
	case store.WorkflowFailed:
		next = store.CoordActionFailed
	case store.WorkflowKilled:
		next = store.CoordActionKilled
	case store.WorkflowSuspended:
		next = store.CoordActionSuspended
	case store.WorkflowPrep, store.WorkflowRunning:
		next = store.CoordActionRunning
	}
	return next, next != cur
}

// wfCommand is what must be done to an action's workflow so that it
// matches the action and its job.
type wfCommand string

const (
	cmdNone        wfCommand = ""
	cmdKill        wfCommand = "kill"
	cmdSuspend     wfCommand = "suspend"
	cmdResume      wfCommand = "resume"
	cmdRerunFailed wfCommand = "rerun-failed"
)

// workflowCommand compares an action (and its job's status) with its
// workflow's status and returns the command that reconciles them: kill the
// workflow of a killed action, suspend it in a suspended job, resume it when
// the job runs again, and rerun the failed nodes of a terminal workflow whose
// action was rerun with -failed and started again (SUBMITTED).
func workflowCommand(a store.CoordAction, job store.JobStatus, wf store.WorkflowStatus) wfCommand {
	if a.ExternalID == "" {
		return cmdNone
	}
	switch {
	case a.Status == store.CoordActionKilled:
		if !wf.Terminal() {
			return cmdKill
		}
	case a.Status == store.CoordActionSubmitted && wf.Terminal():
		if !job.Suspended() {
			return cmdRerunFailed
		}
	case job.Suspended():
		if (a.Status == store.CoordActionRunning || a.Status == store.CoordActionSubmitted) && wf == store.WorkflowRunning {
			return cmdSuspend
		}
	case a.Status == store.CoordActionSuspended || wf == store.WorkflowSuspended:
		if !a.Status.Terminal() && wf == store.WorkflowSuspended && !job.Terminal() {
			return cmdResume
		}
	}
	return cmdNone
}

// owesCommand reports whether an action still needs a workflow command later
// (its pending flag stays): a -failed rerun that the job's suspension holds
// back.
func owesCommand(a store.CoordAction, job store.JobStatus, wf store.WorkflowStatus) bool {
	return a.ExternalID != "" && a.Status == store.CoordActionSubmitted && wf.Terminal() && job.Suspended()
}

// since is when an action began to wait: the later of its nominal and
// creation times (Oozie measures timeouts from there).
func since(a store.CoordAction) time.Time {
	if a.CreatedTime.After(a.NominalTime) {
		return a.CreatedTime
	}
	return a.NominalTime
}

// timeoutDeadline is the first instant at which a waiting action has waited
// more whole minutes than its timeout, and false when it never times out.
func timeoutDeadline(a store.CoordAction) (time.Time, bool) {
	if a.Timeout < 0 {
		return time.Time{}, false
	}
	return since(a).Add(time.Duration(a.Timeout+1) * time.Minute), true
}

// checkInterval is the delay before the next input check of a waiting
// action: a sixteenth of how long it has waited, between lo and hi. A fresh
// action is checked often (its data is most likely to arrive soon after
// its nominal time): every lo for its first 16 lo, then ever less often, to
// once every hi after 16 hi. A notification checks it at once whatever
// the delay.
//
// late is how long after it was due this check was claimed. It is added
// (up to the delay itself) so that the checks never ask for more than the
// server serves: when the server falls behind, each action waits longer
// by as much as the server is behind, and the backlog drains instead of
// delaying the launches queued behind it; a server that keeps up (late
// near zero) checks on the backoff alone. The bound keeps a late claim for
// any other reason (a restart after downtime) from pushing a check past
// twice its backoff.
func checkInterval(a store.CoordAction, now time.Time, late, lo, hi time.Duration) time.Duration {
	d := min(max(now.Sub(since(a))/16, lo), hi)
	return d + min(max(late, 0), d)
}

// pruneAvailable drops from a missing-dependency string the URIs known to
// exist, keeping the order and the unresolved part: an instance found
// available is remembered and not checked again.
func pruneAvailable(missing string, available map[string]bool) string {
	resolved, unresolved, hasUnresolved := strings.Cut(missing, unresolvedSeparator)
	var keep []string
	for _, u := range strings.Split(resolved, instanceSeparator) {
		if strings.TrimSpace(u) != "" && !available[u] {
			keep = append(keep, u)
		}
	}
	out := strings.Join(keep, instanceSeparator)
	if hasUnresolved {
		out += unresolvedSeparator + unresolved
	}
	return out
}

// resolvedDependencies returns the URIs of a missing-dependency string
// before its unresolved part.
func resolvedDependencies(missing string) []string {
	resolved, _, _ := strings.Cut(missing, unresolvedSeparator)
	var out []string
	for _, u := range strings.Split(resolved, instanceSeparator) {
		if strings.TrimSpace(u) != "" {
			out = append(out, u)
		}
	}
	return out
}

// MissingList splits an action's missing-dependency string (resolved URIs
// joined by "#", then "!!" and the unresolved coord:latest/future
// placeholders) into its entries, in order, without repeats.
func MissingList(missing string) []string {
	var out []string
	seen := map[string]bool{}
	for _, u := range strings.Split(strings.ReplaceAll(missing, unresolvedSeparator, instanceSeparator), instanceSeparator) {
		if strings.TrimSpace(u) != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

// normalizeURI is the form URIs are matched in by notifications: without a
// trailing slash.
func normalizeURI(u string) string {
	for {
		v := strings.TrimSpace(u)
		if len(v) > 1 && strings.HasSuffix(v, "/") && !strings.HasSuffix(v[:len(v)-1], "://") {
			v = v[:len(v)-1]
		}
		if v == u {
			return u
		}
		u = v
	}
}

// waitURIs returns what an action waiting on its missing dependencies can be
// notified about: each missing dependency (with its done-flag) and the
// instance directory it belongs to, normalized.
func waitURIs(doc *coordinator.ActionDoc, missing string) []string {
	deps := resolvedDependencies(missing)
	if len(deps) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(u string) {
		if u = normalizeURI(u); u != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	isMissing := map[string]bool{}
	for _, d := range deps {
		isMissing[normalizeURI(d)] = true
		add(d)
	}
	if doc != nil {
		for _, ev := range doc.DataIns {
			if ev.Dataset == nil {
				continue
			}
			for _, u := range ev.URIs {
				if isMissing[normalizeURI(ev.Dataset.WithDoneFlag(u))] {
					add(u)
				}
			}
		}
	}
	return out
}

// occupiesSlot reports whether an action counts against the job's
// concurrency.
func occupiesSlot(s store.CoordActionStatus) bool {
	return s == store.CoordActionSubmitted || s == store.CoordActionRunning
}

// rerunnable reports whether an action may be rerun: it has finished.
func rerunnable(s store.CoordActionStatus) bool {
	switch s {
	case store.CoordActionSucceeded, store.CoordActionFailed, store.CoordActionKilled, store.CoordActionTimedOut,
		store.CoordActionSkipped, store.CoordActionIgnored:
		return true
	}
	return false
}

// ignorable reports whether an action may be ignored: it failed, was killed
// or timed out.
func ignorable(s store.CoordActionStatus) bool {
	switch s {
	case store.CoordActionFailed, store.CoordActionKilled, store.CoordActionTimedOut:
		return true
	}
	return false
}
