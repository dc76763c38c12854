package hadoop

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/testenv/minidfs"
)

// proxyDFS starts a MiniDFS (superuser hdfs) on which gozie may act for
// alice and bob (not carol), with their homes.
func proxyDFS(t *testing.T) *minidfs.MiniDFS {
	t.Helper()
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: "hdfs",
		Conf: map[string]string{"hadoop.proxyuser.gozie.users": "alice,bob,u0,u1,u2,u3,u4", "hadoop.proxyuser.gozie.hosts": "127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	for _, u := range []string{"alice", "bob", "u0", "u1", "u2", "u3", "u4"} {
		if err := m.CreateHome(u); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestResolverActsForTheUser: a Resolver (the server, gozie) reaches HDFS
// for the effective user of the context through the proxy-user mechanism:
// the NameNode checks bob's permissions and makes bob the owner; a refusal
// carries the NameNode's class and message; a user gozie may not act for
// is refused at once with the NameNode's AuthorizationException.
func TestResolverActsForTheUser(t *testing.T) {
	t.Parallel()
	m := proxyDFS(t)
	r, err := NewResolver(ResolverConfig{DefaultFS: m.URI(), User: "gozie"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	bob := AsUser(ctxT(t), "bob")
	if err := r.WriteFile(bob, "/user/bob/out/part-0", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/user/bob/out", "/user/bob/out/part-0"} {
		fi, err := r.Stat(bob, p)
		if err != nil || fi.Owner != "bob" || fi.Group != "supergroup" {
			t.Errorf("%s: %+v, %v; want bob:supergroup", p, fi, err)
		}
	}

	err = r.MkdirAll(bob, "/user/alice/stolen", 0o755)
	want := `mkdir /user/alice/stolen: org.apache.hadoop.security.AccessControlException: Permission denied: user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x`
	if err == nil || err.Error() != want || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("bob in alice's home: %v\nwant %s", err, want)
	}
	var re *RemoteException
	if !errors.As(err, &re) || re.Class != accessControlException {
		t.Errorf("bob in alice's home: %#v is no AccessControlException", err)
	}
	// Alice reads her own files; bob does not read alice's private ones.
	alice := AsUser(ctxT(t), "alice")
	if err := r.WriteFile(alice, "/user/alice/private/secret", []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadFile(alice, "/user/alice/private/secret"); err != nil {
		t.Errorf("alice reading her file: %v", err)
	}
	if _, err := r.ReadFile(bob, "/user/alice/private/secret"); !errors.Is(err, fs.ErrPermission) ||
		!strings.Contains(err.Error(), `access=READ, inode="/user/alice/private/secret":alice:supergroup:-rw-------`) {
		t.Errorf("bob reading alice's secret: %v", err)
	}

	_, err = r.Stat(AsUser(ctxT(t), "carol"), "/")
	want = "User: gozie is not allowed to impersonate carol"
	if !errors.As(err, &re) || re.Class != authorizationException || re.Message != want || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("gozie for carol: %v, want AuthorizationException %q", err, want)
	}
}

// TestResolverRequireUser: a Resolver that requires an effective user
// refuses an hdfs:// call without one instead of acting as itself.
func TestResolverRequireUser(t *testing.T) {
	t.Parallel()
	m := proxyDFS(t)
	r, err := NewResolver(ResolverConfig{DefaultFS: m.URI(), User: "gozie", RequireUser: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Stat(ctxT(t), "/user"); !errors.Is(err, ErrNoUser) {
		t.Errorf("Stat without a user = %v, want ErrNoUser", err)
	}
	if _, err := r.Stat(AsUser(ctxT(t), "bob"), "/user/bob"); err != nil {
		t.Errorf("Stat for bob: %v", err)
	}
	if _, err := r.Stat(ctxT(t), "file:///"); err != nil {
		t.Errorf("file:// needs no user: %v", err)
	}
}

// TestResolverClientCache: clients are kept per effective user, at most
// MaxClients of other users than the Resolver's own; the least recently
// used idle one goes first, and one still in use (an open reader) is kept
// until it is released.
func TestResolverClientCache(t *testing.T) {
	t.Parallel()
	m := proxyDFS(t)
	r, err := NewResolver(ResolverConfig{DefaultFS: m.URI(), User: "gozie", MaxClients: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	bob := AsUser(ctxT(t), "bob")
	if err := r.WriteFile(bob, "/user/bob/f", []byte(strings.Repeat("b", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, err := r.Open(bob, "/user/bob/f")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		u := "u" + string(rune('0'+i))
		if _, err := r.Stat(AsUser(ctxT(t), u), "/user/"+u); err != nil {
			t.Fatal(err)
		}
		if n := r.cached(); n > 3 {
			t.Errorf("after %s: %d clients cached, want at most 2 and bob's in use", u, n)
		}
	}
	if !r.hasClient("bob") {
		t.Error("bob's client was evicted while his reader was open")
	}
	if b, err := io.ReadAll(rc); err != nil || len(b) != 1000 {
		t.Errorf("reading after the churn: %d bytes, %v", len(b), err)
	}
	rc.Close()
	if _, err := r.Stat(AsUser(ctxT(t), "alice"), "/user/alice"); err != nil {
		t.Fatal(err)
	}
	if n := r.cached(); n > 2 {
		t.Errorf("%d clients cached, want at most 2", n)
	}
	if r.hasClient("u0") {
		t.Error("the least recently used client is still cached")
	}
}

func (r *Resolver) cached() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.clients)
}

func (r *Resolver) hasClient(user string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k := range r.clients {
		if strings.HasSuffix(k, "|"+user) {
			return true
		}
	}
	return false
}
