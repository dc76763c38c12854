package minihs2

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/gozie/gozie/testenv/internal/portpick"
	"github.com/gozie/gozie/testenv/internal/ugi"
)

// The metastore's Thrift facts (ThriftHiveMetastore in Hive's
// hive_metastore.thrift).
const (
	// MetastoreGetDelegationToken is the token method a Kerberized
	// stand-in serves (the catalog methods are in metastore_catalog.go):
	// string get_delegation_token(1:string token_owner,
	// 2:string renewer_kerberos_principal_name) throws (1:MetaException o1).
	MetastoreGetDelegationToken = "get_delegation_token"
)

// MetastoreOptions configures StartMetastore.
type MetastoreOptions struct {
	// Kerberos is the metastore's principal and keytab
	// (hive.metastore.kerberos.principal, .keytab.file): a Kerberized
	// metastore (hive.metastore.sasl.enabled), SASL GSSAPI only. Without
	// it the metastore takes plain Thrift binary connections, whose user
	// is the one set_ugi names (hive.metastore.execute.setugi).
	Kerberos *KerberosOptions
	// Hive is the HiveServer2 whose catalog the metastore serves: its
	// tables, partitions and notification log (metastore_catalog.go). A
	// metastore needs Hive, Kerberos or both; with Kerberos only it
	// serves get_delegation_token alone.
	Hive *Server
	// HadoopConf holds the core-site hadoop.proxyuser rules deciding which
	// principals may get tokens for other users.
	HadoopConf map[string]string
	// TokenMaxLifetime and TokenRenewInterval bound the tokens
	// (hive.cluster.delegation.token.max-lifetime, default 7 days, and
	// .renew-interval, default 1 day).
	TokenMaxLifetime, TokenRenewInterval time.Duration
	// Addr is the host:port to listen on; empty means a free loopback
	// port.
	Addr string
	// Now is the clock of token issue dates; default time.Now.
	Now func() time.Time
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

func (o *MetastoreOptions) setDefaults() error {
	if o.Kerberos != nil && (o.Kerberos.Keytab == nil || o.Kerberos.Principal == "") {
		return errors.New("minihs2: the metastore's MetastoreOptions.Kerberos needs a keytab and a principal")
	}
	if o.Kerberos == nil && o.Hive == nil {
		return errors.New("minihs2: the metastore needs MetastoreOptions.Kerberos (a token service) or MetastoreOptions.Hive (a catalog)")
	}
	if o.TokenMaxLifetime <= 0 {
		o.TokenMaxLifetime = 7 * 24 * time.Hour
	}
	if o.TokenRenewInterval <= 0 {
		o.TokenRenewInterval = 24 * time.Hour
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return nil
}

// Metastore is a running Hive metastore stand-in: the Thrift binary
// protocol, behind SASL GSSAPI when Kerberized. A Kerberized one serves
// get_delegation_token, which is what an hcat credential asks of it; one
// over a HiveServer2's catalog serves the catalog methods of
// metastore_catalog.go. Every other method is answered with a
// TApplicationException UNKNOWN_METHOD, as a server answers a name it does
// not know.
//
// Its tokens are HIVE_DELEGATION_TOKENs of its own secret manager, with no
// service, as a metastore's are (the client's
// hive.metastore.token.signature names them); they are not valid at
// MiniHS2, as with Hive's default MemoryTokenStore, where the two servers
// share no token store.
type Metastore struct {
	opts       MetastoreOptions
	tokens     *tokenStore
	proxyUsers *ugi.ProxyUsers
	ln         net.Listener
	ctx        context.Context
	cancel     context.CancelFunc
	wg         sync.WaitGroup

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
	calls  callLog // catalog calls served (metastore_catalog.go)
}

// StartMetastore starts a metastore stand-in.
func StartMetastore(ctx context.Context, opts MetastoreOptions) (*Metastore, error) {
	if err := opts.setDefaults(); err != nil {
		return nil, err
	}
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := portpick.Listen(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("minihs2: metastore listening: %w", err)
	}
	m := &Metastore{opts: opts, ln: ln, conns: map[net.Conn]struct{}{},
		tokens:     newTokenStore(opts.TokenMaxLifetime, opts.TokenRenewInterval),
		proxyUsers: ugi.NewProxyUsers(opts.HadoopConf, ugi.NewGroups(opts.HadoopConf))}
	m.tokens.service = ""
	m.ctx, m.cancel = context.WithCancel(context.Background())
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		m.serve()
	}()
	if opts.Hive != nil {
		opts.Hive.cat.log.setServer(m.URI())
	}
	opts.Logger.Debug("minihs2 metastore started", "addr", ln.Addr().String())
	return m, nil
}

// Addr returns the metastore's host:port, keeping a host name of
// MetastoreOptions.Addr as Server.Addr does.
func (m *Metastore) Addr() string {
	host, _, err := net.SplitHostPort(m.opts.Addr)
	if err != nil || host == "" || net.ParseIP(host) != nil {
		return m.ln.Addr().String()
	}
	_, port, _ := net.SplitHostPort(m.ln.Addr().String())
	return net.JoinHostPort(host, port)
}

// URI returns the metastore's thrift:// URI (hive.metastore.uris,
// hcat.metastore.uri).
func (m *Metastore) URI() string { return "thrift://" + m.Addr() }

// Principal returns the metastore's Kerberos principal, "" without
// Kerberos.
func (m *Metastore) Principal() string {
	if m.opts.Kerberos == nil {
		return ""
	}
	return m.opts.Kerberos.Principal
}

// Close stops the metastore and closes its connections.
func (m *Metastore) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	conns := slices.Collect(maps.Keys(m.conns))
	m.mu.Unlock()
	err := m.ln.Close()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	for _, c := range conns {
		c.Close()
	}
	m.cancel()
	m.wg.Wait()
	return err
}

