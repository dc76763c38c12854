package ipc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"time"

	"github.com/gozie/gozie/hadoop/digestmd5"
	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"google.golang.org/protobuf/proto"
)

// serverConn is the state of one accepted connection.
type serverConn struct {
	srv *Server
	nc  net.Conn
	br  *bufio.Reader
	// in is where packets come from: br, or once a security layer is
	// negotiated, the packets unwrapped from br's WRAP messages.
	in io.Reader
	// layer is the SASL security layer of a TOKEN connection with
	// integrity or privacy; every packet sent is then wrapped.
	layer securityLayer

	// Authentication state.
	sasl       bool         // the preamble asked for SASL
	auth       AuthMethod   // method in effect once authenticated
	authed     bool         // authentication finished
	negotiated bool         // a NEGOTIATE was answered
	offered    []AuthMethod // methods offered in NEGOTIATE
	user       string
	realUser   string // set on a proxy connection
	tokenID    []byte
	token      *tokenAcceptor
	krb        *kerberosAcceptor

	// Connection context.
	haveContext   bool
	effectiveUser string
	clientID      []byte
}

func newServerConn(s *Server, nc net.Conn) *serverConn {
	br := bufio.NewReader(nc)
	return &serverConn{srv: s, nc: nc, br: br, in: br}
}

// startWrapping switches the connection to SASL-wrapped packets both ways,
// from the packet after the SASL SUCCESS on (Server.saslProcess: "do NOT
// enable wrapping until the last auth response is sent").
func (c *serverConn) startWrapping(layer securityLayer) {
	c.layer = layer
	c.in = &unwrapReader{r: c.br, layer: layer, maxPacket: c.srv.opts.MaxPacketSize, token: requestWrapToken}
}

// fatalError ends a connection after a FATAL response has been sent.
type fatalError struct{ re *RemoteError }

func (e *fatalError) Error() string { return e.re.Error() }

// serve runs the connection until the peer hangs up or a fatal error.
func (c *serverConn) serve(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := c.readPreamble(); err != nil {
		return err
	}
	for {
		p, err := readPacket(c.in, c.srv.opts.MaxPacketSize)
		if err != nil {
			switch {
			case errors.Is(err, io.EOF):
				return nil
			case errors.Is(err, errNotWrapped):
				// Stricter than Hadoop's Server, which still runs a plain
				// call on a wrapping connection: a call in the clear on a
				// privacy connection is refused.
				return c.fatal(callIDSASL, &RemoteError{Class: SaslException, Code: CodeInvalidHeader,
					Message: fmt.Sprintf("%v on a connection with qop %s", err, c.layer.Qop())})
			case errors.Is(err, digestmd5.ErrIntegrity), errors.Is(err, digestmd5.ErrSequence):
				return c.fatal(callIDSASL, &RemoteError{Class: SaslException, Code: CodeUnauthorized, Message: err.Error()})
			case errors.Is(err, errMalformed):
				return c.fatal(callIDConnectionContext, &RemoteError{Class: RPCServerException, Code: CodeInvalidHeader, Message: err.Error()})
			}
			return err
		}
		if err := c.handlePacket(ctx, p); err != nil {
			return err
		}
	}
}

// readPreamble reads "hrpc", the version, the service class and the auth
// protocol byte.
func (c *serverConn) readPreamble() error {
	var pre [7]byte
	if _, err := io.ReadFull(c.br, pre[:]); err != nil {
		return fmt.Errorf("ipc: reading preamble: %w", err)
	}
	if [4]byte(pre[:4]) != preambleMagic {
		return fmt.Errorf("ipc: bad preamble %q", pre[:4])
	}
	if pre[4] != ipcVersion {
		return c.fatal(callIDAuthFailed, &RemoteError{Class: "org.apache.hadoop.ipc.RPC$VersionMismatch", Code: CodeVersionMismatch,
			Message: fmt.Sprintf("server IPC version %d cannot communicate with client version %d", ipcVersion, pre[4])})
	}
	switch pre[6] {
	case authProtocolNone:
		if !c.srv.opts.Simple {
			// Server.initializeAuthContext and doSaslReply: a FATAL answer
			// at call id -1, the methods listed as Java prints a List.
			return c.fatal(callIDAuthFailed, &RemoteError{Class: AccessControlException, Code: CodeUnauthorized,
				Message: "SIMPLE authentication is not enabled.  Available:" + javaList(c.srv.enabledMethods())})
		}
		c.auth, c.authed = AuthSimple, true
	case authProtocolSASL:
		c.sasl = true
	default:
		return fmt.Errorf("ipc: unknown auth protocol %#x", pre[6])
	}
	return nil
}

