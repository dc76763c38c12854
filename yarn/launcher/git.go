package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/crypto/ssh"

	"github.com/gozie/gozie/hadoop"
)

// TypeGit is the git action: the launcher itself clones the repository and
// copies it into HDFS, as Oozie's GitMain does in its launcher.
const TypeGit = "git"

// GitSpec is what a git action runs: a clone of URI (Branch, else the
// remote's default branch) copied into Destination on HDFS as the job's
// user.
type GitSpec struct {
	// URI is the repository (git-uri): https, http, ssh, git or file.
	URI string `json:"uri"`
	// Branch, if set, is the only branch cloned and the one checked out.
	Branch string `json:"branch,omitempty"`
	// KeyPath, if set, is the full URI of the SSH private key (key-path),
	// read as the job's user; ssh:// clones authenticate with it.
	KeyPath string `json:"keyPath,omitempty"`
	// Destination is the full URI of the directory the tree is copied
	// into (destination-uri).
	Destination string `json:"destination"`
}

// GitSchemes are the git-uri schemes the launcher clones from: the
// transports of Oozie's JGit that a git client without a JVM has (JGit's
// sftp, ftp, amazon-s3 and bundle transports are not among them).
var GitSchemes = []string{"https", "http", "ssh", "git", "file"}

// CheckGitURI is GitMain's rule for git-uri: a URI with a scheme, here one
// of GitSchemes. An scp-like address (git@host:repo.git) has no scheme and
// is refused, as Oozie refuses it; write ssh://git@host/repo.git instead.
func CheckGitURI(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error repeats the URI, password included: keep its reason.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("git-uri [%s] is not a proper URI: %w", redactURI(raw), err)
	}
	if u.Scheme == "" {
		return fmt.Errorf("git-uri [%s] is not a proper URI: it has no scheme", redactURI(raw))
	}
	if !slices.Contains(GitSchemes, strings.ToLower(u.Scheme)) {
		return fmt.Errorf("git-uri [%s]: scheme [%s] is not supported, only %s", redactURI(raw), u.Scheme, strings.Join(GitSchemes, ", "))
	}
	return nil
}

// validate checks the parts of a git spec the launcher needs.
func (g *GitSpec) validate() error {
	if g == nil {
		return errors.New("a git action needs git")
	}
	if err := CheckGitURI(strings.TrimSpace(g.URI)); err != nil {
		return err
	}
	for name, p := range map[string]string{"destination": g.Destination, "keyPath": g.KeyPath} {
		if p != "" && !strings.Contains(p, "://") {
			return fmt.Errorf("git.%s %q is not a full URI", name, p)
		}
	}
	if g.Destination == "" {
		return errors.New("a git action needs git.destination")
	}
	return nil
}

// redactURI hides the password of a URI's user information, for messages
// and logs, even in a URI that does not parse.
func redactURI(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	authority, path, slash := strings.Cut(rest, "/")
	at := strings.LastIndex(authority, "@")
	if at < 0 {
		return raw
	}
	user, _, hasPassword := strings.Cut(authority[:at], ":")
	if !hasPassword {
		return raw
	}
	out := scheme + "://" + user + ":xxxxx" + authority[at:]
	if slash {
		out += "/" + path
	}
	return out
}

// localLoader opens the repositories of file:// URIs: a working tree (its
// .git directory, or the one a .git file points to) or a bare repository.
type localLoader struct{}

// Load implements server.Loader.
func (localLoader) Load(ep *transport.Endpoint) (storer.Storer, error) {
	repo, err := git.PlainOpen(ep.Path)
	if err != nil {
		if errors.Is(err, git.ErrRepositoryNotExists) {
			return nil, transport.ErrRepositoryNotFound
		}
		return nil, err
	}
	return repo.Storer, nil
}

// fileTransport makes file:// clones run in this process: go-git's own
// file transport runs the git-upload-pack binary, which a NodeManager need
// not have.
var fileTransport sync.Once

