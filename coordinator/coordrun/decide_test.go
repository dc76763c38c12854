package coordrun

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

func TestRerunStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from, want, hidden store.JobStatus
	}{
		{store.JobSucceeded, store.JobRunning, store.JobRunning},
		{store.JobRunning, store.JobRunning, store.JobRunning},
		{store.JobSuspended, store.JobRunning, store.JobRunning},
		{store.JobPaused, store.JobPaused, store.JobPaused},
		{store.JobPausedWithError, store.JobPausedWithError, store.JobPaused},
		{store.JobDoneWithError, store.JobRunningWithError, store.JobRunning},
		{store.JobKilled, store.JobRunningWithError, store.JobRunning},
		{store.JobFailed, store.JobRunningWithError, store.JobRunning},
		{store.JobRunningWithError, store.JobRunningWithError, store.JobRunning},
	} {
		if got := rerunStatus(tc.from); got != tc.want {
			t.Errorf("rerun of a %s job: %s, want %s", tc.from, got, tc.want)
		}
		if got := hide(rerunStatus(tc.from), true); got != tc.hidden {
			t.Errorf("rerun of a %s job, errors hidden: %s, want %s", tc.from, got, tc.hidden)
		}
	}
}

func TestActionStatusForWorkflow(t *testing.T) {
	t.Parallel()
	const (
		sub  = store.CoordActionSubmitted
		run  = store.CoordActionRunning
		susp = store.CoordActionSuspended
	)
	for _, tc := range []struct {
		cur     store.CoordActionStatus
		wf      store.WorkflowStatus
		want    store.CoordActionStatus
		changed bool
	}{
		{sub, store.WorkflowPrep, run, true},
		{sub, store.WorkflowRunning, run, true},
		{sub, store.WorkflowSucceeded, store.CoordActionSucceeded, true},
		{run, store.WorkflowRunning, run, false},
		{run, store.WorkflowSuspended, susp, true},
		{susp, store.WorkflowRunning, run, true},
		{run, store.WorkflowSucceeded, store.CoordActionSucceeded, true},
		{run, store.WorkflowFailed, store.CoordActionFailed, true},
		{susp, store.WorkflowKilled, store.CoordActionKilled, true},
		// Actions that are not following a workflow do not move.
		{store.CoordActionKilled, store.WorkflowSucceeded, store.CoordActionKilled, false},
		{store.CoordActionWaiting, store.WorkflowFailed, store.CoordActionWaiting, false},
		{store.CoordActionReady, store.WorkflowRunning, store.CoordActionReady, false},
		{store.CoordActionSucceeded, store.WorkflowKilled, store.CoordActionSucceeded, false},
	} {
		got, changed := actionStatusForWorkflow(tc.cur, tc.wf)
		if got != tc.want || changed != tc.changed {
			t.Errorf("%s action, %s workflow: %s %v, want %s %v", tc.cur, tc.wf, got, changed, tc.want, tc.changed)
		}
	}
}

func TestWorkflowCommand(t *testing.T) {
	t.Parallel()
	act := func(s store.CoordActionStatus) store.CoordAction {
		return store.CoordAction{ID: "J-C@1", Status: s, ExternalID: "W-W"}
	}
	for _, tc := range []struct {
		name string
		a    store.CoordAction
		job  store.JobStatus
		wf   store.WorkflowStatus
		want wfCommand
		owes bool
	}{
		{"killed action, running workflow", act(store.CoordActionKilled), store.JobKilled, store.WorkflowRunning, cmdKill, false},
		{"killed action, suspended workflow", act(store.CoordActionKilled), store.JobRunning, store.WorkflowSuspended, cmdKill, false},
		{"killed action, workflow ended", act(store.CoordActionKilled), store.JobKilled, store.WorkflowKilled, cmdNone, false},
		{"suspended job", act(store.CoordActionRunning), store.JobSuspended, store.WorkflowRunning, cmdSuspend, false},
		{"suspended job, suspended workflow", act(store.CoordActionSuspended), store.JobSuspended, store.WorkflowSuspended, cmdNone, false},
		{"resumed job", act(store.CoordActionSuspended), store.JobRunning, store.WorkflowSuspended, cmdResume, false},
		{"resumed job, workflow resumed", act(store.CoordActionRunning), store.JobRunning, store.WorkflowRunning, cmdNone, false},
		{"failed rerun", act(store.CoordActionSubmitted), store.JobRunning, store.WorkflowFailed, cmdRerunFailed, false},
		{"failed rerun held by a suspension", act(store.CoordActionSubmitted), store.JobSuspended, store.WorkflowFailed, cmdNone, true},
		{"no workflow", store.CoordAction{Status: store.CoordActionKilled}, store.JobKilled, "", cmdNone, false},
		{"finished job", act(store.CoordActionSuspended), store.JobKilled, store.WorkflowSuspended, cmdNone, false},
	} {
		if got := workflowCommand(tc.a, tc.job, tc.wf); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		if got := owesCommand(tc.a, tc.job, tc.wf); got != tc.owes {
			t.Errorf("%s: owes a command %v, want %v", tc.name, got, tc.owes)
		}
	}
}

