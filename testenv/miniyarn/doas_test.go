package miniyarn_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/colinmarc/hdfs/v2"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// gozieMayActForBob lets gozie act for bob from the loopback host.
var gozieMayActForBob = map[string]string{"hadoop.proxyuser.gozie.users": "bob", "hadoop.proxyuser.gozie.hosts": "127.0.0.1"}

// TestDoAs: a request acts for the user its doAs names only if the proxy-user
// rules let the authenticated user do so (DelegationTokenAuthenticationFilter
// with ProxyUsers.authorize); a refusal is the RM's 403 with an
// AuthorizationException.
func TestDoAs(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Conf: gozieMayActForBob})
	refused := func(msg string) string {
		b, _ := json.Marshal(yarn.RemoteExceptionEnvelope{RemoteException: yarn.RemoteException{Exception: "AuthorizationException",
			Message: msg, JavaClassName: "org.apache.hadoop.security.authorize.AuthorizationException"}})
		return string(b)
	}
	tests := []struct {
		name   string
		query  url.Values
		status int
		body   string
	}{
		{"allowed", url.Values{"user.name": {"gozie"}, "doAs": {"bob"}}, http.StatusOK, ""},
		{"the parameter's case does not matter", url.Values{"user.name": {"gozie"}, "DOAS": {"bob"}}, http.StatusOK, ""},
		{"another user", url.Values{"user.name": {"gozie"}, "doAs": {"alice"}}, http.StatusForbidden,
			refused("User: gozie is not allowed to impersonate alice")},
		{"a user without rules", url.Values{"user.name": {"mallory"}, "doAs": {"bob"}}, http.StatusForbidden,
			refused("User: mallory is not allowed to impersonate bob")},
		{"no authenticated user", url.Values{"doAs": {"bob"}}, http.StatusUnauthorized, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			status, _, body := httpDo(t, http.MethodPost, c.rm.WebURL()+"/ws/v1/cluster/apps/new-application?"+tt.query.Encode(), "", "")
			if status != tt.status || (tt.body != "" && body != tt.body) {
				t.Errorf("%d %s, want %d %s", status, body, tt.status, tt.body)
			}
		})
	}
	hosts := setup(t, miniyarn.Options{Conf: map[string]string{"hadoop.proxyuser.gozie.users": "*", "hadoop.proxyuser.gozie.hosts": "10.1.2.3"}})
	q := url.Values{"user.name": {"gozie"}, "doAs": {"bob"}}
	status, _, body := httpDo(t, http.MethodGet, hosts.rm.WebURL()+"/ws/v1/cluster/apps?"+q.Encode(), "", "")
	if want := refused("Unauthorized connection for super-user: gozie from IP 127.0.0.1"); status != http.StatusForbidden || body != want {
		t.Errorf("from another host: %d %s, want 403 %s", status, body, want)
	}
	none := setup(t, miniyarn.Options{})
	status, _, body = httpDo(t, http.MethodGet, none.rm.WebURL()+"/ws/v1/cluster/apps?"+q.Encode(), "", "")
	if want := refused("User: gozie is not allowed to impersonate bob"); status != http.StatusForbidden || body != want {
		t.Errorf("without rules: %d %s, want 403 %s", status, body, want)
	}
}