// runGit runs a git action: it checks the destination and the key, clones
// into a private directory of the container, and copies the clone (its
// .git directory included, as Oozie's copy of JGit's clone has it) into the
// destination, as the job's user.
func (l *launcher) runGit(ctx context.Context, fsys hadoop.FileSystem, appID string) Result {
	g := l.spec.Git
	res := Result{Version: ResultVersion, ApplicationID: appID, Started: l.env.Now()}
	fail := func(err error) Result {
		l.log.Error("git action failed", "error_code", CodeException, "error", err)
		r := failure(appID, CodeException, err.Error())
		r.Started, r.Finished = res.Started, l.env.Now()
		return r
	}
	if err := checkDestination(ctx, fsys, g.Destination); err != nil {
		return fail(err)
	}
	auth, err := l.gitAuth(ctx, fsys)
	if err != nil {
		return fail(err)
	}
	dir := l.env.Dir
	if dir == "" {
		dir = "."
	}
	tmp, err := os.MkdirTemp(dir, "git_") // 0700: the key never lands here, the tree is the user's
	if err != nil {
		return fail(fmt.Errorf("creating the local clone directory: %w", err))
	}
	defer os.RemoveAll(tmp)
	l.log.Info("cloning", "git_uri", redactURI(g.URI), "branch", g.Branch)
	if err := clone(ctx, tmp, g, auth, l.env.Stdout); err != nil {
		return fail(err)
	}
	l.log.Info("finished cloning to local; copying", "destination", g.Destination)
	if err := copyTree(ctx, fsys, tmp, g.Destination); err != nil {
		return fail(fmt.Errorf("copying the clone to %s: %w", g.Destination, err))
	}
	l.log.Info("finished copying", "destination", g.Destination)
	res.FinalStatus, res.Finished = StatusSucceeded, l.env.Now()
	return res
}

// checkDestination refuses a destination that exists, unless it is an
// empty directory. Oozie's documentation says the directory should not
// exist; its copy (Hadoop's FileUtil.copy into the directory) fails when an
// earlier clone is there, since the .git directory is in the way, and
// would mix files into any other directory. A <prepare><delete> of the
// destination, as Oozie's example has, makes reruns work.
func checkDestination(ctx context.Context, fsys hadoop.FileSystem, dest string) error {
	fi, err := fsys.Stat(ctx, dest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("destination-uri [%s]: %w", dest, err)
	case !fi.IsDir:
		return fmt.Errorf("destination-uri [%s] already exists and is a file", dest)
	}
	entries, err := fsys.ReadDir(ctx, dest)
	if err != nil {
		return fmt.Errorf("destination-uri [%s]: %w", dest, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("destination-uri [%s] already exists and is not an empty directory", dest)
	}
	return nil
}

// gitAuth reads the private key of key-path, as the job's user, and
// returns the SSH authentication of an ssh:// clone with it (nil for other
// schemes, or without a key). The key must be a file that only its owner
// may access, the rule OpenSSH applies to private keys (Oozie copies the
// key without looking). The key's content is never logged.
func (l *launcher) gitAuth(ctx context.Context, fsys hadoop.FileSystem) (transport.AuthMethod, error) {
	g := l.spec.Git
	if g.KeyPath == "" {
		return nil, nil
	}
	fi, err := fsys.Stat(ctx, g.KeyPath)
	if err != nil {
		return nil, fmt.Errorf("key-path [%s]: %w", g.KeyPath, err)
	}
	if fi.IsDir {
		return nil, fmt.Errorf("key-path [%s] is a directory, not a private key file", g.KeyPath)
	}
	if perm := fi.Mode.Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("permissions %04o of key-path [%s] are too open: a private key must be accessible by its owner only (chmod 600)", perm, g.KeyPath)
	}
	key, err := fsys.ReadFile(ctx, g.KeyPath)
	if err != nil {
		return nil, fmt.Errorf("reading key-path [%s]: %w", g.KeyPath, err)
	}
	l.log.Info("read the SSH key", "key_path", g.KeyPath)
	u, err := url.Parse(g.URI)
	if err != nil || !strings.EqualFold(u.Scheme, "ssh") {
		return nil, nil
	}
	user := gitssh.DefaultUsername
	if u.User != nil && u.User.Username() != "" {
		user = u.User.Username()
	}
	auth, err := gitssh.NewPublicKeys(user, key, "")
	if err != nil {
		return nil, fmt.Errorf("key-path [%s] holds no usable private key: %w", g.KeyPath, err)
	}
	// Oozie's launcher connects with StrictHostKeyChecking=no; a container
	// has no known_hosts of the user's to check against.
	auth.HostKeyCallback = ssh.InsecureIgnoreHostKey()
	return auth, nil
}

