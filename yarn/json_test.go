package yarn

import (
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestSubmissionContextJSON(t *testing.T) {
	t.Parallel()
	one := 1
	sc := ApplicationSubmissionContext{
		ApplicationID:   ApplicationID{1700000000000, 7},
		ApplicationName: "gozie:T=shell",
		Priority:        &one,
		AMContainerSpec: ContainerLaunchContext{
			LocalResources: EntryMap[LocalResource]{"run.sh": {Resource: "hdfs://nn:8020/a/run.sh", Type: ResourceFile, Visibility: VisibilityApplication, Size: 311, Timestamp: 1700000123456}},
			Environment:    EntryMap[string]{"B": "2", "A": "1"},
			Commands:       Commands{"/bin/bash ./run.sh"},
		},
		MaxAppAttempts:  1,
		Resource:        &Resource{MemoryMB: 1024, VCores: 1},
		ApplicationType: "GOZIE",
		ApplicationTags: Tags{"gozie-x"},
	}
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		`"application-id":"application_1700000000000_0007"`,
		`"local-resources":{"entry":[{"key":"run.sh","value":{"resource":"hdfs://nn:8020/a/run.sh","type":"FILE","visibility":"APPLICATION","size":311,"timestamp":1700000123456}}]}`,
		`"environment":{"entry":[{"key":"A","value":"1"},{"key":"B","value":"2"}]}`,
		`"commands":{"command":["/bin/bash ./run.sh"]}`,
		`"max-app-attempts":1`, `"resource":{"memory":1024,"vCores":1}`,
		`"application-tags":{"tag":["gozie-x"]}`, `"priority":1`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("JSON %s lacks %s", got, want)
		}
	}
	for _, absent := range []string{"queue", "unmanaged-AM", "credentials", "service-data", "keep-containers"} {
		if strings.Contains(got, absent) {
			t.Errorf("JSON %s has unset key %s", got, absent)
		}
	}
	var back ApplicationSubmissionContext
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.ApplicationID != sc.ApplicationID || back.AMContainerSpec.LocalResources["run.sh"] != sc.AMContainerSpec.LocalResources["run.sh"] ||
		back.AMContainerSpec.Environment["B"] != "2" || back.ApplicationTags[0] != "gozie-x" || back.AMContainerSpec.Commands[0] != sc.AMContainerSpec.Commands[0] {
		t.Errorf("round trip: %+v", back)
	}
}

func TestJerseySingleElementShapes(t *testing.T) {
	t.Parallel()
	in := `{"application-id":"application_1_0002","am-container-spec":{
	  "environment":{"entry":{"key":"K","value":"V"}},
	  "commands":{"command":"echo one"}},
	  "application-tags":{"tag":"solo"}}`
	var sc ApplicationSubmissionContext
	if err := json.Unmarshal([]byte(in), &sc); err != nil {
		t.Fatal(err)
	}
	if sc.AMContainerSpec.Environment["K"] != "V" || len(sc.AMContainerSpec.Commands) != 1 || sc.ApplicationTags[0] != "solo" {
		t.Errorf("decoded %+v", sc)
	}
	if err := json.Unmarshal([]byte(`{"application-id":"bogus"}`), &sc); err == nil {
		t.Error("a bad application-id decoded")
	}
}

