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
	user     string
	sessions []string // guarded by Server.mu
}

type ctxKey int

const (
	connKey ctxKey = iota
	userKey
)

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

// serveConn runs one connection: the SASL PLAIN handshake (AuthNone), then
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
	if s.opts.Auth == AuthNone {
		nc.SetDeadline(time.Now().Add(saslHandshakeTimeout))
		user, err := saslPlainHandshake(nc)
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

// saslPlainHandshake runs the server side of the PLAIN negotiation: START
// with the mechanism name, then OK (or COMPLETE) with
// "authzid NUL user NUL password"; any user and password are accepted
// (hive.server2.authentication=NONE). It returns the user.
func saslPlainHandshake(rw io.ReadWriter) (string, error) {
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
	if string(mech) != "PLAIN" {
		return refuse(saslBad, "Unsupported mechanism type %s", mech)
	}
	status, resp, err := readSASLMessage(rw)
	if err != nil {
		return "", err
	}
	if status != saslOK && status != saslComplete {
		return refuse(saslError, "Expected OK or COMPLETE status, received %d", status)
	}
	parts := bytes.Split(resp, []byte{0})
	if len(parts) != 3 || len(parts[1]) == 0 {
		return refuse(saslBad, "Invalid PLAIN response")
	}
	if err := writeSASLMessage(rw, saslComplete, nil); err != nil {
		return "", fmt.Errorf("completing SASL: %w", err)
	}
	return string(parts[1]), nil
}

// newHTTPServer serves Thrift over HTTP at /<HTTPPath>; the basic
// authentication user is the session user (any password is accepted).
func (s *Server) newHTTPServer() *http.Server {
	bf := thrift.NewTBinaryProtocolFactoryConf(thriftConf)
	handler := thrift.NewThriftHandlerFunc(s.processor, bf, bf)
	mux := http.NewServeMux()
	mux.HandleFunc("/"+s.opts.HTTPPath, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		user, _, ok := r.BasicAuth()
		if !ok || user == "" {
			w.Header().Set("WWW-Authenticate", "Basic")
			http.Error(w, "Authorization header received from the client is empty.", http.StatusUnauthorized)
			return
		}
		handler(w, r.WithContext(context.WithValue(r.Context(), userKey, user)))
	})
	return &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return s.ctx }}
}
