package miniyarn_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

func TestSubmissionValidation(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	c.rm.HoldAccepted(true)
	na, err := c.client.NewApplication(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if na.MaximumResourceCapability != miniyarn.DefaultMaxResource {
		t.Errorf("maximum-resource-capability = %+v", na.MaximumResourceCapability)
	}
	id := na.ApplicationID.String()
	cmd := `"am-container-spec":{"commands":{"command":"true"}}`
	manyTags := `"t0","t1","t2","t3","t4","t5","t6","t7","t8","t9","t10"`
	tests := []struct {
		name        string
		contentType string
		body        string
		status      int
		exception   string
		message     string
	}{
		{"not JSON", "application/json", `{"application-id":`, 400, "BadRequestException", "Could not parse"},
		{"no id", "application/json", `{` + cmd + `}`, 400, "BadRequestException", "without an application id"},
		{"bad id", "application/json", `{"application-id":"app_1_1",` + cmd + `}`, 400, "IllegalArgumentException", "Invalid ApplicationId: app_1_1"},
		{"id not handed out", "application/json", `{"application-id":"application_1_0001",` + cmd + `}`, 400, "BadRequestException", "was not handed out"},
		{"too many tags", "application/json", `{"application-id":"` + id + `",` + cmd + `,"application-tags":{"tag":[` + manyTags + `]}}`, 400, "IllegalArgumentException", "Too many applicationTags, a maximum of only 10 are allowed!"},
		{"tag too long", "application/json", `{"application-id":"` + id + `",` + cmd + `,"application-tags":{"tag":["` + strings.Repeat("x", 101) + `"]}}`, 400, "IllegalArgumentException", "maximum allowed length of a tag is 100"},
		{"non-ASCII tag", "application/json", `{"application-id":"` + id + `",` + cmd + `,"application-tags":{"tag":["caf\u00e9"]}}`, 400, "IllegalArgumentException", "A tag can only have ASCII characters! Invalid tag - café"},
		{"resource too large", "application/json", `{"application-id":"` + id + `",` + cmd + `,"resource":{"memory":99999,"vCores":1}}`, 400, "BadRequestException", "maximum allowed allocation=<memory:8192, vCores:32>"},
		{"bad token", "application/json", `{"application-id":"` + id + `","am-container-spec":{"commands":{"command":"true"},"credentials":{"tokens":{"entry":[{"key":"a","value":"!!!"}]}}}}`, 400, "BadRequestException", "Could not parse credentials data"},
		{"no command", "application/json", `{"application-id":"` + id + `"}`, 400, "BadRequestException", "has no commands"},
		{"bad resource type", "application/json", `{"application-id":"` + id + `","am-container-spec":{"commands":{"command":"true"},"local-resources":{"entry":{"key":"a","value":{"resource":"file:///x","type":"BLOB","visibility":"APPLICATION"}}}}}`, 400, "BadRequestException", "unknown type"},
		{"XML", "application/xml", `<application-submission-context/>`, 415, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := httpDo(t, "POST", c.rm.WebURL()+"/ws/v1/cluster/apps?user.name=alice", tc.contentType, tc.body)
			if status != tc.status {
				t.Fatalf("status %d, want %d (body %s)", status, tc.status, body)
			}
			if tc.exception == "" {
				return
			}
			re := remoteException(t, body)
			if re.Exception != tc.exception || !strings.Contains(re.Message, tc.message) || re.JavaClassName == "" {
				t.Errorf("got %+v, want %s containing %q", re, tc.exception, tc.message)
			}
		})
	}
	if n := len(c.rm.Apps()); n != 0 {
		t.Errorf("%d applications were created by invalid submissions", n)
	}
}

