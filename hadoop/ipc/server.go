package ipc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/proto"
)

// AuthMethod is a Hadoop authentication method as named in SASL
// negotiation.
type AuthMethod string

// Authentication methods.
const (
	// AuthSimple trusts the user name the client claims.
	AuthSimple AuthMethod = "SIMPLE"
	// AuthToken authenticates with a token (identifier and password)
	// through SASL DIGEST-MD5.
	AuthToken AuthMethod = "TOKEN"
	// AuthKerberos authenticates with a Kerberos ticket through SASL GSSAPI.
	AuthKerberos AuthMethod = "KERBEROS"
)

// SecretLookup returns the password of a token identifier and the user the
// token stands for. An error (for instance an expired or unknown token)
// rejects the connection with an InvalidToken error.
type SecretLookup func(identifier []byte) (password []byte, user string, err error)

// Call describes one incoming call to a Handler.
type Call struct {
	// Protocol is the declaring protocol name of the method.
	Protocol string
	// Method is the method name.
	Method string
	// CallID is the client's sequence number for this call.
	CallID int32
	// ClientID is the client's 16-byte identity.
	ClientID []byte
	// Auth is how the connection authenticated.
	Auth AuthMethod
	// User is who the call acts as: the claimed user with SIMPLE, the
	// token's user with TOKEN, the client principal with KERBEROS, or, on
	// a proxy connection, the effective user it was allowed to act for.
	User string
	// RealUser is set on a proxy connection (one whose context names an
	// effective user other than the authenticated one): the authenticated
	// user, who acts for User. It is empty otherwise.
	RealUser string
	// EffectiveUser is the user named in the connection context, which may
	// be empty (TOKEN clients send none).
	EffectiveUser string
	// TokenIdentifier is the identifier of the token used with TOKEN auth.
	TokenIdentifier []byte
	// Protection is the connection's protection level: integrity or
	// privacy when TOKEN authentication negotiated them (the call arrived
	// SASL-wrapped), authentication otherwise.
	Protection Protection
	// RemoteAddr is the client's address.
	RemoteAddr net.Addr
}

// ProxyAuthorizer decides whether realUser may act for effectiveUser on a
// connection from remote (Hadoop's ProxyUsers.authorize). A returned error
// refuses the connection; its text is the refusal's message, e.g. "User:
// gozie is not allowed to impersonate bob".
type ProxyAuthorizer func(realUser, effectiveUser string, remote net.Addr) error

// Handler serves one method. req is the encoded request message; the
// returned message is sent back. A returned error becomes a Hadoop
// RemoteException (see RemoteError and asRemote for the class chosen).
type Handler func(ctx context.Context, call *Call, req []byte) (proto.Message, error)

// ServerOptions configures a Server. With no authentication method enabled
// the server accepts SIMPLE only.
type ServerOptions struct {
	// Addr is the listen address; the default is "127.0.0.1:0", a random
	// loopback port.
	Addr string
	// Listener, when set, is listened on instead of Addr (a socket the
	// caller prepared); Close closes it.
	Listener net.Listener
	// Simple enables SIMPLE authentication.
	Simple bool
	// Token enables TOKEN authentication (DIGEST-MD5) with this secret
	// lookup.
	Token SecretLookup
	// Kerberos enables KERBEROS authentication (GSSAPI).
	Kerberos *KerberosOptions
	// Protection lists the protection levels the server offers to SASL
	// clients, in order, and so requires: hadoop.rpc.protection
	// (ParseProtection reads the value). Empty means authentication,
	// Hadoop's default. A TOKEN client that picks a level not listed is
	// refused; with integrity or privacy every later packet is
	// SASL-wrapped both ways. SIMPLE connections, which have no SASL, are
	// not affected, as in Hadoop. KERBEROS offers the GSSAPI layers of
	// the list (RFC 4752) and wraps with RFC 4121 tokens likewise.
	Protection []Protection
	// Proxy authorizes proxy connections: SIMPLE connections whose context
	// names a real user besides the effective one, and KERBEROS connections
	// whose context names an effective user other than the principal. Nil
	// refuses every proxy connection, as Hadoop does without
	// hadoop.proxyuser.* rules.
	Proxy ProxyAuthorizer
	// MaxPacketSize bounds request packets; default DefaultMaxPacketSize.
	MaxPacketSize int
	// Logger receives connection-level diagnostics; default slog.Default().
	Logger *slog.Logger
}

