package digestmd5

import (
	"crypto/md5"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"unicode/utf8"
)

const (
	// QopAuth is the only quality of protection this package negotiates:
	// authentication without a security layer.
	QopAuth = "auth"
	// algorithm is the only algorithm RFC 2831 defines.
	algorithm = "md5-sess"
	// nonceCount is always 1: Hadoop never re-authenticates a connection.
	nonceCount = "00000001"
	// maxBuf is the receive buffer size advertised by the client.
	maxBuf = "65536"
)

// session holds the values both sides hash.
type session struct {
	username, realm, password string
	nonce, cnonce, authzid    string
	digestURI                 string
	utf8                      bool
}

// encode converts s to the charset the peers agreed on: UTF-8 when the
// server offered charset=utf-8, otherwise ISO 8859-1 when s fits in it.
func (s *session) encode(v string) []byte {
	if s.utf8 || !utf8.ValidString(v) {
		return []byte(v)
	}
	out := make([]byte, 0, len(v))
	for _, r := range v {
		if r > 0xff {
			return []byte(v)
		}
		out = append(out, byte(r))
	}
	return out
}

// ha1 is HEX(H(A1)) for md5-sess.
func (s *session) ha1() string {
	inner := md5.New()
	inner.Write(s.encode(s.username))
	inner.Write([]byte(":"))
	inner.Write(s.encode(s.realm))
	inner.Write([]byte(":"))
	inner.Write(s.encode(s.password))
	a1 := md5.New()
	a1.Write(inner.Sum(nil))
	fmt.Fprintf(a1, ":%s:%s", s.nonce, s.cnonce)
	if s.authzid != "" {
		fmt.Fprintf(a1, ":%s", s.authzid)
	}
	return hex.EncodeToString(a1.Sum(nil))
}

// digest computes the response value; prefix is "AUTHENTICATE" for the
// client's response and "" for the server's rspauth.
func (s *session) digest(prefix string) string {
	ha2 := md5.Sum([]byte(prefix + ":" + s.digestURI))
	kd := md5.Sum([]byte(s.ha1() + ":" + s.nonce + ":" + nonceCount + ":" + s.cnonce + ":" +
		QopAuth + ":" + hex.EncodeToString(ha2[:])))
	return hex.EncodeToString(kd[:])
}

// randomNonce returns a fresh random nonce made of quoted-string-safe
// characters.
func randomNonce() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("digest-md5: generating nonce: %w", err)
	}
	return base64.StdEncoding.EncodeToString(b), nil
}