func TestTagsAreLowerCasedAndMatchAny(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	c.rm.HoldAccepted(true)
	na, err := c.client.NewApplication(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	// Raw HTTP: the yarn client would lower-case the tags itself.
	body := fmt.Sprintf(`{"application-id":"%s","application-name":"n","application-type":"AVeryLongApplicationTypeName","am-container-spec":{"commands":{"command":["true"]}},"application-tags":{"tag":["Gozie-ABC","Second"]}}`, na.ApplicationID)
	status, hdr, respBody := httpDo(t, "POST", c.rm.WebURL()+"/ws/v1/cluster/apps?user.name=alice", "application/json", body)
	if status != http.StatusAccepted {
		t.Fatalf("submit: %d %s", status, respBody)
	}
	if loc := hdr.Get("Location"); !strings.HasSuffix(loc, "/ws/v1/cluster/apps/"+na.ApplicationID.String()) {
		t.Errorf("Location %q", loc)
	}
	r, err := c.client.App(ctxT(t), na.ApplicationID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Tags, ",") != "gozie-abc,second" || r.ApplicationType != "AVeryLongApplicatio"+"n" {
		t.Errorf("tags %v type %q", r.Tags, r.ApplicationType)
	}
	_, _, raw := httpDo(t, "GET", c.rm.WebURL()+"/ws/v1/cluster/apps?user.name=alice&applicationTags=nomatch,GOZIE-abc", "", "")
	var env struct {
		Apps struct {
			App []map[string]any `json:"app"`
		} `json:"apps"`
	}
	if err := json.Unmarshal([]byte(raw), &env); err != nil || len(env.Apps.App) != 1 {
		t.Fatalf("list by tag: %s (%v)", raw, err)
	}
	if got := env.Apps.App[0]["applicationTags"]; got != "gozie-abc,second" {
		t.Errorf("applicationTags on the wire = %#v, want a comma-separated string", got)
	}
	_, _, none := httpDo(t, "GET", c.rm.WebURL()+"/ws/v1/cluster/apps?user.name=alice&applicationTags=other", "", "")
	if strings.TrimSpace(none) != `{"apps":null}` {
		t.Errorf("empty list body %q", none)
	}
}

func TestListFilters(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	done := c.submit(t, "true", func(sc *yarn.ApplicationSubmissionContext) { sc.ApplicationTags = yarn.Tags{"a"} })
	c.waitDone(t, done)
	c.rm.HoldAccepted(true)
	held := c.submit(t, "true", func(sc *yarn.ApplicationSubmissionContext) {
		sc.ApplicationTags = yarn.Tags{"b"}
		sc.ApplicationType = "OTHER"
	})
	ids := func(f yarn.AppsFilter) []yarn.ApplicationID {
		t.Helper()
		list, err := c.client.Apps(ctxT(t), f)
		if err != nil {
			t.Fatalf("Apps(%+v): %v", f, err)
		}
		var out []yarn.ApplicationID
		for _, r := range list {
			out = append(out, r.ID)
		}
		return out
	}
	doneR, _ := c.rm.App(done)
	tests := []struct {
		name string
		f    yarn.AppsFilter
		want []yarn.ApplicationID
	}{
		{"all", yarn.AppsFilter{}, []yarn.ApplicationID{done, held}},
		{"tags any", yarn.AppsFilter{Tags: []string{"b", "zzz"}}, []yarn.ApplicationID{held}},
		{"states", yarn.AppsFilter{States: []yarn.AppState{yarn.StateFinished, yarn.StateRunning}}, []yarn.ApplicationID{done}},
		{"final status", yarn.AppsFilter{FinalStatus: yarn.FinalUndefined}, []yarn.ApplicationID{held}},
		{"user", yarn.AppsFilter{User: "bob"}, nil},
		{"type", yarn.AppsFilter{ApplicationTypes: []string{"other"}}, []yarn.ApplicationID{held}},
		{"limit", yarn.AppsFilter{Limit: 1}, []yarn.ApplicationID{done}},
		{"finished window", yarn.AppsFilter{FinishedTimeBegin: doneR.FinishedTime, FinishedTimeEnd: doneR.FinishedTime}, []yarn.ApplicationID{done}},
		{"started after", yarn.AppsFilter{StartedTimeBegin: doneR.StartedTime.Add(24 * 3600e9)}, nil},
	}
	for _, tc := range tests {
		if got := ids(tc.f); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	status, _, body := httpDo(t, "GET", c.rm.WebURL()+"/ws/v1/cluster/apps?user.name=alice&states=SLEEPING", "", "")
	if status != 400 || remoteException(t, body).Exception != "BadRequestException" {
		t.Errorf("bad state filter: %d %s", status, body)
	}
}

func TestRESTErrors(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	c.rm.HoldAccepted(true)
	id := c.submit(t, "true", nil)
	base := c.rm.WebURL() + "/ws/v1/cluster"
	tests := []struct {
		method, path, contentType, body string
		status                          int
		exception, message              string
	}{
		{"GET", "/apps/application_1_0001", "", "", 404, "NotFoundException", "java.lang.Exception: app with id: application_1_0001 not found"},
		{"GET", "/apps/garbage", "", "", 400, "BadRequestException", "Invalid ApplicationId: garbage"},
		{"PUT", "/apps/" + id.String() + "/state", "application/json", `{"state":"RUNNING"}`, 400, "BadRequestException", "Only 'KILLED' is allowed as a target state."},
	}
	for _, tc := range tests {
		status, _, body := httpDo(t, tc.method, base+tc.path+"?user.name=alice", tc.contentType, tc.body)
		if status != tc.status {
			t.Errorf("%s %s: status %d, want %d (%s)", tc.method, tc.path, status, tc.status, body)
			continue
		}
		re := remoteException(t, body)
		if re.Exception != tc.exception || !strings.Contains(re.Message, tc.message) {
			t.Errorf("%s %s: %+v", tc.method, tc.path, re)
		}
	}
	st, err := c.client.State(ctxT(t), id)
	if err != nil || st != yarn.StateAccepted {
		t.Errorf("State = %v, %v", st, err)
	}
}

func TestPseudoAuthentication(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{})
	info := c.rm.WebURL() + "/ws/v1/cluster/info"
	if status, _, _ := httpDo(t, "GET", info, "", ""); status != http.StatusUnauthorized {
		t.Errorf("anonymous request: %d, want 401", status)
	}
	status, hdr, _ := httpDo(t, "GET", info+"?user.name=carol", "", "")
	if status != 200 {
		t.Fatalf("with user.name: %d", status)
	}
	cookie := hdr.Get("Set-Cookie")
	if !strings.HasPrefix(cookie, "hadoop.auth=") {
		t.Fatalf("no hadoop.auth cookie: %q", cookie)
	}
	req, _ := http.NewRequestWithContext(ctxT(t), "POST", c.rm.WebURL()+"/ws/v1/cluster/apps/new-application", nil)
	req.Header.Set("Cookie", strings.Split(cookie, ";")[0])
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("request with the cookie only: %d", resp.StatusCode)
	}
	req.Header.Set("Cookie", "hadoop.auth=u=mallory&p=mallory&t=simple&e=99999999999999&s=forged")
	resp, err = noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("forged cookie: %d, want 401", resp.StatusCode)
	}
	if status, _, _ := httpDo(t, "GET", info+"?user.name=../etc", "", ""); status != http.StatusForbidden {
		t.Errorf("path-like user name: %d, want 403", status)
	}
}

