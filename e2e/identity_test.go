package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testwait"
)

// asBobApp is bob's workflow: an fs action in his own home, a shell action
// that reports whom its container runs as, and an fs action that tries to
// write into alice's home.
const asBobApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="as-bob">
    <global>
        <resource-manager>${resourceManager}</resource-manager>
        <name-node>${nameNode}</name-node>
    </global>
    <start to="mine"/>
    <action name="mine">
        <fs>
            <mkdir path="${nameNode}/user/bob/out"/>
            <touchz path="${nameNode}/user/bob/out/_SUCCESS"/>
        </fs>
        <ok to="whoami"/>
        <error to="fail"/>
    </action>
    <action name="whoami">
        <shell xmlns="uri:oozie:shell-action:1.0">
            <exec>whoami.sh</exec>
            <file>whoami.sh</file>
            <capture-output/>
        </shell>
        <ok to="theirs"/>
        <error to="fail"/>
    </action>
    <action name="theirs">
        <fs>
            <mkdir path="${nameNode}/user/alice/stolen"/>
        </fs>
        <ok to="end"/>
        <error to="fail"/>
    </action>
    <kill name="fail">
        <message>as-bob failed at [${wf:lastErrorNode()}]</message>
    </kill>
    <end name="end"/>
</workflow-app>
`

// TestJobsRunAsTheirUser is issue 13's "one identity for everyone" through
// the real binary on the local cluster (HDFS permissions on, the server's
// user allowed as a proxy user): bob submits under simple authentication
// (user.name=bob); his job cannot write into /user/alice (the fs action
// ends in ERROR with FS014 and the NameNode's message), what it makes in his
// home is his, and his shell action's YARN application is his.
func TestJobsRunAsTheirUser(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	e.putData(t, "user/alice/data/keep", "alice's\n") // alice's home
	app := "user/bob/apps/as-bob"
	e.putData(t, app+"/workflow.xml", asBobApp)
	e.putData(t, app+"/whoami.sh", "#!/bin/sh\necho user=$USER\n")

	id := e.submitAs(t, "bob", map[string]string{
		"oozie.wf.application.path": e.cluster["nameNode"] + "/" + app,
		"nameNode":                  e.cluster["nameNode"],
		"resourceManager":           e.cluster["resourceManager"],
	})
	j := e.waitJobAs(t, "bob", id, 2*time.Minute)
	if j.Status != "KILLED" {
		t.Fatalf("bob's job ended %s, want KILLED at [theirs]: %+v", j.Status, j.Actions)
	}
	if a := j.action(t, "mine"); a.Status != "OK" {
		t.Errorf("the fs action in bob's home: %+v", a)
	}
	theirs := j.action(t, "theirs")
	want := `org.apache.hadoop.security.AccessControlException: Permission denied: user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x`
	if theirs.Status != "ERROR" || theirs.ErrorCode != "FS014" || !strings.Contains(theirs.ErrorMessage, want) {
		t.Errorf("the fs action into alice's home: status %s, code %s, message %q; want ERROR, FS014, %q",
			theirs.Status, theirs.ErrorCode, theirs.ErrorMessage, want)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "dfs", "user", "alice", "stolen")); err == nil {
		t.Error("bob's job made /user/alice/stolen")
	}

	// What bob's job made is bob's, in his home's group.
	fsys, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: e.cluster["nameNode"]})
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	ctx := context.Background()
	for _, p := range []string{"/user/bob/out", "/user/bob/out/_SUCCESS"} {
		fi, err := fsys.Stat(ctx, p)
		if err != nil || fi.Owner != "bob" || fi.Group != "supergroup" {
			t.Errorf("%s: owner %q group %q, %v; want bob:supergroup", p, fi.Owner, fi.Group, err)
		}
	}
	// The staged action directories too: the server acted for bob.
	infos, err := fsys.ReadDir(ctx, "/user/bob/gozie-sys")
	if err != nil || len(infos) == 0 {
		t.Fatalf("bob's gozie-sys: %v, %v", infos, err)
	}
	for _, fi := range infos {
		if fi.Owner != "bob" {
			t.Errorf("/user/bob/gozie-sys/%s is %s's", fi.Name, fi.Owner)
		}
	}

	// The shell action's application ran as bob, in a container of bob's.
	whoami := j.action(t, "whoami")
	if whoami.Status != "OK" || !strings.Contains(whoami.Data, "user=bob") {
		t.Errorf("the shell action: %+v", whoami)
	}
	if user := e.appUser(t, whoami.ExternalID); user != "bob" {
		t.Errorf("application %s runs as %q, want bob", whoami.ExternalID, user)
	}
}

// submitAs submits and starts a workflow as user (user.name under simple
// authentication) and returns its id.
func (e *env) submitAs(t *testing.T, user string, props map[string]string) string {
	t.Helper()
	p := conf.NewProperties("user.name", user)
	for k, v := range props {
		p.Set(k, v)
	}
	var body bytes.Buffer
	if err := conf.WriteConfigurationXML(&body, p); err != nil {
		t.Fatal(err)
	}
	q := url.Values{"action": {"start"}, "user.name": {user}}
	resp, err := http.Post(e.url+"/v2/jobs?"+q.Encode(), "application/xml;charset=UTF-8", &body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var created struct {
		ID string `json:"id"`
	}
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &created) != nil || created.ID == "" {
		t.Fatalf("submitting as %s: %d %s %s", user, resp.StatusCode, resp.Header.Get("oozie-error-message"), b)
	}
	return created.ID
}

// waitJobAs polls a workflow's info as user until it ends.
func (e *env) waitJobAs(t *testing.T, user, id string, timeout time.Duration) jobJSON {
	t.Helper()
	var j jobJSON
	// Polling the REST API as a client would.
	testwait.Poll{Timeout: timeout, Every: 100 * time.Millisecond}.WaitForLast(t, "job "+id+" to end", func() (bool, string) {
		resp, err := http.Get(e.url + "/v2/job/" + id + "?" + url.Values{"show": {"info"}, "user.name": {user}}.Encode())
		if err != nil {
			t.Fatal(err)
		}
		j = jobJSON{}
		err = json.NewDecoder(resp.Body).Decode(&j)
		resp.Body.Close()
		if err == nil {
			switch j.Status {
			case "SUCCEEDED", "KILLED", "FAILED":
				return true, ""
			}
		}
		return false, fmt.Sprintf("%+v (%v)", j, err)
	})
	return j
}

// appUser reads an application's user from the ResourceManager's report.
func (e *env) appUser(t *testing.T, appID string) string {
	t.Helper()
	resp, err := http.Get(e.cluster["resourceManagerWebapp"] + "/ws/v1/cluster/apps/" + appID + "?user.name=" + e.user)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rep struct {
		App struct {
			User string `json:"user"`
		} `json:"app"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
		t.Fatalf("report of %s: %v", appID, err)
	}
	return rep.App.User
}
