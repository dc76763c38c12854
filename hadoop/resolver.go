package hadoop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os/user"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/colinmarc/hdfs/v2/hadoopconf"
	krb "github.com/jcmturner/gokrb5/v8/client"
)

// DefaultNameNodePort is the NameNode RPC port assumed when an hdfs:// URI
// names a host without a port (and the host is not an HA nameservice).
const DefaultNameNodePort = "8020"

// ErrUnsupportedScheme reports a URI whose scheme has no FileSystem.
var ErrUnsupportedScheme = errors.New("hadoop: unsupported filesystem scheme")

// ResolverConfig configures a Resolver.
type ResolverConfig struct {
	// DefaultFS is the filesystem for bare paths ("/a/b"), e.g.
	// "hdfs://mycluster" or "file:///". Default: fs.defaultFS (or the old
	// fs.default.name) from Conf, else "file:///".
	DefaultFS string
	// Conf holds the merged Hadoop *-site.xml properties, used for HA
	// nameservices and client options (see LoadHadoopConf).
	Conf hadoopconf.HadoopConf
	// User is the HDFS user for SIMPLE authentication; default the current
	// OS user.
	User string
	// Kerberos, if set, is a logged-in Kerberos client used for every
	// NameNode (SASL GSSAPI); NameNodePrincipal then names the service,
	// e.g. "nn/_HOST" (default from dfs.namenode.kerberos.principal).
	Kerberos          *krb.Client
	NameNodePrincipal string
	// Now stamps Touchz; default time.Now.
	Now func() time.Time
}

// Resolver picks a FileSystem by URI scheme and authority, and is itself a
// FileSystem over full URIs: "hdfs://nn:8020/p", "hdfs://nameservice/p",
// "hdfs:///p" (the default NameNode), "file:///p", and bare "/p" (on the
// default filesystem). It keeps one HDFS client per (NameNode addresses,
// user) and closes them in Close.
type Resolver struct {
	cfg   ResolverConfig
	local *LocalFS

	mu      sync.Mutex
	clients map[string]*HDFS
	closed  bool
}

var _ FileSystem = (*Resolver)(nil)

// LoadHadoopConf reads core-site.xml, hdfs-site.xml and mapred-site.xml
// from $HADOOP_CONF_DIR (or $HADOOP_HOME/conf); it returns an empty
// configuration when neither is set.
func LoadHadoopConf() (hadoopconf.HadoopConf, error) {
	conf, err := hadoopconf.LoadFromEnvironment()
	if err != nil {
		return nil, fmt.Errorf("hadoop: loading configuration: %w", err)
	}
	if conf == nil {
		conf = hadoopconf.HadoopConf{}
	}
	return conf, nil
}

