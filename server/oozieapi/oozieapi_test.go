package oozieapi

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDateMarshal(t *testing.T) {
	t.Parallel()
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2009, 1, 1, 8, 30, 5, 0, time.UTC)
	tests := []struct {
		name string
		d    Date
		want string
	}{
		{"zero is null", Date{}, `null`},
		{"zero stays zero in any zone", NewDate(time.Time{}, la), `null`},
		{"GMT", NewDate(at, GMT), `"Thu, 01 Jan 2009 08:30:05 GMT"`},
		{"zone abbreviation", NewDate(at, la), `"Thu, 01 Jan 2009 00:30:05 PST"`},
		{"summer time", NewDate(time.Date(2009, 7, 1, 8, 0, 0, 0, time.UTC), la), `"Wed, 01 Jul 2009 01:00:00 PDT"`},
		{"custom zone", NewDate(at, time.FixedZone("GMT+05:30", 5*3600+1800)), `"Thu, 01 Jan 2009 14:00:05 GMT+05:30"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.d)
			if err != nil || string(got) != tt.want {
				t.Errorf("Marshal = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func TestDateUnmarshal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    time.Time // UTC instant; zero for null
		wantErr string
	}{
		{`null`, time.Time{}, ""},
		{`""`, time.Time{}, ""},
		{`"Thu, 01 Jan 2009 08:30:05 GMT"`, time.Date(2009, 1, 1, 8, 30, 5, 0, time.UTC), ""},
		{`"Thu, 01 Jan 2009 08:30:05 UTC"`, time.Date(2009, 1, 1, 8, 30, 5, 0, time.UTC), ""},
		{`"Thu, 01 Jan 2009 14:00:05 GMT+05:30"`, time.Date(2009, 1, 1, 8, 30, 5, 0, time.UTC), ""},
		{`"Wed, 31 Dec 2008 23:00:05 GMT-09:30"`, time.Date(2009, 1, 1, 8, 30, 5, 0, time.UTC), ""},
		{`"Thu, 01 Jan 2009 00:30:05 PST"`, time.Time{}, `zone "PST" does not fix an offset`},
		{`"Thu, 01 Jan 2009 08:30 GMT"`, time.Time{}, "want the form"},
		{`"yesterday"`, time.Time{}, "want the form"},
		{`"Thu, 01 Jan 2009 08:30:05 GMT+25:00"`, time.Time{}, "does not fix an offset"},
		{`12`, time.Time{}, "not a JSON string"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var d Date
			err := json.Unmarshal([]byte(tt.in), &d)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Unmarshal(%s) error = %v, want %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Unmarshal(%s): %v", tt.in, err)
			}
			if !d.Equal(tt.want) || d.IsZero() != tt.want.IsZero() {
				t.Errorf("Unmarshal(%s) = %v, want %v", tt.in, d.Time, tt.want)
			}
		})
	}
}

func TestDateRoundTrip(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 3, 9, 10, 0, 0, 0, time.UTC)
	for _, loc := range []*time.Location{GMT, time.UTC, time.FixedZone("GMT-07:00", -7*3600)} {
		b, err := json.Marshal(NewDate(at, loc))
		if err != nil {
			t.Fatal(err)
		}
		var back Date
		if err := json.Unmarshal(b, &back); err != nil || !back.Equal(at) {
			t.Errorf("%s: round trip of %s gave %v, %v", loc, b, back.Time, err)
		}
	}
}

func TestWorkflowJobJSON(t *testing.T) {
	t.Parallel()
	created := time.Date(2025, 1, 27, 9, 18, 57, 0, time.UTC)
	job := WorkflowJob{
		AppPath: "hdfs://nn:8020/apps/wf", AppName: "nightly", ID: "0000001-250127091857123-oozie-oozi-W",
		Conf:   "<configuration><property><name>a</name><value>x&amp;y</value></property></configuration>",
		Status: "RUNNING", CreatedTime: NewDate(created, GMT), LastModTime: NewDate(created, GMT),
		User: "joe", Run: 0, ToString: WorkflowJobString("0000001-250127091857123-oozie-oozi-W", "RUNNING"),
	}
	// Encoded as the server does (an encoder without HTML escaping); json.Marshal itself
	// always escapes '<' in a Marshaler's output.
	b, err := encodeRaw(job)
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]any
	if err := json.Unmarshal(b, &members); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"appPath": "hdfs://nn:8020/apps/wf", "appName": "nightly", "id": "0000001-250127091857123-oozie-oozi-W",
		"externalId": nil, "parentId": nil, "conf": job.Conf, "status": "RUNNING",
		"lastModTime": "Mon, 27 Jan 2025 09:18:57 GMT", "createdTime": "Mon, 27 Jan 2025 09:18:57 GMT",
		"startTime": nil, "endTime": nil, "user": "joe", "group": nil, "acl": nil, "run": float64(0),
		"consoleUrl": nil, "actions": []any{},
		"toString": "Workflow id[0000001-250127091857123-oozie-oozi-W] status[RUNNING]",
	}
	if !reflect.DeepEqual(members, want) {
		t.Errorf("members:\n got %v\nwant %v", members, want)
	}
	if strings.Contains(string(b), `\u003c`) || !strings.Contains(string(b), "<configuration>") {
		t.Errorf("XML in conf is escaped: %s", b)
	}
	var back WorkflowJob
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	back.Actions = nil
	if !reflect.DeepEqual(back.ID, job.ID) || !back.CreatedTime.Equal(created) || back.ExternalID != "" || back.Conf != job.Conf {
		t.Errorf("decoded %+v", back)
	}
}

// TestDecodeOozieAction decodes an action document shaped as Oozie 5 sends it.
func TestDecodeOozieAction(t *testing.T) {
	t.Parallel()
	doc := `{"errorMessage":null,"status":"OK","stats":null,"data":null,"transition":"end",
	"externalStatus":"SUCCEEDED","cred":"null","conf":"<fs/>","type":"fs",
	"endTime":"Mon, 27 Jan 2025 09:19:02 GMT","externalId":"job_1_1","id":"0000001-250127091857123-oozie-oozi-W@mkdir",
	"startTime":"Mon, 27 Jan 2025 09:19:00 GMT","userRetryInterval":10,"externalChildIDs":null,"name":"mkdir",
	"errorCode":null,"trackerUri":"local","retries":0,"userRetryCount":0,"consoleUrl":"-","userRetryMax":0,
	"toString":"Action name[mkdir] status[OK]"}`
	var a WorkflowAction
	if err := json.Unmarshal([]byte(doc), &a); err != nil {
		t.Fatal(err)
	}
	want := WorkflowAction{
		ID: "0000001-250127091857123-oozie-oozi-W@mkdir", Name: "mkdir", Cred: "null", Type: "fs", Conf: "<fs/>",
		Status: "OK", StartTime: Date{time.Date(2025, 1, 27, 9, 19, 0, 0, GMT)},
		EndTime: Date{time.Date(2025, 1, 27, 9, 19, 2, 0, GMT)}, Transition: "end", ExternalID: "job_1_1",
		ExternalStatus: "SUCCEEDED", TrackerURI: "local", ConsoleURL: "-", ToString: "Action name[mkdir] status[OK]",
		UserRetryInterval: 10,
	}
	if !a.StartTime.Equal(want.StartTime.Time) || !a.EndTime.Equal(want.EndTime.Time) {
		t.Fatalf("times %v %v", a.StartTime, a.EndTime)
	}
	a.StartTime, a.EndTime, want.StartTime, want.EndTime = Date{}, Date{}, Date{}, Date{}
	if a != want {
		t.Errorf("decoded\n %+v\nwant\n %+v", a, want)
	}
}

func TestWorkflowListJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(WorkflowList{Total: 0, Offset: 1, Len: 50})
	if err != nil || string(b) != `{"workflows":[],"total":0,"offset":1,"len":50}` {
		t.Errorf("empty list = %s, %v", b, err)
	}
}
