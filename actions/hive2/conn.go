package hive2

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
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
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		c.Close()
		return nil, net.ErrClosed
	}
	d.conns = append(d.conns, c)
	return c, nil
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
	type result struct {
		conn *gohive.Connection
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		conn, err := gohive.Connect(host, port, j.url.Auth, cfg)
		ch <- result{conn, err}
	}()
	ctx, cancel := context.WithTimeout(ctx, e.cfg.ConnectTimeout)
	defer cancel()
	select {
	case r := <-ch:
		if r.err != nil {
			d.closeAll()
			return nil, r.err
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