func TestTimeoutDeadlineAndInterval(t *testing.T) {
	t.Parallel()
	nt := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		a       store.CoordAction
		want    time.Time
		expires bool
	}{
		{"from the nominal time", store.CoordAction{NominalTime: nt, CreatedTime: nt.Add(-time.Hour), Timeout: 10}, nt.Add(11 * time.Minute), true},
		{"from a later creation", store.CoordAction{NominalTime: nt, CreatedTime: nt.Add(time.Hour), Timeout: 0}, nt.Add(61 * time.Minute), true},
		{"never", store.CoordAction{NominalTime: nt, Timeout: -1}, time.Time{}, false},
	} {
		got, ok := timeoutDeadline(tc.a)
		if !got.Equal(tc.want) || ok != tc.expires {
			t.Errorf("%s: %v %v, want %v %v", tc.name, got, ok, tc.want, tc.expires)
		}
	}
	a := store.CoordAction{NominalTime: nt, CreatedTime: nt}
	for _, tc := range []struct {
		waited, late, want time.Duration
	}{{0, 0, time.Second}, {16 * time.Second, 0, time.Second}, {20 * time.Second, 0, 1250 * time.Millisecond},
		{160 * time.Second, 0, 10 * time.Second}, {16 * time.Minute, 0, time.Minute}, {5 * time.Hour, 0, time.Minute},
		// a late check waits longer by its lateness, at most twice its backoff
		{20 * time.Second, 300 * time.Millisecond, 1550 * time.Millisecond},
		{160 * time.Second, -time.Second, 10 * time.Second},
		{0, time.Hour, 2 * time.Second}, {5 * time.Hour, 5 * time.Hour, 2 * time.Minute}} {
		if got := checkInterval(a, nt.Add(tc.waited), tc.late, time.Second, time.Minute); got != tc.want {
			t.Errorf("after %v of waiting, claimed %v late: next check in %v, want %v", tc.waited, tc.late, got, tc.want)
		}
	}
	waiting := []store.CoordAction{
		{ID: "J@3", NominalTime: nt, CreatedTime: nt, Timeout: 5},
		{ID: "J@1", NominalTime: nt, CreatedTime: nt, Timeout: 1},
		{ID: "J@2", NominalTime: nt, CreatedTime: nt, Timeout: 30},
		{ID: "J@4", NominalTime: nt, CreatedTime: nt, Timeout: -1},
	}
	due, next := expiredActions(waiting, nt.Add(6*time.Minute))
	if !slices.Equal(due, []string{"J@1", "J@3"}) || !next.Equal(nt.Add(31*time.Minute)) {
		t.Errorf("expired at +6m: %v, next %v", due, next)
	}
}

func TestMissingDependencies(t *testing.T) {
	t.Parallel()
	const a, b, c = "hdfs://nn/a/_SUCCESS", "hdfs://nn/b/_SUCCESS", "hdfs://nn/c/_SUCCESS"
	for _, tc := range []struct {
		missing   string
		available []string
		want      string
	}{
		{a + "#" + b + "#" + c, []string{b}, a + "#" + c},
		{a + "#" + b, nil, a + "#" + b},
		{a + "#" + b + "!!${coord:latest(0)}", []string{b}, a + "!!${coord:latest(0)}"},
		{a + "!!${coord:latest(0)}#${coord:latest(-1)}", []string{a}, "!!${coord:latest(0)}#${coord:latest(-1)}"},
		{"", []string{a}, ""},
	} {
		av := map[string]bool{}
		for _, u := range tc.available {
			av[u] = true
		}
		if got := pruneAvailable(tc.missing, av); got != tc.want {
			t.Errorf("prune %q of %v: %q, want %q", tc.missing, tc.available, got, tc.want)
		}
	}
	if got := resolvedDependencies(a + "#" + b + "!!${coord:latest(0)}"); !slices.Equal(got, []string{a, b}) {
		t.Errorf("resolved dependencies: %v", got)
	}
}

