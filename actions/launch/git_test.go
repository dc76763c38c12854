package launch_test

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testproc"
	"github.com/gozie/gozie/testenv/gitrepo"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// setupGit is a cluster on which the job's user (alice) is an ordinary
// user: the NameNode's superuser is hdfs, and every user has a home of
// their own, as on a real cluster.
func setupGit(t *testing.T) *cluster {
	t.Helper()
	// The cluster lives as long as the test, whose parallel subtests may
	// wait for their turn longer than ctxT's bound.
	ctx := context.Background()
	c := &cluster{}
	dfs, err := minidfs.Start(ctx, minidfs.Options{Root: t.TempDir(), Superuser: "hdfs", CreateHomes: true})
	if err != nil {
		t.Fatalf("minidfs: %v", err)
	}
	t.Cleanup(func() { dfs.Close() })
	c.dfs = dfs
	c.fs = resolverAs(t, dfs, testUser)
	storage := &miniyarn.HDFSStorage{DefaultFS: dfs.URI()}
	t.Cleanup(func() { storage.Close() })
	if c.rm, err = miniyarn.Start(ctx, miniyarn.Options{WorkDir: t.TempDir(), Storage: storage}); err != nil {
		t.Fatalf("miniyarn: %v", err)
	}
	t.Cleanup(func() { c.rm.Close() })
	c.connect(t)
	return c
}

// resolverAs reaches the MiniDFS as user.
func resolverAs(t *testing.T, dfs *minidfs.MiniDFS, user string) *hadoop.Resolver {
	t.Helper()
	r, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI(), User: user})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// gitBody is a git action cloning uri into dest, with more elements
// (branch, key-path) before destination-uri.
func gitBody(c *cluster, uri, more, dest string) string {
	return `<git xmlns="uri:oozie:git-action:1.0"><resource-manager>` + c.rm.WebAddr() + `</resource-manager>` +
		`<name-node>` + c.dfs.URI() + `</name-node><git-uri>` + uri + `</git-uri>` + more +
		`<destination-uri>` + dest + `</destination-uri></git>`
}

// TestGitActionClonesIntoHDFSAsTheUser: the launcher clones the branch and
// copies the tree, .git included, into the destination on MiniDFS, where
// every file belongs to the job's user.
func TestGitActionClonesIntoHDFSAsTheUser(t *testing.T) {
	t.Parallel()
	c := setupGit(t)
	repo, err := gitrepo.Create(filepath.Join(t.TempDir(), "repo"), map[string]string{"README.md": "hi\n", "bin/run.sh": "echo run\n"})
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Branch("release", map[string]string{"VERSION": "1.0\n"}); err != nil {
		t.Fatal(err)
	}
	e := c.executor(t, launcher.TypeGit, nil)
	// An absolute path without a scheme goes on the action's name node.
	run := c.run(t, "git", "git-node", "/user/alice/apps/git", gitBody(c, repo.FileURL(), "<branch>release</branch>", "/user/alice/src/repo"))
	c.put(t, "/user/alice/apps/git/workflow.xml", "<workflow-app/>")
	st := c.finish(t, e, run)
	if st.Outcome != workflow.OutcomeOK || st.ExternalStatus != "SUCCEEDED" {
		t.Fatalf("status %+v", st)
	}
	ctx := ctxT(t)
	for name, want := range map[string]string{"README.md": "hi\n", "bin/run.sh": "echo run\n", "VERSION": "1.0\n"} {
		uri := c.dfs.URI() + "/user/alice/src/repo/" + name
		b, err := c.fs.ReadFile(ctx, uri)
		if err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", name, b, err, want)
		}
		fi, err := c.fs.Stat(ctx, uri)
		if err != nil || fi.Owner != testUser {
			t.Errorf("%s owned by %q (%v), want %s", name, fi.Owner, err, testUser)
		}
	}
	if fi, err := c.fs.Stat(ctx, c.dfs.URI()+"/user/alice/src/repo/.git/HEAD"); err != nil || fi.Owner != testUser {
		t.Errorf("the clone's .git/HEAD: %+v, %v", fi, err)
	}
}

