package hadoop

import (
	"container/list"
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
	"github.com/gozie/gozie/hadoop/ipc"
	krb "github.com/jcmturner/gokrb5/v8/client"
)

// DefaultNameNodePort is the NameNode RPC port assumed when an hdfs:// URI
// names a host without a port (and the host is not an HA nameservice).
const DefaultNameNodePort = "8020"

// DefaultMaxClients is ResolverConfig.MaxClients' default.
const DefaultMaxClients = 64

// ErrNoUser reports an hdfs:// call without an effective user on a
// Resolver with RequireUser.
var ErrNoUser = errors.New("no effective user: the call does not say whose work it does")

// ErrUnsupportedScheme reports a URI whose scheme a SchemePolicy refuses;
// the error returned is a *SchemeError. A scheme the policy allows but no
// FileSystem implements is a *NoFileSystemError instead.
var ErrUnsupportedScheme = errors.New("hadoop: unsupported filesystem scheme")

// ResolverConfig configures a Resolver.
type ResolverConfig struct {
	// DefaultFS is the filesystem for bare paths ("/a/b"), e.g.
	// "hdfs://mycluster" or "file:///". Default: fs.defaultFS (or the old
	// fs.default.name) from Conf, else "file:///".
	DefaultFS string
	// Conf holds the merged Hadoop *-site.xml properties, used for HA
	// nameservices (dfs.ha.namenodes.<ns>, dfs.namenode.rpc-address.<ns>.
	// <nn>), their failover settings (dfs.client.failover.*, see
	// FailoverMaxAttemptsKey) and client options; conf.Hadoop's Map gives
	// them from a configuration directory.
	Conf hadoopconf.HadoopConf
	// User is the HDFS user for SIMPLE authentication: the identity of
	// calls made for no one else, and the real user of proxy connections
	// (calls made for the effective user of their context, see AsUser);
	// default the current OS user.
	User string
	// RequireUser refuses hdfs:// calls whose context names no effective
	// user instead of running them as User, with an error matching
	// ErrNoUser. A server acting for jobs sets it: a code path that forgot
	// whose work it does then fails in tests, rather than acting as the
	// server on a cluster.
	RequireUser bool
	// MaxClients bounds the HDFS clients kept for reuse (one per NameNode
	// set and effective user); idle clients of other users than User beyond
	// it are closed, least recently used first. Default DefaultMaxClients.
	MaxClients int
	// Kerberos, if set, is a logged-in Kerberos client (the server's
	// principal, see hadoop/krblogin) used for every NameNode: SASL GSSAPI
	// with the security layer of Conf's hadoop.rpc.protection (integrity
	// and privacy wrap every packet), the job's user the effective user of
	// a proxy connection. NameNodePrincipal names the NameNode's principal,
	// e.g. "nn/_HOST@REALM", _HOST being the NameNode's host (default
	// dfs.namenode.kerberos.principal).
	Kerberos          *krb.Client
	NameNodePrincipal string
	// Tokens are delegation tokens to authenticate with (TOKEN, SASL
	// DIGEST-MD5 under Conf's hadoop.rpc.protection), as a container's
	// Hadoop client does with the tokens of HADOOP_TOKEN_FILE_LOCATION:
	// the NameNodes of a filesystem for which an HDFS_DELEGATION_TOKEN's
	// service matches (TokenForFilesystem) are reached with it, before
	// Kerberos, and calls act as the token's owner.
	Tokens []Token
	// SimpleRefusedHint is the advice a *SimpleRefusedError gives when a
	// NameNode refuses SIMPLE authentication (neither Kerberos nor Tokens
	// is set and the cluster is Kerberized): what to configure, e.g. the
	// server's settings. Default DefaultSimpleRefusedHint.
	SimpleRefusedHint string
	// Now stamps Touchz; default time.Now.
	Now func() time.Time
}