func TestAppReportLenientDecoding(t *testing.T) {
	t.Parallel()
	in := `{"app":{"id":"application_1700000000000_0007","user":"alice","name":"n","queue":"default",
	  "state":"FINISHED","finalStatus":"SUCCEEDED","progress":"100.0","trackingUI":"History",
	  "trackingUrl":"http://rm:8088/proxy/application_1700000000000_0007/","diagnostics":"",
	  "clusterId":1700000000000,"applicationType":"GOZIE","applicationTags":"gozie-a, gozie-b",
	  "startedTime":"1700000200000","finishedTime":1700000260000,"elapsedTime":60000,
	  "amContainerLogs":"http://nm:8042/node/containerlogs/container_1700000000000_0007_01_000001/alice",
	  "allocatedMB":-1,"memorySeconds":61440,"unmanagedApplication":"false","priority":null,
	  "resourceInfo":{"resourceUsagesByPartition":[]},"timeouts":{"timeout":[]}}}`
	var env AppReportEnvelope
	if err := json.Unmarshal([]byte(in), &env); err != nil {
		t.Fatal(err)
	}
	r := env.App
	if r.ID != (ApplicationID{1700000000000, 7}) || !r.Succeeded() || !r.Done() || r.Progress != 100 {
		t.Errorf("report %+v", r)
	}
	if !r.StartedTime.Equal(time.UnixMilli(1700000200000)) || r.Elapsed != time.Minute || r.AllocatedMB != -1 || r.MemorySeconds != 61440 {
		t.Errorf("numbers: started %v elapsed %v", r.StartedTime, r.Elapsed)
	}
	if len(r.Tags) != 2 || !r.HasTag("GOZIE-B") || r.HasTag("gozie-c") {
		t.Errorf("tags %v", r.Tags)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"applicationTags":"gozie-a,gozie-b"`) || !strings.Contains(string(b), `"startedTime":1700000200000`) {
		t.Errorf("re-encoded %s", b)
	}
	var running AppReport
	if err := json.Unmarshal([]byte(`{"id":"application_1_0001","state":"running","finalStatus":"UNDEFINED","finishedTime":0}`), &running); err != nil {
		t.Fatal(err)
	}
	if running.Done() || running.State != StateRunning || !running.FinishedTime.IsZero() {
		t.Errorf("running report %+v", running)
	}
}

func TestAppListShapes(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`{"apps":null}`, `{"apps":{}}`, `{}`, `{"apps":{"app":[]}}`} {
		var env AppListEnvelope
		if err := json.Unmarshal([]byte(in), &env); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if env.Apps != nil && len(env.Apps.App) != 0 {
			t.Errorf("%s: decoded apps %v", in, env.Apps.App)
		}
	}
}

func TestRemoteErrorDecoding(t *testing.T) {
	t.Parallel()
	body := `{"RemoteException":{"exception":"BadRequestException","message":"java.lang.Exception: Only 'KILLED' is allowed as a target state.","javaClassName":"org.apache.hadoop.yarn.webapp.BadRequestException"}}`
	e := decodeRemoteError("PUT", "http://rm/ws/v1/cluster/apps/x/state", 400, []byte(body))
	if e.Exception != "BadRequestException" || e.JavaClassName != "org.apache.hadoop.yarn.webapp.BadRequestException" || e.Retryable() {
		t.Errorf("decoded %+v", e)
	}
	if !strings.Contains(e.Error(), "400 Bad Request: BadRequestException: java.lang.Exception: Only 'KILLED'") {
		t.Errorf("Error() = %q", e.Error())
	}
	plain := decodeRemoteError("GET", "http://rm/x", 503, []byte(strings.Repeat("busy ", 500)))
	if plain.Exception != "" || len(plain.Body) > maxErrorBody+len("…") || !plain.Retryable() {
		t.Errorf("plain body error %+v", plain)
	}
	var target *RemoteError
	if !errors.As(error(plain), &target) {
		t.Error("errors.As failed")
	}
}

func TestAppsFilterQuery(t *testing.T) {
	t.Parallel()
	f := AppsFilter{
		Tags: []string{"Gozie-A", "b"}, States: []AppState{StateRunning, StateAccepted}, FinalStatus: FinalFailed,
		User: "alice", Queue: "q", ApplicationTypes: []string{"GOZIE", "MAPREDUCE"},
		StartedTimeBegin: time.UnixMilli(1000), FinishedTimeEnd: time.UnixMilli(2000), Limit: 5,
	}
	want := url.Values{
		"applicationTags": {"gozie-a,b"}, "states": {"RUNNING,ACCEPTED"}, "finalStatus": {"FAILED"},
		"user": {"alice"}, "queue": {"q"}, "applicationTypes": {"GOZIE,MAPREDUCE"},
		"startedTimeBegin": {"1000"}, "finishedTimeEnd": {"2000"}, "limit": {"5"},
	}
	if got := f.Query(); got.Encode() != want.Encode() {
		t.Errorf("Query() = %s, want %s", got.Encode(), want.Encode())
	}
	if got := (AppsFilter{}).Query(); len(got) != 0 {
		t.Errorf("empty filter gives %s", got.Encode())
	}
}

func FuzzAppReportJSON(f *testing.F) {
	f.Add(`{"id":"application_1_0001","state":"RUNNING","progress":"5","startedTime":"12","unmanagedApplication":true}`)
	f.Add(`{"id":"","applicationTags":",,a,"}`)
	f.Add(`{"progress":null,"elapsedTime":1e3}`)
	f.Fuzz(func(t *testing.T, in string) {
		var r AppReport
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			return
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", r, err)
		}
		var back AppReport
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("decoding our own encoding %s: %v", b, err)
		}
	})
}
