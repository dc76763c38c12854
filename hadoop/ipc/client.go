package ipc

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"google.golang.org/protobuf/proto"
)

// Token is the secret part of a Hadoop token used for TOKEN
// authentication.
type Token struct {
	Identifier []byte
	Password   []byte
}

// ClientOptions configures a Client.
type ClientOptions struct {
	// Addr is the server's host:port.
	Addr string
	// Protocol is the protocol name sent in the connection context and with
	// every call, e.g. ApplicationMasterProtocol.
	Protocol string
	// ProtocolVersion is sent with every call; default 1.
	ProtocolVersion uint64
	// User is the user the connection acts as with SIMPLE authentication.
	User string
	// RealUser, with SIMPLE authentication, makes the connection a proxy:
	// RealUser acts for User, as Hadoop's clients do for a proxy user
	// (ProtoUtil.makeIpcConnectionContext). The server decides whether
	// RealUser may.
	RealUser string
	// Token, if set, authenticates with TOKEN (SASL DIGEST-MD5) instead of
	// SIMPLE.
	Token *Token
	// Kerberos, if set (and Token is not), authenticates with KERBEROS
	// (SASL GSSAPI) as the client's logged-in principal. User, if set
	// and not that principal, makes the connection a proxy for User
	// (Hadoop's context for a proxy UGI over KERBEROS: the effective user
	// alone).
	Kerberos *krbclient.Client
	// ServicePrincipal is the server's Kerberos principal, e.g.
	// "nn/_HOST@REALM" (dfs.namenode.kerberos.principal); _HOST becomes
	// Addr's host. Default: what the server names in its offer.
	ServicePrincipal string
	// Protection lists the protection levels the client accepts with
	// TOKEN and KERBEROS, most preferred first: the cluster's hadoop.rpc.protection,
	// which Hadoop's clients read from core-site.xml as its servers do
	// (ParseProtection reads the value). Empty means authentication,
	// Hadoop's default. Dial fails with ErrNoCommonProtection when the
	// server offers none of them; with integrity or privacy every later
	// packet is SASL-wrapped.
	Protection []Protection
	// Dial opens the connection; default a net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// MaxPacketSize bounds response packets; default DefaultMaxPacketSize.
	MaxPacketSize int
}

// Well-known protocol names.
const (
	// ClientProtocol is the HDFS client-to-NameNode protocol.
	ClientProtocol = "org.apache.hadoop.hdfs.protocol.ClientProtocol"
	// ApplicationMasterProtocol is YARN's AM-to-ResourceManager protocol.
	ApplicationMasterProtocol = "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB"
)

// Client is one Hadoop IPC connection for one protocol. Calls may be made
// from several goroutines; responses are matched by call id.
type Client struct {
	opts     ClientOptions
	nc       net.Conn
	clientID []byte
	auth     AuthMethod
	// layer is the SASL security layer once TOKEN negotiated integrity or
	// privacy; every packet is then wrapped.
	layer securityLayer

	wmu    sync.Mutex // serializes writes (and with them the wrapping)
	mu     sync.Mutex // guards the fields below
	nextID int32
	calls  map[int32]chan callResult
	err    error // set once the connection is broken or closed
	done   chan struct{}
}

type callResult struct {
	hdr  *commonpb.RpcResponseHeaderProto
	body []byte
}

// Dial connects, authenticates and sends the connection context.
func Dial(ctx context.Context, opts ClientOptions) (*Client, error) {
	if opts.Protocol == "" {
		return nil, errors.New("ipc: ClientOptions.Protocol is required")
	}
	if opts.Token == nil && opts.User == "" && opts.Kerberos == nil {
		return nil, errors.New("ipc: ClientOptions needs a User, a Token or Kerberos")
	}
	if opts.ProtocolVersion == 0 {
		opts.ProtocolVersion = 1
	}
	if opts.MaxPacketSize <= 0 {
		opts.MaxPacketSize = DefaultMaxPacketSize
	}
	if _, err := qops(opts.Protection); err != nil {
		return nil, err
	}
	dial := opts.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	nc, err := dial(ctx, "tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("ipc: dialing %s: %w", opts.Addr, err)
	}
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		nc.Close()
		return nil, fmt.Errorf("ipc: client id: %w", err)
	}
	c := &Client{opts: opts, nc: nc, clientID: id, calls: map[int32]chan callResult{}, done: make(chan struct{})}
	if err := c.handshake(ctx); err != nil {
		nc.Close()
		return nil, fmt.Errorf("ipc: connecting to %s: %w", opts.Addr, err)
	}
	go c.readLoop(bufio.NewReader(nc))
	return c, nil
}

