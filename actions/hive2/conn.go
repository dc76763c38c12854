package hive2

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"reflect"
	"strconv"
	"sync"
	"time"

	"github.com/beltran/gohive"
)

// hiveConn is one HiveServer2 session with every socket it opened, so that
// the sockets can be closed whatever state gohive is in. gohive's calls
// after connecting take no context, and its HTTP transport keeps idle
// connections in a pool; closing the tracked sockets is what guarantees
// that a finished run holds no connection.
type hiveConn struct {
	*gohive.Connection
	addr   string
	dialer *trackingDialer
}

// trackingDialer dials for gohive and remembers the connections.
type trackingDialer struct {
	ctx     context.Context // bounds dialing (Start's or Check's context)
	timeout time.Duration
	// wrap, if set, runs on each new connection before gohive uses it
	// (the SASL GSSAPI negotiation of a Kerberos binary transport).
	wrap func(net.Conn) (net.Conn, error)

	mu     sync.Mutex
	closed bool
	conns  []net.Conn
}

func (d *trackingDialer) dial(_ context.Context, network, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(d.ctx, d.timeout)
	defer cancel()
	var nd net.Dialer
	c, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if err := d.track(c); err != nil {
		return nil, err
	}
	if d.wrap == nil {
		return c, nil
	}
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	wc, err := d.wrap(c)
	c.SetDeadline(time.Time{})
	if err != nil {
		c.Close()
		return nil, err
	}
	return wc, nil
}

// track remembers c for closeAll; it closes c and fails once closeAll
// ran.
func (d *trackingDialer) track(c net.Conn) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		c.Close()
		return net.ErrClosed
	}
	d.conns = append(d.conns, c)
	return nil
}

// closeAll closes every socket and refuses new ones.
func (d *trackingDialer) closeAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	for _, c := range d.conns {
		c.Close()
	}
	d.conns = nil
}

// connect opens a session on the first host of the URL that answers. ctx
// bounds the whole attempt, including OpenSession, which gohive sends
// without a context.
func (e *Executor) connect(ctx context.Context, j *job) (*hiveConn, error) {
	var errs []error
	for _, addr := range j.url.Hosts {
		c, err := e.connectTo(ctx, j, addr)
		if err == nil {
			return c, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
		if ctx.Err() != nil {
			break
		}
	}
	return nil, fmt.Errorf("connecting to HiveServer2: %w", errors.Join(errs...))
}

func (e *Executor) connectTo(ctx context.Context, j *job, addr string) (*hiveConn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, err
	}
	d := &trackingDialer{ctx: ctx, timeout: e.cfg.ConnectTimeout}
	cfg := gohive.NewConnectConfiguration()
	cfg.Username, cfg.Password = j.user, j.password
	cfg.HiveConfiguration = j.sessionConfiguration()
	cfg.TransportMode, cfg.HTTPPath = j.url.TransportMode, j.url.HTTPPath
	cfg.DialContext = d.dial
	cfg.ConnectTimeout = e.cfg.ConnectTimeout
	cfg.SocketTimeout, cfg.HttpTimeout = e.cfg.SocketTimeout, e.cfg.SocketTimeout
	if j.url.SSL {
		cfg.TLSConfig = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	}
	auth, relay, err := e.kerberize(ctx, j, addr, host, d, cfg)
	if err != nil {
		return nil, err
	}
	type result struct {
		conn *gohive.Connection
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		conn, err := gohive.Connect(host, port, auth, cfg)
		ch <- result{conn, err}
	}()
	ctx, cancel := context.WithTimeout(ctx, e.cfg.ConnectTimeout)
	defer cancel()
	select {
	case r := <-ch:
		if r.err != nil {
			d.closeAll()
			if relay != nil && relay.err() != nil {
				return nil, fmt.Errorf("%w (%v)", r.err, relay.err())
			}
			return nil, r.err
		}
		if !hasSession(r.conn) {
			r.conn.Close()
			d.closeAll()
			return nil, fmt.Errorf("HiveServer2 refused to open a session for %s (an unknown database %s, "+
				"or proxy-user rules that do not let gozie's principal act for the user?)", j.user, j.url.Database)
		}
		return &hiveConn{Connection: r.conn, addr: addr, dialer: d}, nil
	case <-ctx.Done():
		d.closeAll() // makes the pending Connect fail
		if r := <-ch; r.conn != nil {
			r.conn.Close()
		}
		return nil, fmt.Errorf("opening a session: %w", ctx.Err())
	}
}

// hasSession tells whether gohive got a session handle: gohive.Connect
// does not check OpenSession's status, so a refused session (an unknown
// database, a proxy user HiveServer2 does not allow) would otherwise only
// show as broken calls later. The handle is unexported; reflection reads
// whether it is set.
func hasSession(c *gohive.Connection) bool {
	h := reflect.ValueOf(c).Elem().FieldByName("sessionHandle")
	return h.IsValid() && !h.IsNil()
}

// kerberize sets up Kerberos for a principal= URL and returns the
// authentication gohive is to use: over the binary transport the dialer
// negotiates SASL GSSAPI and gohive speaks NOSASL over the framed
// connection; over HTTP gohive speaks to a SPNEGO relay (its TLS done by
// the relay). Without principal= it returns the URL's authentication.
func (e *Executor) kerberize(ctx context.Context, j *job, addr, host string, d *trackingDialer,
	cfg *gohive.ConnectConfiguration) (string, *spnegoRelay, error) {
	if j.url.Principal == "" {
		return j.url.Auth, nil, nil
	}
	krb := e.cfg.Kerberos // set: Executor.prepare refuses principal= without it
	principal := ServicePrincipal(j.url.Principal, host)
	if j.url.TransportMode != "http" {
		d.wrap = func(c net.Conn) (net.Conn, error) { return SASLGSSAPI(c, krb, principal) }
		return "NOSASL", nil, nil
	}
	relay := newSPNEGORelay(context.WithoutCancel(ctx), addr, cfg.TLSConfig, d.dial, krb, principal, j.user)
	cfg.TLSConfig = nil
	cfg.DialContext = func(ctx context.Context, network, a string) (net.Conn, error) {
		c, err := relay.dial(ctx, network, a)
		if err != nil {
			return nil, err
		}
		return c, d.track(c)
	}
	return "NONE", relay, nil
}

// closeTimeout bounds CloseSession; the sockets close afterwards anyway.
const closeTimeout = 10 * time.Second

// close ends the session (CloseSession, which also makes HiveServer2 close
// the session's operations) and closes every socket.
func (c *hiveConn) close() {
	if c == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Connection.Close()
	}()
	t := time.NewTimer(closeTimeout)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
	c.dialer.closeAll()
	<-done
}
