package postgres

import (
	"bufio"
	"context"
	"net"
	"time"
)

// readAheadSize is how much of what the server sent one read of a
// connection takes at most.
const readAheadSize = 64 << 10

// readAheadDialer opens connections whose reads take, in one system call,
// as much of what the server has sent as there is (up to readAheadSize).
// lib/pq reads through a 4 KB buffer of its own, so a page of 50
// coordinator actions (about 75 KB of rows) cost it some twenty reads of
// the socket; through this dialer it costs one or two.
type readAheadDialer struct{ d net.Dialer }

func (r readAheadDialer) Dial(network, address string) (net.Conn, error) {
	return r.DialContext(context.Background(), network, address)
}

func (r readAheadDialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	d := r.d
	d.Timeout = timeout
	return readAheadDialer{d}.DialContext(context.Background(), network, address)
}

func (r readAheadDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	c, err := r.d.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	return &readAheadConn{Conn: c, r: bufio.NewReaderSize(c, readAheadSize)}, nil
}

// readAheadConn is a connection read through a large buffer; everything
// else (writes, deadlines, closing) goes to the connection itself.
type readAheadConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *readAheadConn) Read(p []byte) (int, error) { return c.r.Read(p) }