func TestWaitURIs(t *testing.T) {
	t.Parallel()
	withFlag := &coordinator.Dataset{Name: "logs", HasDoneFlag: false}
	dirOnly := &coordinator.Dataset{Name: "dirs", HasDoneFlag: true}
	doc := &coordinator.ActionDoc{DataIns: []coordinator.ResolvedEvent{
		{Name: "in", Dataset: withFlag, URIs: []string{"hdfs://nn/logs/01/", "hdfs://nn/logs/00"}},
		{Name: "d", Dataset: dirOnly, URIs: []string{"hdfs://nn/dirs/00"}},
	}}
	missing := "hdfs://nn/logs/00/_SUCCESS#hdfs://nn/dirs/00!!${coord:latest(0)}"
	want := []string{"hdfs://nn/logs/00/_SUCCESS", "hdfs://nn/dirs/00", "hdfs://nn/logs/00"}
	if got := waitURIs(doc, missing); !slices.Equal(got, want) {
		t.Errorf("wait URIs %v, want %v", got, want)
	}
	if got := waitURIs(nil, missing); !slices.Equal(got, want[:2]) {
		t.Errorf("without the document: %v", got)
	}
	for in, want := range map[string]string{"hdfs://nn/a/": "hdfs://nn/a", "file:///": "file:///", " /x// ": "/x", "/": "/"} {
		if got := normalizeURI(in); got != want {
			t.Errorf("normalize %q = %q, want %q", in, got, want)
		}
	}
}

func TestRollupDecision(t *testing.T) {
	t.Parallel()
	now := time.Date(2010, 1, 1, 12, 0, 0, 0, time.UTC)
	c := func(kv ...any) map[store.CoordActionStatus]int {
		m := map[store.CoordActionStatus]int{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(store.CoordActionStatus)] = kv[i+1].(int)
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		job    store.CoordJob
		counts map[store.CoordActionStatus]int
		hide   bool
		want   store.JobStatus
	}{
		{"running", store.CoordJob{Status: store.JobRunning}, c(store.CoordActionRunning, 3), true, store.JobRunning},
		{"error hidden", store.CoordJob{Status: store.JobRunning}, c(store.CoordActionTimedOut, 1, store.CoordActionWaiting, 2), true, store.JobRunning},
		{"error shown", store.CoordJob{Status: store.JobRunning}, c(store.CoordActionTimedOut, 1, store.CoordActionWaiting, 2), false, store.JobRunningWithError},
		{"succeeded", store.CoordJob{Status: store.JobRunning, DoneMaterialization: true}, c(store.CoordActionSucceeded, 500000, store.CoordActionSkipped, 3), true, store.JobSucceeded},
		{"ignored left out", store.CoordJob{Status: store.JobRunning, DoneMaterialization: true}, c(store.CoordActionSucceeded, 2, store.CoordActionIgnored, 1), true, store.JobSucceeded},
		{"done with error", store.CoordJob{Status: store.JobRunning, DoneMaterialization: true}, c(store.CoordActionSucceeded, 2, store.CoordActionTimedOut, 1), true, store.JobDoneWithError},
		{"all failed", store.CoordJob{Status: store.JobRunning, DoneMaterialization: true}, c(store.CoordActionFailed, 2), true, store.JobFailed},
		{"killed stays killed", store.CoordJob{Status: store.JobKilled, DoneMaterialization: true}, c(store.CoordActionKilled, 1, store.CoordActionSucceeded, 4), true, store.JobKilled},
		{"failed without actions stays failed", store.CoordJob{Status: store.JobFailed}, c(), true, store.JobFailed},
		{"done without actions succeeds", store.CoordJob{Status: store.JobRunning, DoneMaterialization: true}, c(), true, store.JobSucceeded},
		{"pause reached", store.CoordJob{Status: store.JobRunning, PauseTime: now}, c(store.CoordActionRunning, 1), true, store.JobPaused},
		{"pause reached with errors shown", store.CoordJob{Status: store.JobRunning, PauseTime: now}, c(store.CoordActionFailed, 1), false, store.JobPausedWithError},
		{"pause lifted", store.CoordJob{Status: store.JobPaused}, c(store.CoordActionRunning, 1), true, store.JobRunning},
		{"prep untouched", store.CoordJob{Status: store.JobPrep}, c(), true, store.JobPrep},
	} {
		if got := rollup(tc.job, present(tc.counts), false, now, tc.hide); got.Status != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got.Status, tc.want)
		}
	}
	// Bottom-up: a done job whose only unfinished actions are suspended is
	// SUSPENDED, unless a command is still in flight.
	job := store.CoordJob{Status: store.JobRunning, DoneMaterialization: true}
	counts := c(store.CoordActionSucceeded, 3, store.CoordActionSuspended, 1)
	if got := rollup(job, present(counts), false, now, true); got.Status != store.JobSuspended {
		t.Errorf("bottom-up suspended: %s", got.Status)
	}
	if got := rollup(job, present(counts), true, now, true); got.Status != store.JobRunning || !got.Pending {
		t.Errorf("bottom-up while pending: %+v", got)
	}
}

