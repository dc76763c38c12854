package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server/auth"
)

// served is a daemon serving its REST API on a loopback port.
type served struct {
	d    *daemon.Daemon
	cfg  *conf.Server
	base string // http://127.0.0.1:port/oozie
	apps string // a folder for file:// apps
}

// serve opens and runs a daemon with its data in a temporary folder and flags over the
// defaults; it stops when the test ends.
func serve(t *testing.T, flags map[string]string) *served {
	t.Helper()
	return serveWith(t, flags, daemon.Options{})
}

// serveWith is serve with the daemon's options (its Config and Listener are filled in).
func serveWith(t *testing.T, flags map[string]string, opts daemon.Options) *served {
	t.Helper()
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String() + "/oozie"
	all := map[string]string{"gozie.db.url": "sqlite:" + filepath.Join(dir, "gozie.db"), "gozie.data.dir": dir,
		"gozie.purge.enabled": "false", "gozie.callback.base.url": base + "/callback",
		// The apps folder is on the server's disk, which only an administrator opens.
		"gozie.filesystems.supported": "hdfs,file"}
	for k, v := range flags {
		all[k] = v
	}
	cfg, err := conf.Load(conf.Sources{ConfigDir: dir, LookupEnv: func(string) (string, bool) { return "", false }, Flags: all})
	if err != nil {
		t.Fatal(err)
	}
	opts.Config, opts.Listener = cfg, ln
	ctx, cancel := context.WithCancel(context.Background())
	d, err := daemon.Open(ctx, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return &served{d: d, cfg: cfg, base: base, apps: filepath.Join(dir, "apps")}
}

// write writes an app file under s.apps.
func (s *served) write(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(s.apps, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// call sends one request as user (empty: anonymous) and returns the status, the Oozie
// error code and the body.
func (s *served) call(t *testing.T, method, path, user, body string) (int, string, string) {
	t.Helper()
	u := s.base + path
	if user != "" {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		u += sep + "user.name=" + url.QueryEscape(user)
	}
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/xml")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("oozie-error-code"), string(b)
}

// submit submits a job as owner from a configuration of name=value pairs and returns its id.
func (s *served) submit(t *testing.T, owner string, pairs ...string) string {
	t.Helper()
	var body strings.Builder
	if err := conf.WriteConfigurationXML(&body, conf.NewProperties(append([]string{"user.name", owner}, pairs...)...)); err != nil {
		t.Fatal(err)
	}
	status, code, out := s.call(t, http.MethodPost, "/v2/jobs", owner, body.String())
	if status != http.StatusCreated {
		t.Fatalf("submit as %s: %d %s %s", owner, status, code, out)
	}
	var id struct{ ID string }
	if err := json.Unmarshal([]byte(out), &id); err != nil {
		t.Fatal(err)
	}
	return id.ID
}

// wfInfo is what the daemon tests read of a finished workflow.
type wfInfo struct {
	Status  string
	Actions []wfAction
}

// wfAction is one action row of a wfInfo.
type wfAction struct{ Name, Status, Transition, ErrorCode, ErrorMessage string }

// action returns the row of the action named name (zero when none).
func (w wfInfo) action(name string) wfAction {
	for _, a := range w.Actions {
		if a.Name == name {
			return a
		}
	}
	return wfAction{}
}

// runWorkflow starts the workflow id as owner and polls its info until it
// ends, within timeout.
func (s *served) runWorkflow(t *testing.T, id, owner string, timeout time.Duration) wfInfo {
	t.Helper()
	if code, _, out := s.call(t, http.MethodPut, "/v2/job/"+id+"?action=start", owner, ""); code != http.StatusOK {
		t.Fatalf("start: %d %s", code, out)
	}
	var info wfInfo
	testwait.Poll{Timeout: timeout, Every: 20 * time.Millisecond}.WaitForLast(t, "workflow "+id+" to end", func() (bool, string) {
		_, _, out := s.call(t, http.MethodGet, "/v2/job/"+id+"?show=info", owner, "")
		if err := json.Unmarshal([]byte(out), &info); err != nil {
			t.Fatalf("info: %v: %s", err, out)
		}
		return info.Status == "KILLED" || info.Status == "SUCCEEDED" || info.Status == "FAILED", fmt.Sprintf("%+v", info)
	})
	return info
}

// status reads a job's status as its owner.
func (s *served) status(t *testing.T, id, owner string) string {
	t.Helper()
	code, _, out := s.call(t, http.MethodGet, "/v2/job/"+id+"?show=info", owner, "")
	var info struct{ Status string }
	if code != http.StatusOK || json.Unmarshal([]byte(out), &info) != nil {
		t.Fatalf("info of %s: %d %s", id, code, out)
	}
	return info.Status
}

// TestRoutePermissions lists the permission of every route of the server. A new route
// fails this test until its permission is written here, so that none is added without a
// decision; Handle itself refuses a route without one.
func TestRoutePermissions(t *testing.T) {
	s := serve(t, nil)
	want := map[string]auth.Permission{
		"/metrics":                                    auth.PermOpen,
		"/oozie/callback":                             auth.PermOpen,
		"/oozie/versions":                             auth.PermRead,
		"/oozie/v{version}/admin/status":              auth.PermRead, // GET; PUT below
		"/oozie/v{version}/admin/build-version":       auth.PermRead,
		"/oozie/v{version}/admin/configuration":       auth.PermSystemInfo,
		"/oozie/v{version}/admin/available-timezones": auth.PermRead,
		"/oozie/v{version}/admin/os-env":              auth.PermSystemInfo,
		"/oozie/v{version}/admin/java-sys-properties": auth.PermSystemInfo,
		"/oozie/v{version}/admin/instrumentation":     auth.PermRead,
		"/oozie/v2/admin/metrics":                     auth.PermRead,
		"/oozie/v1/admin/metrics":                     auth.PermRead,
		"/oozie/v{version}/admin/queue-dump":          auth.PermRead,
		"/oozie/v2/admin/available-oozie-servers":     auth.PermRead,
		"/oozie/v{version}/admin/list_sharelib":       auth.PermRead,
		"/oozie/v{version}/admin/update_sharelib":     auth.PermAdmin,
		"/oozie/v{version}/admin/jmsinfo":             auth.PermRead,
		"/oozie/v2/admin/purge":                       auth.PermAdmin,
		"/oozie/v{version}/jobs":                      auth.PermRead, // GET; POST and PUT below
		"/oozie/v{version}/job/{id}":                  auth.PermReadJob,
		"/oozie/v2/validate":                          auth.PermRead,
		"/oozie/v2/dataset":                           auth.PermSubmit,
		"/oozie/v2/sla":                               auth.PermRead,
		"/oozie/v2/sla/events":                        auth.PermRead,
		"/oozie":                                      auth.PermRead, // the web console, to browsers only
		"/oozie/":                                     auth.PermRead,
		"/oozie/console/{file}":                       auth.PermRead,
	}
	byMethod := map[string]auth.Permission{
		"PUT /oozie/v{version}/admin/status": auth.PermAdmin,
		"POST /oozie/v{version}/jobs":        auth.PermSubmit,
		"PUT /oozie/v{version}/jobs":         auth.PermSubmit,
		"PUT /oozie/v{version}/job/{id}":     auth.PermModifyJob,
	}
	got := s.d.REST.Permissions()
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		perm := got[k]
		method, label, _ := strings.Cut(k, " ")
		expected, ok := byMethod[k]
		if !ok {
			expected, ok = want[label]
		}
		if !ok && strings.HasPrefix(label, "/oozie/dashboard") {
			expected, ok = auth.PermRead, true
			if strings.Contains(label, "{id}") {
				expected = auth.PermReadJob
			}
		}
		switch {
		case !ok:
			t.Errorf("route %s has permission %v, and this test does not list it", k, perm)
		case perm != expected:
			t.Errorf("route %s has permission %v, want %v", k, perm, expected)
		case method != http.MethodGet && method != http.MethodHead && (perm == auth.PermRead || perm == auth.PermReadJob) &&
			label != "/oozie/v2/validate":
			t.Errorf("route %s changes something but only needs %v", k, perm)
		}
	}
}

// TestAuthorizationMatrix drives the real server with simple authentication as each kind of
// caller against every job command, a bulk command and the admin operations: the owner,
// a user of the job's ACL, a member of a group of the ACL, another user, an anonymous
// caller and an admin. Refusals are 401 with Oozie's codes and change nothing.
func TestAuthorizationMatrix(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Skipf("no current operating-system user to be the ACL group member: %v", err)
	}
	group, err := user.LookupGroupId(me.Gid)
	if err != nil {
		t.Skipf("no primary group of %s to put in the ACL: %v", me.Username, err)
	}
	s := serve(t, map[string]string{"gozie.admin.users": "root-of-gozie"})
	s.write(t, "wf/workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="no-op"><start to="end"/><end name="end"/></workflow-app>`)
	s.write(t, "coord/coordinator.xml", `<coordinator-app name="c" frequency="${coord:days(1)}" start="2099-01-01T00:00Z"
    end="2099-01-05T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>file://`+s.apps+`/wf</app-path></workflow></action></coordinator-app>`)
	s.write(t, "bundle/bundle.xml", `<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <controls><kick-off-time>2099-01-01T00:00Z</kick-off-time></controls>
  <coordinator name="only"><app-path>file://`+s.apps+`/coord</app-path></coordinator></bundle-app>`)
	acl := "carol," + group.Name
	paths := map[string][]string{
		"W": {"oozie.wf.application.path", "file://" + s.apps + "/wf"},
		"C": {"oozie.coord.application.path", "file://" + s.apps + "/coord"},
		"B": {"oozie.bundle.application.path", "file://" + s.apps + "/bundle"},
	}
	newJob := func(kind string) string {
		return s.submit(t, "alice", append(paths[kind], "oozie.job.acl", acl)...)
	}
	rerunConf := func() string {
		var b strings.Builder
		_ = conf.WriteConfigurationXML(&b, conf.NewProperties("user.name", "alice", "oozie.wf.application.path", "file://"+s.apps+"/wf"))
		return b.String()
	}()
	commands := map[string][]string{
		"W": {"start", "suspend", "resume", "rerun", "kill"},
		"C": {"suspend", "resume", "change&value=endtime%3D2099-01-03T00:00Z", "coord-rerun&type=action&scope=1",
			"sla-enable", "update", "kill"},
		"B": {"suspend", "resume", "kill"},
	}
	type caller struct {
		name, user string
		allowed    bool
	}
	callers := []caller{
		{"owner", "alice", true},
		{"ACL user", "carol", true},
		{"ACL group member", me.Username, true},
		{"admin", "root-of-gozie", true},
		{"other user", "bob", false},
		{"anonymous", "", false},
	}
	for _, kind := range []string{"W", "C", "B"} {
		for _, c := range callers {
			for _, cmd := range commands[kind] {
				id := newJob(kind)
				before := s.status(t, id, "alice")
				body := ""
				if cmd == "rerun" {
					body = rerunConf
				}
				status, code, out := s.call(t, http.MethodPut, "/v2/job/"+id+"?action="+cmd, c.user, body)
				where := kind + " " + cmd + " as " + c.name
				if c.allowed {
					if status == http.StatusUnauthorized {
						t.Errorf("%s: refused: %s %s", where, code, out)
					}
					if cmd == "kill" && s.status(t, id, "alice") != "KILLED" {
						t.Errorf("%s: the job is %s, want KILLED", where, s.status(t, id, "alice"))
					}
					continue
				}
				want := oozieerr.E0508
				switch {
				case c.user == "":
					want = oozieerr.E0501
				case kind != "W":
					want = oozieerr.E0509
				}
				if status != http.StatusUnauthorized || code != want {
					t.Errorf("%s: %d %s %s, want 401 %s", where, status, code, out, want)
				}
				if after := s.status(t, id, "alice"); after != before {
					t.Errorf("%s: the refused command changed the job from %s to %s", where, before, after)
				}
			}
			// Reads stay open to every caller.
			id := newJob(kind)
			for _, show := range []string{"info", "definition", "log"} {
				if status, code, out := s.call(t, http.MethodGet, "/v2/job/"+id+"?show="+show, c.user, ""); status != http.StatusOK {
					t.Errorf("%s show=%s as %s: %d %s %s", kind, show, c.name, status, code, out)
				}
			}
		}
	}

	// A bulk kill acts on the jobs the caller may modify and lists the others as refused.
	mine := s.submit(t, "bob", paths["W"]...)
	theirs := newJob("W")
	status, code, out := s.call(t, http.MethodPut, "/v2/jobs?action=kill&jobtype=wf&filter=status%3DPREP&len=1000", "bob", "")
	if status != http.StatusOK || !strings.Contains(out, `"id":"`+theirs+`","errorCode":"E0508"`) {
		t.Errorf("bulk kill as bob: %d %s %s", status, code, out)
	}
	if s.status(t, mine, "bob") != "KILLED" || s.status(t, theirs, "alice") != "PREP" {
		t.Errorf("bulk kill as bob: his job %s, alice's %s; want KILLED and PREP", s.status(t, mine, "bob"), s.status(t, theirs, "alice"))
	}
	if status, code, _ := s.call(t, http.MethodPut, "/v2/jobs?action=kill&jobtype=wf&filter=status%3DPREP", "", ""); status != 401 || code != oozieerr.E0501 {
		t.Errorf("anonymous bulk kill: %d %s", status, code)
	}
	if s.status(t, theirs, "alice") != "PREP" {
		t.Errorf("anonymous bulk kill changed alice's job")
	}

	// Admin operations: admins only.
	admin := []struct{ method, path string }{
		{http.MethodPut, "/v2/admin/status?systemmode=NORMAL"},
		{http.MethodPut, "/v2/admin/purge?wf=0&coord=0&bundle=0"},
		{http.MethodGet, "/v2/admin/update_sharelib"},
	}
	for _, op := range admin {
		for _, c := range callers {
			status, code, out := s.call(t, op.method, op.path, c.user, "")
			switch {
			case c.user == "root-of-gozie":
				if status == http.StatusUnauthorized {
					t.Errorf("%s %s as admin: refused %s %s", op.method, op.path, code, out)
				}
			case c.user == "":
				if status != 401 || code != oozieerr.E0501 {
					t.Errorf("%s %s anonymous: %d %s", op.method, op.path, status, code)
				}
			default:
				if status != 401 || code != oozieerr.E0503 {
					t.Errorf("%s %s as %s: %d %s %s, want 401 E0503", op.method, op.path, c.name, status, code, out)
				}
			}
		}
	}
	if status, _, out := s.call(t, http.MethodGet, "/v2/admin/status", "", ""); status != 200 || !strings.Contains(out, "NORMAL") {
		t.Errorf("system mode after the refused changes: %d %s", status, out)
	}
}