// Resolver picks a FileSystem by URI scheme and authority, and is itself a
// FileSystem over full URIs: "hdfs://nn:8020/p", "hdfs://nameservice/p",
// "hdfs:///p" (the default NameNode), "file:///p", and bare "/p" (on the
// default filesystem). Any other scheme fails where it is used with a
// *NoFileSystemError, as Hadoop's FileSystem.get does: the Resolver judges
// no scheme, which is a SchemePolicy's to do (see Restrict).
//
// Every hdfs:// call acts for the effective user of its context (AsUser)
// through Hadoop's proxy-user mechanism: the connection context names that
// user as the effective one and User as the real one, and the NameNode
// checks its hadoop.proxyuser.<User>.* rules. Calls without an effective
// user act as User. The Resolver keeps one HDFS client per (NameNode
// addresses, effective user), at most MaxClients of them idle, and closes
// them in Close.
type Resolver struct {
	cfg        ResolverConfig
	protection []ipc.Protection // hadoop.rpc.protection, for KERBEROS connections
	local      *LocalFS
	failover   *failoverPolicy // for the clients of HA nameservices
	tokens     tokenCache      // delegation tokens (DelegationToken)

	mu      sync.Mutex
	clients map[string]*hdfsEntry
	idle    *list.List // idle entries of other users, most recent first
	others  int        // entries of other users than cfg.User
	closed  bool
}

