package miniyarn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// Storage is how the NodeManager reads local resources, as the application's
// user: a real NodeManager's ContainerLocalizer downloads an application's
// resources as its user (with the user's tokens on a secure cluster), so a
// resource the user may not read fails localization. The test environment
// backs it with the HDFS client talking to MiniDFS ([HDFSStorage]), so paths,
// modification times and permissions agree with what the submitter saw.
type Storage interface {
	// Stat returns the size and the modification time (milliseconds since the
	// epoch) of the file at uri, as user.
	Stat(ctx context.Context, user, uri string) (size int64, mtimeMillis int64, err error)
	// Open opens the file at uri for reading, as user.
	Open(ctx context.Context, user, uri string) (io.ReadCloser, error)
}

// LocalFS is a [Storage] for file:// URLs and plain absolute paths.
type LocalFS struct{}

// Stat implements [Storage]; it reads as the test process, whoever user is.
func (LocalFS) Stat(_ context.Context, _, uri string) (int64, int64, error) {
	p, err := localPath(uri)
	if err != nil {
		return 0, 0, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return 0, 0, fmt.Errorf("stat %s: %w", uri, err)
	}
	if fi.IsDir() {
		return 0, 0, fmt.Errorf("stat %s: is a directory", uri)
	}
	return fi.Size(), fi.ModTime().UnixMilli(), nil
}

// Mode implements [ModeStorage]; it reads as the test process.
func (LocalFS) Mode(_ context.Context, _, uri string) (fs.FileMode, error) {
	p, err := localPath(uri)
	if err != nil {
		return 0, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return 0, fmt.Errorf("stat %s: %w", uri, err)
	}
	return fi.Mode(), nil
}

// Open implements [Storage]; it reads as the test process, whoever user is.
func (LocalFS) Open(_ context.Context, _, uri string) (io.ReadCloser, error) {
	p, err := localPath(uri)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", uri, err)
	}
	return f, nil
}

// HDFSStorage is a [Storage] that reads with the real HDFS client, connecting
// as the application's user (SIMPLE authentication), as a NodeManager's
// localizer running as that user does. It keeps one client per user until
// Close.
type HDFSStorage struct {
	// DefaultFS is the filesystem of resources named by a bare path, e.g.
	// MiniDFS's URI.
	DefaultFS string
	// Conf is the HDFS client configuration (hdfs-site.xml properties),
	// e.g. MiniDFS.ClientConf(): with it, an HA nameservice such as
	// hdfs://minicluster resolves to its NameNodes, as the NodeManager's
	// own configuration resolves it.
	Conf map[string]string

	mu  sync.Mutex
	fss map[string]*hadoop.Resolver // by user and tokens
}

type tokensKey struct{}

// withAppTokens hands a Storage the HDFS delegation tokens of the
// application whose resources it reads.
func withAppTokens(ctx context.Context, toks []hadoop.Token) context.Context {
	return context.WithValue(ctx, tokensKey{}, toks)
}

// appTokens returns the tokens of withAppTokens.
func appTokens(ctx context.Context) []hadoop.Token {
	t, _ := ctx.Value(tokensKey{}).([]hadoop.Token)
	return t
}

// fs returns the client of user; on a Kerberized RM, one that
// authenticates with the application's HDFS delegation tokens (TOKEN), as
// the localizer does with the tokens of the submission.
func (s *HDFSStorage) fs(ctx context.Context, user string) (*hadoop.Resolver, error) {
	toks := appTokens(ctx)
	key := user
	for _, t := range toks {
		key += "\x00" + string(t.Identifier)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.fss[key]; ok {
		return r, nil
	}
	r, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: s.DefaultFS, Conf: s.Conf, User: user, Tokens: toks})
	if err != nil {
		return nil, err
	}
	if s.fss == nil {
		s.fss = map[string]*hadoop.Resolver{}
	}
	s.fss[key] = r
	return r, nil
}

// Stat implements [Storage].
func (s *HDFSStorage) Stat(ctx context.Context, user, uri string) (int64, int64, error) {
	r, err := s.fs(ctx, user)
	if err != nil {
		return 0, 0, err
	}
	fi, err := r.Stat(ctx, uri)
	if err != nil {
		return 0, 0, err
	}
	if fi.IsDir {
		return 0, 0, fmt.Errorf("%s is a directory", uri)
	}
	return fi.Size, fi.ModTime.UnixMilli(), nil
}

// Mode implements [ModeStorage].
func (s *HDFSStorage) Mode(ctx context.Context, user, uri string) (fs.FileMode, error) {
	r, err := s.fs(ctx, user)
	if err != nil {
		return 0, err
	}
	fi, err := r.Stat(ctx, uri)
	if err != nil {
		return 0, err
	}
	return fi.Mode, nil
}

// Open implements [Storage].
func (s *HDFSStorage) Open(ctx context.Context, user, uri string) (io.ReadCloser, error) {
	r, err := s.fs(ctx, user)
	if err != nil {
		return nil, err
	}
	return r.Open(ctx, uri)
}

// Close closes the clients.
func (s *HDFSStorage) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for u, r := range s.fss {
		errs = append(errs, r.Close())
		delete(s.fss, u)
	}
	return errors.Join(errs...)
}

func localPath(uri string) (string, error) {
	if strings.HasPrefix(uri, "/") {
		return uri, nil
	}
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("resource %q: %w", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("resource %q: LocalFS reads only file:// URLs", uri)
	}
	return u.Path, nil
}

// localizationError marks a failure to localise a resource; the container then
// fails with exit code -1000 like on a real NodeManager.
type localizationError struct{ msg string }

