package digestmd5

import (
	"crypto/subtle"
	"errors"
	"fmt"
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

	nonce    string
	username string
	done     bool
}

// Challenge returns the server's first message. It must be called once,
// before Respond.
func (s *Server) Challenge() ([]byte, error) {
	nonce, err := randomNonce()
	if err != nil {
		return nil, err
	}
	s.nonce = nonce
	return []byte(fmt.Sprintf("realm=%s,nonce=%s,qop=%s,charset=utf-8,algorithm=%s",
		quote(s.Realm), quote(nonce), quote(QopAuth), algorithm)), nil
}

// Respond checks the client's digest-response and returns the rspauth
// message to send back. On success Username reports who authenticated.
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
	for _, name := range []string{"username", "realm", "nonce", "cnonce", "nc", "qop", "digest-uri", "response", "charset", "authzid"} {
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
	if qop := d.get("qop"); qop != "" && qop != QopAuth {
		return nil, fmt.Errorf("digest-md5: qop %q not offered", qop)
	}
	if d.has("realm") && d.get("realm") != s.Realm {
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
		utf8:      d.has("charset"),
	}
	want := sess.digest("AUTHENTICATE")
	if subtle.ConstantTimeCompare([]byte(d.get("response")), []byte(want)) != 1 {
		return nil, fmt.Errorf("%w: wrong digest for user %q", ErrAuthFailed, username)
	}
	s.username = username
	s.done = true
	return []byte("rspauth=" + sess.digest("")), nil
}

// Username returns the authenticated user name once Respond succeeded.
func (s *Server) Username() string {
	if !s.done {
		return ""
	}
	return s.username
}
