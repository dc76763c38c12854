package minidfs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/user"
	"sync"
	"time"

	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/internal/portpick"
	"github.com/gozie/gozie/testenv/internal/ugi"
)

// Defaults of Options.
const (
	// DefaultBlockSize is HDFS's default block size, 128 MiB.
	DefaultBlockSize = 128 << 20
	// DefaultGroup is the supergroup (dfs.permissions.superusergroup's
	// default) and the group of files that appeared on disk.
	DefaultGroup = "supergroup"
	// bytesPerChecksum is the chunk size of CRC32C checksums.
	bytesPerChecksum = 512
	// listingLimit is how many entries one getListing page holds (HDFS's
	// dfs.ls.limit default).
	listingLimit = 1000
	// leaseSoftLimit is how long a silent writer keeps its lease before
	// another client may take the file over.
	leaseSoftLimit = 60 * time.Second
)

// Configuration keys the NameNode reads from Options.Conf (besides the
// hadoop.proxyuser.* rules and hadoop.user.group.static.mapping.overrides).
const (
	// PermissionsEnabledKey is dfs.permissions.enabled (default true).
	PermissionsEnabledKey = "dfs.permissions.enabled"
	// SupergroupKey is dfs.permissions.superusergroup (default
	// DefaultGroup): its members are superusers.
	SupergroupKey = "dfs.permissions.superusergroup"
)

// Options configures a MiniDFS.
type Options struct {
	// Root is the local directory that holds the namespace; it must exist.
	Root string
	// BlockSize is the block size offered to writers and used to cut files
	// into blocks for readers; default DefaultBlockSize. It must be a
	// multiple of 512.
	BlockSize int64
	// Superuser is the NameNode's superuser, the user that started it
	// (FSNamesystem's fsOwner): it passes every permission check, as do
	// the members of the supergroup. Default the current OS user.
	Superuser string
	// Owner owns files that appeared on disk (not created through MiniDFS)
	// outside /user/<u> (those are <u>'s); default Superuser.
	Owner string
	// Group is the group of files that appeared on disk; default
	// DefaultGroup.
	Group string
	// Conf holds the core-site.xml and hdfs-site.xml properties the
	// NameNode reads: dfs.permissions.enabled, dfs.permissions.superusergroup,
	// hadoop.user.group.static.mapping.overrides and the proxy-user rules
	// hadoop.proxyuser.<user>.users|groups|hosts. Without rules nobody may
	// act for another user. hadoop.rpc.protection (authentication,
	// integrity, privacy, or a list; default authentication) sets what the
	// NameNode offers and requires on SASL connections, TOKEN and
	// KERBEROS (GSSAPI security layers) alike.
	Conf map[string]string
	// CreateHomes gives every user a home at their first call, as an
	// administrator creates /user/<u> for each user of a real cluster: a
	// missing /user/<u> is created owned by <u> (gozie server -local).
	CreateHomes bool
	// Kerberos, if set, makes the NameNode a secure one, as with
	// hadoop.security.authentication=kerberos: SIMPLE is refused, clients
	// authenticate with Kerberos (GSSAPI SASL with this service key) or
	// with a delegation token (TOKEN, DIGEST-MD5, offered first), and
	// getDelegationToken issues HDFS_DELEGATION_TOKENs to Kerberos callers.
	Kerberos *ipc.KerberosOptions
	// WebKerberos, with Kerberos, lets WebHDFS take SPNEGO (and the
	// delegation tokens of its redirects); without it a Kerberized
	// MiniDFS's WebHDFS refuses every request with the 401 challenge.
	WebKerberos *WebKerberosOptions
	// TokenRenewInterval is how long a delegation token lives unless
	// renewed (dfs.namenode.delegation.token.renew-interval); default
	// DefaultTokenRenewInterval.
	TokenRenewInterval time.Duration
	// TokenMaxLifetime is how long a delegation token can be renewed for
	// (dfs.namenode.delegation.token.max-lifetime); default
	// DefaultTokenMaxLifetime.
	TokenMaxLifetime time.Duration
	// HA makes the cluster an HA pair: two NameNodes, nn1 and nn2, serving
	// one namespace (one set of owners, leases and blocks), each with its
	// own HA state; nn1 starts active and nn2 standby. Clients reach them
	// through the nameservice (URI, ClientConf), and Failover switches
	// them. Both take the same Conf, Kerberos and hadoop.rpc.protection.
	HA bool
	// Nameservice is the HA pair's nameservice id, the authority of URI;
	// default DefaultNameservice. Without HA it is not used.
	Nameservice string
	// NameNodeAddrs are the listen addresses (host:port) of the NameNodes,
	// one per NameNode (nn1 then nn2 with HA); empty, or an empty entry,
	// means a random 127.0.0.1 port. A port already taken fails Start,
	// naming it. Clients are given the configured host with the bound
	// port (127.0.0.1 for an unspecified host).
	NameNodeAddrs []string
	// DataNodeAddr is the DataNode's data-transfer listen address
	// (host:port); empty means a random 127.0.0.1 port.
	DataNodeAddr string
	// NameNodeHTTPAddrs are the NameNodes' HTTP listen addresses
	// (dfs.namenode.http-address), where WebHDFS is served, one per
	// NameNode like NameNodeAddrs; empty means random 127.0.0.1 ports.
	NameNodeHTTPAddrs []string
	// DataNodeHTTPAddr is the DataNode's HTTP listen address (its info
	// port, where WebHDFS redirects reads and writes); empty means a
	// random 127.0.0.1 port.
	DataNodeHTTPAddr string
	// Now returns the current time for lease bookkeeping; default time.Now.
	Now func() time.Time
	// Logger receives diagnostics; default a logger that discards.
	Logger *slog.Logger
}