// TestGitActionRefusals: what the launcher refuses ends the action in
// error with Oozie's launcher error code, and copies nothing.
func TestGitActionRefusals(t *testing.T) {
	t.Parallel()
	c := setupGit(t)
	repo, err := gitrepo.Create(filepath.Join(t.TempDir(), "repo"), map[string]string{"README.md": "hi\n"})
	if err != nil {
		t.Fatal(err)
	}
	c.put(t, "/user/alice/apps/git/workflow.xml", "<workflow-app/>")
	c.put(t, "/user/alice/taken/old.txt", "old")
	ctx := ctxT(t)
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nkey-material\n-----END OPENSSH PRIVATE KEY-----\n"
	if err := c.fs.WriteFile(ctx, c.dfs.URI()+"/user/alice/open.key", []byte(key), 0o644); err != nil {
		t.Fatal(err)
	}
	// carol's own key, which only carol may read.
	carol := resolverAs(t, c.dfs, "carol")
	if err := carol.WriteFile(ctx, c.dfs.URI()+"/user/carol/id", []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	e := c.executor(t, launcher.TypeGit, nil)
	tests := []struct {
		name, more, dest, msg string
	}{
		{"existing destination", "", "/user/alice/taken", "already exists and is not an empty directory"},
		{"key others can read", "<key-path>/user/alice/open.key</key-path>", "/user/alice/out1", "permissions 0644 of key-path"},
		{"another user's key", "<key-path>/user/carol/id</key-path>", "/user/alice/out2", "Permission denied"},
		{"destination of another user", "", "/user/carol/stolen", "Permission denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run := c.run(t, "git", "git-node", "/user/alice/apps/git", gitBody(c, repo.FileURL(), tt.more, tt.dest))
			st := c.finish(t, e, run)
			if st.Outcome != workflow.OutcomeError || st.ErrorCode != "JA018" || !strings.Contains(st.ErrorMessage, tt.msg) {
				t.Fatalf("status %+v, want JA018 with %q", st, tt.msg)
			}
			if strings.Contains(st.ErrorMessage, "key-material") {
				t.Errorf("the message shows the key: %s", st.ErrorMessage)
			}
			if _, err := c.fs.Stat(ctxT(t), c.dfs.URI()+tt.dest+"/README.md"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("README.md in %s: %v, want none", tt.dest, err)
			}
		})
	}
}

// TestGitActionRefusedBeforeLaunch: a git-uri the launcher cannot clone
// (GIT011) and a destination on a filesystem users may not name (E0904)
// end the action in ERROR at its start, with no application submitted.
func TestGitActionRefusedBeforeLaunch(t *testing.T) {
	t.Parallel()
	c := setupGit(t)
	c.put(t, "/user/alice/apps/git/workflow.xml", "<workflow-app/>")
	policy, err := hadoop.NewSchemePolicy([]string{"hdfs"}, c.dfs.URI())
	if err != nil {
		t.Fatal(err)
	}
	e := c.executor(t, launcher.TypeGit, func(cfg *launch.Config) { cfg.FS = policy.Restrict(c.fs) })
	tests := []struct{ name, uri, dest, code, msg string }{
		{"scp-like address", "git@github.com:apache/oozie.git", "/user/alice/o", "GIT011", "not a proper URI"},
		{"unsupported scheme", "ftp://host/repo.git", "/user/alice/o", "GIT011", "scheme [ftp] is not supported"},
		{"destination on the server's disk", "https://github.com/apache/oozie", "file:///tmp/o", "E0904", "Scheme [file] not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			run := c.run(t, "git", "git-node", "/user/alice/apps/git", gitBody(c, tt.uri, "", tt.dest))
			_, err := e.Start(ctxT(t), run)
			var ee *actions.ExecError
			if !errors.As(err, &ee) || ee.Kind != actions.ActionError || ee.Code != tt.code || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Start: %v, want %s %s with %q", err, actions.ActionError, tt.code, tt.msg)
			}
			if apps := c.appsTagged(run.Tag); len(apps) != 0 {
				t.Errorf("applications launched: %+v", apps)
			}
		})
	}
}

// TestGitActionKillStopsTheClone: a kill of a run whose clone hangs on the
// server ends the launcher's container, and nothing reaches the
// destination.
func TestGitActionKillStopsTheClone(t *testing.T) {
	t.Parallel()
	c := setupGit(t)
	c.put(t, "/user/alice/apps/git/workflow.xml", "<workflow-app/>")
	repo, err := gitrepo.Create(filepath.Join(t.TempDir(), "repo"), map[string]string{"README.md": "hi\n"})
	if err != nil {
		t.Fatal(err)
	}
	asked := make(chan struct{})
	var once sync.Once
	srv := gitrepo.Serve(filepath.Dir(repo.Dir), gitrepo.Options{Stall: true, OnUploadPack: func() { once.Do(func() { close(asked) }) }})
	t.Cleanup(srv.Close)
	e := c.executor(t, launcher.TypeGit, nil)
	run := c.run(t, "git", "git-node", "/user/alice/apps/git", gitBody(c, srv.URL+"/repo.git", "", "/user/alice/killed"))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-asked:
	case <-ctxT(t).Done():
		t.Fatalf("the launcher never asked for the pack; RM says %+v", c.rm.Apps())
	}
	id, err := yarn.ParseApplicationID(st.ExternalID)
	if err != nil {
		t.Fatal(err)
	}
	container := c.rm.ContainerProcessGroup(id)
	if err := e.Kill(ctxT(t), run); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	if r, _ := c.rm.App(id); r.State != yarn.StateKilled {
		t.Errorf("state after Kill %s, want KILLED", r.State)
	}
	testproc.WaitGroupGone(t, waitTimeout, container)
	run.ExternalID = st.ExternalID
	if st, err = e.Check(ctxT(t), run); err != nil || !st.Done || st.Outcome != workflow.OutcomeError {
		t.Errorf("Check after Kill: %+v, %v", st, err)
	}
	if _, err := c.fs.Stat(ctxT(t), c.dfs.URI()+"/user/alice/killed"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("destination after the kill: %v, want none", err)
	}
}
