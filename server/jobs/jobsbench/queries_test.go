package jobsbench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"

	"github.com/gozie/gozie/store"
)

// restQuery is one kind of request of the benchmark.
type restQuery struct {
	name string
	// openLoop marks the queries also measured in an open loop (benchOpenLoop).
	openLoop bool
	// draw picks one request: its URL, and the full check of its answer (used before the
	// load; during it only the status and the shape are checked, to leave the CPU to
	// the server).
	draw func(rng *rand.Rand) (string, func(body []byte) error)
}

// The parts of the answers the checks read.
type (
	actionJSON struct {
		ID           string `json:"id"`
		JobID        string `json:"coordJobId"`
		ActionNumber int    `json:"actionNumber"`
		Status       string `json:"status"`
		ExternalID   string `json:"externalId"`
		CreatedConf  string `json:"createdConf"`
	}
	coordJSON struct {
		ID      string       `json:"coordJobId"`
		Status  string       `json:"status"`
		User    string       `json:"user"`
		Total   int          `json:"total"`
		Actions []actionJSON `json:"actions"`
	}
	coordListJSON struct {
		Jobs  []coordJSON `json:"coordinatorjobs"`
		Total int         `json:"total"`
	}
	workflowJSON struct {
		ID       string `json:"id"`
		Status   string `json:"status"`
		User     string `json:"user"`
		ParentID string `json:"parentId"`
	}
	workflowListJSON struct {
		Workflows []workflowJSON `json:"workflows"`
		Total     int            `json:"total"`
	}
)

// pageLen is the len of every paged request, as a dashboard asks for.
const pageLen = 50

// restQueries are the requests of BenchmarkREST against the fixture of spec served at
// base (a URL ending in the context path).
func restQueries(spec Spec, base string) []restQuery {
	a := spec.ActionsPerCoordinator
	info := func(desc, middle bool) func(rng *rand.Rand) (string, func([]byte) error) {
		return func(rng *rand.Rand) (string, func([]byte) error) {
			i, offset := rng.IntN(spec.Coordinators), 1
			if middle {
				offset = 1 + rng.IntN(max(1, a-pageLen+1))
			}
			q := url.Values{"show": {"info"}, "len": {fmt.Sprint(pageLen)}, "offset": {fmt.Sprint(offset)}}
			if desc {
				q.Set("order", "desc")
			}
			return base + "/v2/job/" + CoordID(i) + "?" + q.Encode(), func(body []byte) error {
				return checkCoordInfo(spec, body, i, offset, pageLen, desc)
			}
		}
	}
	wf := workflowsByUser(spec)
	return []restQuery{
		// v2 without len: the job and its action count, no actions (the CLI's -info).
		{"info-nolen", true, func(rng *rand.Rand) (string, func([]byte) error) {
			i := rng.IntN(spec.Coordinators)
			return base + "/v2/job/" + CoordID(i) + "?show=info", func(body []byte) error {
				return checkCoordInfo(spec, body, i, 1, 0, false)
			}
		}},
		{"info", false, info(false, false)},
		{"info-offset", false, info(false, true)},
		{"info-desc", false, info(true, false)},
		{"info-desc-offset", false, info(true, true)},
		{"action", true, func(rng *rand.Rand) (string, func([]byte) error) {
			i, n := rng.IntN(spec.Coordinators), 1+rng.IntN(a)
			return base + "/v2/job/" + CoordActionID(i, n), func(body []byte) error {
				return checkAction(spec, body, i, n)
			}
		}},
		{"coord-list", true, func(rng *rand.Rand) (string, func([]byte) error) {
			u := rng.IntN(spec.Users)
			return base + "/v2/jobs?jobtype=coordinator&len=50&filter=" +
					url.QueryEscape("status=RUNNING;user="+spec.User(u)), func(body []byte) error {
					return checkCoordList(spec, body, u)
				}
		}},
		{"wf-list-running", true, func(rng *rand.Rand) (string, func([]byte) error) {
			u := rng.IntN(spec.Users)
			return base + "/v2/jobs?jobtype=wf&len=50&filter=" + url.QueryEscape("status=RUNNING;user="+spec.User(u)),
				func(body []byte) error { return checkWorkflowList(body, wf.running[u], spec.User(u), "RUNNING") }
		}},
		{"wf-list-user", true, func(rng *rand.Rand) (string, func([]byte) error) {
			u := rng.IntN(spec.Users)
			return base + "/v2/jobs?jobtype=wf&len=50&filter=" + url.QueryEscape("user="+spec.User(u)),
				func(body []byte) error { return checkWorkflowList(body, wf.all[u], spec.User(u), "") }
		}},
	}
}

// checkCoordInfo checks a coordinator's info page of length actions from offset: the
// job, the total and every action of the page in the order asked for.
func checkCoordInfo(spec Spec, body []byte, i, offset, length int, desc bool) error {
	var got coordJSON
	if err := json.Unmarshal(body, &got); err != nil {
		return fmt.Errorf("decoding coordinator info: %w", err)
	}
	a := spec.ActionsPerCoordinator
	if got.ID != CoordID(i) || got.Status != string(CoordStatus(i)) || got.Total != a {
		return fmt.Errorf("coordinator info: got id %s status %s total %d, want %s %s %d",
			got.ID, got.Status, got.Total, CoordID(i), CoordStatus(i), a)
	}
	if want := min(length, a-offset+1); len(got.Actions) != want {
		return fmt.Errorf("coordinator info: %d actions, want %d", len(got.Actions), want)
	}
	for k, act := range got.Actions {
		n := offset + k
		if desc {
			n = a - offset + 1 - k
		}
		if err := checkActionJSON(spec, act, i, n); err != nil {
			return fmt.Errorf("coordinator info, action %d of the page: %w", k, err)
		}
	}
	return nil
}

