package jobs_test

// The tests in this file replay, against gozie, the REST calls of an Oozie client written
// by others: Shopify's pyoozie 0.0.9 (Python, github.com/Shopify/pyoozie). Each request has
// the path, the raw query string, the headers and the body that pyoozie's client module
// builds, and each answer is checked for every key its model module reads, with the type
// and the consistency rules the model enforces (an artifact whose toString lacks its id or
// status, or whose action names disagree with the action ids, is refused by pyoozie). Each
// case names the pyoozie method it stands for.
//
// Facts about pyoozie that the requests below follow:
//   - the base URL is <server>/oozie; before its first call the client GETs
//     <base>/versions and requires 2 in the answer; every other call goes to <base>/v2/...;
//   - GETs carry no Content-Type; PUTs and POSTs always carry "application/xml", also when
//     they have no body (suspend, resume, kill, start, coord-rerun);
//   - a non-empty answer must be JSON, an empty one is accepted; any non-2xx status is an
//     error whose message is the oozie-error-message header;
//   - submissions are a configuration document with the properties sorted by name, the
//     XML declaration in single quotes and no whitespace, the user only in user.name;
//   - filters are written as filter=name=value;name=value with ';' and '=' not
//     percent-encoded, statuses as sorted repeated status=X terms;
//   - listings page with offset=1&len=5000 (len=N for a limit of N) and read "total";
//   - a coordinator is read with offset=1&len=1 first, then offset=1&len=<total>.

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/jobs/jobstest"
)

// pyClient sends requests the way pyoozie's OozieClient does.
type pyClient struct {
	t    *testing.T
	base string // the server URL with /oozie
}

// newPyClient returns a client of f's server; like pyoozie it checks /versions first.
func newPyClient(t *testing.T, f *fixture) *pyClient {
	t.Helper()
	c := &pyClient{t: t, base: strings.TrimSuffix(f.URL, server.ContextPath) + "/oozie"}
	// OozieClient._test_connection: GET <base>/versions, 2 must be in the list.
	r := c.send(http.MethodGet, c.base+"/versions", "")
	var versions []any
	if r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &versions) != nil ||
		!slices.Contains(versions, any(float64(2))) {
		t.Fatalf("GET /oozie/versions: %d %q, want a JSON list holding 2", r.status, r.body)
	}
	return c
}

