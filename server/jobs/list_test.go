package jobs_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/server/oozieapi"
)

// listFixture submits four jobs an hour apart and returns their ids, oldest first:
//
//	0: no-op by joe, started (SUCCEEDED)
//	1: fs by ann, started (RUNNING)
//	2: fs by joe (PREP)
//	3: params by bob, group etl (PREP)
func listFixture(t *testing.T) (*fixture, []string) {
	t.Helper()
	f := setup(t)
	var ids []string
	ids = append(ids, f.submit(t, appNoOp, true))
	f.Clock.Advance(time.Hour)
	ids = append(ids, f.submitAs(t, "ann", appFS, true))
	f.Clock.Advance(time.Hour)
	ids = append(ids, f.submit(t, appFS, false))
	f.Clock.Advance(time.Hour)
	ids = append(ids, f.submitAs(t, "bob", appParam, false, "outDir", "/tmp/o", "oozie.job.acl", "etl"))
	return f, ids
}

// submitAs submits app as user.
func (f *fixture) submitAs(t *testing.T, user, app string, start bool, extra ...string) string {
	t.Helper()
	return f.submit(t, app, start, append([]string{"user.name", user}, extra...)...)
}

// list calls GET jobs with the query and decodes the answer.
func (f *fixture) list(t *testing.T, query string) oozieapi.WorkflowList {
	t.Helper()
	r := f.call(t, http.MethodGet, "/oozie/v1/jobs?"+query, "", "")
	if r.status != http.StatusOK {
		t.Fatalf("GET jobs?%s: %d %s %s", query, r.status, r.header.Get("oozie-error-message"), r.body)
	}
	var l oozieapi.WorkflowList
	decode(t, r.body, &l)
	return l
}

func TestListWorkflows(t *testing.T) {
	t.Parallel()
	f, ids := listFixture(t)
	q := url.QueryEscape
	tests := []struct {
		name        string
		query       string
		want        []int // indexes into ids, in answer order
		total       int
		offset, len int
	}{
		{"everything, newest first", "", []int{3, 2, 1, 0}, 4, 1, 50},
		{"jobtype wf", "jobtype=wf", []int{3, 2, 1, 0}, 4, 1, 50},
		{"one user", "filter=user%3Djoe", []int{2, 0}, 2, 1, 50},
		{"users ORed", "filter=" + q("user=joe;user=ann"), []int{2, 1, 0}, 3, 1, 50},
		{"statuses ORed", "filter=" + q("status=RUNNING;status=SUCCEEDED"), []int{1, 0}, 2, 1, 50},
		{"names ANDed", "filter=" + q("user=joe;status=PREP"), []int{2}, 1, 1, 50},
		{"app name", "filter=" + q("name=fs-wf"), []int{2, 1}, 2, 1, 50},
		{"group", "filter=" + q("group=etl"), []int{3}, 1, 1, 50},
		{"id", "filter=" + q("id="+ids[0]), []int{0}, 1, 1, 50},
		{"text in the app name", "filter=" + q("text=no-op"), []int{0}, 1, 1, 50},
		{"text in the user", "filter=" + q("text=nn"), []int{1}, 1, 1, 50},
		{"text is an exact id", "filter=" + q("text="+ids[1]), []int{1}, 1, 1, 50},
		{"created since", "filter=" + q("startcreatedtime=2025-01-27T10:18Z"), []int{3, 2, 1}, 3, 1, 50},
		{"created until, relative to now", "filter=" + q("endcreatedtime=-90m"), []int{1, 0}, 2, 1, 50},
		{"a page", "offset=2&len=2", []int{2, 1}, 4, 2, 2},
		{"offset and len of 0 are defaults", "offset=0&len=0", []int{3, 2, 1, 0}, 4, 1, 50},
		{"past the end", "offset=9", []int{}, 4, 9, 50},
		{"no match", "filter=" + q("user=nobody"), []int{}, 0, 1, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := f.list(t, tt.query)
			got := make([]string, len(l.Workflows))
			for i, w := range l.Workflows {
				got[i] = w.ID
			}
			want := make([]string, len(tt.want))
			for i, k := range tt.want {
				want[i] = ids[k]
			}
			if !reflect.DeepEqual(got, want) || l.Total != tt.total || l.Offset != tt.offset || l.Len != tt.len {
				t.Errorf("got %v total %d offset %d len %d\nwant %v total %d offset %d len %d",
					got, l.Total, l.Offset, l.Len, want, tt.total, tt.offset, tt.len)
			}
		})
	}
}

