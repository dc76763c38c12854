package launcher

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/testenv/gitrepo"
	"github.com/gozie/gozie/testenv/minissh"
)

// repoFiles are the files of the test repository's main branch.
var repoFiles = map[string]string{"README.md": "hello\n", "src/job.sh": "echo job\n", "src/deep/x.txt": "x\n"}

// newRepo makes the test repository, with a branch dev that adds dev.txt.
func newRepo(t *testing.T) *gitrepo.Repo {
	t.Helper()
	r, err := gitrepo.Create(filepath.Join(t.TempDir(), "repo"), repoFiles)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Branch("dev", map[string]string{"dev.txt": "on dev\n"}); err != nil {
		t.Fatal(err)
	}
	return r
}

// gitLocal is a launcher for a git action cloning uri into a destination
// on the local filesystem, which it returns.
func gitLocal(t *testing.T, g *GitSpec) (*local, string) {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "out", "clone")
	if g.Destination == "" {
		g.Destination = "file://" + dest
	} else {
		dest = strings.TrimPrefix(g.Destination, "file://")
	}
	return newLocal(t, &Spec{Type: TypeGit, Git: g}), dest
}

// wantTree fails unless dir holds exactly the files of want (besides .git,
// which must be a repository).
func wantTree(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == ".git" {
				return filepath.SkipDir
			}
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("tree %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("tree %v, want %v", got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "HEAD")); err != nil {
		t.Errorf("the clone's .git was not copied: %v", err)
	}
}

func TestRunGitClonesIntoTheDestination(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	withDev := map[string]string{"dev.txt": "on dev\n"}
	for k, v := range repoFiles {
		withDev[k] = v
	}
	tests := []struct {
		name   string
		branch string
		want   map[string]string
	}{
		{"default branch", "", repoFiles},
		{"named branch", "dev", withDev},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lc, dest := gitLocal(t, &GitSpec{URI: repo.FileURL(), Branch: tt.branch})
			res := lc.l.runAction(context.Background(), lc.fs, "application_1_0001")
			if !res.Succeeded() || res.ExitCode != nil {
				t.Fatalf("result %+v", res)
			}
			wantTree(t, dest, tt.want)
			// The local clone is gone from the container's directory.
			if m, _ := filepath.Glob(filepath.Join(lc.l.env.Dir, "git_*")); len(m) != 0 {
				t.Errorf("local clone left behind: %v", m)
			}
		})
	}
}

// TestRunGitOverHTTP clones from the smart-HTTP server with the
// credentials of the URI; without them the server's 401 fails the action,
// and the message does not show the password.
func TestRunGitOverHTTP(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	srv := gitrepo.Serve(filepath.Dir(repo.Dir), gitrepo.Options{User: "alice", Password: "s3cret-pw"})
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")

	lc, dest := gitLocal(t, &GitSpec{URI: "http://alice:s3cret-pw@" + host + "/repo.git"})
	if res := lc.l.runAction(context.Background(), lc.fs, "application_1_0001"); !res.Succeeded() {
		t.Fatalf("result %+v", res)
	}
	wantTree(t, dest, repoFiles)
	// The copied .git/config names the remote without its password.
	if b, err := os.ReadFile(filepath.Join(dest, ".git", "config")); err != nil || strings.Contains(string(b), "s3cret-pw") ||
		!strings.Contains(string(b), "http://alice@"+host+"/repo.git") {
		t.Errorf(".git/config %q, %v: want the remote without its password", b, err)
	}

	lc, _ = gitLocal(t, &GitSpec{URI: "http://alice:wrong-pw@" + host + "/repo.git"})
	res := lc.l.runAction(context.Background(), lc.fs, "application_1_0001")
	if res.Succeeded() || res.ErrorCode != CodeException || !strings.Contains(res.ErrorMessage, "unable to clone Git repo") {
		t.Fatalf("result %+v, want a failed clone", res)
	}
	if strings.Contains(res.ErrorMessage, "wrong-pw") {
		t.Errorf("the message shows the password: %s", res.ErrorMessage)
	}
}