// send sends one request; the URL's query is sent byte for byte as written.
func (c *pyClient) send(method, url, body string) response {
	c.t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if method != http.MethodGet {
		req.Header.Set("Content-Type", "application/xml")
	}
	req.Header.Set("User-Agent", "python-requests/2.31.0")
	req.Header.Set("Accept", "*/*")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// call sends method <base>/v2/<endpoint> and returns the decoded answer as pyoozie's
// _request does: nil for an empty body, the JSON value otherwise. A non-2xx status or a
// body that is not JSON fails the test, as pyoozie raises for both.
func (c *pyClient) call(method, endpoint, body string) any {
	c.t.Helper()
	r := c.send(method, c.base+"/v2/"+endpoint, body)
	if r.status < 200 || r.status > 299 {
		c.t.Fatalf("%s v2/%s: HTTP %d %q (pyoozie raises OozieCommunicationException)", method, endpoint,
			r.status, r.header.Get(server.HeaderErrorMessage))
	}
	if r.body == "" {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(r.body), &v); err != nil {
		c.t.Fatalf("%s v2/%s: the answer is not JSON (%v): %q", method, endpoint, err, r.body)
	}
	return v
}

// object is call for answers that must be a JSON object.
func (c *pyClient) object(method, endpoint, body string) map[string]any {
	c.t.Helper()
	v := c.call(method, endpoint, body)
	m, ok := v.(map[string]any)
	if !ok {
		c.t.Fatalf("%s v2/%s: answer %v, want a JSON object", method, endpoint, v)
	}
	return m
}

// pyConfXML is the configuration document pyoozie posts: properties sorted by name, text
// escaped for &, < and >, no whitespace, the declaration in single quotes. pairs are
// name, value, name, value, ...
func pyConfXML(pairs ...string) string {
	type prop struct{ name, value string }
	var props []prop
	for i := 0; i+1 < len(pairs); i += 2 {
		props = append(props, prop{pairs[i], pairs[i+1]})
	}
	sort.Slice(props, func(i, j int) bool { return props[i].name < props[j].name })
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	var b strings.Builder
	b.WriteString("<?xml version='1.0' encoding='UTF-8'?><configuration>")
	for _, p := range props {
		b.WriteString("<property><name>" + esc.Replace(p.name) + "</name><value>" + esc.Replace(p.value) +
			"</value></property>")
	}
	b.WriteString("</configuration>")
	return b.String()
}

// pyKind is the JSON type of a key that pyoozie's model reads.
type pyKind int

const (
	pyText   pyKind = iota // a string or null
	pyNumber               // a number (Oozie never sends null for these)
	pyDate                 // null or "Mon, 27 Jan 2025 09:18:57 GMT" (strptime '%a, %d %b %Y %H:%M:%S %Z')
	pyConf                 // null or a Hadoop configuration document with properties (parsed with untangle)
	pyList                 // an array
)

// Keys pyoozie's model reads, per artifact, with Oozie's types.
var (
	// model.Workflow
	pyWorkflowKeys = map[string]pyKind{"id": pyText, "acl": pyText, "actions": pyList, "appName": pyText,
		"appPath": pyText, "conf": pyConf, "consoleUrl": pyText, "createdTime": pyDate, "endTime": pyDate,
		"externalId": pyText, "group": pyText, "lastModTime": pyDate, "parentId": pyText, "run": pyNumber,
		"startTime": pyDate, "status": pyText, "toString": pyText, "user": pyText}
	// model.WorkflowAction
	pyWorkflowActionKeys = map[string]pyKind{"id": pyText, "conf": pyText, "consoleUrl": pyText, "cred": pyText,
		"data": pyText, "endTime": pyDate, "errorCode": pyText, "errorMessage": pyText, "externalChildIDs": pyText,
		"externalId": pyText, "externalStatus": pyText, "name": pyText, "retries": pyNumber, "startTime": pyDate,
		"stats": pyText, "status": pyText, "toString": pyText, "trackerUri": pyText, "transition": pyText,
		"type": pyText, "userRetryCount": pyNumber, "userRetryInterval": pyNumber, "userRetryMax": pyNumber}
	// model.Coordinator
	pyCoordinatorKeys = map[string]pyKind{"coordJobId": pyText, "acl": pyText, "actions": pyList, "bundleId": pyText,
		"concurrency": pyNumber, "conf": pyConf, "consoleUrl": pyText, "coordExternalId": pyText,
		"coordJobName": pyText, "coordJobPath": pyText, "endTime": pyDate, "executionPolicy": pyText,
		"frequency": pyText, "group": pyText, "lastAction": pyDate, "mat_throttling": pyNumber,
		"nextMaterializedTime": pyDate, "pauseTime": pyDate, "startTime": pyDate, "status": pyText,
		"timeOut": pyNumber, "timeUnit": pyText, "timeZone": pyText, "toString": pyText, "total": pyNumber,
		"user": pyText}
	// model.CoordinatorAction
	pyCoordActionKeys = map[string]pyKind{"id": pyText, "actionNumber": pyNumber, "consoleUrl": pyText,
		"coordJobId": pyText, "createdConf": pyConf, "createdTime": pyDate, "errorCode": pyText,
		"errorMessage": pyText, "externalId": pyText, "externalStatus": pyText, "lastModifiedTime": pyDate,
		"missingDependencies": pyText, "nominalTime": pyDate, "pushMissingDependencies": pyText, "runConf": pyConf,
		"status": pyText, "toString": pyText, "trackerUri": pyText, "type": pyText}
)

// Status names of pyoozie's enums (Oozie's statuses); any other status parses as UNKNOWN.
var (
	pyWorkflowStatuses    = []string{"FAILED", "KILLED", "PREP", "RUNNING", "SUCCEEDED", "SUSPENDED"}
	pyWorkflowActStatuses = []string{"DONE", "END_MANUAL", "END_RETRY", "ERROR", "FAILED", "KILLED", "OK", "PREP",
		"RUNNING", "START_MANUAL", "START_RETRY", "USER_RETRY"}
	pyCoordStatuses = []string{"DONEWITHERROR", "FAILED", "IGNORED", "KILLED", "PAUSED", "PAUSEDWITHERROR",
		"PREMATER", "PREP", "PREPPAUSED", "PREPSUSPENDED", "RUNNING", "RUNNINGWITHERROR", "SUCCEEDED", "SUSPENDED",
		"SUSPENDEDWITHERROR"}
	pyCoordActStatuses = []string{"FAILED", "IGNORED", "KILLED", "READY", "RUNNING", "SKIPPED", "SUBMITTED",
		"SUCCEEDED", "SUSPENDED", "TIMEDOUT", "WAITING"}
)

// The id patterns of pyoozie's model: a coordinator id ends in -C, its actions add @N
// (N ≥ 1); a workflow id ends in -W, its actions add @name.
var (
	pyCoordIDRe    = regexp.MustCompile(`^(.*-C)(?:@([1-9][0-9]*))?$`)
	pyWorkflowIDRe = regexp.MustCompile(`^(.*-W)(?:@(.*))?$`)
)

// pyCheckKeys checks that obj has every key of spec with its type.
func pyCheckKeys(t *testing.T, what string, obj map[string]any, spec map[string]pyKind) {
	t.Helper()
	for _, key := range slices.Sorted(maps.Keys(spec)) {
		v, ok := obj[key]
		if !ok {
			t.Errorf("%s: key %q is missing", what, key)
			continue
		}
		switch spec[key] {
		case pyText:
			if _, isStr := v.(string); v != nil && !isStr {
				t.Errorf("%s: %q = %#v, want a string or null", what, key, v)
			}
		case pyNumber:
			if _, isNum := v.(float64); !isNum {
				t.Errorf("%s: %q = %#v, want a number", what, key, v)
			}
		case pyDate:
			if v == nil {
				continue
			}
			s, isStr := v.(string)
			if !isStr {
				t.Errorf("%s: %q = %#v, want a date string or null", what, key, v)
				continue
			}
			if _, err := pyParseDate(s); err != nil {
				t.Errorf("%s: %q: %v", what, key, err)
			}
		case pyConf:
			if v == nil {
				continue
			}
			s, isStr := v.(string)
			if !isStr {
				t.Errorf("%s: %q = %#v, want a configuration string or null", what, key, v)
				continue
			}
			if _, err := pyParseConf(s); err != nil {
				t.Errorf("%s: %q: %v", what, key, err)
			}
		case pyList:
			if _, isList := v.([]any); !isList {
				t.Errorf("%s: %q = %#v, want an array", what, key, v)
			}
		}
	}
}

// pyParseDate reads a date as pyoozie does: RFC 1123 with a zone strptime's %Z knows (GMT).
func pyParseDate(s string) (time.Time, error) {
	at, err := time.Parse(time.RFC1123, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("date %q is not 'Mon, 27 Jan 2025 09:18:57 GMT': %w", s, err)
	}
	if zone, _ := at.Zone(); zone != "GMT" && zone != "UTC" {
		return time.Time{}, fmt.Errorf("date %q: zone %s, want GMT", s, zone)
	}
	return at, nil
}

// pyParseConf reads a configuration document into a map; pyoozie needs at least one property.
func pyParseConf(s string) (map[string]string, error) {
	var doc struct {
		XMLName xml.Name `xml:"configuration"`
		Props   []struct {
			Name  *string `xml:"name"`
			Value *string `xml:"value"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal([]byte(s), &doc); err != nil {
		return nil, fmt.Errorf("configuration %q: %w", s, err)
	}
	if len(doc.Props) == 0 {
		return nil, fmt.Errorf("configuration without properties: %q", s)
	}
	out := map[string]string{}
	for _, p := range doc.Props {
		if p.Name == nil || p.Value == nil {
			return nil, fmt.Errorf("a property without name or value in %q", s)
		}
		out[*p.Name] = *p.Value
	}
	return out, nil
}

// pyString returns obj[key] as a string ("" for null or another type).
func pyString(obj map[string]any, key string) string {
	s, _ := obj[key].(string)
	return s
}

// pyObjects returns obj[key] as a list of objects.
func pyObjects(t *testing.T, what string, obj map[string]any, key string) []map[string]any {
	t.Helper()
	list, ok := obj[key].([]any)
	if !ok {
		t.Fatalf("%s: %q = %#v, want an array", what, key, obj[key])
	}
	out := make([]map[string]any, len(list))
	for i, e := range list {
		if out[i], ok = e.(map[string]any); !ok {
			t.Fatalf("%s: %s[%d] = %#v, want an object", what, key, i, e)
		}
	}
	return out
}

// pyCheckToString applies the model's rule: toString holds the id and the status.
func pyCheckToString(t *testing.T, what string, obj map[string]any, id string) {
	t.Helper()
	s, status := pyString(obj, "toString"), pyString(obj, "status")
	if s != "" && (!strings.Contains(s, id) || !strings.Contains(s, status)) {
		t.Errorf("%s: toString %q lacks %q or status %q (pyoozie raises OozieParsingException)", what, s, id, status)
	}
}

// pyCheckWorkflow checks a workflow job as model.Workflow reads it, and its actions.
func pyCheckWorkflow(t *testing.T, what string, wf map[string]any) {
	t.Helper()
	pyCheckKeys(t, what, wf, pyWorkflowKeys)
	id := pyString(wf, "id")
	if m := pyWorkflowIDRe.FindStringSubmatch(id); m == nil || m[2] != "" {
		t.Errorf("%s: id %q is not a workflow id", what, id)
	}
	if s := pyString(wf, "status"); !slices.Contains(pyWorkflowStatuses, s) {
		t.Errorf("%s: status %q is UNKNOWN to pyoozie", what, s)
	}
	pyCheckToString(t, what, wf, id)
	if p := pyString(wf, "parentId"); p != "" {
		c, w := pyCoordIDRe.FindStringSubmatch(p), pyWorkflowIDRe.FindStringSubmatch(p)
		if !(c != nil && c[2] != "") && !(w != nil && w[2] == "") {
			t.Errorf("%s: parentId %q is neither a coordinator action nor a workflow", what, p)
		}
	}
	if _, ok := wf["actions"].([]any); !ok {
		return
	}
	for _, a := range pyObjects(t, what, wf, "actions") {
		aid := pyString(a, "id")
		aw := what + " action " + aid
		pyCheckKeys(t, aw, a, pyWorkflowActionKeys)
		m := pyWorkflowIDRe.FindStringSubmatch(aid)
		if m == nil || m[1] != id || m[2] == "" {
			t.Errorf("%s: id %q is not an action id of %s", aw, aid, id)
			continue
		}
		if name := pyString(a, "name"); name != m[2] {
			t.Errorf("%s: name %q does not match the id", aw, name)
		}
		if s := pyString(a, "status"); !slices.Contains(pyWorkflowActStatuses, s) {
			t.Errorf("%s: status %q is UNKNOWN to pyoozie", aw, s)
		}
		pyCheckToString(t, aw, a, m[2])
	}
}

// pyCheckCoordinator checks a coordinator job as model.Coordinator reads it, and its
// actions, and returns the actions by number.
func pyCheckCoordinator(t *testing.T, what string, c map[string]any) map[int]map[string]any {
	t.Helper()
	pyCheckKeys(t, what, c, pyCoordinatorKeys)
	id := pyString(c, "coordJobId")
	if m := pyCoordIDRe.FindStringSubmatch(id); m == nil || m[2] != "" {
		t.Errorf("%s: coordJobId %q is not a coordinator id", what, id)
	}
	if s := pyString(c, "status"); !slices.Contains(pyCoordStatuses, s) {
		t.Errorf("%s: status %q is UNKNOWN to pyoozie", what, s)
	}
	pyCheckToString(t, what, c, id)
	out := map[int]map[string]any{}
	if _, ok := c["actions"].([]any); !ok {
		return out
	}
	for _, a := range pyObjects(t, what, c, "actions") {
		n := pyCheckCoordAction(t, what+" action", a)
		if got := pyString(a, "coordJobId"); got != id {
			t.Errorf("%s: action %s belongs to %q", what, pyString(a, "id"), got)
		}
		out[n] = a
	}
	return out
}

// pyCheckCoordAction checks a coordinator action as model.CoordinatorAction reads it and
// returns its number.
func pyCheckCoordAction(t *testing.T, what string, a map[string]any) int {
	t.Helper()
	id := pyString(a, "id")
	what += " " + id
	pyCheckKeys(t, what, a, pyCoordActionKeys)
	m := pyCoordIDRe.FindStringSubmatch(id)
	if m == nil || m[2] == "" {
		t.Errorf("%s: id %q is not a coordinator action id", what, id)
		return 0
	}
	n, _ := strconv.Atoi(m[2])
	if got, _ := a["actionNumber"].(float64); int(got) != n {
		t.Errorf("%s: actionNumber %v does not match the id", what, a["actionNumber"])
	}
	if got := pyString(a, "coordJobId"); got != "" && got != m[1] {
		t.Errorf("%s: coordJobId %q does not match the id", what, got)
	}
	if ext := pyString(a, "externalId"); ext != "" {
		if w := pyWorkflowIDRe.FindStringSubmatch(ext); w == nil || w[2] != "" {
			t.Errorf("%s: externalId %q is not a workflow id", what, ext)
		}
	}
	if s := pyString(a, "status"); !slices.Contains(pyCoordActStatuses, s) {
		t.Errorf("%s: status %q is UNKNOWN to pyoozie", what, s)
	}
	pyCheckToString(t, what, a, id)
	return n
}

// pyWait polls cond until it holds, failing after a deadline; cond describes what it saw.
func pyWait(t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	testwait.Poll{Timeout: 30 * time.Second, Every: 10 * time.Millisecond}.WaitForLast(t, what, cond)
}

// pySubmit replays jobs_submit_workflow / jobs_submit_coordinator: POST jobs (with
// ?action=start for a started workflow) and the id from the 201 answer.
func (c *pyClient) pySubmit(endpoint, conf, suffix string) string {
	c.t.Helper()
	r := c.send(http.MethodPost, c.base+"/v2/"+endpoint, conf)
	var out map[string]any
	if r.status < 200 || r.status > 299 || json.Unmarshal([]byte(r.body), &out) != nil {
		c.t.Fatalf("POST v2/%s: %d %s %q", endpoint, r.status, r.header.Get(server.HeaderErrorMessage), r.body)
	}
	id := pyString(out, "id")
	if !strings.HasSuffix(id, suffix) {
		c.t.Fatalf("POST v2/%s: id %q, want a %s id", endpoint, id, suffix)
	}
	return id
}

// pyWorkflowInfo replays job_workflow_info(workflow_id=id): GET job/<id>.
func (c *pyClient) pyWorkflowInfo(id string) map[string]any {
	c.t.Helper()
	wf := c.object(http.MethodGet, "job/"+id, "")
	pyCheckWorkflow(c.t, "job_workflow_info("+id+")", wf)
	return wf
}

// pyCoordinatorInfo replays job_coordinator_info(coordinator_id=id) with no limit: GET
// job/<id>?offset=1&len=1 for the total, then all actions from 1 when there are more.
func (c *pyClient) pyCoordinatorInfo(id string) (map[string]any, map[int]map[string]any) {
	c.t.Helper()
	what := "job_coordinator_info(" + id + ")"
	job := c.object(http.MethodGet, "job/"+id+"?offset=1&len=1", "")
	total, ok := job["total"].(float64)
	if !ok {
		c.t.Fatalf("%s: total %#v, want a number", what, job["total"])
	}
	if total > 1 {
		job = c.object(http.MethodGet, fmt.Sprintf("job/%s?offset=1&len=%d", id, int(total)), "")
	}
	acts := pyCheckCoordinator(c.t, what, job)
	if int(total) > 0 && len(acts) != int(total) {
		c.t.Errorf("%s: %d actions for a total of %d", what, len(acts), int(total))
	}
	return job, acts
}

// pyControl replays a PUT job/<id>?<query> without a body (suspend, resume, kill, start,
// coord-rerun): a 2xx answer, empty or JSON.
func (c *pyClient) pyControl(id, query string) any {
	c.t.Helper()
	return c.call(http.MethodPut, "job/"+id+"?"+query, "")
}

// pyHourlyCoord runs ${wfPath} every hour from ${start} to ${end}, ${concurrency} at a time.
const pyHourlyCoord = `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="py-hourly" frequency="${coord:hours(1)}"
    start="${start}" end="${end}" timezone="UTC">
    <controls><concurrency>${concurrency}</concurrency></controls>
    <action>
        <workflow><app-path>${wfPath}</app-path></workflow>
    </action>
</coordinator-app>
`

// TestPyoozieAdmin replays the admin_* methods of OozieClient.
func TestPyoozieAdmin(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := newPyClient(t, f)
	// pyoozie returns these answers as they are; c.object already requires a JSON object.
	isObject := func(*testing.T, map[string]any) {}
	tests := []struct {
		method, endpoint string
		check            func(t *testing.T, v map[string]any)
	}{
		{"admin_status", "admin/status", func(t *testing.T, v map[string]any) {
			if v["systemMode"] != "NORMAL" {
				t.Errorf("systemMode %#v", v["systemMode"])
			}
		}},
		{"admin_os_env", "admin/os-env", func(t *testing.T, v map[string]any) {
			for k, val := range v {
				if _, ok := val.(string); !ok {
					t.Errorf("%s = %#v, want a string", k, val)
				}
			}
		}},
		{"admin_java_properties", "admin/java-sys-properties", isObject},
		{"admin_configuration", "admin/configuration", isObject},
		{"admin_instrumentation", "admin/instrumentation", func(t *testing.T, v map[string]any) {
			for _, k := range []string{"counters", "timers", "variables", "samplers"} {
				if _, ok := v[k].([]any); !ok {
					t.Errorf("%s = %#v, want an array of groups", k, v[k])
				}
			}
		}},
		{"admin_metrics", "admin/metrics", isObject},
		{"admin_build_version", "admin/build-version", func(t *testing.T, v map[string]any) {
			if s, ok := v["buildVersion"].(string); !ok || s == "" {
				t.Errorf("buildVersion %#v", v["buildVersion"])
			}
		}},
		{"admin_available_timezones", "admin/available-timezones", func(t *testing.T, v map[string]any) {
			for _, tz := range pyObjects(t, "timezones", v, "available-timezones") {
				if pyString(tz, "timezoneId") == "" || pyString(tz, "timezoneDisplayName") == "" {
					t.Errorf("time zone %v", tz)
				}
			}
		}},
		{"admin_queue_dump", "admin/queue-dump", isObject},
		{"admin_available_oozie_servers", "admin/available-oozie-servers", isObject},
		// admin_list_sharelib reads lib['name'] of every entry of "sharelib";
		// admin_list_all_sharelib then asks list_sharelib?lib=<name> for each.
		{"admin_list_sharelib", "admin/list_sharelib", func(t *testing.T, v map[string]any) {
			for _, lib := range pyObjects(t, "sharelib", v, "sharelib") {
				if pyString(lib, "name") == "" {
					t.Errorf("share lib without a name: %v", lib)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			c := &pyClient{t: t, base: c.base}
			tt.check(t, c.object(http.MethodGet, tt.endpoint, ""))
		})
	}
}

// TestPyoozieWorkflowCommands replays the submission, info and control methods of
// OozieClient for workflows. No engine runs: the fs app's action is never executed, so a
// started fs job stays RUNNING.
func TestPyoozieWorkflowCommands(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := newPyClient(t, f)
	const odd = "😢 & <ok>"
	conf := func(app string) string {
		return pyConfXML("user.name", "alice", "oozie.wf.application.path", f.appPath(app), "custom.config", odd)
	}

	// jobs_submit_workflow(path, configuration): POST jobs, then job_workflow_info(id).
	prep := c.pySubmit("jobs", conf(appFS), "-W")
	wf := c.pyWorkflowInfo(prep)
	if wf["status"] != "PREP" || wf["user"] != "alice" || wf["appName"] != "fs-wf" {
		t.Errorf("submitted job: status %v user %v appName %v, want PREP alice fs-wf", wf["status"], wf["user"], wf["appName"])
	}
	if got, err := pyParseConf(pyString(wf, "conf")); err != nil || got["custom.config"] != odd || got["user.name"] != "alice" {
		t.Errorf("conf %v (%v): custom.config and user.name did not come back as submitted", got, err)
	}

	// job_workflow_start: job_workflow_info, then PUT job/<id>?action=start for a PREP job.
	steps := []struct {
		method, action, before, after string
	}{
		{"job_workflow_start", "start", "PREP", "RUNNING"},
		{"job_workflow_suspend", "suspend", "RUNNING", "SUSPENDED"},
		{"job_workflow_resume", "resume", "SUSPENDED", "RUNNING"},
		{"job_workflow_kill", "kill", "RUNNING", "KILLED"},
	}
	for _, s := range steps {
		if got := c.pyWorkflowInfo(prep)["status"]; got != s.before {
			t.Fatalf("%s: status %v before, want %s", s.method, got, s.before)
		}
		c.pyControl(prep, "action="+s.action)
		if got := c.pyWorkflowInfo(prep)["status"]; got != s.after {
			t.Errorf("%s: status %v after, want %s", s.method, got, s.after)
		}
	}

	// jobs_submit_workflow(path, configuration, start=True): POST jobs?action=start.
	running := c.pySubmit("jobs?action=start", conf(appFS), "-W")
	wf = c.pyWorkflowInfo(running)
	acts := pyObjects(t, "running job", wf, "actions")
	if wf["status"] != "RUNNING" || len(acts) == 0 {
		t.Errorf("started job: status %v with %d actions", wf["status"], len(acts))
	}
	done := c.pySubmit("jobs?action=start", conf(appNoOp), "-W")
	if wf := c.pyWorkflowInfo(done); wf["status"] != "SUCCEEDED" || wf["endTime"] == nil {
		t.Errorf("no-op job: status %v endTime %v", wf["status"], wf["endTime"])
	}

	// job_workflow_info / job_coordinator_info of an unknown id: pyoozie raises
	// OozieArtifactNotFoundException with the oozie-error-message header as the cause.
	for _, id := range []string{"0000099-250127091857123-gozie-test-W", "0000099-250127091857123-gozie-test-C"} {
		r := c.send(http.MethodGet, c.base+"/v2/job/"+id, "")
		if r.status < 400 || !strings.Contains(r.header.Get(server.HeaderErrorMessage), id) {
			t.Errorf("unknown %s: %d %q", id, r.status, r.header.Get(server.HeaderErrorMessage))
		}
	}
}

// TestPyoozieWorkflowListings replays the jobs_* workflow listings and the name lookups
// built on them, with pyoozie's raw filter strings.
func TestPyoozieWorkflowListings(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := newPyClient(t, f)
	submit := func(user, app string, start bool) string {
		endpoint := "jobs"
		if start {
			endpoint += "?action=start"
		}
		id := c.pySubmit(endpoint, pyConfXML("user.name", user, "oozie.wf.application.path", f.appPath(app)), "-W")
		f.Clock.Advance(time.Minute) // newest first is by creation time
		return id
	}
	// Oldest first: 0 SUCCEEDED no-op-wf (joe), 1 RUNNING fs-wf (ann), 2 PREP fs-wf (joe),
	// 3 SUSPENDED fs-wf (joe), 4 KILLED fs-wf (ann).
	ids := []string{submit("joe", appNoOp, true), submit("ann", appFS, true), submit("joe", appFS, false),
		submit("joe", appFS, true), submit("ann", appFS, true)}
	c.pyControl(ids[3], "action=suspend")
	c.pyControl(ids[4], "action=kill")

	tests := []struct {
		method string
		query  string // after jobs?
		want   []int  // indexes into ids, newest first
		total  int
	}{
		{"jobs_all_workflows()", "jobtype=wf&offset=1&len=5000", []int{4, 3, 2, 1, 0}, 5},
		{"jobs_all_workflows(limit=2)", "jobtype=wf&offset=1&len=2", []int{4, 3}, 5},
		{"jobs_all_workflows(user='ann')", "jobtype=wf&filter=user=ann&offset=1&len=5000", []int{4, 1}, 2},
		{"jobs_last_workflow('fs-wf'), job_workflow_info(name='fs-wf')",
			"jobtype=wf&filter=name=fs-wf&offset=1&len=1", []int{4}, 4},
		{"jobs_all_active_workflows()",
			"jobtype=wf&filter=status=PREP;status=RUNNING;status=SUSPENDED&offset=1&len=5000", []int{3, 2, 1}, 3},
		{"jobs_all_running_workflows()",
			"jobtype=wf&filter=status=RUNNING;status=SUSPENDED&offset=1&len=5000", []int{3, 1}, 2},
		{"jobs_running_workflows('fs-wf', user='ann')",
			"jobtype=wf&filter=user=ann;name=fs-wf;status=RUNNING;status=SUSPENDED&offset=1&len=5000", []int{1}, 1},
		{"jobs_last_workflow('fs-wf', user='joe')",
			"jobtype=wf&filter=user=joe;name=fs-wf&offset=1&len=1", []int{3}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			c := &pyClient{t: t, base: c.base}
			l := c.object(http.MethodGet, "jobs?"+tt.query, "")
			var got []string
			for _, wf := range pyObjects(t, tt.method, l, "workflows") {
				pyCheckWorkflow(t, tt.method+" entry", wf)
				got = append(got, pyString(wf, "id"))
			}
			want := make([]string, len(tt.want))
			for i, k := range tt.want {
				want[i] = ids[k]
			}
			total, _ := l["total"].(float64)
			if !slices.Equal(got, want) || int(total) != tt.total {
				t.Errorf("GET jobs?%s\n got %v total %v\nwant %v total %d", tt.query, got, l["total"], want, tt.total)
			}
		})
	}
}

// pyCoordFixture runs the engine with three coordinators of the workflow app no-op,
// submitted as pyoozie does:
//
//	hourly: 2025-01-27 00:00 to 2025-01-28 00:00, RUNNING, actions 1-10 (00:00-09:00) SUCCEEDED
//	inputs: jobstest.InputsCoordApp, RUNNING, actions 1 and 2 WAITING for their inputs
//	later:  starts in 2030, PREP
func pyCoordFixture(t *testing.T) (f *fixture, c *pyClient, hourly, inputs, later string) {
	t.Helper()
	f = setup(t)
	f.StartEngine(t)
	c = newPyClient(t, f)
	hourlyApp := f.WriteCoordApp(t, "py-hourly", pyHourlyCoord)
	hourlyConf := func(concurrency string) string {
		return pyConfXML("user.name", "alice", "oozie.coord.application.path", hourlyApp, "wfPath", f.appPath(appNoOp),
			"start", "2025-01-27T00:00Z", "end", "2025-01-28T00:00Z", "concurrency", concurrency)
	}
	// jobs_submit_coordinator(path, configuration): POST jobs, then job_coordinator_info(id).
	hourly = c.pySubmit("jobs", hourlyConf("2"), "-C")
	if job, _ := c.pyCoordinatorInfo(hourly); job["user"] != "alice" || job["coordJobName"] != "py-hourly" {
		t.Errorf("submitted coordinator: user %v coordJobName %v", job["user"], job["coordJobName"])
	}
	f.Clock.Advance(time.Minute) // listings are newest first, by creation time
	inputsApp := f.WriteCoordApp(t, "py-inputs", jobstest.InputsCoordApp(f.appPath(appNoOp), t.TempDir()))
	inputs = c.pySubmit("jobs", pyConfXML("user.name", "alice", "oozie.coord.application.path", inputsApp), "-C")
	f.Clock.Advance(time.Minute)
	laterApp := f.WriteCoordApp(t, "py-later",
		jobstest.HourlyCoordApp(f.appPath(appNoOp), "2030-01-01T00:00Z", "2030-01-02T00:00Z"))
	later = c.pySubmit("jobs", pyConfXML("user.name", "bob", "oozie.coord.application.path", laterApp), "-C")

	pyWait(t, "hourly actions 1-10 SUCCEEDED", func() (bool, string) {
		job, acts := c.pyCoordinatorInfo(hourly)
		for n := 1; n <= 10; n++ {
			if acts[n] == nil || acts[n]["status"] != "SUCCEEDED" {
				return false, fmt.Sprintf("job %v, action %d: %v", job["status"], n, acts[n]["status"])
			}
		}
		return job["status"] == "RUNNING", fmt.Sprintf("job %v", job["status"])
	})
	pyWait(t, "inputs actions 1-2 WAITING", func() (bool, string) {
		job, acts := c.pyCoordinatorInfo(inputs)
		return len(acts) == 2 && acts[1]["status"] == "WAITING" && acts[2]["status"] == "WAITING",
			fmt.Sprintf("job %v, %d actions", job["status"], len(acts))
	})
	return f, c, hourly, inputs, later
}

// TestPyoozieCoordinatorReads replays the coordinator and coordinator action reads.
func TestPyoozieCoordinatorReads(t *testing.T) {
	t.Parallel()
	_, c, hourly, inputs, _ := pyCoordFixture(t)

	// job_coordinator_info(coordinator_id): the total, then every action.
	job, acts := c.pyCoordinatorInfo(hourly)
	if job["concurrency"] != float64(2) || job["frequency"] != "60" || job["timeUnit"] != "MINUTE" {
		t.Errorf("coordinator: concurrency %v frequency %v timeUnit %v", job["concurrency"], job["frequency"], job["timeUnit"])
	}
	if conf, err := pyParseConf(pyString(job, "conf")); err != nil || conf["user.name"] != "alice" {
		t.Errorf("coordinator conf %v (%v)", conf, err)
	}
	total, _ := job["total"].(float64)

	// job_last_coordinator_info / job_coordinator_info(limit=2): the newest actions first.
	last := c.object(http.MethodGet, "job/"+hourly+"?order=desc&offset=1&len=2", "")
	var numbers []int
	for _, a := range pyObjects(t, "order=desc", last, "actions") {
		numbers = append(numbers, pyCheckCoordAction(t, "job_coordinator_info(limit=2)", a))
	}
	if n := int(total); !slices.Equal(numbers, []int{n, n - 1}) {
		t.Errorf("order=desc&offset=1&len=2: actions %v, want [%d %d]", numbers, n, n-1)
	}

	// job_coordinator_info(coordinator_id=<id>@2): offset=2&len=1 holds action 2.
	two := pyCheckCoordinator(t, "job_coordinator_info(@2)", c.object(http.MethodGet, "job/"+hourly+"?offset=2&len=1", ""))
	if len(two) != 1 || two[2] == nil {
		t.Errorf("offset=2&len=1: actions %v, want only action 2", slices.Sorted(maps.Keys(two)))
	}

	// job_coordinator_action(coordinator_id=<id>@1): GET job/<id>@1.
	act := c.object(http.MethodGet, "job/"+hourly+"@1", "")
	if pyCheckCoordAction(t, "job_coordinator_action", act) != 1 || act["status"] != "SUCCEEDED" {
		t.Errorf("action 1: %v", act["status"])
	}
	if nt, err := pyParseDate(pyString(act, "nominalTime")); err != nil || !nt.Equal(time.Date(2025, 1, 27, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("action 1 nominalTime %v (%v)", act["nominalTime"], err)
	}
	if pyString(act, "externalId") != pyString(acts[1], "externalId") {
		t.Errorf("action 1 externalId %v, in the job %v", act["externalId"], acts[1]["externalId"])
	}

	// CoordinatorAction.workflow(): job_workflow_info(externalId); Workflow.parent() then
	// reads parentId, the coordinator action.
	wf := c.pyWorkflowInfo(pyString(act, "externalId"))
	if wf["parentId"] != hourly+"@1" || wf["status"] != "SUCCEEDED" {
		t.Errorf("action 1's workflow: parentId %v status %v", wf["parentId"], wf["status"])
	}

	// job_coordinator_all_active_actions: the total of the active actions, then those.
	const active = "&filter=status=READY;status=RUNNING;status=SUBMITTED;status=SUSPENDED;status=WAITING"
	c.pyControl(inputs, "action=kill&type=action&scope=1") // job_coordinator_kill(<inputs>@1)
	res := c.object(http.MethodGet, "job/"+inputs+"?offset=1&len=1"+active, "")
	total, _ = res["total"].(float64)
	if total != 1 {
		t.Errorf("job_coordinator_all_active_actions: total %v with one active action of two (the filter was %q)",
			res["total"], strings.TrimPrefix(active, "&filter="))
	}
	if total > 1 { // pyoozie asks again for all of them
		res = c.object(http.MethodGet, fmt.Sprintf("job/%s?offset=1&len=%d%s", inputs, int(total), active), "")
	}
	page := pyCheckCoordinator(t, "job_coordinator_all_active_actions", res)
	if len(page) != 1 || page[2] == nil || page[2]["status"] != "WAITING" {
		t.Errorf("job_coordinator_all_active_actions: actions %v, want only action 2 (WAITING)", slices.Sorted(maps.Keys(page)))
	}
}

// TestPyoozieCoordinatorCommands replays rerun, update, suspend, resume and kill.
func TestPyoozieCoordinatorCommands(t *testing.T) {
	t.Parallel()
	f, c, hourly, inputs, later := pyCoordFixture(t)

	// job_coordinator_rerun(<id>@1): the action is read (offset=1&len=1), then for an active
	// coordinator and a finished action PUT coord-rerun with refresh=true and no body.
	before := pyString(c.object(http.MethodGet, "job/"+hourly+"@1", ""), "externalId")
	c.pyControl(hourly, "action=coord-rerun&type=action&scope=1&refresh=true")
	pyWait(t, "action 1 SUCCEEDED in a new workflow", func() (bool, string) {
		a := c.object(http.MethodGet, "job/"+hourly+"@1", "")
		ext := pyString(a, "externalId")
		return a["status"] == "SUCCEEDED" && ext != "" && ext != before, fmt.Sprintf("%v in %q", a["status"], ext)
	})

	// job_coordinator_update(<id>, path, configuration): PUT action=update with the
	// submission document; the answer must hold update.diff.
	conf := pyConfXML("user.name", "alice", "oozie.coord.application.path", f.appPath("py-hourly"),
		"wfPath", f.appPath(appNoOp), "start", "2025-01-27T00:00Z", "end", "2025-01-28T00:00Z", "concurrency", "3")
	reply := c.object(http.MethodPut, "job/"+hourly+"?action=update", conf)
	update, _ := reply["update"].(map[string]any)
	if diff, ok := update["diff"].(string); !ok || !strings.Contains(diff, "concurrency") {
		t.Errorf("update answer %v, want update.diff naming the concurrency", reply)
	}
	if job, _ := c.pyCoordinatorInfo(hourly); job["concurrency"] != float64(3) {
		t.Errorf("after update: concurrency %v", job["concurrency"])
	}

	steps := []struct {
		method, id, query, want string
	}{
		// job_coordinator_suspend(coordinator_id) of a PREP and a RUNNING coordinator.
		{"job_coordinator_suspend(later)", later, "action=suspend", "PREPSUSPENDED"},
		{"job_coordinator_suspend(hourly)", hourly, "action=suspend", "SUSPENDED"},
		{"job_coordinator_resume(hourly)", hourly, "action=resume", "RUNNING"},
		// job_coordinator_suspend(<id>@2) / job_coordinator_resume(<id>@2): pyoozie sends these
		// for a RUNNING (or SUSPENDED) action and adds type=action&scope=2; Oozie ignores type
		// and scope for suspend and resume and acts on the whole coordinator (the action's
		// own status, WAITING here, plays no part on the server).
		{"job_coordinator_suspend(inputs@2)", inputs, "action=suspend&type=action&scope=2", "SUSPENDED"},
		{"job_coordinator_resume(inputs@2)", inputs, "action=resume&type=action&scope=2", "RUNNING"},
		{"job_coordinator_kill(inputs)", inputs, "action=kill", "KILLED"},
	}
	for _, s := range steps {
		c.pyControl(s.id, s.query)
		if job, _ := c.pyCoordinatorInfo(s.id); job["status"] != s.want {
			t.Errorf("%s: status %v, want %s", s.method, job["status"], s.want)
		}
	}

	// The coordinator listings, with pyoozie's raw status filters (sorted status= terms).
	const (
		activeCoords    = "status=PAUSED;status=PAUSEDWITHERROR;status=PREMATER;status=PREP;status=PREPPAUSED;status=PREPSUSPENDED;status=RUNNING;status=RUNNINGWITHERROR;status=SUSPENDED;status=SUSPENDEDWITHERROR"
		runningCoords   = "status=RUNNING;status=RUNNINGWITHERROR;status=SUSPENDED;status=SUSPENDEDWITHERROR"
		suspendedCoords = "status=PREPSUSPENDED;status=SUSPENDED;status=SUSPENDEDWITHERROR"
	)
	lists := []struct {
		method string
		query  string // after jobs?
		want   []string
	}{
		{"jobs_all_coordinators()", "jobtype=coordinator&offset=1&len=5000", []string{later, inputs, hourly}},
		{"jobs_last_coordinator('py-hourly')", "jobtype=coordinator&filter=name=py-hourly&offset=1&len=1",
			[]string{hourly}},
		{"jobs_all_active_coordinators()", "jobtype=coordinator&filter=" + activeCoords + "&offset=1&len=5000",
			[]string{later, hourly}},
		{"jobs_all_running_coordinators()", "jobtype=coordinator&filter=" + runningCoords + "&offset=1&len=5000",
			[]string{hourly}},
		{"jobs_all_suspended_coordinators()", "jobtype=coordinator&filter=" + suspendedCoords + "&offset=1&len=5000",
			[]string{later}},
		{"jobs_running_coordinators('py-hourly')",
			"jobtype=coordinator&filter=name=py-hourly;" + runningCoords + "&offset=1&len=5000", []string{hourly}},
		// Not a pyoozie request: the active filter percent-encoded, as Oozie's Java client
		// sends it, to tell a problem with the raw ';' from one with the statuses.
		{"(diagnostic) the active filter percent-encoded",
			"jobtype=coordinator&filter=" + strings.NewReplacer(";", "%3B", "=", "%3D").Replace(activeCoords) +
				"&offset=1&len=5000", []string{later, hourly}},
	}
	for _, tt := range lists {
		t.Run(tt.method, func(t *testing.T) {
			c := &pyClient{t: t, base: c.base}
			l := c.object(http.MethodGet, "jobs?"+tt.query, "")
			var got []string
			for _, job := range pyObjects(t, tt.method, l, "coordinatorjobs") {
				pyCheckCoordinator(t, tt.method+" entry", job)
				got = append(got, pyString(job, "coordJobId"))
			}
			if total, _ := l["total"].(float64); !slices.Equal(got, tt.want) || int(total) != len(tt.want) {
				t.Errorf("GET jobs?%s\n got %v total %v\nwant %v", tt.query, got, l["total"], tt.want)
			}
		})
	}

	// job_coordinator_kill(coordinator_id) of the last active ones.
	for _, id := range []string{hourly, later} {
		c.pyControl(id, "action=kill")
		if job, _ := c.pyCoordinatorInfo(id); job["status"] != "KILLED" {
			t.Errorf("job_coordinator_kill(%s): status %v", id, job["status"])
		}
	}
}
