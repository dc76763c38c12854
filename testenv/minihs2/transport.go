package minihs2

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
)

// connState is one binary connection: the user SASL authenticated and the
// sessions opened on it, which close with it
// (hive.server2.close.session.on.disconnect).
type connState struct {
	user     string   // the authenticated user (a principal with Kerberos)
	remote   string   // the client's host:port
	sessions []string // guarded by Server.mu
}

type ctxKey int

const (
	connKey ctxKey = iota
	userKey
	doAsKey
	remoteKey
)

// httpCaller is who sent an HTTP request: the authenticated user, the
// doAs query parameter and the remote address.
func httpCaller(ctx context.Context) (doAs, remote string) {
	doAs, _ = ctx.Value(doAsKey).(string)
	remote, _ = ctx.Value(remoteKey).(string)
	return doAs, remote
}

func connFrom(ctx context.Context) *connState {
	cs, _ := ctx.Value(connKey).(*connState)
	return cs
}

// userFrom returns the user the transport authenticated ("" when none).
func userFrom(ctx context.Context) string {
	if u, ok := ctx.Value(userKey).(string); ok {
		return u
	}
	if cs := connFrom(ctx); cs != nil {
		return cs.user
	}
	return ""
}

var thriftConf = &thrift.TConfiguration{}

// serveBinary accepts binary-transport connections until the listener
// closes.
func (s *Server) serveBinary() {
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				s.opts.Logger.Debug("minihs2 accept failed", "err", err)
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
		go s.serveConn(nc)
	}
}

// saslHandshakeTimeout bounds the SASL exchange of a new connection.
const saslHandshakeTimeout = 10 * time.Second

// serveConn runs one connection: the SASL handshake (PLAIN with AuthNone,
// GSSAPI or DIGEST-MD5 with a delegation token with AuthKerberos), then
// Thrift calls in frames (SASL) or unframed (NOSASL) until it closes.
func (s *Server) serveConn(nc net.Conn) {
	cs := &connState{}
	defer func() {
		nc.Close()
		s.mu.Lock()
		delete(s.conns, nc)
		sessions := cs.sessions
		s.mu.Unlock()
		for _, key := range sessions {
			s.closeSession(key)
		}
		s.wg.Done()
	}()
	sock := thrift.NewTSocketFromConnConf(nc, thriftConf)
	var trans thrift.TTransport
	cs.remote = nc.RemoteAddr().String()
	if s.opts.Auth != AuthNoSASL {
		nc.SetDeadline(time.Now().Add(saslHandshakeTimeout))
		user, err := s.saslHandshake(nc, cs.remote)
		if err != nil {
			s.opts.Logger.Debug("minihs2 SASL handshake failed", "err", err)
			return
		}
		nc.SetDeadline(time.Time{})
		cs.user = user
		trans = thrift.NewTFramedTransportConf(sock, thriftConf)
	} else {
		trans = thrift.NewTBufferedTransport(sock, 4096)
	}
	prot := thrift.NewTBinaryProtocolConf(trans, thriftConf)
	ctx := context.WithValue(s.ctx, connKey, cs)
	for {
		ok, err := s.processor.Process(ctx, prot, prot)
		if err != nil || !ok {
			return
		}
	}
}

// SASL negotiation status bytes (Hive's TSaslTransport).
const (
	saslStart    = 1
	saslOK       = 2
	saslBad      = 3
	saslError    = 4
	saslComplete = 5
)

// maxSASLMessage bounds a negotiation message; PLAIN's are tiny.
const maxSASLMessage = 64 << 10

// readSASLMessage reads "status byte | uint32 BE length | payload".
func readSASLMessage(r io.Reader) (byte, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, fmt.Errorf("reading a SASL message: %w", err)
	}
	n := binary.BigEndian.Uint32(head[1:])
	if n > maxSASLMessage {
		return 0, nil, fmt.Errorf("SASL message of %d bytes is too long", n)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return 0, nil, fmt.Errorf("reading a SASL message: %w", err)
	}
	return head[0], payload, nil
}

func writeSASLMessage(w io.Writer, status byte, payload []byte) error {
	msg := make([]byte, 5+len(payload))
	msg[0] = status
	binary.BigEndian.PutUint32(msg[1:], uint32(len(payload)))
	copy(msg[5:], payload)
	_, err := w.Write(msg)
	return err
}

// saslMechanism is the server side of one SASL exchange: step takes each
// client message and returns the next challenge, or done with the
// authenticated user.
type saslMechanism interface {
	step(resp []byte) (challenge []byte, user string, done bool, err error)
}

// plainMechanism is PLAIN: "authzid NUL user NUL password", any user and
// password accepted (hive.server2.authentication=NONE).
type plainMechanism struct{}

func (plainMechanism) step(resp []byte) ([]byte, string, bool, error) {
	parts := bytes.Split(resp, []byte{0})
	if len(parts) != 3 || len(parts[1]) == 0 {
		//lint:ignore ST1005 HiveServer2's own message, verbatim
		return nil, "", false, errors.New("Invalid PLAIN response")
	}
	return nil, string(parts[1]), true, nil
}