// NewResolver returns a Resolver; HDFS connections are made lazily.
func NewResolver(cfg ResolverConfig) (*Resolver, error) {
	if cfg.DefaultFS == "" {
		cfg.DefaultFS = cfg.Conf["fs.defaultFS"]
	}
	if cfg.DefaultFS == "" {
		cfg.DefaultFS = cfg.Conf["fs.default.name"]
	}
	if cfg.DefaultFS == "" {
		cfg.DefaultFS = "file:///"
	}
	if strings.HasPrefix(cfg.DefaultFS, "/") {
		return nil, fmt.Errorf("hadoop: default filesystem %q must be a URI", cfg.DefaultFS)
	}
	if cfg.User == "" && cfg.Kerberos == nil {
		if cur, err := user.Current(); err == nil {
			cfg.User = cur.Username
		}
	}
	if cfg.NameNodePrincipal == "" {
		cfg.NameNodePrincipal = strings.Split(cfg.Conf["dfs.namenode.kerberos.principal"], "@")[0]
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	r := &Resolver{cfg: cfg, local: &LocalFS{Now: cfg.Now}, clients: map[string]*HDFS{}}
	if _, err := r.parse(cfg.DefaultFS); err != nil {
		return nil, fmt.Errorf("hadoop: default filesystem: %w", err)
	}
	return r, nil
}

// location is a parsed URI: which filesystem and which path on it.
type location struct {
	scheme    string // "hdfs" or "file"
	authority string // hdfs only
	path      string
}

// prefix renders the scheme and authority the way paths are returned.
func (l location) prefix() string {
	if l.scheme == "file" {
		return "file://"
	}
	return "hdfs://" + l.authority
}

// parse splits a URI or bare path into a location. It does not use
// net/url: glob characters such as ? and { and literal % must stay part of
// the path.
func (r *Resolver) parse(uri string) (location, error) {
	if strings.HasPrefix(uri, "/") {
		return r.parse(strings.TrimSuffix(r.cfg.DefaultFS, "/") + uri)
	}
	scheme, rest, ok := strings.Cut(uri, ":")
	if !ok || scheme == "" || strings.Contains(scheme, "/") {
		return location{}, fmt.Errorf("hadoop: path %q is relative", uri)
	}
	var authority, p string
	if after, found := strings.CutPrefix(rest, "//"); found {
		authority, p = after, ""
		if i := strings.IndexByte(after, '/'); i >= 0 {
			authority, p = after[:i], after[i:]
		}
	} else {
		p = rest // file:/tmp/x
	}
	if p == "" {
		p = "/"
	}
	if !strings.HasPrefix(p, "/") {
		return location{}, fmt.Errorf("hadoop: bad path %q", uri)
	}
	switch strings.ToLower(scheme) {
	case "file":
		if authority != "" && authority != "localhost" {
			return location{}, fmt.Errorf("hadoop: file URI %q names a remote host", uri)
		}
		return location{scheme: "file", path: p}, nil
	case "hdfs":
		if authority == "" {
			if uri == r.cfg.DefaultFS {
				return location{}, fmt.Errorf("hadoop: default filesystem %q names no NameNode", uri)
			}
			def, err := r.parse(r.cfg.DefaultFS)
			if err != nil || def.scheme != "hdfs" {
				return location{}, fmt.Errorf("hadoop: %q names no NameNode and the default filesystem is not HDFS", uri)
			}
			authority = def.authority
		}
		return location{scheme: "hdfs", authority: authority, path: p}, nil
	}
	return location{}, fmt.Errorf("%w: %q", ErrUnsupportedScheme, uri)
}

// Resolve returns the FileSystem for uri and the path on it.
func (r *Resolver) Resolve(uri string) (FileSystem, string, error) {
	loc, err := r.parse(uri)
	if err != nil {
		return nil, "", err
	}
	fsys, err := r.fileSystem(loc)
	if err != nil {
		return nil, "", err
	}
	return fsys, loc.path, nil
}

func (r *Resolver) fileSystem(loc location) (FileSystem, error) {
	if loc.scheme == "file" {
		return r.local, nil
	}
	return r.hdfsFor(loc.authority)
}

// NameNodes returns the NameNode RPC addresses of an hdfs:// authority:
// the host:port itself, or the members of an HA nameservice
// (dfs.ha.namenodes.<ns> and dfs.namenode.rpc-address.<ns>.<nn>), or the
// host on DefaultNameNodePort.
func NameNodes(conf hadoopconf.HadoopConf, authority string) ([]string, error) {
	if _, _, err := net.SplitHostPort(authority); err == nil {
		return []string{authority}, nil
	}
	if ids := conf["dfs.ha.namenodes."+authority]; ids != "" {
		var addrs []string
		for _, id := range strings.Split(ids, ",") {
			id = strings.TrimSpace(id)
			if id == "" {
				continue
			}
			addr := conf["dfs.namenode.rpc-address."+authority+"."+id]
			if addr == "" {
				return nil, fmt.Errorf("hadoop: nameservice %s: no dfs.namenode.rpc-address.%s.%s", authority, authority, id)
			}
			addrs = append(addrs, addr)
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("hadoop: nameservice %s lists no NameNodes", authority)
		}
		return addrs, nil
	}
	if addr := conf["dfs.namenode.rpc-address."+authority]; addr != "" {
		return []string{addr}, nil
	}
	return []string{net.JoinHostPort(authority, DefaultNameNodePort)}, nil
}

// hdfsFor returns the cached client for a NameNode authority.
func (r *Resolver) hdfsFor(authority string) (*HDFS, error) {
	addrs, err := NameNodes(r.cfg.Conf, authority)
	if err != nil {
		return nil, err
	}
	sorted := append([]string(nil), addrs...)
	sort.Strings(sorted)
	key := strings.Join(sorted, ",") + "|" + r.cfg.User
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, errors.New("hadoop: resolver is closed")
	}
	if h, ok := r.clients[key]; ok {
		return h, nil
	}
	opts := hdfs.ClientOptionsFromConf(r.cfg.Conf)
	opts.Addresses = addrs
	opts.User = r.cfg.User
	opts.KerberosClient = r.cfg.Kerberos
	if r.cfg.Kerberos != nil {
		opts.KerberosServicePrincipleName = r.cfg.NameNodePrincipal
	}
	c, err := hdfs.NewClient(opts)
	if err != nil {
		return nil, fmt.Errorf("hadoop: connecting to hdfs://%s: %w", authority, err)
	}
	h := NewHDFS(c, r.cfg.Now)
	r.clients[key] = h
	return h, nil
}

