package digestmd5

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Server is the accepting side of one DIGEST-MD5 exchange.
type Server struct {
	// Realm is offered in the challenge; Hadoop uses "default".
	Realm string
	// Protocol and ServerName form the digest-uri the client must use.
	Protocol, ServerName string
	// Password returns the password of a user name, or an error when the
	// user is unknown.
	Password func(username string) (string, error)
	// Qops lists the qualities of protection the server offers, in the
	// order the challenge names them (Hadoop: hadoop.rpc.protection's
	// order); a client that picks another is refused. Empty means QopAuth
	// only.
	Qops []string
	// Ciphers lists the auth-conf ciphers offered; empty means
	// DefaultCiphers.
	Ciphers []string
	// MaxBuf is the largest security-layer message the server receives,
	// named in the challenge when it is not DefaultMaxBuf; 0 means
	// DefaultMaxBuf.
	MaxBuf int
	// Nonce, if set, returns the server nonce (tests make it fixed);
	// otherwise a random one is generated.
	Nonce func() (string, error)

	qops, ciphers []string
	nonce         string
	username      string
	qop           string
	layer         *SecurityLayer
	done          bool
}

// Challenge returns the server's first message. It must be called once,
// before Respond. The directives come in the order Java's server writes
// them: realm, nonce, qop, maxbuf, charset, cipher, algorithm.
func (s *Server) Challenge() ([]byte, error) {
	qops, ciphers, err := checkLists(s.Qops, s.Ciphers)
	if err != nil {
		return nil, err
	}
	maxBuf, err := checkMaxBuf(s.MaxBuf)
	if err != nil {
		return nil, err
	}
	newNonce := s.Nonce
	if newNonce == nil {
		newNonce = randomNonce
	}
	nonce, err := newNonce()
	if err != nil {
		return nil, err
	}
	s.nonce, s.qops, s.ciphers = nonce, qops, ciphers
	var b strings.Builder
	fmt.Fprintf(&b, "realm=%s,nonce=%s,qop=%s,", quote(s.Realm), quote(nonce), quote(strings.Join(qops, ",")))
	if maxBuf != DefaultMaxBuf {
		fmt.Fprintf(&b, "maxbuf=%d,", maxBuf)
	}
	b.WriteString("charset=utf-8,")
	if slices.Contains(qops, QopAuthConf) {
		fmt.Fprintf(&b, "cipher=%s,", quote(strings.Join(ciphers, ",")))
	}
	b.WriteString("algorithm=" + algorithm)
	return []byte(b.String()), nil
}

// Respond checks the client's digest-response and returns the rspauth
// message to send back. On success Username reports who authenticated,
// Qop what was negotiated and SecurityLayer the layer for later messages.
func (s *Server) Respond(response []byte) ([]byte, error) {
	if s.nonce == "" {
		return nil, errors.New("digest-md5: response before challenge")
	}
	if s.done {
		return nil, errors.New("digest-md5: exchange already complete")
	}
	d, err := parseDirectives(string(response))
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"username", "realm", "nonce", "cnonce", "nc", "qop", "digest-uri", "response", "maxbuf", "charset", "cipher", "authzid"} {
		if _, err := d.once(name); err != nil {
			return nil, err
		}
	}
	username := d.get("username")
	if username == "" {
		return nil, errors.New("digest-md5: response has no username")
	}
	if d.get("nonce") != s.nonce {
		return nil, fmt.Errorf("%w: nonce does not match the challenge", ErrAuthFailed)
	}
	if d.get("nc") != nonceCount {
		return nil, fmt.Errorf("digest-md5: nonce count %q, want %s", d.get("nc"), nonceCount)
	}
	if d.get("cnonce") == "" {
		return nil, errors.New("digest-md5: response has no cnonce")
	}
	// A missing qop means "auth" (RFC 2831), which a server that requires
	// a security layer does not offer.
	qop := QopAuth
	if d.has("qop") {
		qop = d.get("qop")
	}
	if !slices.Contains(s.qops, qop) {
		return nil, fmt.Errorf("%w: the client chose qop %q, the server offers %q", ErrNoCommonQop, qop, strings.Join(s.qops, ","))
	}
	cipher := ""
	if qop == QopAuthConf {
		cipher = d.get("cipher")
		if !slices.Contains(s.ciphers, cipher) {
			return nil, fmt.Errorf("%w: the client chose cipher %q, the server offers %q", ErrNoCommonQop, cipher, strings.Join(s.ciphers, ","))
		}
	}
	sendMax, err := parseMaxBuf(d)
	if err != nil {
		return nil, err
	}
	if qop != QopAuth && sendMax <= overhead(qop) {
		return nil, fmt.Errorf("digest-md5: client maxbuf %d leaves no room for a %s message", sendMax, qop)
	}
	// Like Java's server, a response without a realm chose the empty one.
	if d.get("realm") != s.Realm {
		return nil, fmt.Errorf("digest-md5: realm %q not offered", d.get("realm"))
	}
	wantURI := s.Protocol + "/" + s.ServerName
	if d.get("digest-uri") != wantURI {
		return nil, fmt.Errorf("digest-md5: digest-uri %q, want %q", d.get("digest-uri"), wantURI)
	}
	if cs := d.get("charset"); cs != "" && !strings.EqualFold(cs, "utf-8") {
		return nil, fmt.Errorf("digest-md5: unknown charset %q", cs)
	}
	authzid := d.get("authzid")
	if authzid != "" && authzid != username {
		return nil, fmt.Errorf("%w: authorization id %q differs from user", ErrAuthFailed, authzid)
	}
	password, err := s.Password(username)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrAuthFailed, err)
	}
	sess := &session{
		username:  username,
		realm:     d.get("realm"),
		password:  password,
		nonce:     s.nonce,
		cnonce:    d.get("cnonce"),
		authzid:   authzid,
		digestURI: wantURI,
		qop:       qop,
		utf8:      d.has("charset"),
	}
	want := sess.digest("AUTHENTICATE")
	if subtle.ConstantTimeCompare([]byte(d.get("response")), []byte(want)) != 1 {
		return nil, fmt.Errorf("%w: wrong digest for user %q", ErrAuthFailed, username)
	}
	s.username, s.qop, s.done = username, qop, true
	if qop != QopAuth {
		s.layer = newSecurityLayer(sess, cipher, false, sendMax)
	}
	return []byte("rspauth=" + sess.digest("")), nil
}

// Username returns the authenticated user name once Respond succeeded.
func (s *Server) Username() string {
	if !s.done {
		return ""
	}
	return s.username
}

// Qop returns the negotiated quality of protection once Respond
// succeeded.
func (s *Server) Qop() string {
	if !s.done {
		return ""
	}
	return s.qop
}

// SecurityLayer returns the integrity or confidentiality layer once
// Respond succeeded, or nil when the qop is auth (or before).
func (s *Server) SecurityLayer() *SecurityLayer { return s.layer }
