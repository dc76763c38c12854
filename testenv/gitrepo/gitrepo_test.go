package gitrepo_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/gozie/gozie/testenv/gitrepo"
)

func newRepo(t *testing.T) (*gitrepo.Repo, string) {
	t.Helper()
	root := t.TempDir()
	r, err := gitrepo.Create(filepath.Join(root, "team", "repo"), map[string]string{"a/b.txt": "b\n"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Branch("dev", map[string]string{"dev.txt": "dev\n"}); err != nil {
		t.Fatal(err)
	}
	return r, root
}

// TestCloneOverHTTP: a git client clones each branch over smart HTTP with
// the server's credentials.
func TestCloneOverHTTP(t *testing.T) {
	t.Parallel()
	_, root := newRepo(t)
	srv := gitrepo.Serve(root, gitrepo.Options{User: "u", Password: "p"})
	t.Cleanup(srv.Close)
	for branch, file := range map[string]string{gitrepo.DefaultBranch: "a/b.txt", "dev": "dev.txt"} {
		dir := t.TempDir()
		_, err := git.PlainClone(dir, false, &git.CloneOptions{URL: srv.URL + "/team/repo.git",
			Auth: &githttp.BasicAuth{Username: "u", Password: "p"}, ReferenceName: plumbing.NewBranchReferenceName(branch)})
		if err != nil {
			t.Fatalf("clone of %s: %v", branch, err)
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(file))); err != nil {
			t.Errorf("branch %s has no %s: %v", branch, file, err)
		}
	}
}

// TestServerRefusals: what git http-backend refuses, the server refuses.
func TestServerRefusals(t *testing.T) {
	t.Parallel()
	_, root := newRepo(t)
	srv := gitrepo.Serve(root, gitrepo.Options{User: "u", Password: "p"})
	t.Cleanup(srv.Close)
	tests := []struct {
		name, method, path, user string
		want                     int
	}{
		{"no credentials", http.MethodGet, "/team/repo/info/refs?service=git-upload-pack", "", http.StatusUnauthorized},
		{"wrong password", http.MethodGet, "/team/repo/info/refs?service=git-upload-pack", "x", http.StatusUnauthorized},
		{"unknown repository", http.MethodGet, "/team/none/info/refs?service=git-upload-pack", "p", http.StatusNotFound},
		{"outside the root", http.MethodGet, "/../../etc/info/refs?service=git-upload-pack", "p", http.StatusNotFound},
		{"push advertisement", http.MethodGet, "/team/repo/info/refs?service=git-receive-pack", "p", http.StatusForbidden},
		{"push", http.MethodPost, "/team/repo/git-receive-pack", "p", http.StatusForbidden},
		{"dumb protocol", http.MethodGet, "/team/repo/info/refs", "p", http.StatusForbidden},
		{"advertisement", http.MethodGet, "/team/repo/info/refs?service=git-upload-pack", "p", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(""))
			if err != nil {
				t.Fatal(err)
			}
			if tt.user != "" {
				req.SetBasicAuth("u", tt.user)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Fatalf("%s %s: %d, want %d", tt.method, tt.path, resp.StatusCode, tt.want)
			}
			if tt.want == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
				t.Error("401 without a WWW-Authenticate challenge")
			}
			if tt.want == http.StatusOK && resp.Header.Get("Content-Type") != "application/x-git-upload-pack-advertisement" {
				t.Errorf("content type %q", resp.Header.Get("Content-Type"))
			}
		})
	}
}