// clone clones g's repository into dir: only g.Branch when set.
func clone(ctx context.Context, dir string, g *GitSpec, auth transport.AuthMethod, progress io.Writer) error {
	fileTransport.Do(func() { client.InstallProtocol("file", server.NewClient(localLoader{})) })
	opts := &git.CloneOptions{URL: strings.TrimSpace(g.URI), Auth: auth, Progress: progress}
	if b := strings.TrimSpace(g.Branch); b != "" {
		opts.ReferenceName, opts.SingleBranch = plumbing.NewBranchReferenceName(b), true
	}
	repo, err := git.PlainCloneContext(ctx, dir, false, opts)
	if err != nil {
		return fmt.Errorf("unable to clone Git repo [%s]: %w", redactURI(g.URI), err)
	}
	return forgetPassword(repo, opts.URL)
}

// forgetPassword removes the password of uri from the clone's remote, so
// that the copy on HDFS (.git/config) does not hand it to its readers.
func forgetPassword(repo *git.Repository, uri string) error {
	u, err := url.Parse(uri)
	if err != nil || u.User == nil {
		return nil
	}
	if _, ok := u.User.Password(); !ok {
		return nil
	}
	u.User = url.User(u.User.Username())
	cfg, err := repo.Config()
	if err != nil {
		return fmt.Errorf("reading the clone's configuration: %w", err)
	}
	for _, r := range cfg.Remotes {
		r.URLs = []string{u.String()}
	}
	if err := repo.SetConfig(cfg); err != nil {
		return fmt.Errorf("writing the clone's configuration: %w", err)
	}
	return nil
}

// copyTree copies the local directory src into dest on the filesystem,
// creating dest. A symbolic link to a file is copied as that file, as
// Hadoop's copy from the local filesystem does, but only when the file lies
// in src: a repository cannot make the launcher upload the node's own
// files.
func copyTree(ctx context.Context, fsys hadoop.FileSystem, src, dest string) error {
	if err := fsys.MkdirAll(ctx, dest, 0o755); err != nil {
		return err
	}
	root, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == src {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := strings.TrimSuffix(dest, "/") + "/" + filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			return copyLink(ctx, fsys, root, p, rel, target)
		}
		if d.IsDir() {
			return fsys.MkdirAll(ctx, target, 0o755)
		}
		return copyFile(ctx, fsys, p, target)
	})
}

// copyLink copies the file a symbolic link of the clone points to.
func copyLink(ctx context.Context, fsys hadoop.FileSystem, root, p, rel, target string) error {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return fmt.Errorf("symbolic link [%s]: %w", rel, err)
	}
	if r, err := filepath.Rel(root, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return fmt.Errorf("symbolic link [%s] points outside the repository", rel)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("symbolic link [%s]: %w", rel, err)
	}
	if fi.IsDir() {
		// Links between directories can make loops; Hadoop's copy would
		// follow them forever.
		return fmt.Errorf("symbolic link [%s] points to a directory, which the copy does not follow", rel)
	}
	return copyFile(ctx, fsys, real, target)
}

// copyFile copies one local file to target.
func copyFile(ctx context.Context, fsys hadoop.FileSystem, local, target string) error {
	in, err := os.Open(local)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := fsys.Create(ctx, target)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("writing %s: %w", target, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", target, err)
	}
	return nil
}