// TestRunGitOverSSHWithKey clones over SSH from an sshd (minissh running
// git-upload-pack) with the key of key-path, which only its owner may read.
func TestRunGitOverSSHWithKey(t *testing.T) {
	t.Parallel()
	testreq.Program(t, "git", "git-upload-pack") // run by the sshd for go-git's clone
	repo := newRepo(t)
	srv, err := minissh.Start(minissh.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	keyFile := filepath.Join(t.TempDir(), "id_ed25519")
	key, err := minissh.NewKeyFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	srv.Authorize("git", key.PublicKey())
	uri := "ssh://git@" + srv.Addr() + repo.Dir
	lc, dest := gitLocal(t, &GitSpec{URI: uri, KeyPath: "file://" + keyFile})
	if res := lc.l.runAction(context.Background(), lc.fs, "application_1_0001"); !res.Succeeded() {
		t.Fatalf("result %+v", res)
	}
	wantTree(t, dest, repoFiles)

	// Another key is refused by the server.
	other := filepath.Join(t.TempDir(), "other")
	if _, err := minissh.NewKeyFile(other); err != nil {
		t.Fatal(err)
	}
	lc, _ = gitLocal(t, &GitSpec{URI: uri, KeyPath: "file://" + other})
	if res := lc.l.runAction(context.Background(), lc.fs, "application_1_0001"); res.Succeeded() || !strings.Contains(res.ErrorMessage, "unable to authenticate") {
		t.Fatalf("result %+v, want the server's refusal", res)
	}
}

func TestRunGitRefusals(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	const keyText = "-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key-material\n-----END OPENSSH PRIVATE KEY-----\n"
	writeKey := func(t *testing.T, mode os.FileMode) string {
		p := filepath.Join(t.TempDir(), "key")
		if err := os.WriteFile(p, []byte(keyText), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return "file://" + p
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, g *GitSpec, dest string)
		msg   string
	}{
		{"destination with files", func(t *testing.T, g *GitSpec, dest string) {
			writeScript(t, mkdir(t, dest), "old.txt", "x", 0o644)
		}, "already exists and is not an empty directory"},
		{"destination is a file", func(t *testing.T, g *GitSpec, dest string) {
			writeScript(t, mkdir(t, filepath.Dir(dest)), filepath.Base(dest), "x", 0o644)
		}, "already exists and is a file"},
		{"key readable by the group", func(t *testing.T, g *GitSpec, dest string) {
			g.KeyPath = writeKey(t, 0o640)
		}, "permissions 0640 of key-path"},
		{"key readable by others", func(t *testing.T, g *GitSpec, dest string) {
			g.KeyPath = writeKey(t, 0o604)
		}, "are too open"},
		{"missing key", func(t *testing.T, g *GitSpec, dest string) {
			g.KeyPath = "file://" + filepath.Join(t.TempDir(), "none")
		}, "key-path ["},
		{"key that is no key", func(t *testing.T, g *GitSpec, dest string) {
			g.KeyPath = writeKey(t, 0o600)
			g.URI = "ssh://git@127.0.0.1:1/repo"
		}, "holds no usable private key"},
		{"unknown branch", func(t *testing.T, g *GitSpec, dest string) {
			g.Branch = "no-such-branch"
		}, "unable to clone Git repo"},
		{"missing repository", func(t *testing.T, g *GitSpec, dest string) {
			g.URI = "file://" + filepath.Join(t.TempDir(), "none")
		}, "unable to clone Git repo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dest := filepath.Join(t.TempDir(), "out", "clone")
			g := &GitSpec{URI: repo.FileURL(), Destination: "file://" + dest}
			tt.setup(t, g, dest)
			lc, _ := gitLocal(t, g)
			res := lc.l.runAction(context.Background(), lc.fs, "application_1_0001")
			if res.Succeeded() || res.ErrorCode != CodeException || !strings.Contains(res.ErrorMessage, tt.msg) {
				t.Fatalf("result %+v, want %s with %q", res, CodeException, tt.msg)
			}
			if strings.Contains(res.ErrorMessage, "not-a-real-key-material") {
				t.Errorf("the message shows the key: %s", res.ErrorMessage)
			}
		})
	}
}