// handshake sends the preamble, authenticates and sends the context. It
// honours ctx's deadline and cancellation.
func (c *Client) handshake(ctx context.Context) error {
	release := watchContext(ctx, c.nc.SetDeadline)
	defer release()
	authByte := authProtocolNone
	if c.opts.Token != nil || c.opts.Kerberos != nil {
		authByte = authProtocolSASL
	}
	pre := append(preambleMagic[:], ipcVersion, 0, authByte)
	if _, err := c.nc.Write(pre); err != nil {
		return ctxErr(ctx, fmt.Errorf("writing preamble: %w", err))
	}
	c.auth = AuthSimple
	if authByte == authProtocolSASL {
		br := bufio.NewReader(c.nc)
		auth, err := c.saslConnect(br)
		if err != nil {
			return ctxErr(ctx, err)
		}
		if br.Buffered() > 0 {
			return errors.New("unexpected data after SASL exchange")
		}
		c.auth = auth
	}
	cc := &commonpb.IpcConnectionContextProto{Protocol: proto.String(c.opts.Protocol)}
	if c.auth != AuthToken {
		// Hadoop clients name no user with TOKEN: the token says who it is.
		cc.UserInfo = &commonpb.UserInformationProto{EffectiveUser: proto.String(c.contextUser())}
		if c.opts.RealUser != "" && c.auth == AuthSimple {
			cc.UserInfo.RealUser = proto.String(c.opts.RealUser)
		}
	}
	p, err := buildPacket(c.requestHeader(callIDConnectionContext), cc)
	if err != nil {
		return err
	}
	// With a security layer the context is the first wrapped packet.
	if p, err = c.frame(p); err != nil {
		return err
	}
	if _, err := c.nc.Write(p); err != nil {
		return ctxErr(ctx, fmt.Errorf("writing connection context: %w", err))
	}
	return nil
}

// contextUser is the effective user the connection context names: User,
// else (KERBEROS) the principal, user@REALM, as Hadoop's UGI names it.
func (c *Client) contextUser() string {
	if c.opts.User != "" || c.opts.Kerberos == nil {
		return c.opts.User
	}
	creds := c.opts.Kerberos.Credentials
	return creds.UserName() + "@" + creds.Domain()
}

// frame returns what goes on the wire for packet p: p itself, or p wrapped
// when the connection has a security layer. Wrapping uses the layer's
// sequence numbers, so frame and the write that follows must happen
// together, in order (under wmu once calls may run).
func (c *Client) frame(p []byte) ([]byte, error) {
	if c.layer == nil {
		return p, nil
	}
	return wrapStream(c.layer, c.requestHeader(callIDSASL), p)
}

// ctxErr prefers the context's error when the context ended the I/O.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

func (c *Client) requestHeader(callID int32) *commonpb.RpcRequestHeaderProto {
	h := &commonpb.RpcRequestHeaderProto{
		RpcKind:  commonpb.RpcKindProto_RPC_PROTOCOL_BUFFER.Enum(),
		RpcOp:    commonpb.RpcRequestHeaderProto_RPC_FINAL_PACKET.Enum(),
		CallId:   proto.Int32(callID),
		ClientId: c.clientID,
	}
	if callID >= 0 {
		h.RetryCount = proto.Int32(0)
	}
	return h
}

// AuthMethod reports how the connection authenticated.
func (c *Client) AuthMethod() AuthMethod { return c.auth }

// Protection reports the connection's protection level: integrity or
// privacy when TOKEN authentication negotiated them, authentication
// otherwise.
func (c *Client) Protection() Protection {
	if c.layer == nil {
		return ProtectionAuthentication
	}
	return protectionOf(c.layer.Qop())
}