func (m *Metastore) serve() {
	for {
		nc, err := m.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				m.opts.Logger.Debug("minihs2 metastore accept failed", "err", err)
			}
			return
		}
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			nc.Close()
			return
		}
		m.conns[nc] = struct{}{}
		m.wg.Add(1)
		m.mu.Unlock()
		go m.serveConn(nc)
	}
}

// serveConn runs one connection: the SASL handshake, GSSAPI only (the
// stand-in issues tokens and takes none back), then framed Thrift calls
// until the client closes.
func (m *Metastore) serveConn(nc net.Conn) {
	defer func() {
		nc.Close()
		m.mu.Lock()
		delete(m.conns, nc)
		m.mu.Unlock()
		m.wg.Done()
	}()
	remote := nc.RemoteAddr().String()
	mc := &metaConn{remote: remote}
	var trans thrift.TTransport
	if m.opts.Kerberos == nil {
		// No SASL: the binary protocol straight on the socket.
		trans = thrift.NewTBufferedTransport(thrift.NewTSocketFromConnConf(nc, thriftConf), 4096)
	} else {
		nc.SetDeadline(time.Now().Add(saslHandshakeTimeout))
		caller, err := negotiateSASL(nc, func(name string) saslMechanism {
			if name != gssapiMechanism {
				return nil
			}
			return &gssapiSASL{acc: &gssAcceptor{kt: m.opts.Kerberos.Keytab}, remote: remote}
		})
		if err != nil {
			m.opts.Logger.Debug("minihs2 metastore SASL handshake failed", "err", err)
			return
		}
		nc.SetDeadline(time.Time{})
		mc.caller, mc.kerberos = caller, true
		trans = thrift.NewTFramedTransportConf(thrift.NewTSocketFromConnConf(nc, thriftConf), thriftConf)
	}
	prot := thrift.NewTBinaryProtocolConf(trans, thriftConf)
	for {
		if err := m.serveCall(m.ctx, prot, mc); err != nil {
			m.opts.Logger.Debug("minihs2 metastore connection ends", "err", err)
			return
		}
	}
}

