// Package gitrepo makes git repositories for tests and serves them as git
// servers do, for the git action: a repository is a real one on local disk
// (made with go-git, so no git binary is needed), reachable over file://
// and over git's smart HTTP protocol from an in-process server.
//
// The HTTP server answers what a real `git http-backend` answers to a clone:
// GET info/refs?service=git-upload-pack (the advertisement, with its
// "# service=" header) and POST git-upload-pack (the pack). It is as strict
// as one: an unknown repository is 404, a push (git-receive-pack) is 403 as
// http.receivepack is off for anonymous users, the dumb protocol (info/refs
// without service) is 403, and with Options.User set every request needs
// that user's basic credentials (401 with a WWW-Authenticate challenge
// otherwise). Options.Stall makes it hang instead of sending the pack.
package gitrepo

import (
	"crypto/subtle"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
)

// DefaultBranch is the branch Create commits to and HEAD names.
const DefaultBranch = "main"

// author signs every commit, at a fixed time, so that repositories made
// from the same files are the same.
var author = &object.Signature{Name: "gozie tests", Email: "tests@gozie.invalid", When: time.Unix(1700000000, 0).UTC()}

// Repo is a repository with a working tree on local disk.
type Repo struct {
	// Dir is the repository's working tree; its .git is inside.
	Dir  string
	repo *git.Repository
}

// Create makes a repository at dir (created if missing) whose HEAD is
// DefaultBranch, with one commit holding files (slash-separated relative
// path → content).
func Create(dir string, files map[string]string) (*Repo, error) {
	repo, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName(DefaultBranch)}})
	if err != nil {
		return nil, fmt.Errorf("gitrepo: creating %s: %w", dir, err)
	}
	r := &Repo{Dir: dir, repo: repo}
	if err := r.commit(files, "first commit"); err != nil {
		return nil, err
	}
	return r, nil
}

// Branch makes branch from the current commit of DefaultBranch and commits
// files on it; DefaultBranch stays as it was and stays checked out.
func (r *Repo) Branch(branch string, files map[string]string) error {
	wt, err := r.repo.Worktree()
	if err != nil {
		return fmt.Errorf("gitrepo: %w", err)
	}
	checkout := func(b string, create bool) error {
		if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName(b), Create: create}); err != nil {
			return fmt.Errorf("gitrepo: checking out %s: %w", b, err)
		}
		return nil
	}
	if err := checkout(branch, true); err != nil {
		return err
	}
	if err := r.commit(files, "commit on "+branch); err != nil {
		return err
	}
	return checkout(DefaultBranch, false)
}

// commit writes files into the working tree and commits them.
func (r *Repo) commit(files map[string]string, msg string) error {
	wt, err := r.repo.Worktree()
	if err != nil {
		return fmt.Errorf("gitrepo: %w", err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(r.Dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("gitrepo: %w", err)
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			return fmt.Errorf("gitrepo: %w", err)
		}
		if _, err := wt.Add(name); err != nil {
			return fmt.Errorf("gitrepo: adding %s: %w", name, err)
		}
	}
	if _, err := wt.Commit(msg, &git.CommitOptions{Author: author}); err != nil {
		return fmt.Errorf("gitrepo: committing: %w", err)
	}
	return nil
}

// FileURL is the repository's file:// URI.
func (r *Repo) FileURL() string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(r.Dir)}).String()
}

// Options configures Serve.
type Options struct {
	// User and Password, when User is set, are the basic credentials every
	// request must carry.
	User, Password string
	// OnUploadPack, if set, is called when an upload-pack request (the
	// request for the pack) arrives, before it is answered.
	OnUploadPack func()
	// Stall makes the server hang on upload-pack requests until the client
	// goes away, as a server that stopped sending does.
	Stall bool
}

// Serve starts an HTTP server for the repositories below root: the one at
// root/a/b is http://<addr>/a/b (or /a/b.git). Close the server when done.
func Serve(root string, opts Options) *httptest.Server {
	return httptest.NewServer(&handler{root: root, opts: opts, srv: server.NewServer(loader(root))})
}

