package ipc

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
)

// Session is the security state of a connection that Authenticate set up
// and that someone else then speaks on: the hadoop package hands such
// connections to colinmarc/hdfs, which sends the connection context and
// calls as plain packets. Under integrity or privacy, WrapPackets and
// Reader put that plain packet stream into and out of SASL WRAP messages,
// as Client does for its own calls.
type Session struct {
	c *Client
}

// Authenticate sends the SASL preamble on nc and authenticates as opts
// says (Kerberos, Token; opts.Protocol and the context are not used), and
// returns the Session of the connection. The caller sends the connection
// context next, through WrapPackets, and reads through Reader; the
// preamble must not be sent again.
func Authenticate(ctx context.Context, nc net.Conn, opts ClientOptions) (*Session, error) {
	if opts.Token == nil && opts.Kerberos == nil {
		return nil, errors.New("ipc: Authenticate needs a Token or Kerberos")
	}
	if opts.MaxPacketSize <= 0 {
		opts.MaxPacketSize = DefaultMaxPacketSize
	}
	if _, err := qops(opts.Protection); err != nil {
		return nil, err
	}
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		return nil, fmt.Errorf("ipc: client id: %w", err)
	}
	c := &Client{opts: opts, nc: nc, clientID: id}
	release := watchContext(ctx, nc.SetDeadline)
	defer release()
	if _, err := nc.Write(append(preambleMagic[:], ipcVersion, 0, authProtocolSASL)); err != nil {
		return nil, ctxErr(ctx, fmt.Errorf("ipc: %s: writing preamble: %w", opts.Addr, err))
	}
	br := bufio.NewReader(nc)
	auth, err := c.saslConnect(br)
	if err != nil {
		return nil, ctxErr(ctx, fmt.Errorf("ipc: authenticating to %s: %w", opts.Addr, err))
	}
	if auth == AuthSimple {
		return nil, fmt.Errorf("ipc: %s: the server offers only SIMPLE authentication", opts.Addr)
	}
	if br.Buffered() > 0 {
		return nil, fmt.Errorf("ipc: %s: unexpected data after the SASL exchange", opts.Addr)
	}
	c.auth = auth
	return &Session{c: c}, nil
}

// Method is how the session authenticated: KERBEROS or TOKEN.
func (s *Session) Method() AuthMethod { return s.c.auth }

// Protection is the session's negotiated protection level.
func (s *Session) Protection() Protection { return s.c.Protection() }

// WrapPackets returns plain request packets as they go on the wire:
// unchanged without a security layer, else in WRAP messages. Calls must
// follow the order of the writes (the layer numbers its tokens).
func (s *Session) WrapPackets(p []byte) ([]byte, error) { return s.c.frame(p) }

// Reader returns the plain response packet stream read from r, the
// connection: r itself without a security layer, else what the server's
// WRAP messages carry (a plain or broken packet is an error).
func (s *Session) Reader(r io.Reader) io.Reader {
	if s.c.layer == nil {
		return r
	}
	return &unwrapReader{r: r, layer: s.c.layer, maxPacket: s.c.opts.MaxPacketSize, token: responseWrapToken}
}