// handlePacket processes one request packet.
func (c *serverConn) handlePacket(ctx context.Context, p []byte) error {
	hdr := &commonpb.RpcRequestHeaderProto{}
	rest, err := decodeNext(p, hdr)
	if err != nil {
		return c.fatal(callIDConnectionContext, &RemoteError{Class: RPCServerException, Code: CodeInvalidHeader, Message: err.Error()})
	}
	if c.clientID == nil {
		c.clientID = hdr.GetClientId()
	}
	if hdr.GetRpcOp() == commonpb.RpcRequestHeaderProto_RPC_CLOSE_CONNECTION {
		return io.EOF
	}
	switch id := hdr.GetCallId(); {
	case id == callIDSASL:
		return c.handleSASL(rest)
	case id == callIDConnectionContext:
		return c.handleContext(rest)
	case id == callIDPing:
		return nil
	case id < 0:
		return c.fatal(id, &RemoteError{Class: RPCServerException, Code: CodeInvalidHeader, Message: fmt.Sprintf("unknown reserved call id %d", id)})
	default:
		if !c.haveContext {
			return c.fatal(id, &RemoteError{Class: AccessControlException, Code: CodeUnauthorized, Message: "call before connection context"})
		}
		return c.handleCall(ctx, hdr, rest)
	}
}

// handleContext reads the IpcConnectionContextProto.
func (c *serverConn) handleContext(p []byte) error {
	if c.haveContext {
		return c.fatal(callIDConnectionContext, &RemoteError{Class: RPCServerException, Code: CodeInvalidHeader, Message: "connection context sent twice"})
	}
	if !c.authed {
		if !(c.sasl && c.negotiated && c.offers(AuthSimple)) {
			return c.fatal(callIDConnectionContext, &RemoteError{Class: AccessControlException, Code: CodeUnauthorized, Message: "connection context before authentication"})
		}
		// The client picked SIMPLE from the negotiation list; Hadoop clients
		// then go straight to the context.
		c.auth, c.authed = AuthSimple, true
	}
	cc := &commonpb.IpcConnectionContextProto{}
	if _, err := decodeNext(p, cc); err != nil {
		return c.fatal(callIDConnectionContext, &RemoteError{Class: RPCServerException, Code: CodeDeserializing, Message: err.Error()})
	}
	// Who the connection acts as, as Hadoop's Server.processConnectionContext
	// and ProtoUtil.getUgi decide it: SIMPLE trusts the context (an effective
	// user, and a real user when the client is a proxy); KERBEROS proxies when
	// the context names another effective user than the principal.
	info := cc.GetUserInfo()
	c.effectiveUser = info.GetEffectiveUser()
	switch c.auth {
	case AuthSimple:
		if c.effectiveUser == "" {
			return c.fatal(callIDConnectionContext, &RemoteError{Class: AccessControlException, Code: CodeUnauthorized, Message: "SIMPLE connection without a user"})
		}
		c.user, c.realUser = c.effectiveUser, info.GetRealUser()
	case AuthKerberos:
		if c.effectiveUser != "" && c.effectiveUser != c.user {
			c.user, c.realUser = c.effectiveUser, c.user
		}
	case AuthToken:
		// A token says who the connection is; no doAs over it.
		if c.effectiveUser != "" && c.effectiveUser != c.user {
			return c.fatal(callIDConnectionContext, &RemoteError{Class: AccessControlException, Code: CodeUnauthorized,
				Message: "Authenticated user (" + c.user + ") doesn't match what the client claims to be (" + c.effectiveUser + ")"})
		}
	}
	if c.realUser != "" {
		// Server.authorizeConnection: a proxy must be allowed to act for the
		// effective user from this address, or the connection is refused.
		err := errors.New("User: " + c.realUser + " is not allowed to impersonate " + c.user)
		if c.srv.opts.Proxy != nil {
			err = c.srv.opts.Proxy(c.realUser, c.user, c.nc.RemoteAddr())
		}
		if err != nil {
			return c.fatal(callIDConnectionContext, &RemoteError{Class: AuthorizationException, Code: CodeUnauthorized, Message: err.Error()})
		}
	}
	c.haveContext = true
	return nil
}

// handleCall runs one call and writes its response.
func (c *serverConn) handleCall(ctx context.Context, hdr *commonpb.RpcRequestHeaderProto, p []byte) error {
	rh := &commonpb.RequestHeaderProto{}
	body, err := decodeNext(p, rh)
	if err != nil {
		return c.fatal(hdr.GetCallId(), &RemoteError{Class: RPCServerException, Code: CodeDeserializing, Message: err.Error()})
	}
	reqBytes, rest, err := nextDelimited(body)
	if err != nil || len(rest) != 0 {
		return c.fatal(hdr.GetCallId(), &RemoteError{Class: RPCServerException, Code: CodeDeserializing, Message: "bad request body framing"})
	}
	call := &Call{
		Protocol:        rh.GetDeclaringClassProtocolName(),
		Method:          rh.GetMethodName(),
		CallID:          hdr.GetCallId(),
		ClientID:        hdr.GetClientId(),
		Auth:            c.auth,
		User:            c.user,
		RealUser:        c.realUser,
		EffectiveUser:   c.effectiveUser,
		TokenIdentifier: c.tokenID,
		RemoteAddr:      c.nc.RemoteAddr(),
		Protection:      ProtectionAuthentication,
	}
	if c.layer != nil {
		call.Protection = protectionOf(c.layer.Qop())
	}
	resp, rerr := c.dispatch(ctx, call, reqBytes)
	if rerr != nil {
		return c.writeError(hdr, rerr)
	}
	return c.writeResponse(hdr, resp)
}

