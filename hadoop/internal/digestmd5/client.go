package digestmd5

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrAuthFailed reports a digest that did not match: a wrong password on
// the server side, or a server that could not prove it knew the password on
// the client side.
var ErrAuthFailed = errors.New("digest-md5: authentication failed")

// Client is the initiating side of one DIGEST-MD5 exchange.
type Client struct {
	// Username and Password are the credentials.
	Username, Password string
	// Protocol and ServerName form the digest-uri "protocol/serverName".
	// Hadoop token authentication uses "" and "default".
	Protocol, ServerName string
	// CNonce, if set, returns the client nonce (tests make it fixed);
	// otherwise a random one is generated.
	CNonce func() (string, error)

	sess *session
}

// Respond answers the server's challenge with the digest-response.
func (c *Client) Respond(challenge []byte) ([]byte, error) {
	d, err := parseDirectives(string(challenge))
	if err != nil {
		return nil, err
	}
	nonce, err := d.once("nonce")
	if err != nil {
		return nil, err
	}
	if nonce == "" {
		return nil, errors.New("digest-md5: challenge has no nonce")
	}
	if alg, err := d.once("algorithm"); err != nil || alg != algorithm {
		return nil, fmt.Errorf("digest-md5: challenge algorithm %q, want %s", alg, algorithm)
	}
	if qop := d.get("qop"); qop != "" && !slices.Contains(splitList(qop), QopAuth) {
		return nil, fmt.Errorf("digest-md5: server offers qop %q, only %q is supported", qop, QopAuth)
	}
	charset, err := d.once("charset")
	if err != nil {
		return nil, err
	}
	if charset != "" && !strings.EqualFold(charset, "utf-8") {
		return nil, fmt.Errorf("digest-md5: unknown charset %q", charset)
	}
	newCNonce := c.CNonce
	if newCNonce == nil {
		newCNonce = randomNonce
	}
	cnonce, err := newCNonce()
	if err != nil {
		return nil, err
	}
	s := &session{
		username:  c.Username,
		realm:     d.get("realm"),
		password:  c.Password,
		nonce:     nonce,
		cnonce:    cnonce,
		digestURI: c.Protocol + "/" + c.ServerName,
		utf8:      charset != "",
	}
	c.sess = s
	var b strings.Builder
	if s.utf8 {
		b.WriteString("charset=utf-8,")
	}
	fmt.Fprintf(&b, "username=%s,realm=%s,nonce=%s,nc=%s,cnonce=%s,digest-uri=%s,maxbuf=%s,response=%s,qop=%s",
		quote(s.username), quote(s.realm), quote(s.nonce), nonceCount, quote(s.cnonce),
		quote(s.digestURI), maxBuf, s.digest("AUTHENTICATE"), QopAuth)
	return []byte(b.String()), nil
}

// Verify checks the server's final message ("rspauth=..."), which proves
// the server knows the password too.
func (c *Client) Verify(final []byte) error {
	if c.sess == nil {
		return errors.New("digest-md5: Verify called before Respond")
	}
	d, err := parseDirectives(string(final))
	if err != nil {
		return err
	}
	got, err := d.once("rspauth")
	if err != nil {
		return err
	}
	want := c.sess.digest("")
	if subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		return fmt.Errorf("%w: server rspauth does not match", ErrAuthFailed)
	}
	return nil
}