// Call invokes method with req and decodes the answer into resp. A failed
// call returns a *RemoteError; a broken connection returns an error
// wrapping ErrClosed or the I/O error, after which the Client is unusable.
func (c *Client) Call(ctx context.Context, method string, req, resp proto.Message) error {
	ch := make(chan callResult, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return fmt.Errorf("ipc: %s: %w", method, err)
	}
	id := c.nextID
	c.nextID++
	if c.nextID < 0 {
		c.nextID = 0
	}
	c.calls[id] = ch
	c.mu.Unlock()

	forget := func() {
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
	}
	rh := &commonpb.RequestHeaderProto{
		MethodName:                 proto.String(method),
		DeclaringClassProtocolName: proto.String(c.opts.Protocol),
		ClientProtocolVersion:      proto.Uint64(c.opts.ProtocolVersion),
	}
	p, err := buildPacket(c.requestHeader(id), rh, req)
	if err != nil {
		forget()
		return fmt.Errorf("ipc: %s: %w", method, err)
	}
	if err := c.write(ctx, p); err != nil {
		forget()
		return fmt.Errorf("ipc: %s: %w", method, err)
	}
	select {
	case <-ctx.Done():
		forget()
		return fmt.Errorf("ipc: %s: %w", method, ctx.Err())
	case r, ok := <-ch:
		if !ok {
			c.mu.Lock()
			err := c.err
			c.mu.Unlock()
			return fmt.Errorf("ipc: %s: %w", method, err)
		}
		if r.hdr.GetStatus() != commonpb.RpcResponseHeaderProto_SUCCESS {
			return &RemoteError{
				Class:   r.hdr.GetExceptionClassName(),
				Message: r.hdr.GetErrorMsg(),
				Code:    r.hdr.GetErrorDetail(),
				Fatal:   r.hdr.GetStatus() == commonpb.RpcResponseHeaderProto_FATAL,
				Method:  method,
			}
		}
		b, rest, err := nextDelimited(r.body)
		if err != nil || len(rest) != 0 {
			return fmt.Errorf("ipc: %s: response framing: %w", method, errMalformed)
		}
		if err := proto.Unmarshal(b, resp); err != nil {
			return fmt.Errorf("ipc: %s: decoding %T: %w", method, resp, err)
		}
		return nil
	}
}

// write sends one packet, giving up when ctx ends.
func (c *Client) write(ctx context.Context, p []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	release := watchContext(ctx, c.nc.SetWriteDeadline)
	defer release()
	p, err := c.frame(p)
	if err != nil {
		return err
	}
	if _, err := c.nc.Write(p); err != nil {
		c.fail(err)
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.err
	}
	return nil
}

// readLoop delivers responses to waiting calls until the connection ends.
// With a security layer it reads them out of the server's WRAP messages;
// a plain response, or a token that fails the layer's checks, breaks the
// connection (Hadoop's client: "Server sent non-wrapped response").
func (c *Client) readLoop(br *bufio.Reader) {
	var r io.Reader = br
	if c.layer != nil {
		r = &unwrapReader{r: br, layer: c.layer, maxPacket: c.opts.MaxPacketSize, token: responseWrapToken}
	}
	for {
		p, err := readPacket(r, c.opts.MaxPacketSize)
		if err != nil {
			c.fail(err)
			return
		}
		hdr := &commonpb.RpcResponseHeaderProto{}
		body, err := decodeNext(p, hdr)
		if err != nil {
			c.fail(err)
			return
		}
		id := int32(hdr.GetCallId())
		c.mu.Lock()
		ch, ok := c.calls[id]
		delete(c.calls, id)
		c.mu.Unlock()
		if ok {
			ch <- callResult{hdr: hdr, body: body}
		}
		if hdr.GetStatus() == commonpb.RpcResponseHeaderProto_FATAL {
			c.fail(&RemoteError{Class: hdr.GetExceptionClassName(), Message: hdr.GetErrorMsg(), Code: hdr.GetErrorDetail(), Fatal: true})
			return
		}
	}
}

// fail marks the connection broken, closes it and wakes every waiting call.
func (c *Client) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	switch {
	case err == nil || errors.Is(err, ErrClosed):
		c.err = ErrClosed
	default:
		c.err = fmt.Errorf("%w: %w", ErrClosed, err)
	}
	close(c.done)
	c.nc.Close()
	for id, ch := range c.calls {
		close(ch)
		delete(c.calls, id)
	}
}

// Close closes the connection; pending calls fail with ErrClosed.
func (c *Client) Close() error {
	c.fail(ErrClosed)
	return nil
}

// watchContext applies ctx's deadline through set and makes ctx's
// cancellation interrupt blocked I/O by moving the deadline into the past.
// The returned release clears the deadline again; it waits for a
// concurrent interruption to finish so that it cannot undo the reset.
func watchContext(ctx context.Context, set func(time.Time) error) (release func()) {
	if d, ok := ctx.Deadline(); ok {
		set(d)
	}
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		set(time.Unix(1, 0))
		close(fired)
	})
	return func() {
		if !stop() {
			<-fired
		}
		set(time.Time{})
	}
}