// Server is a Hadoop IPC server that dispatches calls by (protocol,
// method) to registered handlers.
type Server struct {
	opts ServerOptions
	log  *slog.Logger

	mu        sync.RWMutex
	handlers  map[string]Handler
	protocols map[string]bool

	standby atomic.Bool

	listener net.Listener
	ctx      context.Context
	cancel   context.CancelFunc
	conns    map[net.Conn]struct{}
	wg       sync.WaitGroup
	closed   bool
}

// NewServer returns a server that is not yet listening.
func NewServer(opts ServerOptions) *Server {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if !opts.Simple && opts.Token == nil && opts.Kerberos == nil {
		opts.Simple = true
	}
	if opts.MaxPacketSize <= 0 {
		opts.MaxPacketSize = DefaultMaxPacketSize
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Server{
		opts:      opts,
		log:       log,
		handlers:  map[string]Handler{},
		protocols: map[string]bool{},
		conns:     map[net.Conn]struct{}{},
	}
}

// Handle registers h for method of protocol, replacing any earlier one.
// It may be called before or after Start.
func (s *Server) Handle(protocol, method string, h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[protocol+"\x00"+method] = h
	s.protocols[protocol] = true
}

// SetStandby switches the server into (or out of) standby: while in
// standby every call fails with a StandbyException, which makes Hadoop
// clients fail over to another address.
func (s *Server) SetStandby(standby bool) { s.standby.Store(standby) }

// Start listens on the configured address and serves connections in the
// background until Close or until ctx is cancelled.
func (s *Server) Start(ctx context.Context) error {
	if _, err := qops(s.opts.Protection); err != nil {
		return err
	}
	l := s.opts.Listener
	if l == nil {
		var err error
		if l, err = net.Listen("tcp", s.opts.Addr); err != nil {
			return fmt.Errorf("ipc: listening on %s: %w", s.opts.Addr, err)
		}
	}
	s.mu.Lock()
	if s.listener != nil || s.closed {
		s.mu.Unlock()
		l.Close()
		return errors.New("ipc: server already started or closed")
	}
	s.listener = l
	s.ctx, s.cancel = context.WithCancel(ctx)
	s.mu.Unlock()

	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		<-s.ctx.Done()
		s.shutdown()
	}()
	go func() {
		defer s.wg.Done()
		s.acceptLoop(l)
	}()
	return nil
}

// protection is the configured protection list, defaulted.
func (s *Server) protection() []Protection {
	if len(s.opts.Protection) == 0 {
		return []Protection{ProtectionAuthentication}
	}
	return s.opts.Protection
}

// Addr returns the address the server listens on (host:port), or "" before
// Start.
func (s *Server) Addr() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.listener == nil {
		return ""
	}
	return s.listener.Addr().String()
}

// Close stops accepting, closes every connection and waits for the
// connection goroutines to finish. It is safe to call more than once.
func (s *Server) Close() error {
	s.mu.Lock()
	cancel := s.cancel
	s.closed = true
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.wg.Wait()
	return nil
}

// shutdown closes the listener and all live connections.
func (s *Server) shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.listener != nil {
		s.listener.Close()
	}
	for c := range s.conns {
		c.Close()
	}
}

func (s *Server) acceptLoop(l net.Listener) {
	for {
		nc, err := l.Accept()
		if err != nil {
			if s.ctx.Err() == nil {
				s.log.Error("ipc: accept failed, server stops", "addr", l.Addr().String(), "error", err)
			}
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			nc.Close()
			return
		}
		s.conns[nc] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.conns, nc)
				s.mu.Unlock()
				nc.Close()
			}()
			c := newServerConn(s, nc)
			if err := c.serve(s.ctx); err != nil {
				s.log.Debug("ipc: connection ended", "remote", nc.RemoteAddr().String(), "error", err)
			}
		}()
	}
}

// lookup finds the handler of a call, or the RemoteError to answer with.
func (s *Server) lookup(protocol, method string) (Handler, *RemoteError) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if h, ok := s.handlers[protocol+"\x00"+method]; ok {
		return h, nil
	}
	if !s.protocols[protocol] {
		return nil, &RemoteError{Class: NoSuchProtocolException, Code: CodeNoSuchProtocol,
			Message: fmt.Sprintf("unknown protocol: %s", protocol)}
	}
	return nil, &RemoteError{Class: NoSuchMethodException, Code: CodeNoSuchMethod,
		Message: fmt.Sprintf("unknown method %s called on %s protocol", method, protocol)}
}