// TestRunGitIntoAnEmptyDirectory: an existing empty destination is filled,
// as Oozie's copy into it does.
func TestRunGitIntoAnEmptyDirectory(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	dest := mkdir(t, filepath.Join(t.TempDir(), "empty"))
	lc, _ := gitLocal(t, &GitSpec{URI: repo.FileURL(), Destination: "file://" + dest})
	if res := lc.l.runAction(context.Background(), lc.fs, "application_1_0001"); !res.Succeeded() {
		t.Fatalf("result %+v", res)
	}
	wantTree(t, dest, repoFiles)
}

// TestCopyTreeSymlinks: a link to a file of the clone is copied as the
// file; one leading out of the clone fails the copy.
func TestCopyTreeSymlinks(t *testing.T) {
	t.Parallel()
	lc, _ := gitLocal(t, &GitSpec{URI: "file:///unused"})
	src := t.TempDir()
	writeScript(t, src, "a.txt", "a", 0o644)
	if err := os.Symlink("a.txt", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "d")
	if err := copyTree(context.Background(), lc.fs, src, "file://"+dest); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dest, "link")); err != nil || string(b) != "a" {
		t.Fatalf("link copied as %q, %v", b, err)
	}
	outside := writeScript(t, t.TempDir(), "secret", "node's file", 0o644)
	if err := os.Symlink(outside, filepath.Join(src, "escape")); err != nil {
		t.Fatal(err)
	}
	err := copyTree(context.Background(), lc.fs, src, "file://"+filepath.Join(t.TempDir(), "d2"))
	if err == nil || !strings.Contains(err.Error(), "points outside the repository") {
		t.Fatalf("copy with a link out of the clone: %v", err)
	}
}

func TestCheckGitURI(t *testing.T) {
	t.Parallel()
	for uri, want := range map[string]string{
		"https://github.com/apache/oozie":  "",
		"HTTP://host/repo.git":             "",
		"ssh://git@host:2222/repo.git":     "",
		"git://host/repo.git":              "",
		"file:///srv/repo":                 "",
		"git@github.com:apache/oozie.git":  "not a proper URI",
		"/srv/repo":                        "has no scheme",
		"ftp://host/repo.git":              "scheme [ftp] is not supported",
		"https://bob:tok3n@host/repo%zz":   "not a proper URI",
		"sftp://bob:tok3n@host/repo.git":   "sftp",
		"amazon-s3://bucket/repo.git":      "not supported",
		"bundle:///srv/repo.bundle":        "not supported",
		"https://bob:tok3n@host/repo.git ": "",
	} {
		err := CheckGitURI(strings.TrimSpace(uri))
		switch {
		case want == "" && err != nil:
			t.Errorf("CheckGitURI(%q) = %v, want nil", uri, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("CheckGitURI(%q) = %v, want %q", uri, err, want)
		case err != nil && strings.Contains(err.Error(), "tok3n"):
			t.Errorf("CheckGitURI(%q) shows the password: %v", uri, err)
		}
	}
}

// mkdir makes dir and returns it.
func mkdir(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSpecValidateGit: a git spec needs a clonable git-uri and full URIs
// for the destination and the key.
func TestSpecValidateGit(t *testing.T) {
	t.Parallel()
	base := func(g *GitSpec) *Spec {
		return &Spec{Version: SpecVersion, Type: TypeGit, ActionDir: "hdfs://nn/a", Git: g}
	}
	for name, tt := range map[string]struct {
		g    *GitSpec
		want string
	}{
		"valid":                {&GitSpec{URI: "https://h/r", Destination: "hdfs://nn/d", KeyPath: "hdfs://nn/k"}, ""},
		"no git":               {nil, "needs git"},
		"no destination":       {&GitSpec{URI: "https://h/r"}, "needs git.destination"},
		"relative destination": {&GitSpec{URI: "https://h/r", Destination: "/d"}, "not a full URI"},
		"relative key":         {&GitSpec{URI: "https://h/r", Destination: "hdfs://nn/d", KeyPath: "k"}, "not a full URI"},
		"scp-like uri":         {&GitSpec{URI: "git@h:r.git", Destination: "hdfs://nn/d"}, "not a proper URI"},
	} {
		err := base(tt.g).Validate()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: Validate() = %v, want %q", name, err, tt.want)
		}
	}
}