// checkAction checks the info of one coordinator action.
func checkAction(spec Spec, body []byte, i, n int) error {
	var got actionJSON
	if err := json.Unmarshal(body, &got); err != nil {
		return fmt.Errorf("decoding coordinator action: %w", err)
	}
	return checkActionJSON(spec, got, i, n)
}

func checkActionJSON(spec Spec, got actionJSON, i, n int) error {
	st := spec.ActionStatus(i, n)
	_, hasWF := workflowStatus(st)
	wantExt := ""
	if hasWF {
		wantExt = spec.WorkflowID(i, n)
	}
	if got.ID != CoordActionID(i, n) || got.JobID != CoordID(i) || got.ActionNumber != n || got.Status != string(st) ||
		got.ExternalID != wantExt || len(got.CreatedConf) < 500 {
		return fmt.Errorf("got action %s (job %s, number %d, status %s, workflow %q, %d bytes of conf), want %s (%s, %d, %s, %q)",
			got.ID, got.JobID, got.ActionNumber, got.Status, got.ExternalID, len(got.CreatedConf),
			CoordActionID(i, n), CoordID(i), n, st, wantExt)
	}
	return nil
}

// checkCoordList checks a listing of user u's RUNNING coordinators: the total, and the
// page newest first (coordinator i is created after i-1).
func checkCoordList(spec Spec, body []byte, u int) error {
	var got coordListJSON
	if err := json.Unmarshal(body, &got); err != nil {
		return fmt.Errorf("decoding coordinator list: %w", err)
	}
	var want []string
	for i := spec.Coordinators - 1; i >= 0; i-- {
		if i%spec.Users == u && CoordStatus(i) == store.JobRunning {
			want = append(want, CoordID(i))
		}
	}
	if got.Total != len(want) || len(got.Jobs) != min(pageLen, len(want)) {
		return fmt.Errorf("coordinator list: total %d, %d jobs; want %d, %d", got.Total, len(got.Jobs), len(want),
			min(pageLen, len(want)))
	}
	for k, j := range got.Jobs {
		if j.ID != want[k] || j.Status != string(store.JobRunning) || j.User != spec.User(u) {
			return fmt.Errorf("coordinator list: job %d is %s (%s, %s), want %s", k, j.ID, j.Status, j.User, want[k])
		}
	}
	return nil
}

// userWorkflows is what the workflow listings of one user should answer: how many
// match and the id of the newest.
type userWorkflows struct {
	total  int
	newest string
}

// workflowsOfUsers holds, by user number, the RUNNING workflows and all workflows.
type workflowsOfUsers struct {
	running, all []userWorkflows
}

// workflowsByUser computes the expected workflow listings from the spec.
func workflowsByUser(spec Spec) workflowsOfUsers {
	out := workflowsOfUsers{running: make([]userWorkflows, spec.Users), all: make([]userWorkflows, spec.Users)}
	newestRunning := make([]int64, spec.Users)
	newestAll := make([]int64, spec.Users)
	for i := range spec.Coordinators {
		u := i % spec.Users
		for n := spec.ActionsPerCoordinator - spec.WorkflowsPerCoordinator + 1; n <= spec.ActionsPerCoordinator; n++ {
			if !spec.HasWorkflow(i, n) {
				continue
			}
			// Workflows are created three minutes after their nominal time; listings
			// are newest first, the greater id first among equal times.
			at, id := NominalTime(i, n).Unix(), spec.WorkflowID(i, n)
			ws, _ := workflowStatus(spec.ActionStatus(i, n))
			newer := func(t int64, cur string) bool { return at > t || (at == t && id > cur) }
			out.all[u].total++
			if newer(newestAll[u], out.all[u].newest) {
				newestAll[u], out.all[u].newest = at, id
			}
			if ws == store.WorkflowRunning {
				out.running[u].total++
				if newer(newestRunning[u], out.running[u].newest) {
					newestRunning[u], out.running[u].newest = at, id
				}
			}
		}
	}
	return out
}

// checkWorkflowList checks a workflow listing of user (and status, if not empty).
func checkWorkflowList(body []byte, want userWorkflows, user, status string) error {
	var got workflowListJSON
	if err := json.Unmarshal(body, &got); err != nil {
		return fmt.Errorf("decoding workflow list: %w", err)
	}
	if got.Total != want.total || len(got.Workflows) != min(pageLen, want.total) {
		return fmt.Errorf("workflow list: total %d, %d jobs; want %d, %d", got.Total, len(got.Workflows), want.total,
			min(pageLen, want.total))
	}
	if want.total > 0 && got.Workflows[0].ID != want.newest {
		return fmt.Errorf("workflow list: newest is %s, want %s", got.Workflows[0].ID, want.newest)
	}
	for _, w := range got.Workflows {
		if w.User != user || (status != "" && w.Status != status) || w.ParentID == "" {
			return fmt.Errorf("workflow list: %s is %s of %s (parent %q), want %q of %s", w.ID, w.Status, w.User,
				w.ParentID, status, user)
		}
	}
	return nil
}
