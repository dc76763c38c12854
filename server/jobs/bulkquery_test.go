package jobs_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// seedBulk stores two bundles: "nightly" with coordinators "load" and "publish", and
// "other" with one coordinator, each coordinator with four hourly actions whose statuses
// cycle through KILLED, FAILED, SUCCEEDED and KILLED. It returns the bundle ids.
func (f *fixture) seedBulk(t *testing.T) (nightly, other string) {
	t.Helper()
	ctx := context.Background()
	base := time.Date(2025, 1, 27, 0, 0, 0, 0, time.UTC)
	statuses := []store.CoordActionStatus{store.CoordActionKilled, store.CoordActionFailed, store.CoordActionSucceeded, store.CoordActionKilled}
	err := f.Store.Tx(ctx, func(x store.Tx) error {
		for b, bundle := range []struct {
			id, name string
			coords   []string
		}{
			{"0000001-250127000000000-gozie-B", "nightly", []string{"load", "publish"}},
			{"0000002-250127000000000-gozie-B", "other", []string{"load"}},
		} {
			if err := x.InsertBundleJob(ctx, &store.BundleJob{ID: bundle.id, AppName: bundle.name, User: "joe",
				Status: store.JobRunningWithError, CreatedTime: base, LastModified: base}); err != nil {
				return err
			}
			for c, name := range bundle.coords {
				cid := fmt.Sprintf("%07d-250127000000000-gozie-C", 10*(b+1)+c)
				if err := x.InsertCoordJob(ctx, &store.CoordJob{ID: cid, AppName: name, User: "joe", BundleID: bundle.id,
					Status: store.JobRunningWithError, ExecutionOrder: "FIFO", Frequency: "60", TimeUnit: "MINUTE", TimeZone: "UTC",
					StartTime: base, EndTime: base.Add(4 * time.Hour), CreatedTime: base, LastModified: base}); err != nil {
					return err
				}
				for n, st := range statuses {
					at := base.Add(time.Duration(n) * time.Hour)
					if err := x.InsertCoordAction(ctx, &store.CoordAction{ID: fmt.Sprintf("%s@%d", cid, n+1), JobID: cid,
						ActionNumber: n + 1, Status: st, NominalTime: at, CreatedTime: at.Add(time.Minute), LastModified: at,
						ErrorCode: "E" + string(st), CreatedConf: "<configuration/>"}); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return "0000001-250127000000000-gozie-B", "0000002-250127000000000-gozie-B"
}

func TestBulkActionQuery(t *testing.T) {
	t.Parallel()
	f := setup(t)
	nightly, other := f.seedBulk(t)
	query := func(bulk string, extra ...string) (oozieapi.BulkList, []string) {
		t.Helper()
		r := f.call(t, http.MethodGet, "/oozie/v1/jobs?bulk="+url.QueryEscape(bulk)+strings.Join(extra, ""), "", "")
		if r.status != http.StatusOK {
			t.Fatalf("bulk %q: %d %s", bulk, r.status, r.header.Get("oozie-error-message"))
		}
		var out oozieapi.BulkList
		decode(t, r.body, &out)
		var got []string
		for _, e := range out.Responses {
			if e.Action.JobID != e.Coordinator.ID || e.Coordinator.BundleID != e.Bundle.ID {
				t.Errorf("entry %s does not hang together: coordinator %s, bundle %s", e.Action.ID, e.Coordinator.ID, e.Bundle.ID)
			}
			got = append(got, e.Bundle.AppName+"/"+e.Coordinator.AppName+"#"+fmt.Sprint(e.Action.ActionNumber)+"="+e.Action.Status)
		}
		return out, got
	}
	for _, tc := range []struct {
		name, bulk string
		extra      []string
		want       string
		total      int
	}{
		{"default statuses KILLED and FAILED", "bundle=nightly", nil,
			"nightly/load#1=KILLED nightly/load#2=FAILED nightly/load#4=KILLED nightly/publish#1=KILLED nightly/publish#2=FAILED nightly/publish#4=KILLED", 6},
		{"by id, one coordinator, one status", "bundle=" + nightly + ";coordinators=publish;actionstatus=SUCCEEDED", nil,
			"nightly/publish#3=SUCCEEDED", 1},
		{"two bundles, names in any case", "BUNDLE=nightly,other;ActionStatus=failed;coordinators=load", nil,
			"nightly/load#2=FAILED other/load#2=FAILED", 2},
		{"scheduled window (inclusive)", "bundle=other;startscheduledtime=2025-01-27T01:00Z;endscheduledtime=2025-01-27T03:00Z", nil,
			"other/load#2=FAILED other/load#4=KILLED", 2},
		{"created window", "bundle=other;startcreatedtime=2025-01-27T00:30Z;endcreatedtime=2025-01-27T01:30Z", nil,
			"other/load#2=FAILED", 1},
		{"paged", "bundle=nightly", []string{"&offset=2&len=3"},
			"nightly/load#2=FAILED nightly/load#4=KILLED nightly/publish#1=KILLED", 6},
		{"page past the end", "bundle=" + other, []string{"&offset=9"}, "", 3},
	} {
		out, got := query(tc.bulk, tc.extra...)
		if strings.Join(got, " ") != tc.want || out.Total != tc.total {
			t.Errorf("%s: got %v (total %d), want %s (total %d)", tc.name, got, out.Total, tc.want, tc.total)
		}
	}
	out, _ := query("bundle=" + other)
	first := out.Responses[0]
	if first.Action.CreatedConf != "" || first.Bundle.Conf != "" || first.Action.ErrorCode != "EKILLED" ||
		first.Bundle.User != "joe" || first.Coordinator.Frequency != "60" {
		t.Errorf("entry fields: %+v", first)
	}
	for _, tc := range []struct {
		bulk, code, msg string
	}{
		{"coordinators=load", "E0305", "E0305: Missing parameter [bundle]"},
		{"", "E0305", "E0305: Missing parameter [bundle]"},
		{"bundle=nobody", "E0420", "E0420: Invalid jobs filter [bundle=nobody], no bundle has that name or id"},
		{"bundle=nightly;colour=red", "E0420", "E0420: Invalid jobs filter [bundle=nightly;colour=red], invalid name [colour]"},
		{"bundle=nightly;actionstatus=DONE", "E0420", "E0420: Invalid jobs filter [bundle=nightly;actionstatus=DONE], invalid coordinator action status [DONE]"},
		{"bundle=nightly;startcreatedtime=yesterday", "E0420",
			"E0420: Invalid jobs filter [bundle=nightly;startcreatedtime=yesterday], invalid time [yesterday] of startcreatedtime (expected yyyy-MM-dd'T'HH:mm'Z')"},
		{"bundle", "E0420", "E0420: Invalid jobs filter [bundle], elements must be semicolon-separated name=value pairs"},
	} {
		checkError(t, f.call(t, http.MethodGet, "/oozie/v1/jobs?bulk="+url.QueryEscape(tc.bulk), "", ""), 400, tc.code, tc.msg)
	}
}

func TestExternalIDQuery(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appNoOp, false, "oozie.wf.external.id", "etl-run-2025-01-27")
	f.submit(t, appNoOp, false, "oozie.wf.external.id", "etl-run-2025-01-28")
	f.submit(t, appNoOp, false)
	for _, tc := range []struct {
		query, want string
	}{
		{"external-id=etl-run-2025-01-27", `{"id":"` + id + `"}`},
		{"external-id=etl-run-2025-01-27&jobtype=wf", `{"id":"` + id + `"}`},
		{"external-id=etl-run-1999", `{"id":null}`},
		{"external-id=", `{"id":null}`},
		{"external-id=etl-run-2025-01-27&jobtype=coordinator", `{"id":null}`},
	} {
		r := f.call(t, http.MethodGet, "/oozie/v1/jobs?"+tc.query, "", "")
		if r.status != http.StatusOK || strings.TrimSpace(r.body) != tc.want {
			t.Errorf("%s: %d %s, want %s", tc.query, r.status, r.body, tc.want)
		}
	}
	var j oozieapi.WorkflowJob
	decode(t, f.call(t, http.MethodGet, "/oozie/v2/job/"+id, "", "").body, &j)
	if j.ExternalID != "etl-run-2025-01-27" {
		t.Errorf("job info externalId = %q", j.ExternalID)
	}
}
