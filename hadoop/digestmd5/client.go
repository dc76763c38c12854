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
	// Qops lists the qualities of protection the client accepts, most
	// preferred first; Respond picks the first one the server offers, as
	// Java's client does with the javax.security.sasl.qop list Hadoop
	// builds from hadoop.rpc.protection. Empty means QopAuth only.
	Qops []string
	// Ciphers lists the auth-conf ciphers the client accepts, most
	// preferred first; empty means DefaultCiphers.
	Ciphers []string
	// MaxBuf is the largest security-layer message the client receives,
	// sent as maxbuf; 0 means DefaultMaxBuf.
	MaxBuf int
	// CNonce, if set, returns the client nonce (tests make it fixed);
	// otherwise a random one is generated.
	CNonce func() (string, error)

	sess    *session
	cipher  string
	sendMax int // the server's maxbuf
	layer   *SecurityLayer
	done    bool
}

// Respond answers the server's challenge with the digest-response. It
// picks the quality of protection (and cipher) and fails with
// ErrNoCommonQop when the server offers none the client accepts.
func (c *Client) Respond(challenge []byte) ([]byte, error) {
	if c.sess != nil {
		return nil, errors.New("digest-md5: Respond called twice")
	}
	qops, ciphers, err := checkLists(c.Qops, c.Ciphers)
	if err != nil {
		return nil, err
	}
	maxBuf, err := checkMaxBuf(c.MaxBuf)
	if err != nil {
		return nil, err
	}
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
	charset, err := d.once("charset")
	if err != nil {
		return nil, err
	}
	if charset != "" && !strings.EqualFold(charset, "utf-8") {
		return nil, fmt.Errorf("digest-md5: unknown charset %q", charset)
	}
	// A missing qop means "auth"; repeated qop directives are merged.
	offered := []string{QopAuth}
	if d.has("qop") {
		offered = splitList(strings.Join(d["qop"], ","))
	}
	qop := ""
	for _, q := range qops {
		if slices.Contains(offered, q) {
			qop = q
			break
		}
	}
	if qop == "" {
		return nil, fmt.Errorf("%w: the server offers qop %q, the client accepts %q",
			ErrNoCommonQop, strings.Join(offered, ","), strings.Join(qops, ","))
	}
	cipher := ""
	if qop == QopAuthConf {
		cs, err := d.once("cipher")
		if err != nil {
			return nil, err
		}
		offeredCiphers := splitList(cs)
		for _, want := range ciphers {
			if slices.Contains(offeredCiphers, want) {
				cipher = want
				break
			}
		}
		if cipher == "" {
			return nil, fmt.Errorf("%w: the server offers ciphers %q for auth-conf, the client accepts %q",
				ErrNoCommonQop, cs, strings.Join(ciphers, ","))
		}
	}
	sendMax, err := parseMaxBuf(d)
	if err != nil {
		return nil, err
	}
	if qop != QopAuth && sendMax <= overhead(qop) {
		return nil, fmt.Errorf("digest-md5: server maxbuf %d leaves no room for a %s message", sendMax, qop)
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
		qop:       qop,
		utf8:      charset != "",
	}
	c.sess, c.cipher, c.sendMax = s, cipher, sendMax
	var b strings.Builder
	if s.utf8 {
		b.WriteString("charset=utf-8,")
	}
	fmt.Fprintf(&b, "username=%s,realm=%s,nonce=%s,nc=%s,cnonce=%s,digest-uri=%s,maxbuf=%d,response=%s,qop=%s",
		quote(s.username), quote(s.realm), quote(s.nonce), nonceCount, quote(s.cnonce),
		quote(s.digestURI), maxBuf, s.digest("AUTHENTICATE"), qop)
	if cipher != "" {
		fmt.Fprintf(&b, ",cipher=%s", cipher)
	}
	return []byte(b.String()), nil
}

// Verify checks the server's final message ("rspauth=..."), which proves
// the server knows the password too. After it succeeded, SecurityLayer
// returns the negotiated layer.
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
	if !c.done && c.sess.qop != QopAuth {
		c.layer = newSecurityLayer(c.sess, c.cipher, true, c.sendMax)
	}
	c.done = true
	return nil
}

// Qop returns the quality of protection Respond chose ("" before).
func (c *Client) Qop() string {
	if c.sess == nil {
		return ""
	}
	return c.sess.qop
}

// SecurityLayer returns the integrity or confidentiality layer once
// Verify succeeded, or nil when the qop is auth (or before).
func (c *Client) SecurityLayer() *SecurityLayer { return c.layer }