// serveCall reads one call and writes its reply: get_delegation_token's
// result, or UNKNOWN_METHOD for any other name (TBaseProcessor's
// "Invalid method name").
func (m *Metastore) serveCall(ctx context.Context, prot thrift.TProtocol, mc *metaConn) error {
	name, _, seq, err := prot.ReadMessageBegin(ctx)
	if err != nil {
		return err
	}
	if h, ok := catalogMethods[name]; ok && m.opts.Hive != nil {
		return m.serveCatalogCall(ctx, prot, mc, name, seq, h) // metastore_catalog.go
	}
	if name != MetastoreGetDelegationToken || !mc.kerberos {
		if err := prot.Skip(ctx, thrift.STRUCT); err != nil {
			return err
		}
		if err := prot.ReadMessageEnd(ctx); err != nil {
			return err
		}
		x := thrift.NewTApplicationException(thrift.UNKNOWN_METHOD, "Invalid method name: '"+name+"'")
		if err := prot.WriteMessageBegin(ctx, name, thrift.EXCEPTION, seq); err != nil {
			return err
		}
		if err := x.Write(ctx, prot); err != nil {
			return err
		}
		if err := prot.WriteMessageEnd(ctx); err != nil {
			return err
		}
		return prot.Flush(ctx)
	}
	owner, renewer, err := readTokenArgs(ctx, prot)
	if err != nil {
		return err
	}
	tok, failure := m.getDelegationToken(mc.caller, owner, renewer, mc.remote)
	return writeTokenResult(ctx, prot, seq, tok, failure)
}

// getDelegationToken issues a token for owner, renewable by renewer, to
// a Kerberos caller (MetastoreDelegationTokenManager.getDelegationToken):
// a caller whose short name is not owner's must be allowed by the
// hadoop.proxyuser rules to act for owner from its address. It returns
// the token, or the MetaException's message.
func (m *Metastore) getDelegationToken(caller, owner, renewer, remote string) (string, string) {
	if ugi.ShortName(owner) != ugi.ShortName(caller) {
		if err := m.proxyUsers.Authorize(caller, owner, ugi.HostOf(remote)); err != nil {
			return "", err.Error()
		}
	}
	return m.tokens.issue(owner, renewer, caller, m.opts.Now()), ""
}

// readTokenArgs reads get_delegation_token_args.
func readTokenArgs(ctx context.Context, prot thrift.TProtocol) (owner, renewer string, err error) {
	if _, err := prot.ReadStructBegin(ctx); err != nil {
		return "", "", err
	}
	for {
		_, typ, id, err := prot.ReadFieldBegin(ctx)
		if err != nil {
			return "", "", err
		}
		if typ == thrift.STOP {
			break
		}
		switch {
		case id == 1 && typ == thrift.STRING:
			owner, err = prot.ReadString(ctx)
		case id == 2 && typ == thrift.STRING:
			renewer, err = prot.ReadString(ctx)
		default:
			err = prot.Skip(ctx, typ)
		}
		if err != nil {
			return "", "", err
		}
		if err := prot.ReadFieldEnd(ctx); err != nil {
			return "", "", err
		}
	}
	if err := prot.ReadStructEnd(ctx); err != nil {
		return "", "", err
	}
	return owner, renewer, prot.ReadMessageEnd(ctx)
}

// writeTokenResult writes get_delegation_token_result: success (field 0)
// or the MetaException o1 (field 1) when failure is set.
func writeTokenResult(ctx context.Context, prot thrift.TProtocol, seq int32, tok, failure string) error {
	steps := []func() error{
		func() error { return prot.WriteMessageBegin(ctx, MetastoreGetDelegationToken, thrift.REPLY, seq) },
		func() error { return prot.WriteStructBegin(ctx, "get_delegation_token_result") },
	}
	if failure == "" {
		steps = append(steps,
			func() error { return prot.WriteFieldBegin(ctx, "success", thrift.STRING, 0) },
			func() error { return prot.WriteString(ctx, tok) },
		)
	} else {
		steps = append(steps,
			func() error { return prot.WriteFieldBegin(ctx, "o1", thrift.STRUCT, 1) },
			func() error { return prot.WriteStructBegin(ctx, "MetaException") },
			func() error { return prot.WriteFieldBegin(ctx, "message", thrift.STRING, 1) },
			func() error { return prot.WriteString(ctx, failure) },
			func() error { return prot.WriteFieldEnd(ctx) },
			func() error { return prot.WriteFieldStop(ctx) },
			func() error { return prot.WriteStructEnd(ctx) },
		)
	}
	steps = append(steps,
		func() error { return prot.WriteFieldEnd(ctx) },
		func() error { return prot.WriteFieldStop(ctx) },
		func() error { return prot.WriteStructEnd(ctx) },
		func() error { return prot.WriteMessageEnd(ctx) },
		func() error { return prot.Flush(ctx) },
	)
	for _, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("writing the get_delegation_token reply: %w", err)
		}
	}
	return nil
}