// loader opens the repositories below root: working trees or bare ones.
type loader string

// Load implements server.Loader.
func (root loader) Load(ep *transport.Endpoint) (storer.Storer, error) {
	repo, err := git.PlainOpen(filepath.Join(string(root), filepath.FromSlash(path.Clean("/"+ep.Path))))
	if err != nil {
		return nil, transport.ErrRepositoryNotFound
	}
	return repo.Storer, nil
}

// handler serves git's smart HTTP protocol, upload-pack only.
type handler struct {
	root string
	opts Options
	srv  transport.Transport
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.opts.User != "" {
		u, p, ok := r.BasicAuth()
		if !ok || subtle.ConstantTimeCompare([]byte(u), []byte(h.opts.User)) != 1 ||
			subtle.ConstantTimeCompare([]byte(p), []byte(h.opts.Password)) != 1 {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
	}
	clean := path.Clean("/" + r.URL.Path)
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(clean, "/info/refs"):
		h.advertise(w, r, strings.TrimSuffix(clean, "/info/refs"))
	case r.Method == http.MethodPost && strings.HasSuffix(clean, "/git-upload-pack"):
		h.uploadPack(w, r, strings.TrimSuffix(clean, "/git-upload-pack"))
	case strings.HasSuffix(clean, "/git-receive-pack"):
		http.Error(w, "pushing is not allowed", http.StatusForbidden)
	default:
		http.NotFound(w, r)
	}
}

// session opens an upload-pack session on the repository at repoPath, or
// answers 404.
func (h *handler) session(w http.ResponseWriter, repoPath string) transport.UploadPackSession {
	ep, err := transport.NewEndpoint("file://" + strings.TrimSuffix(repoPath, ".git"))
	if err == nil {
		var s transport.UploadPackSession
		if s, err = h.srv.NewUploadPackSession(ep, nil); err == nil {
			return s
		}
	}
	http.Error(w, "repository not found", http.StatusNotFound)
	return nil
}

// advertise answers GET info/refs?service=git-upload-pack.
func (h *handler) advertise(w http.ResponseWriter, r *http.Request, repoPath string) {
	switch r.URL.Query().Get("service") {
	case "git-upload-pack":
	case "git-receive-pack":
		http.Error(w, "pushing is not allowed", http.StatusForbidden)
		return
	default:
		http.Error(w, "the dumb protocol is not served", http.StatusForbidden)
		return
	}
	s := h.session(w, repoPath)
	if s == nil {
		return
	}
	defer s.Close()
	ar, err := s.AdvertisedReferencesContext(r.Context())
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	ar.Prefix = [][]byte{[]byte("# service=git-upload-pack"), pktline.Flush}
	w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
	w.Header().Set("Cache-Control", "no-cache")
	_ = ar.Encode(w)
}

// uploadPack answers POST git-upload-pack with the pack of what the client
// wants.
func (h *handler) uploadPack(w http.ResponseWriter, r *http.Request, repoPath string) {
	if r.Header.Get("Content-Type") != "application/x-git-upload-pack-request" {
		http.Error(w, "not an upload-pack request", http.StatusUnsupportedMediaType)
		return
	}
	if h.opts.OnUploadPack != nil {
		h.opts.OnUploadPack()
	}
	if h.opts.Stall {
		// With the request read, the server watches the connection and
		// ends the request's context when the client goes away.
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
		return
	}
	s := h.session(w, repoPath)
	if s == nil {
		return
	}
	defer s.Close()
	req := packp.NewUploadPackRequest()
	if err := req.Decode(r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	resp, err := s.UploadPack(r.Context(), req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	defer resp.Close()
	w.Header().Set("Content-Type", "application/x-git-upload-pack-result")
	w.Header().Set("Cache-Control", "no-cache")
	_ = resp.Encode(w)
}