// ProxyUserConf returns the hadoop.proxyuser.* properties (for Options.Conf)
// that let each of users act for any user from the loopback host, as a
// cluster's administrator configures them for gozie (or Oozie) in
// core-site.xml: hosts 127.0.0.1,localhost, groups * and users *.
func ProxyUserConf(users ...string) map[string]string {
	conf := map[string]string{}
	for _, u := range users {
		conf["hadoop.proxyuser."+u+".hosts"] = "127.0.0.1,localhost"
		conf["hadoop.proxyuser."+u+".groups"] = "*"
		conf["hadoop.proxyuser."+u+".users"] = "*"
	}
	return conf
}

// MiniDFS is a running cluster: one NameNode, or an HA pair of them (one
// namespace, two IPC servers), and one DataNode that serves them all.
type MiniDFS struct {
	opts Options
	root *os.Root
	nn   *namenode  // the namespace, shared by every NameNode
	nns  []nameNode // nn1 (and nn2 with HA)
	ha   *haState
	dn   *datanode
	// proxies are the hadoop.proxyuser rules, for IPC and web callers.
	proxies *ugi.ProxyUsers
	nnWeb   []*webServer // each NameNode's HTTP server (WebHDFS)
	dnWeb   *webServer   // the DataNode's HTTP server

	closeOnce sync.Once
}