// present is what the store's PresentCoordActionStatuses reports for these
// counts.
func present(counts map[store.CoordActionStatus]int) []store.CoordActionStatus {
	var out []store.CoordActionStatus
	for _, s := range store.CoordActionStatuses {
		if counts[s] > 0 {
			out = append(out, s)
		}
	}
	return out
}

// TestRollupMatchesFullList checks the claim rollup relies on: the core's
// roll-up of one entry per present status equals its roll-up of every
// action, for random mixes.
func TestRollupMatchesFullList(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		var all []store.CoordActionStatus
		counts := map[store.CoordActionStatus]int{}
		for n := rnd.IntN(6); n > 0; n-- {
			s := store.CoordActionStatuses[rnd.IntN(len(store.CoordActionStatuses))]
			k := 1 + rnd.IntN(3)
			counts[s] += k
			for j := 0; j < k; j++ {
				all = append(all, s)
			}
		}
		job := store.CoordJob{Status: store.JobStatuses[rnd.IntN(len(store.JobStatuses))], DoneMaterialization: rnd.IntN(2) == 0}
		pending, hideErr := rnd.IntN(2) == 0, rnd.IntN(2) == 0
		var unignored []store.CoordActionStatus
		for _, s := range all {
			if s != store.CoordActionIgnored {
				unignored = append(unignored, s)
			}
		}
		if len(unignored) == 0 && job.Status.Terminal() {
			continue // rollup keeps those, on purpose
		}
		// rollup applies the pause time first; with none set, a paused job
		// runs again.
		status := hide(job.Status.WithPause(time.Time{}, time.Time{}), hideErr)
		want := coordinator.RollupCoordinator(coordinator.JobRollup{Status: status, DoneMaterialization: job.DoneMaterialization,
			Pending: pending, Actions: unignored}, hideErr)
		if got := rollup(job, present(counts), pending, time.Time{}, hideErr); got.Status != want {
			t.Fatalf("job %+v with %v (pending %v, hide %v): %s, full list gives %s", job, counts, pending, hideErr, got.Status, want)
		}
	}
}

func TestIsCoordActionID(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]bool{
		"0000001-250127091857123-oozie-oozi-C@12": true,
		"0000001-250127091857123-oozie-oozi-C@":   false,
		"0000001-250127091857123-oozie-oozi-W@12": false,
		"0000001-250127091857123-oozie-oozi-C@x1": false,
		"0000001-250127091857123-oozie-oozi-C":    false,
		"":                                        false,
		"-C@3":                                    true,
		"-C@":                                     false,
		"@3":                                      false,
		"0000001-250127091857123-oozie-oozi-C@3@4": false,
	} {
		if got := isCoordActionID(id); got != want {
			t.Errorf("isCoordActionID(%q) = %v", id, got)
		}
	}
}

func TestImminentActions(t *testing.T) {
	t.Parallel()
	ready := []store.CoordAction{{ID: "J@3", Status: store.CoordActionReady}}
	waiting := []store.CoordAction{
		{ID: "J@1", Status: store.CoordActionWaiting},
		{ID: "J@2", Status: store.CoordActionWaiting, MissingDependencies: "hdfs://nn/x/_SUCCESS"},
	}
	cands, imminent := withImminent(ready, waiting)
	if len(cands) != 2 || cands[1].ID != "J@1" || cands[1].Status != store.CoordActionReady || !imminent["J@1"] || imminent["J@2"] {
		t.Fatalf("candidates %+v imminent %v", cands, imminent)
	}
	if got := withoutImminent(cands, imminent); len(got) != 1 || got[0].ID != "J@3" {
		t.Fatalf("without imminent: %+v", got)
	}
}
