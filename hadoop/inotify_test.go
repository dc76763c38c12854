package hadoop

import (
	"context"
	"errors"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/gozie/gozie/testenv/minidfs"
)

// inotifyDFS starts a MiniDFS whose superuser is gozie, with conf, and
// returns it with a Resolver acting as user.
func inotifyDFS(t *testing.T, user string, conf map[string]string) (*minidfs.MiniDFS, *Resolver) {
	t.Helper()
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), BlockSize: 64 << 10, Superuser: "gozie", Conf: conf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, inotifyResolver(t, m, user)
}

func inotifyResolver(t *testing.T, m *minidfs.MiniDFS, user string) *Resolver {
	t.Helper()
	r, err := NewResolver(ResolverConfig{DefaultFS: m.URI(), Conf: m.ClientConf(), User: user})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestEditStream: a superuser reads the namespace changes as a NameNode
// logs them: directories made on the way and a written file are CREATEs,
// the file's end a CLOSE with its size, a rename one RENAME (WriteFile
// writes a temporary file and renames it, as hdfs dfs -put does), a delete
// an UNLINK; the batch ends at the last transaction, which is also the
// current one; past it the answer is empty.
func TestEditStream(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, r := inotifyDFS(t, "gozie", nil)
	start, err := r.CurrentEditLogTxid(ctx, m.URI())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteFile(ctx, "/data/tmp/_SUCCESS", []byte("done"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.Rename(ctx, "/data/tmp", "/data/day1"); err != nil {
		t.Fatal(err)
	}
	if err := r.Remove(ctx, "/data/day1/_SUCCESS"); err != nil {
		t.Fatal(err)
	}
	b, err := r.EditsFromTxid(ctx, m.URI(), start+1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range b.Events {
		s := string(e.Type) + " " + e.Path
		switch e.Type {
		case EditRename:
			s += " " + e.Dest
		case EditClose:
			if e.Size != 4 {
				t.Errorf("CLOSE of %s: size %d, want 4", e.Path, e.Size)
			}
		}
		got = append(got, tmpName.ReplaceAllString(s, "<tmp>"))
	}
	want := []string{"CREATE /data", "CREATE /data/tmp", "CREATE /data/tmp/<tmp>", "CLOSE /data/tmp/<tmp>",
		"RENAME /data/tmp/<tmp> /data/tmp/_SUCCESS", "RENAME /data/tmp /data/day1", "UNLINK /data/day1/_SUCCESS"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	last, err := r.CurrentEditLogTxid(ctx, m.URI())
	if err != nil {
		t.Fatal(err)
	}
	if b.FirstTxid != start+1 || b.LastTxid != last || b.SyncTxid != last {
		t.Errorf("batch txids first %d last %d sync %d, want %d, %d, %d", b.FirstTxid, b.LastTxid, b.SyncTxid, start+1, last, last)
	}
	empty, err := r.EditsFromTxid(ctx, m.URI(), last+1)
	if err != nil || empty.FirstTxid != -1 || empty.LastTxid != -1 || len(empty.Events) != 0 || empty.SyncTxid != last {
		t.Errorf("past the end: %+v, %v; want nothing read, sync %d", empty, err, last)
	}
}

// tmpName matches WriteFile's temporary file names.
var tmpName = regexp.MustCompile(`\._SUCCESS\._COPYING_\.[0-9a-f]+`)

// TestEditStreamSuperuserOnly: the NameNode refuses both calls to a user
// who is not a superuser, with the AccessControlException of
// checkSuperuserPrivilege; with permissions off nobody is refused.
func TestEditStreamSuperuserOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, bob := inotifyDFS(t, "bob", nil)
	const msg = "Access denied for user bob. Superuser privilege is required"
	if _, err := bob.CurrentEditLogTxid(ctx, m.URI()); !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), msg) {
		t.Errorf("getCurrentEditLogTxid as bob: %v, want the AccessControlException %q", err, msg)
	}
	if _, err := bob.EditsFromTxid(ctx, m.URI(), 1); !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), msg) {
		t.Errorf("getEditsFromTxid as bob: %v, want the AccessControlException %q", err, msg)
	}
	open, bob2 := inotifyDFS(t, "bob", map[string]string{minidfs.PermissionsEnabledKey: "false"})
	if _, err := bob2.CurrentEditLogTxid(ctx, open.URI()); err != nil {
		t.Errorf("with dfs.permissions.enabled=false: %v", err)
	}
}

// TestEditStreamPurgedAndBounded: edits the NameNode no longer keeps are
// reported missing (the answer starts later than asked); one answer holds
// at most dfs.namenode.inotify.max.events.per.rpc events, ending with the
// transaction that reaches it.
func TestEditStreamPurgedAndBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, r := inotifyDFS(t, "gozie", map[string]string{minidfs.InotifyMaxEventsKey: "2"})
	for _, p := range []string{"/a", "/b", "/c", "/d"} {
		if err := r.MkdirAll(ctx, p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b, err := r.EditsFromTxid(ctx, m.URI(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Events) != 2 || b.FirstTxid != 1 || b.LastTxid != 2 {
		t.Errorf("bounded read: %d events, txids %d..%d; want 2 events, 1..2", len(b.Events), b.FirstTxid, b.LastTxid)
	}
	m.PurgeEdits(2)
	b, err = r.EditsFromTxid(ctx, m.URI(), 1)
	if !errors.Is(err, ErrMissingEvents) || b.FirstTxid != 3 {
		t.Errorf("read of purged edits: first %d, %v; want first 3 and ErrMissingEvents", b.FirstTxid, err)
	}
}

// TestEditStreamKeptConnection: an EditStream keeps reading across a
// failover of an HA pair (the standby's answer drops the connection and
// the new active NameNode is found), and is refused like the one-shot
// calls for a user who is not a superuser.
func TestEditStreamKeptConnection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, err := minidfs.Start(ctx, minidfs.Options{Root: t.TempDir(), BlockSize: 64 << 10, Superuser: "gozie", HA: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	r := inotifyResolver(t, m, "gozie")
	s, err := r.EditStream(m.URI())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := r.MkdirAll(ctx, "/before", 0o755); err != nil {
		t.Fatal(err)
	}
	if b, err := s.EditsFromTxid(ctx, 1); err != nil || len(b.Events) != 1 || b.Events[0].Path != "/before" {
		t.Fatalf("before the failover: %+v, %v", b, err)
	}
	if err := m.Failover(1); err != nil {
		t.Fatal(err)
	}
	if err := r.MkdirAll(ctx, "/after", 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := s.EditsFromTxid(ctx, 2)
	if err != nil || len(b.Events) != 1 || b.Events[0].Path != "/after" {
		t.Errorf("after the failover: %+v, %v; want the CREATE of /after from nn2", b, err)
	}
	bob, err := inotifyResolver(t, m, "bob").EditStream(m.URI())
	if err != nil {
		t.Fatal(err)
	}
	defer bob.Close()
	if _, err := bob.CurrentEditLogTxid(ctx); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("bob's edit stream: %v, want a refusal", err)
	}
}