// Close closes every cached HDFS client.
func (r *Resolver) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	var errs []error
	for k, h := range r.clients {
		if err := h.client.Close(); err != nil {
			errs = append(errs, err)
		}
		delete(r.clients, k)
	}
	return errors.Join(errs...)
}

// Stat implements FileSystem.
func (r *Resolver) Stat(ctx context.Context, uri string) (FileInfo, error) {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return FileInfo{}, err
	}
	return fsys.Stat(ctx, p)
}

// ReadDir implements FileSystem.
func (r *Resolver) ReadDir(ctx context.Context, uri string) ([]FileInfo, error) {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return nil, err
	}
	return fsys.ReadDir(ctx, p)
}

// MkdirAll implements FileSystem.
func (r *Resolver) MkdirAll(ctx context.Context, uri string, perm fs.FileMode) error {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return err
	}
	return fsys.MkdirAll(ctx, p, perm)
}

// WriteFile implements FileSystem.
func (r *Resolver) WriteFile(ctx context.Context, uri string, data []byte, perm fs.FileMode) error {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return err
	}
	return fsys.WriteFile(ctx, p, data, perm)
}

// Create implements FileSystem.
func (r *Resolver) Create(ctx context.Context, uri string) (io.WriteCloser, error) {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return nil, err
	}
	return fsys.Create(ctx, p)
}

// Open implements FileSystem.
func (r *Resolver) Open(ctx context.Context, uri string) (io.ReadCloser, error) {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return nil, err
	}
	return fsys.Open(ctx, p)
}

// ReadFile implements FileSystem.
func (r *Resolver) ReadFile(ctx context.Context, uri string) ([]byte, error) {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return nil, err
	}
	return fsys.ReadFile(ctx, p)
}

// Rename implements FileSystem. Both URIs must be on the same filesystem.
func (r *Resolver) Rename(ctx context.Context, from, to string) error {
	fl, err := r.parse(from)
	if err != nil {
		return err
	}
	tl, err := r.parse(to)
	if err != nil {
		return err
	}
	if fl.scheme != tl.scheme || fl.authority != tl.authority {
		return fmt.Errorf("hadoop: cannot rename %s to %s: different filesystems", from, to)
	}
	fsys, err := r.fileSystem(fl)
	if err != nil {
		return err
	}
	return fsys.Rename(ctx, fl.path, tl.path)
}

// Remove implements FileSystem.
func (r *Resolver) Remove(ctx context.Context, uri string) error {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return err
	}
	return fsys.Remove(ctx, p)
}

// RemoveAll implements FileSystem.
func (r *Resolver) RemoveAll(ctx context.Context, uri string) error {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return err
	}
	return fsys.RemoveAll(ctx, p)
}

// Chmod implements FileSystem.
func (r *Resolver) Chmod(ctx context.Context, uri string, perm fs.FileMode) error {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return err
	}
	return fsys.Chmod(ctx, p, perm)
}

// Touchz implements FileSystem.
func (r *Resolver) Touchz(ctx context.Context, uri string) error {
	fsys, p, err := r.Resolve(uri)
	if err != nil {
		return err
	}
	return fsys.Touchz(ctx, p)
}

// Glob implements FileSystem. Matches keep the pattern's spelling: a bare
// pattern yields bare paths, a URI pattern yields URIs.
func (r *Resolver) Glob(ctx context.Context, pattern string) ([]string, error) {
	loc, err := r.parse(pattern)
	if err != nil {
		return nil, err
	}
	fsys, err := r.fileSystem(loc)
	if err != nil {
		return nil, err
	}
	matches, err := fsys.Glob(ctx, loc.path)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(pattern, "/") {
		return matches, nil
	}
	prefix := loc.prefix()
	for i, m := range matches {
		matches[i] = prefix + m
	}
	return matches, nil
}