// gssapiMechanism adapts a gssAcceptor: the AP-REQ, then the client's
// wrapped security-layer choice.
type gssapiSASL struct {
	acc    *gssAcceptor
	remote string
	n      int
}

func (g *gssapiSASL) step(resp []byte) ([]byte, string, bool, error) {
	g.n++
	if g.n == 1 {
		ch, err := g.acc.initiate(resp, g.remote)
		return ch, "", false, err
	}
	user, err := g.acc.response(resp)
	return nil, user, err == nil, err
}

// mechanism returns the server side of a SASL mechanism the server
// accepts, or nil: PLAIN with AuthNone; GSSAPI and DIGEST-MD5 with
// AuthKerberos (HadoopThriftAuthBridge's server).
func (s *Server) mechanism(name, remote string) saslMechanism {
	switch {
	case s.opts.Auth == AuthNone && name == "PLAIN":
		return plainMechanism{}
	case s.opts.Auth == AuthKerberos && name == gssapiMechanism:
		return &gssapiSASL{acc: &gssAcceptor{kt: s.opts.Kerberos.Keytab}, remote: remote}
	case s.opts.Auth == AuthKerberos && name == digestMD5Mechanism:
		return s.newTokenSASL()
	}
	return nil
}

// maxSASLSteps bounds the messages of one negotiation.
const maxSASLSteps = 8

// saslHandshake runs the server side of a Thrift SASL negotiation: START
// with the mechanism name, then OK (or COMPLETE) messages answered by
// challenges until the mechanism is done, which COMPLETE confirms. It
// returns the authenticated user.
func (s *Server) saslHandshake(rw io.ReadWriter, remote string) (string, error) {
	return negotiateSASL(rw, func(name string) saslMechanism { return s.mechanism(name, remote) })
}

// negotiateSASL is the server side of a Thrift SASL negotiation
// (TSaslServerTransport), shared by HiveServer2 and the metastore:
// mechanism returns the server side of a mechanism name, or nil for one
// the server does not accept.
func negotiateSASL(rw io.ReadWriter, mechanism func(name string) saslMechanism) (string, error) {
	refuse := func(status byte, format string, args ...any) (string, error) {
		msg := fmt.Sprintf(format, args...)
		writeSASLMessage(rw, status, []byte(msg))
		return "", errors.New(msg)
	}
	status, mech, err := readSASLMessage(rw)
	if err != nil {
		return "", err
	}
	if status != saslStart {
		return refuse(saslError, "Expected START status, received %d", status)
	}
	m := mechanism(string(mech))
	if m == nil {
		return refuse(saslBad, "Unsupported mechanism type %s", mech)
	}
	for range maxSASLSteps {
		status, resp, err := readSASLMessage(rw)
		if err != nil {
			return "", err
		}
		if status != saslOK && status != saslComplete {
			return refuse(saslError, "Expected OK or COMPLETE status, received %d", status)
		}
		challenge, user, done, err := m.step(resp)
		if err != nil {
			return refuse(saslBad, "%s", err.Error())
		}
		if done {
			if err := writeSASLMessage(rw, saslComplete, challenge); err != nil {
				return "", fmt.Errorf("completing SASL: %w", err)
			}
			return user, nil
		}
		if err := writeSASLMessage(rw, saslOK, challenge); err != nil {
			return "", fmt.Errorf("sending a SASL challenge: %w", err)
		}
	}
	return refuse(saslError, "SASL negotiation did not complete in %d steps", maxSASLSteps)
}

// newHTTPServer serves Thrift over HTTP at /<HTTPPath>. With AuthNone the
// basic authentication user is the session user (any password is
// accepted); with AuthKerberos the request must carry a SPNEGO token, and
// the doAs query parameter names the user to act for.
func (s *Server) newHTTPServer() *http.Server {
	bf := thrift.NewTBinaryProtocolFactoryConf(thriftConf)
	handler := thrift.NewThriftHandlerFunc(s.processor, bf, bf)
	mux := http.NewServeMux()
	mux.HandleFunc("/"+s.opts.HTTPPath, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		user, err := s.httpUser(r)
		if err != nil {
			s.opts.Logger.Debug("minihs2 HTTP authentication failed", "err", err)
			if s.opts.Auth == AuthKerberos {
				w.Header().Set("WWW-Authenticate", "Negotiate")
			} else {
				w.Header().Set("WWW-Authenticate", "Basic")
			}
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		ctx := context.WithValue(r.Context(), userKey, user)
		ctx = context.WithValue(ctx, doAsKey, r.URL.Query().Get("doAs"))
		ctx = context.WithValue(ctx, remoteKey, r.RemoteAddr)
		handler(w, r.WithContext(ctx))
	})
	return &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return s.ctx }}
}

// httpUser authenticates an HTTP request.
func (s *Server) httpUser(r *http.Request) (string, error) {
	if s.opts.Auth == AuthKerberos {
		return s.spnegoUser(r)
	}
	user, _, ok := r.BasicAuth()
	if !ok || user == "" {
		//lint:ignore ST1005 HiveServer2's own message, verbatim
		return "", errors.New("Authorization header received from the client is empty.")
	}
	return user, nil
}