func (e *localizationError) Error() string { return e.msg }

// localize copies the application's local resources into the application's
// file cache, or finds PUBLIC and PRIVATE ones in the NodeManager's cache
// (rescache.go), and returns link name → localised path. Archives are
// unpacked into a directory.
func (rm *RM) localize(ctx context.Context, a *app, at *attempt, appDir string) (map[string]string, error) {
	links := make(map[string]string)
	hdfsTokens := rm.hdfsTokens(a)
	if rm.opts.Kerberos != nil {
		ctx = withAppTokens(ctx, hdfsTokens)
	}
	keys := make([]string, 0, len(a.sc.AMContainerSpec.LocalResources))
	for k := range a.sc.AMContainerSpec.LocalResources {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, key := range keys {
		lr := a.sc.AMContainerSpec.LocalResources[key]
		dst := filepath.Join(appDir, "filecache", fmt.Sprintf("%d-%d", at.id.Attempt, i+1))
		// The container's localizer downloads as the user with the
		// application's tokens; the NodeManager itself fetches PUBLIC ones.
		fetch := func(dst string) (string, error) {
			if rm.opts.Kerberos != nil && len(hdfsTokens) == 0 && !rm.isLocalResource(lr.Resource) &&
				lr.Visibility != yarn.VisibilityPublic {
				return "", errNoToken
			}
			return rm.fetchResource(ctx, a.user, lr, dst)
		}
		var p string
		var err error
		switch lr.Visibility {
		case yarn.VisibilityPublic, yarn.VisibilityPrivate:
			p, err = rm.cachedResource(ctx, a.user, lr, fetch)
		default:
			p, err = fetch(dst)
		}
		if err != nil {
			return nil, &localizationError{msg: fmt.Sprintf("[%s]Failed to download resource { { %s, %d, %s, null },pending,[(%s)],%d,DOWNLOADING}\n%v\n",
				rm.opts.Now().Format("2006-01-02 15:04:05.000"), lr.Resource, lr.Timestamp, lr.Type, at.container, at.started.UnixNano(), err)}
		}
		links[key] = p
	}
	return links, nil
}

// errNoToken is how a Kerberized NodeManager's localizer fails to reach
// HDFS without a delegation token of the application: the NameNode offers
// TOKEN and KERBEROS, and the localizer holds neither a token nor a ticket
// (SaslRpcClient.selectSaslClient).
var errNoToken = errors.New("java.io.IOException: org.apache.hadoop.security.AccessControlException: Client cannot authenticate via:[TOKEN, KERBEROS]")

// hdfsTokens returns the HDFS delegation tokens of the submission.
func (rm *RM) hdfsTokens(a *app) []hadoop.Token {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	var out []hadoop.Token
	for _, t := range a.tokens {
		if t.token.Kind == hadoop.KindHDFSDelegationToken {
			out = append(out, t.token)
		}
	}
	return out
}

// isLocalResource reports whether a resource is read from the node's own
// disk (file://, or a bare path when the storage is LocalFS), which needs
// no token.
func (rm *RM) isLocalResource(uri string) bool {
	_, local := rm.opts.Storage.(LocalFS)
	return strings.HasPrefix(uri, "file:") || (local && strings.HasPrefix(uri, "/"))
}

// fetchResource copies one resource below dst (a fresh directory), as user,
// after YARN's timestamp check, unpacking archives, and returns the path to
// link to.
func (rm *RM) fetchResource(ctx context.Context, user string, lr yarn.LocalResource, dst string) (string, error) {
	_, mtime, err := rm.opts.Storage.Stat(ctx, user, lr.Resource)
	if errors.Is(err, fs.ErrPermission) {
		// FSDownload passes the NameNode's refusal on as it is.
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("java.io.FileNotFoundException: File %s does not exist: %w", lr.Resource, err)
	}
	if mtime != lr.Timestamp {
		// The RM's message, unbalanced parenthesis included.
		return "", fmt.Errorf("java.io.IOException: Resource %s changed on src filesystem (expected %d, was %d",
			lr.Resource, lr.Timestamp, mtime)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return "", fmt.Errorf("java.io.IOException: %w", err)
	}
	name := resourceBaseName(lr.Resource)
	file := filepath.Join(dst, name)
	rm.cache.counted(lr.Resource)
	if err := rm.copyResource(ctx, user, lr.Resource, file); err != nil {
		return "", fmt.Errorf("java.io.IOException: %w", err)
	}
	if lr.Type == yarn.ResourceFile {
		return file, nil
	}
	unpacked := filepath.Join(dst, name+".unpacked")
	ok, err := unpackArchive(file, unpacked)
	if err != nil {
		return "", fmt.Errorf("java.io.IOException: unpacking %s: %w", lr.Resource, err)
	}
	if !ok {
		// Not an archive by its suffix: YARN then localises the file as is.
		return file, nil
	}
	return unpacked, nil
}

func resourceBaseName(uri string) string {
	p := uri
	if u, err := url.Parse(uri); err == nil && u.Path != "" {
		p = u.Path
	}
	name := path.Base(p)
	if name == "/" || name == "." || name == "" {
		name = "resource"
	}
	return name
}

func (rm *RM) copyResource(ctx context.Context, user, uri, file string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	src, err := rm.opts.Storage.Open(ctx, user, uri)
	if err != nil {
		return fmt.Errorf("opening %s: %w", uri, err)
	}
	defer src.Close()
	out, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return fmt.Errorf("creating %s: %w", file, err)
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return fmt.Errorf("copying %s: %w", uri, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", file, err)
	}
	return nil
}