// Start opens Root and starts the NameNode(s) and the DataNode.
func Start(ctx context.Context, opts Options) (*MiniDFS, error) {
	if opts.Root == "" {
		return nil, errors.New("minidfs: Options.Root is required")
	}
	if opts.BlockSize == 0 {
		opts.BlockSize = DefaultBlockSize
	}
	if opts.BlockSize < 0 || opts.BlockSize%bytesPerChecksum != 0 {
		return nil, fmt.Errorf("minidfs: BlockSize %d is not a positive multiple of %d", opts.BlockSize, bytesPerChecksum)
	}
	if err := checkHA(&opts); err != nil {
		return nil, err
	}
	if opts.Superuser == "" {
		opts.Superuser = "hdfs"
		if u, err := user.Current(); err == nil && u.Username != "" {
			opts.Superuser = u.Username
		}
	}
	if opts.Owner == "" {
		opts.Owner = opts.Superuser
	}
	if opts.Group == "" {
		opts.Group = DefaultGroup
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.TokenRenewInterval <= 0 {
		opts.TokenRenewInterval = DefaultTokenRenewInterval
	}
	if opts.TokenMaxLifetime <= 0 {
		opts.TokenMaxLifetime = DefaultTokenMaxLifetime
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	// hadoop.rpc.protection, as the NameNode's IPC server reads it: what
	// SASL connections are offered and must meet (SIMPLE ones have no SASL).
	protection, err := ipc.ParseProtection(opts.Conf[ipc.RPCProtectionKey])
	if err != nil {
		return nil, fmt.Errorf("minidfs: %w", err)
	}
	root, err := os.OpenRoot(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("minidfs: opening root: %w", err)
	}
	// A formatted namespace's root is drwxr-xr-x; a private directory
	// (t.TempDir) would lock everyone but the superuser out.
	if fi, err := root.Stat("."); err == nil && fi.Mode().Perm()&0o005 == 0 {
		if err := root.Chmod(".", fi.Mode().Perm()|0o755); err != nil {
			root.Close()
			return nil, fmt.Errorf("minidfs: opening root: %w", err)
		}
	}
	uuid := make([]byte, 16)
	if _, err := rand.Read(uuid); err != nil {
		root.Close()
		return nil, fmt.Errorf("minidfs: datanode uuid: %w", err)
	}
	m := &MiniDFS{opts: opts, root: root}
	m.dn, err = startDatanode(ctx, root, opts.DataNodeAddr, opts.Logger)
	if err != nil {
		root.Close()
		return nil, err
	}
	m.nn = newNamenode(opts, root, m.dn, hex.EncodeToString(uuid))
	m.dn.blocks = m.nn.blocks

	m.proxies = ugi.NewProxyUsers(opts.Conf, m.nn.groups)
	so := ipc.ServerOptions{Logger: opts.Logger, Protection: protection, Proxy: func(real, user string, remote net.Addr) error {
		return m.proxies.Authorize(real, user, ugi.HostOf(remote.String()))
	}}
	if opts.Kerberos != nil {
		// A secure NameNode offers TOKEN, then KERBEROS
		// (Server.getAuthMethods: the secret manager's method first).
		so.Kerberos, so.Token = opts.Kerberos, m.nn.tokens.lookup
	} else {
		so.Simple = true
	}
	if err := m.startNameNodes(ctx, so); err != nil {
		m.Close()
		return nil, err
	}
	if err := m.startWeb(ctx); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

// startNameNodes starts one IPC server per NameNode over the one
// namespace, each answering by its own HA state.
func (m *MiniDFS) startNameNodes(ctx context.Context, so ipc.ServerOptions) error {
	ids := []string{""}
	if m.opts.HA {
		ids = nameNodeIDs
	}
	m.ha = newHAState(len(ids))
	for i, id := range ids {
		listen := loopback
		if i < len(m.opts.NameNodeAddrs) && m.opts.NameNodeAddrs[i] != "" {
			listen = m.opts.NameNodeAddrs[i]
		}
		name := "NameNode"
		if id != "" {
			name += " " + id
		}
		l, err := portpick.Listen(ctx, listen)
		if err != nil {
			return fmt.Errorf("minidfs: starting %s: %w", name, err)
		}
		so.Addr, so.Listener = listen, l
		srv := ipc.NewServer(so)
		m.nn.register(srv, m.ha, i, id)
		if err := srv.Start(ctx); err != nil {
			l.Close()
			return fmt.Errorf("minidfs: starting %s: %w", name, err)
		}
		m.nns = append(m.nns, nameNode{id: id, srv: srv, addr: advertised(listen, srv.Addr())})
	}
	return nil
}

// Addr returns the active NameNode's host:port (nn1's while none is).
func (m *MiniDFS) Addr() string {
	if i := m.ActiveNameNode(); i >= 0 {
		return m.nns[i].addr
	}
	return m.nns[0].addr
}

// URI returns the value for fs.defaultFS: hdfs://<nameservice> for an HA
// pair, a name only ClientConf maps to the NameNodes, and
// hdfs://<host>:<port> of the NameNode otherwise.
func (m *MiniDFS) URI() string {
	if m.opts.HA {
		return "hdfs://" + m.opts.Nameservice
	}
	return "hdfs://" + m.Addr()
}

// Nameservice returns the HA pair's nameservice id ("" without HA).
func (m *MiniDFS) Nameservice() string {
	if !m.opts.HA {
		return ""
	}
	return m.opts.Nameservice
}

// Root returns the local directory backing the namespace.
func (m *MiniDFS) Root() string { return m.opts.Root }

// DataNodeAddr returns the DataNode's data-transfer host:port.
func (m *MiniDFS) DataNodeAddr() string { return m.dn.addr() }

// CreateHome makes /user/<u> a home owned by user (and /user if missing),
// as a cluster's administrator does for each user; an existing /user/<u>
// is given to user.
func (m *MiniDFS) CreateHome(user string) error {
	m.nn.mu.Lock()
	defer m.nn.mu.Unlock()
	return m.nn.createHome(user)
}

// Close stops every server and releases the root. It is idempotent.
func (m *MiniDFS) Close() error {
	m.closeOnce.Do(func() {
		for _, n := range m.nns {
			n.srv.Close()
		}
		for _, s := range m.nnWeb {
			s.close()
		}
		m.dnWeb.close()
		m.dn.close()
		m.root.Close()
	})
	return nil
}

// loopback is the default listen address of every server: a random
// 127.0.0.1 port.
const loopback = "127.0.0.1:0"