// dispatch finds and runs the handler, turning panics and errors into a
// RemoteError.
func (c *serverConn) dispatch(ctx context.Context, call *Call, req []byte) (resp proto.Message, rerr *RemoteError) {
	if c.srv.standby.Load() {
		return nil, &RemoteError{Class: StandbyException, Message: fmt.Sprintf("Operation category %s is not supported in state standby", call.Method)}
	}
	h, rerr := c.srv.lookup(call.Protocol, call.Method)
	if rerr != nil {
		return nil, rerr
	}
	defer func() {
		if r := recover(); r != nil {
			c.srv.log.Error("ipc: handler panicked", "protocol", call.Protocol, "method", call.Method, "panic", r, "stack", string(debug.Stack()))
			resp, rerr = nil, &RemoteError{Class: RPCServerException, Code: CodeServer, Message: fmt.Sprintf("internal error in %s", call.Method)}
		}
	}()
	resp, err := h(ctx, call, req)
	if err != nil {
		return nil, asRemote(err)
	}
	if resp == nil {
		return nil, &RemoteError{Class: RPCServerException, Code: CodeServer, Message: fmt.Sprintf("%s returned no response", call.Method)}
	}
	return resp, nil
}

// responseHeader starts a response to the request header hdr.
func (c *serverConn) responseHeader(callID int32, status commonpb.RpcResponseHeaderProto_RpcStatusProto) *commonpb.RpcResponseHeaderProto {
	return &commonpb.RpcResponseHeaderProto{
		CallId:              proto.Uint32(uint32(callID)),
		Status:              status.Enum(),
		ServerIpcVersionNum: proto.Uint32(uint32(ipcVersion)),
		ClientId:            c.clientID,
	}
}

func (c *serverConn) writeResponse(hdr *commonpb.RpcRequestHeaderProto, resp proto.Message) error {
	rh := c.responseHeader(hdr.GetCallId(), commonpb.RpcResponseHeaderProto_SUCCESS)
	if hdr.RetryCount != nil {
		rh.RetryCount = proto.Int32(hdr.GetRetryCount())
	}
	return c.send(rh, resp)
}

func (c *serverConn) writeError(hdr *commonpb.RpcRequestHeaderProto, re *RemoteError) error {
	rh := c.errorHeader(hdr.GetCallId(), commonpb.RpcResponseHeaderProto_ERROR, re)
	return c.send(rh)
}

func (c *serverConn) errorHeader(callID int32, status commonpb.RpcResponseHeaderProto_RpcStatusProto, re *RemoteError) *commonpb.RpcResponseHeaderProto {
	rh := c.responseHeader(callID, status)
	code := re.Code
	if code == 0 {
		code = CodeApplication
	}
	rh.ExceptionClassName = proto.String(re.Class)
	rh.ErrorMsg = proto.String(re.Message)
	rh.ErrorDetail = code.Enum()
	return rh
}

// fatal sends a FATAL response and returns the error that ends serve.
func (c *serverConn) fatal(callID int32, re *RemoteError) error {
	if re.Code == 0 {
		re.Code = CodeFatalUnknown
	}
	re.Fatal = true
	_ = c.send(c.errorHeader(callID, commonpb.RpcResponseHeaderProto_FATAL, re))
	c.linger()
	return &fatalError{re: re}
}

// linger half-closes the connection after a fatal answer and reads what
// the client still sends, briefly: closing with unread data would reset the
// connection, and the client could lose the answer that explains why.
func (c *serverConn) linger() {
	tc, ok := c.nc.(interface{ CloseWrite() error })
	if !ok {
		return
	}
	_ = tc.CloseWrite()
	_ = c.nc.SetReadDeadline(time.Now().Add(time.Second))
	_, _ = io.Copy(io.Discard, c.br)
}

// send writes one response packet, SASL-wrapped when the connection has a
// security layer. Only the connection's goroutine sends, so wrapping (and
// its sequence numbers) follows the order on the wire.
func (c *serverConn) send(msgs ...proto.Message) error {
	p, err := buildPacket(msgs...)
	if err != nil {
		return err
	}
	if c.layer != nil {
		// Hadoop's wrapWithSasl header: call id -33, status SUCCESS.
		id := callIDSASL
		hdr := &commonpb.RpcResponseHeaderProto{
			CallId: proto.Uint32(uint32(id)),
			Status: commonpb.RpcResponseHeaderProto_SUCCESS.Enum(),
		}
		if p, err = wrapStream(c.layer, hdr, p); err != nil {
			return err
		}
	}
	if _, err := c.nc.Write(p); err != nil {
		return fmt.Errorf("ipc: writing response: %w", err)
	}
	return nil
}
