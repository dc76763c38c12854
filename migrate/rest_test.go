package migrate

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/gozie/gozie/cli"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/server/slaapi"
)

// After the import, gozie's REST API and CLI answer with Oozie's ids: `gozie
// job -info` of a coordinator shows its id, its last action and its next
// materialization time, the jobs listings show the imported history and
// /v2/sla the SLA records.
func TestRESTShowsImportedJobs(t *testing.T) {
	t.Parallel()
	eachSource(t, func(t *testing.T, src sourceKind) {
		o := newOozie(t, src, "hdfs://nn:8020")
		env := jobstest.New(t)
		if err := slaapi.Register(env.Server, slaapi.Deps{Store: env.Store, Clock: env.Clock}); err != nil {
			t.Fatal(err)
		}
		for _, r := range (&Importer{Store: env.Store, Now: fixedNow}).Import(bg, o.plan(t, since30d)) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
		}
		h := o.fx.Hourly
		var out, errOut strings.Builder
		code := cli.Run(bg, []string{"job", "-oozie", env.URL, "-info", h.ID}, cli.Env{Stdout: &out, Stderr: &errOut,
			Getenv: func(string) string { return "" }, HTTPClient: http.DefaultClient,
			User: func() (string, error) { return "alice", nil }})
		if code != 0 {
			t.Fatalf("gozie job -info: exit %d: %s", code, errOut.String())
		}
		info := out.String()
		lastAction := h.ID + "@" + strconv.Itoa(h.LastActionNumber)
		for _, want := range []string{"Job ID : " + h.ID, lastAction, "WAITING", "READY"} {
			if !strings.Contains(info, want) {
				t.Errorf("job -info lacks %q:\n%s", want, info)
			}
		}

		out.Reset()
		if code := cli.Run(bg, []string{"jobs", "-oozie", env.URL, "-jobtype", "coordinator"}, cli.Env{Stdout: &out,
			Stderr: &errOut, Getenv: func(string) string { return "" }, HTTPClient: http.DefaultClient}); code != 0 {
			t.Fatalf("gozie jobs: exit %d: %s", code, errOut.String())
		}
		if l := lineOf(out.String(), h.ID); !strings.Contains(l, "2026-03-10 11:00 GMT") {
			t.Errorf("gozie jobs: the hourly coordinator's line %q lacks its next materialization", l)
		}

		var job struct {
			ID   string `json:"coordJobId"`
			Next string `json:"nextMaterializedTime"`
			Last string `json:"lastAction"`
			Acts []struct {
				Number int `json:"actionNumber"`
			} `json:"actions"`
		}
		getJSON(t, env.URL+"/v2/job/"+h.ID+"?show=info&len=100", &job)
		maxN := 0
		for _, a := range job.Acts {
			maxN = max(maxN, a.Number)
		}
		next := h.NextMatd.Format("Mon, 02 Jan 2006 15:04:05 GMT")
		if job.ID != h.ID || job.Next != next || maxN != h.LastActionNumber {
			t.Errorf("REST info: id %s, next %q, last action number %d; want %s, %q, %d", job.ID, job.Next, maxN, h.ID,
				next, h.LastActionNumber)
		}

		var coords struct {
			Jobs []struct {
				ID string `json:"coordJobId"`
			} `json:"coordinatorjobs"`
		}
		getJSON(t, env.URL+"/v2/jobs?jobtype=coordinator&len=100", &coords)
		var wfs struct {
			Jobs []struct {
				ID string `json:"id"`
			} `json:"workflows"`
		}
		getJSON(t, env.URL+"/v2/jobs?jobtype=wf&len=100", &wfs)
		listed := map[string]bool{}
		for _, j := range coords.Jobs {
			listed[j.ID] = true
		}
		for _, j := range wfs.Jobs {
			listed[j.ID] = true
		}
		for _, id := range []string{h.ID, o.fx.Suspended.ID, o.fx.Paused.ID, o.fx.History, h.Workflows[h.LastActionNumber-3]} {
			if !listed[id] {
				t.Errorf("job %s is not listed", id)
			}
		}

		var slas struct {
			List []struct {
				ID     string `json:"id"`
				Status string `json:"slaStatus"`
			} `json:"slaSummaryList"`
		}
		getJSON(t, env.URL+"/v2/sla?timezone=GMT&filter="+url.QueryEscape("app_name=history-wf"), &slas)
		if len(slas.List) != 1 || slas.List[0].ID != o.fx.History || slas.List[0].Status != "MET" {
			t.Errorf("/v2/sla for the imported workflow: %+v", slas.List)
		}
	})
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", u, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}