var (
	_ FileSystem = (*Resolver)(nil)
	_ Chowner    = (*Resolver)(nil)
)

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
	if cfg.Kerberos != nil && cfg.Kerberos.Credentials != nil && cfg.Kerberos.Credentials.UserName() != "" {
		// Logged in, the Resolver is its principal's short name (Hadoop's
		// default auth_to_local rule), whatever User says: a job user
		// with the server's OS user's name is still a proxied user.
		cfg.User, _, _ = strings.Cut(cfg.Kerberos.Credentials.UserName(), "/")
	}
	if cfg.User == "" && cfg.Kerberos == nil {
		if cur, err := user.Current(); err == nil {
			cfg.User = cur.Username
		}
	}
	if cfg.NameNodePrincipal == "" {
		cfg.NameNodePrincipal = cfg.Conf["dfs.namenode.kerberos.principal"]
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxClients <= 0 {
		cfg.MaxClients = DefaultMaxClients
	}
	failover, err := newFailoverPolicy(cfg.Conf)
	if err != nil {
		return nil, err
	}
	protection, err := ipc.ParseProtection(cfg.Conf[ipc.RPCProtectionKey])
	if err != nil {
		return nil, fmt.Errorf("hadoop: %w", err)
	}
	r := &Resolver{cfg: cfg, protection: protection, local: &LocalFS{Now: cfg.Now}, failover: failover, clients: map[string]*hdfsEntry{}, idle: list.New()}
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
	scheme := Scheme(uri)
	if scheme == "" {
		return location{}, fmt.Errorf("hadoop: path %q is relative", uri)
	}
	_, rest, _ := strings.Cut(uri, ":")
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
	switch scheme {
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
	return location{}, &NoFileSystemError{Scheme: scheme, URI: uri}
}

// DefaultFS returns the filesystem of paths without a scheme, e.g.
// "hdfs://mycluster" or "file:///".
func (r *Resolver) DefaultFS() string { return r.cfg.DefaultFS }

// Resolve returns the FileSystem for uri and the path on it, acting as the
// Resolver's own user (User), never for another: calls made for a job's
// user go through the Resolver's own methods with a context from AsUser.
// The FileSystem stays usable until Close.
func (r *Resolver) Resolve(uri string) (FileSystem, string, error) {
	loc, err := r.parse(uri)
	if err != nil {
		return nil, "", err
	}
	if loc.scheme == "file" {
		return r.local, loc.path, nil
	}
	h, release, err := r.hdfsFor(loc.authority, "")
	if err != nil {
		return nil, "", err
	}
	release() // the Resolver's own clients are kept until Close
	return h, loc.path, nil
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

// hdfsEntry is one cached HDFS client and the operations using it.
type hdfsEntry struct {
	key  string
	h    *HDFS
	self bool // the Resolver's own user: kept until Close
	refs int  // operations (and open readers and writers) using it
	idle *list.Element
	gone bool // evicted or closed while in use: closed on the last release
}

// hdfsFor returns the client for a NameNode authority acting for user (""
// or User: the Resolver's own identity), held until release is called.
// Clients are cached per (NameNode addresses, user); idle clients of other
// users beyond MaxClients are closed, least recently used first.
func (r *Resolver) hdfsFor(authority, user string) (h *HDFS, release func(), err error) {
	addrs, err := NameNodes(r.cfg.Conf, authority)
	if err != nil {
		return nil, nil, err
	}
	self := user == "" || user == r.cfg.User
	if self {
		user = r.cfg.User
	}
	sorted := append([]string(nil), addrs...)
	sort.Strings(sorted)
	key := strings.Join(sorted, ",") + "|" + user
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, nil, errors.New("hadoop: resolver is closed")
	}
	e, ok := r.clients[key]
	if !ok {
		// Under mu: a NameNode slow to answer delays other first calls,
		// never a call on a client already made.
		h, err := r.connect(authority, addrs, user, self)
		if err != nil {
			return nil, nil, err
		}
		e = &hdfsEntry{key: key, h: h, self: self}
		r.clients[key] = e
		if !self {
			r.others++
		}
	}
	if e.idle != nil {
		r.idle.Remove(e.idle)
		e.idle = nil
	}
	e.refs++
	r.evictLocked()
	var once sync.Once
	return e.h, func() { once.Do(func() { r.release(e) }) }, nil
}

// connect opens a client for user; callers hold mu. A client acting for
// another user than the Resolver's own is a proxy: its connection context
// names the effective user and (SIMPLE) the Resolver's user as the real
// one. Its first call (the server defaults, which writers need anyway)
// makes a NameNode that refuses the proxy say so here.
func (r *Resolver) connect(authority string, addrs []string, user string, self bool) (*HDFS, error) {
	opts := hdfs.ClientOptionsFromConf(r.cfg.Conf)
	opts.Addresses = addrs
	if len(addrs) > 1 {
		opts.Addresses = failoverAddresses(addrs)
	}
	opts.User = user
	// gozie authenticates Kerberos connections itself (see nnConn):
	// colinmarc speaks SIMPLE-style over the authenticated session.
	opts.KerberosClient = nil
	effective, realUser := "", ""
	if !self {
		effective = user
		if r.cfg.Kerberos == nil {
			realUser = r.cfg.User
			opts.User = realUser
		}
	}
	if r.cfg.Kerberos != nil && self {
		// Hadoop's context names the principal itself: no proxy.
		creds := r.cfg.Kerberos.Credentials
		effective = creds.UserName() + "@" + creds.Domain()
		opts.User = effective
	}
	rec := &refusals{}
	dialer := &net.Dialer{}
	token, hasToken := TokenForFilesystem(r.cfg.Tokens, r.cfg.Conf, authority)
	if hasToken {
		owner, err := tokenUser(token, authority, user, self)
		if err != nil {
			return nil, err
		}
		// colinmarc's context is dropped (newTokenNNConn); the name
		// stays its idea of the user.
		opts.User = owner
	}
	opts.NamenodeDialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if hasToken {
			sess, err := ipc.Authenticate(ctx, c, ipc.ClientOptions{Addr: addr, Token: token.IPC(), Protection: r.protection})
			if err != nil {
				c.Close()
				return nil, err
			}
			return newTokenNNConn(c, sess, rec), nil
		}
		if r.cfg.Kerberos == nil {
			nc := newNNConn(c, effective, realUser, rec)
			nc.addr, nc.hint = addr, r.cfg.SimpleRefusedHint
			return nc, nil
		}
		sess, err := ipc.Authenticate(ctx, c, ipc.ClientOptions{
			Addr: addr, Kerberos: r.cfg.Kerberos, ServicePrincipal: r.cfg.NameNodePrincipal, Protection: r.protection,
		})
		if err != nil {
			c.Close()
			return nil, err
		}
		return newSecureNNConn(c, sess, effective, rec), nil
	}
	c, err := hdfs.NewClient(opts)
	if err != nil {
		return nil, fmt.Errorf("hadoop: connecting to hdfs://%s: %w", authority, err)
	}
	h := NewHDFS(c, r.cfg.Now)
	h.rec = rec
	if len(addrs) > 1 {
		h.failover, h.uri = r.failover, "hdfs://"+authority
	}
	if !self {
		if _, err := h.serverDefaults(context.Background()); err != nil {
			c.Close()
			return nil, fmt.Errorf("hadoop: connecting to hdfs://%s as %s: %w", authority, user, err)
		}
	}
	return h, nil
}