// TestApplicationUser: an application belongs to the user it was submitted
// for: gozie's client sends doAs for a request made with hadoop.AsUser, and
// the report's user is that user; a request for gozie itself carries none.
func TestApplicationUser(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true, Conf: gozieMayActForBob})
	gozie, err := yarn.NewClient(yarn.Config{Addresses: []string{c.rm.WebURL()}, Auth: yarn.PseudoAuth{User: "gozie"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ as, want string }{{"bob", "bob"}, {"gozie", "gozie"}, {"", "gozie"}} {
		ctx := hadoop.AsUser(ctxT(t), tt.as)
		na, err := gozie.NewApplication(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sc := yarn.ApplicationSubmissionContext{ApplicationID: na.ApplicationID, ApplicationName: "as " + tt.as,
			AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{"echo user=$USER > <LOG_DIR>/stdout"}},
			MaxAppAttempts:  1, Resource: &yarn.Resource{MemoryMB: 256, VCores: 1}}
		if err := gozie.Submit(ctx, sc); err != nil {
			t.Fatal(err)
		}
		r := c.waitDone(t, na.ApplicationID)
		if r.User != tt.want || !r.Succeeded() {
			t.Errorf("submitted for %q: user %q, %s/%s; want %q", tt.as, r.User, r.State, r.FinalStatus, tt.want)
		}
		if _, _, out := httpDo(t, http.MethodGet, r.AMContainerLogs+"/stdout", "", ""); out != "user="+tt.want+"\n" {
			t.Errorf("the container of %q's application says %q", tt.want, out)
		}
	}
	_, err = gozie.NewApplication(hadoop.AsUser(ctxT(t), "alice"))
	var re *yarn.RemoteError
	if !errors.As(err, &re) || re.StatusCode != http.StatusForbidden || re.Exception != "AuthorizationException" {
		t.Errorf("gozie for alice = %v, want 403 AuthorizationException", err)
	}
}

// TestLocalizationAsTheApplicationUser: the NodeManager reads an
// application's resources from MiniDFS as the application's user, so a
// resource that user may not read fails the attempt with the NameNode's
// refusal, and one it may read localizes.
func TestLocalizationAsTheApplicationUser(t *testing.T) {
	t.Parallel()
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: "hdfs"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	if err := dfs.CreateHome("alice"); err != nil {
		t.Fatal(err)
	}
	alice, err := hdfs.NewClient(hdfs.ClientOptions{Addresses: []string{dfs.Addr()}, User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	defer alice.Close()
	if err := alice.MkdirAll("/user/alice/private", 0o700); err != nil {
		t.Fatal(err)
	}
	w, err := alice.Create("/user/alice/private/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("echo ran\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := alice.Stat("/user/alice/private/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	storage := &miniyarn.HDFSStorage{DefaultFS: dfs.URI()}
	t.Cleanup(func() { storage.Close() })
	c := setup(t, miniyarn.Options{Lenient: true, Storage: storage})
	for _, user := range []string{"alice", "bob"} {
		client, err := yarn.NewClient(yarn.Config{Addresses: []string{c.rm.WebURL()}, Auth: yarn.PseudoAuth{User: user}})
		if err != nil {
			t.Fatal(err)
		}
		ctx := ctxT(t)
		na, err := client.NewApplication(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sc := yarn.ApplicationSubmissionContext{ApplicationID: na.ApplicationID, ApplicationName: "localize as " + user,
			AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{"bash ./run.sh"},
				LocalResources: yarn.EntryMap[yarn.LocalResource]{"run.sh": {Resource: dfs.URI() + "/user/alice/private/run.sh",
					Type: yarn.ResourceFile, Visibility: yarn.VisibilityApplication, Size: fi.Size(), Timestamp: fi.ModTime().UnixMilli()}}},
			MaxAppAttempts: 1, Resource: &yarn.Resource{MemoryMB: 256, VCores: 1}}
		if err := client.Submit(ctx, sc); err != nil {
			t.Fatal(err)
		}
		r := c.waitDone(t, na.ApplicationID)
		switch user {
		case "alice":
			if !r.Succeeded() {
				t.Errorf("alice's application with her own file: %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
			}
		case "bob":
			want := `org.apache.hadoop.security.AccessControlException: Permission denied: user=bob, access=EXECUTE, inode="/user/alice/private":alice:supergroup:drwx------`
			if r.State != yarn.StateFailed || !strings.Contains(r.Diagnostics, want) || !strings.Contains(r.Diagnostics, "Failed to download resource") {
				t.Errorf("bob's application with alice's private file: %s %q, want FAILED with %q", r.State, r.Diagnostics, want)
			}
		}
	}
}
