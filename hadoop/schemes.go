package hadoop

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/gozie/gozie/oozieerr"
)

// SchemeError reports a URI on a filesystem that may not be used: a scheme
// the server's SchemePolicy leaves out (gozie.filesystems.supported). It is
// Oozie's E0904, and it is returned before any filesystem is touched, so it
// tells nothing about what exists at the URI. It matches
// ErrUnsupportedScheme under errors.Is. A scheme the policy allows but no
// FileSystem implements is not refused: it fails where it is used, with a
// *NoFileSystemError.
type SchemeError struct {
	// Scheme is the scheme judged, in lower case: the URI's, or the default
	// filesystem's for a path without one.
	Scheme string
	// URI is the URI or path as it was given.
	URI string
}

// Error returns Oozie's message, "Scheme [file] not supported in uri [...]".
func (e *SchemeError) Error() string {
	return fmt.Sprintf("Scheme [%s] not supported in uri [%s]", e.Scheme, e.URI)
}

// ErrorCode returns Oozie's error code, E0904.
func (e *SchemeError) ErrorCode() string { return oozieerr.E0904 }

// Is reports whether target is ErrUnsupportedScheme.
func (e *SchemeError) Is(target error) bool { return target == ErrUnsupportedScheme }

// Scheme returns the scheme of uri in lower case, or "" for a path without
// one ("/a/b", "a/b"): the text before the first ':' when that text holds no
// '/'. It is the one reading of a scheme, the Resolver's and the
// SchemePolicy's, so that what a policy judges is what the Resolver reaches.
func Scheme(uri string) string {
	scheme, _, ok := strings.Cut(uri, ":")
	if !ok || scheme == "" || strings.Contains(scheme, "/") {
		return ""
	}
	return strings.ToLower(scheme)
}