func TestListEntries(t *testing.T) {
	t.Parallel()
	f, ids := listFixture(t)
	r := f.call(t, http.MethodGet, "/oozie/v2/jobs?filter=user%3Dann", "", "")
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var raw struct {
		Workflows []map[string]any `json:"workflows"`
	}
	decode(t, r.body, &raw)
	if len(raw.Workflows) != 1 {
		t.Fatalf("workflows %v", raw.Workflows)
	}
	e := raw.Workflows[0]
	started := "Mon, 27 Jan 2025 10:18:57 GMT"
	want := map[string]any{
		"id": ids[1], "appName": "fs-wf", "appPath": f.appPath(appFS), "status": "RUNNING", "user": "ann",
		"group": nil, "acl": nil, "run": float64(0), "conf": nil, "actions": []any{}, "externalId": nil,
		"parentId": nil, "consoleUrl": nil, "createdTime": started, "startTime": started, "lastModTime": started,
		"endTime": nil, "toString": "Workflow id[" + ids[1] + "] status[RUNNING]",
	}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("entry\n got %v\nwant %v", e, want)
	}

	// Dates in another zone (which oozieapi.Date refuses to decode: PST fixes no offset).
	r = f.call(t, http.MethodGet, "/oozie/v1/jobs?filter=user%3Dann&timezone=America/Los_Angeles", "", "")
	decode(t, r.body, &raw)
	if got := raw.Workflows[0]["createdTime"]; got != "Mon, 27 Jan 2025 02:18:57 PST" {
		t.Errorf("created in LA: %v", got)
	}
}

func TestListSortByLastModified(t *testing.T) {
	t.Parallel()
	f, ids := listFixture(t)
	f.Clock.Advance(time.Minute)
	if r := f.call(t, http.MethodPut, "/oozie/v1/job/"+ids[1]+"?action=suspend", "", ""); r.status != http.StatusOK {
		t.Fatalf("suspend: %d %s", r.status, r.body)
	}
	l := f.list(t, "filter=sortby%3DlastModifiedTime")
	var got []string
	for _, w := range l.Workflows {
		got = append(got, w.ID)
	}
	if want := []string{ids[1], ids[3], ids[2], ids[0]}; !reflect.DeepEqual(got, want) {
		t.Errorf("by last modification: %v, want %v", got, want)
	}
}

func TestListErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tests := []struct {
		query     string
		status    int
		code, msg string
	}{
		{"filter=owner%3Djoe", 400, "E0420", "E0420: Invalid jobs filter [owner=joe], invalid name [owner]"},
		{"filter=status%3Dgone", 400, "E0420", "E0420: Invalid jobs filter [status=gone], invalid status [gone]"},
		{"filter=user", 400, "E0420", "E0420: Invalid jobs filter [user], elements must be semicolon-separated name=value pairs"},
		{"jobtype=pig", 400, "E0303", "E0303: Invalid parameter value, [jobtype] = [pig]"},
		{"offset=first", 400, "E0303", "E0303: Invalid parameter value, [offset] = [first]"},
		{"len=1.5", 400, "E0303", "E0303: Invalid parameter value, [len] = [1.5]"},
		{"len=-5", 400, "E0303", "E0303: Invalid parameter value, [len] = [-5]"},
		{"offset=-100", 400, "E0303", "E0303: Invalid parameter value, [offset] = [-100]"},
		{"timezone=PDT", 400, "E0303", "E0303: Invalid parameter value, [timezone] = [PDT]"},
		{"jobtype=coordinator&filter=frequency%3D5%3Bunit%3Dweeks", 400, "E0420",
			"E0420: Invalid jobs filter [frequency=5;unit=weeks], invalid value [weeks] for time unit. Valid value is one of months, days, hours or minutes"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := f.call(t, http.MethodGet, "/oozie/v1/jobs?"+tt.query, "", "")
			checkError(t, r, tt.status, tt.code, tt.msg)
			if strings.Contains(r.body, "workflows") {
				t.Errorf("error answer carries a listing: %s", r.body)
			}
		})
	}
}