// release ends one use of e.
func (r *Resolver) release(e *hdfsEntry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.refs--
	if e.refs > 0 {
		return
	}
	if e.gone {
		e.h.client.Close()
		return
	}
	if !e.self {
		e.idle = r.idle.PushFront(e)
		r.evictLocked()
	}
}

// evictLocked closes idle clients of other users while there are more
// than MaxClients of them; callers hold mu.
func (r *Resolver) evictLocked() {
	for r.others > r.cfg.MaxClients {
		last := r.idle.Back()
		if last == nil {
			return
		}
		e := r.idle.Remove(last).(*hdfsEntry)
		e.idle = nil
		delete(r.clients, e.key)
		r.others--
		e.h.client.Close()
	}
}

// Close closes every cached HDFS client (one still in use closes when its
// operation ends).
func (r *Resolver) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	var errs []error
	for k, e := range r.clients {
		delete(r.clients, k)
		if e.idle != nil {
			r.idle.Remove(e.idle)
			e.idle = nil
		}
		if e.refs > 0 {
			e.gone = true
			continue
		}
		if err := e.h.client.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// acquire returns the filesystem of loc for ctx's effective user and the
// function that ends its use.
func (r *Resolver) acquire(ctx context.Context, loc location) (FileSystem, func(), error) {
	if loc.scheme == "file" {
		return r.local, func() {}, nil
	}
	user := EffectiveUser(ctx)
	if user == "" && r.cfg.RequireUser {
		return nil, nil, fmt.Errorf("hadoop: hdfs://%s%s: %w", loc.authority, loc.path, ErrNoUser)
	}
	h, release, err := r.hdfsFor(loc.authority, user)
	if err != nil {
		return nil, nil, err
	}
	return h, release, nil
}

// on runs op on uri's filesystem for ctx's effective user.
func (r *Resolver) on(ctx context.Context, uri string, op func(fsys FileSystem, p string) error) error {
	loc, err := r.parse(uri)
	if err != nil {
		return err
	}
	fsys, release, err := r.acquire(ctx, loc)
	if err != nil {
		return err
	}
	defer release()
	return op(fsys, loc.path)
}

// Stat implements FileSystem.
func (r *Resolver) Stat(ctx context.Context, uri string) (fi FileInfo, err error) {
	err = r.on(ctx, uri, func(fsys FileSystem, p string) error {
		fi, err = fsys.Stat(ctx, p)
		return err
	})
	return fi, err
}

// ReadDir implements FileSystem.
func (r *Resolver) ReadDir(ctx context.Context, uri string) (fis []FileInfo, err error) {
	err = r.on(ctx, uri, func(fsys FileSystem, p string) error {
		fis, err = fsys.ReadDir(ctx, p)
		return err
	})
	return fis, err
}

// MkdirAll implements FileSystem.
func (r *Resolver) MkdirAll(ctx context.Context, uri string, perm fs.FileMode) error {
	return r.on(ctx, uri, func(fsys FileSystem, p string) error { return fsys.MkdirAll(ctx, p, perm) })
}

// WriteFile implements FileSystem.
func (r *Resolver) WriteFile(ctx context.Context, uri string, data []byte, perm fs.FileMode) error {
	return r.on(ctx, uri, func(fsys FileSystem, p string) error { return fsys.WriteFile(ctx, p, data, perm) })
}

// WriteNew implements FileSystem.
func (r *Resolver) WriteNew(ctx context.Context, uri string, data []byte, perm fs.FileMode) error {
	return r.on(ctx, uri, func(fsys FileSystem, p string) error { return fsys.WriteNew(ctx, p, data, perm) })
}

// Create implements FileSystem. The client stays in use until the writer
// is closed.
func (r *Resolver) Create(ctx context.Context, uri string) (io.WriteCloser, error) {
	loc, err := r.parse(uri)
	if err != nil {
		return nil, err
	}
	fsys, release, err := r.acquire(ctx, loc)
	if err != nil {
		return nil, err
	}
	w, err := fsys.Create(ctx, loc.path)
	if err != nil {
		release()
		return nil, err
	}
	return &releasingWriter{WriteCloser: w, release: release}, nil
}

// Open implements FileSystem. The client stays in use until the reader is
// closed.
func (r *Resolver) Open(ctx context.Context, uri string) (io.ReadCloser, error) {
	loc, err := r.parse(uri)
	if err != nil {
		return nil, err
	}
	fsys, release, err := r.acquire(ctx, loc)
	if err != nil {
		return nil, err
	}
	rc, err := fsys.Open(ctx, loc.path)
	if err != nil {
		release()
		return nil, err
	}
	return &releasingReader{ReadCloser: rc, release: release}, nil
}

// releasingWriter and releasingReader end their client's use on Close.
type releasingWriter struct {
	io.WriteCloser
	release func()
}

func (w *releasingWriter) Close() error {
	defer w.release()
	return w.WriteCloser.Close()
}

type releasingReader struct {
	io.ReadCloser
	release func()
}

func (rr *releasingReader) Close() error {
	defer rr.release()
	return rr.ReadCloser.Close()
}

// ReadFile implements FileSystem.
func (r *Resolver) ReadFile(ctx context.Context, uri string) (b []byte, err error) {
	err = r.on(ctx, uri, func(fsys FileSystem, p string) error {
		b, err = fsys.ReadFile(ctx, p)
		return err
	})
	return b, err
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
	fsys, release, err := r.acquire(ctx, fl)
	if err != nil {
		return err
	}
	defer release()
	return fsys.Rename(ctx, fl.path, tl.path)
}

// Remove implements FileSystem.
func (r *Resolver) Remove(ctx context.Context, uri string) error {
	return r.on(ctx, uri, func(fsys FileSystem, p string) error { return fsys.Remove(ctx, p) })
}

// RemoveAll implements FileSystem.
func (r *Resolver) RemoveAll(ctx context.Context, uri string) error {
	return r.on(ctx, uri, func(fsys FileSystem, p string) error { return fsys.RemoveAll(ctx, p) })
}

// Chmod implements FileSystem.
func (r *Resolver) Chmod(ctx context.Context, uri string, perm fs.FileMode) error {
	return r.on(ctx, uri, func(fsys FileSystem, p string) error { return fsys.Chmod(ctx, p, perm) })
}

// Chown implements Chowner.
func (r *Resolver) Chown(ctx context.Context, uri, owner, group string) error {
	return r.on(ctx, uri, func(fsys FileSystem, p string) error {
		c, ok := fsys.(Chowner)
		if !ok {
			return fmt.Errorf("hadoop: %s: changing owners is not supported", uri)
		}
		return c.Chown(ctx, p, owner, group)
	})
}

// Touchz implements FileSystem.
func (r *Resolver) Touchz(ctx context.Context, uri string) error {
	return r.on(ctx, uri, func(fsys FileSystem, p string) error { return fsys.Touchz(ctx, p) })
}

// Glob implements FileSystem. Matches keep the pattern's spelling: a bare
// pattern yields bare paths, a URI pattern yields URIs.
func (r *Resolver) Glob(ctx context.Context, pattern string) ([]string, error) {
	loc, err := r.parse(pattern)
	if err != nil {
		return nil, err
	}
	fsys, release, err := r.acquire(ctx, loc)
	if err != nil {
		return nil, err
	}
	defer release()
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