func TestAnonymousRunsAsStaticUser(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true, AnonymousAllowed: true})
	anon, err := yarn.NewClient(yarn.Config{Addresses: []string{c.rm.WebAddr()}})
	if err != nil {
		t.Fatal(err)
	}
	na, err := anon.NewApplication(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	sc := yarn.ApplicationSubmissionContext{ApplicationID: na.ApplicationID, AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{"true"}}}
	if err := anon.Submit(ctxT(t), sc); err != nil {
		t.Fatal(err)
	}
	r := c.waitDone(t, na.ApplicationID)
	if r.User != miniyarn.StaticUser || r.Name != miniyarn.DefaultApplicationName || r.ApplicationType != miniyarn.DefaultApplicationType {
		t.Errorf("user %q name %q type %q", r.User, r.Name, r.ApplicationType)
	}
}

func TestStandbyRedirects(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true, Standbys: 1})
	addrs := c.rm.WebAddrs()
	if len(addrs) != 2 || c.rm.WebAddr() != addrs[0] {
		t.Fatalf("WebAddrs %v, active %s", addrs, c.rm.WebAddr())
	}
	status, hdr, body := httpDo(t, "GET", "http://"+addrs[1]+"/ws/v1/cluster/apps?user.name=alice&states=RUNNING", "", "")
	wantLoc := "http://" + addrs[0] + "/ws/v1/cluster/apps?user.name=alice&states=RUNNING"
	if status != http.StatusTemporaryRedirect || hdr.Get("Location") != wantLoc || !strings.Contains(body, "This is standby RM") {
		t.Errorf("standby answer: %d Location=%q body=%q", status, hdr.Get("Location"), body)
	}
	_, _, info := httpDo(t, "GET", "http://"+addrs[1]+"/ws/v1/cluster/info?user.name=alice", "", "")
	if !strings.Contains(info, `"haState":"STANDBY"`) {
		t.Errorf("standby info %s", info)
	}
	if err := c.rm.Failover(1); err != nil {
		t.Fatal(err)
	}
	_, _, info = httpDo(t, "GET", "http://"+addrs[1]+"/ws/v1/cluster/info?user.name=alice", "", "")
	if !strings.Contains(info, `"haState":"ACTIVE"`) || c.rm.WebAddr() != addrs[1] {
		t.Errorf("after failover: %s, active %s", info, c.rm.WebAddr())
	}
	if status, _, _ := httpDo(t, "POST", "http://"+addrs[0]+"/ws/v1/cluster/apps/new-application?user.name=alice", "", ""); status != http.StatusTemporaryRedirect {
		t.Errorf("old active after failover: %d, want 307", status)
	}
	if err := c.rm.Failover(5); err == nil {
		t.Error("Failover to a missing endpoint succeeded")
	}
	// Mid-failover nobody is active: 307 with Refresh and no Location.
	if err := c.rm.Failover(-1); err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		status, hdr, body := httpDo(t, "GET", "http://"+a+"/ws/v1/cluster/apps?user.name=alice", "", "")
		if status != http.StatusTemporaryRedirect || hdr.Get("Location") != "" || !strings.HasPrefix(hdr.Get("Refresh"), "3;url=http://"+a+"/") || !strings.Contains(body, "This is standby RM") {
			t.Errorf("%s without an active RM: %d Location=%q Refresh=%q", a, status, hdr.Get("Location"), hdr.Get("Refresh"))
		}
	}
}