// ValidScheme reports whether s is a URI scheme (RFC 3986: a letter, then
// letters, digits, '+', '-' and '.').
func ValidScheme(s string) bool {
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// SchemePolicy is the set of filesystem schemes that the paths users name may
// use (application paths, dataset URIs, fs action paths, job-xml, file and
// archive entries, email attachments): gozie.filesystems.supported, Oozie's
// oozie.service.HadoopAccessorService.supported.filesystems. Schemes compare
// case-insensitively, and a path without a scheme is judged by the scheme of
// the default filesystem it resolves to, so that neither "FILE:///etc" nor
// "/etc" on a file:/// default reaches the server's own disk unless "file" is
// allowed. It is the one place where a scheme is judged; Restrict applies it
// to a FileSystem.
type SchemePolicy struct {
	allowed   map[string]bool
	all       bool   // "*": every scheme, as in Oozie
	defScheme string // the default filesystem's scheme
}

// NewSchemePolicy returns the policy that allows schemes ("hdfs", "file";
// "*" allows every scheme, as Oozie reads it). A path without a scheme is on
// defaultFS (a URI such as hdfs://nn:8020 or file:///) and judged by its
// scheme.
func NewSchemePolicy(schemes []string, defaultFS string) (*SchemePolicy, error) {
	p := &SchemePolicy{allowed: map[string]bool{}, defScheme: Scheme(defaultFS)}
	if p.defScheme == "" {
		return nil, fmt.Errorf("hadoop: default filesystem %q must be a URI with a scheme", defaultFS)
	}
	for _, s := range schemes {
		s = strings.ToLower(strings.TrimSpace(s))
		switch {
		case s == "":
		case s == "*":
			p.all = true
		case ValidScheme(s):
			p.allowed[s] = true
		default:
			return nil, fmt.Errorf("hadoop: %q is not a filesystem scheme", s)
		}
	}
	return p, nil
}

// Schemes returns the allowed schemes, sorted ("*" when every one is).
func (p *SchemePolicy) Schemes() []string {
	if p.all {
		return []string{"*"}
	}
	out := make([]string, 0, len(p.allowed))
	for s := range p.allowed {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Check returns a *SchemeError when uri's scheme (or, for a path without one,
// the default filesystem's) is not allowed, and nil otherwise. It touches no
// filesystem.
func (p *SchemePolicy) Check(uri string) error {
	scheme := Scheme(uri)
	if scheme == "" {
		scheme = p.defScheme
	}
	if p.all || p.allowed[scheme] {
		return nil
	}
	return &SchemeError{Scheme: scheme, URI: uri}
}

// Restrict returns fsys seen through the policy.
func (p *SchemePolicy) Restrict(fsys FileSystem) *Restricted {
	return &Restricted{fsys: fsys, policy: p}
}

// SchemeChecker is implemented by filesystems that judge a URI's scheme
// without touching anything: a *Restricted by its policy. It answers whether
// users may name the scheme, not whether a FileSystem implements it (a
// Resolver judges nothing; an allowed scheme it cannot reach fails where it
// is used, with a *NoFileSystemError).
type SchemeChecker interface {
	// CheckScheme returns a *SchemeError for a URI the filesystem refuses
	// by its scheme, nil otherwise.
	CheckScheme(uri string) error
}

// CheckScheme asks fsys, when it is a SchemeChecker, whether uri's scheme may
// be used, touching no filesystem: callers that check every path before they
// act on the first (the fs action) use it. Other filesystems, a bare Resolver
// among them, accept every scheme here.
func CheckScheme(fsys FileSystem, uri string) error {
	if c, ok := fsys.(SchemeChecker); ok {
		return c.CheckScheme(uri)
	}
	return nil
}

// Restricted is a FileSystem that refuses every path whose scheme its
// SchemePolicy does not allow, with a *SchemeError and before the FileSystem
// it wraps is called. The server hands it to everything that acts on paths
// users name; its own internals keep the unrestricted Resolver.
type Restricted struct {
	fsys   FileSystem
	policy *SchemePolicy
}

var (
	_ FileSystem    = (*Restricted)(nil)
	_ SchemeChecker = (*Restricted)(nil)
)

// CheckScheme implements SchemeChecker: the policy, and only the policy,
// decides. A scheme it allows that the wrapped filesystem cannot reach is
// accepted here, as Oozie's submission accepts it, and fails when it is used.
func (r *Restricted) CheckScheme(uri string) error {
	return r.policy.Check(uri)
}

// Stat implements FileSystem.
func (r *Restricted) Stat(ctx context.Context, uri string) (FileInfo, error) {
	if err := r.policy.Check(uri); err != nil {
		return FileInfo{}, err
	}
	return r.fsys.Stat(ctx, uri)
}

// ReadDir implements FileSystem.
func (r *Restricted) ReadDir(ctx context.Context, uri string) ([]FileInfo, error) {
	if err := r.policy.Check(uri); err != nil {
		return nil, err
	}
	return r.fsys.ReadDir(ctx, uri)
}

// MkdirAll implements FileSystem.
func (r *Restricted) MkdirAll(ctx context.Context, uri string, perm fs.FileMode) error {
	if err := r.policy.Check(uri); err != nil {
		return err
	}
	return r.fsys.MkdirAll(ctx, uri, perm)
}

// WriteFile implements FileSystem.
func (r *Restricted) WriteFile(ctx context.Context, uri string, data []byte, perm fs.FileMode) error {
	if err := r.policy.Check(uri); err != nil {
		return err
	}
	return r.fsys.WriteFile(ctx, uri, data, perm)
}

// WriteNew implements FileSystem.
func (r *Restricted) WriteNew(ctx context.Context, uri string, data []byte, perm fs.FileMode) error {
	if err := r.policy.Check(uri); err != nil {
		return err
	}
	return r.fsys.WriteNew(ctx, uri, data, perm)
}

// Create implements FileSystem.
func (r *Restricted) Create(ctx context.Context, uri string) (io.WriteCloser, error) {
	if err := r.policy.Check(uri); err != nil {
		return nil, err
	}
	return r.fsys.Create(ctx, uri)
}

// Open implements FileSystem.
func (r *Restricted) Open(ctx context.Context, uri string) (io.ReadCloser, error) {
	if err := r.policy.Check(uri); err != nil {
		return nil, err
	}
	return r.fsys.Open(ctx, uri)
}

// ReadFile implements FileSystem.
func (r *Restricted) ReadFile(ctx context.Context, uri string) ([]byte, error) {
	if err := r.policy.Check(uri); err != nil {
		return nil, err
	}
	return r.fsys.ReadFile(ctx, uri)
}

// Rename implements FileSystem; both URIs are judged.
func (r *Restricted) Rename(ctx context.Context, from, to string) error {
	if err := r.policy.Check(from); err != nil {
		return err
	}
	if err := r.policy.Check(to); err != nil {
		return err
	}
	return r.fsys.Rename(ctx, from, to)
}

// Remove implements FileSystem.
func (r *Restricted) Remove(ctx context.Context, uri string) error {
	if err := r.policy.Check(uri); err != nil {
		return err
	}
	return r.fsys.Remove(ctx, uri)
}

// RemoveAll implements FileSystem.
func (r *Restricted) RemoveAll(ctx context.Context, uri string) error {
	if err := r.policy.Check(uri); err != nil {
		return err
	}
	return r.fsys.RemoveAll(ctx, uri)
}

// Chmod implements FileSystem.
func (r *Restricted) Chmod(ctx context.Context, uri string, perm fs.FileMode) error {
	if err := r.policy.Check(uri); err != nil {
		return err
	}
	return r.fsys.Chmod(ctx, uri, perm)
}

// Touchz implements FileSystem.
func (r *Restricted) Touchz(ctx context.Context, uri string) error {
	if err := r.policy.Check(uri); err != nil {
		return err
	}
	return r.fsys.Touchz(ctx, uri)
}

// Glob implements FileSystem.
func (r *Restricted) Glob(ctx context.Context, pattern string) ([]string, error) {
	if err := r.policy.Check(pattern); err != nil {
		return nil, err
	}
	return r.fsys.Glob(ctx, pattern)
}
