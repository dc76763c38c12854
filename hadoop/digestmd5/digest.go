package digestmd5

import (
	"crypto/md5"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Qualities of protection (RFC 2831 qop-value). Hadoop maps
// hadoop.rpc.protection onto them: authentication is QopAuth, integrity
// QopAuthInt, privacy QopAuthConf.
const (
	// QopAuth is authentication only: no security layer, later messages
	// travel as they are.
	QopAuth = "auth"
	// QopAuthInt adds the integrity layer: every later message carries an
	// HMAC-MD5 and a sequence number.
	QopAuthInt = "auth-int"
	// QopAuthConf adds the confidentiality layer: every later message is
	// also encrypted with the negotiated cipher.
	QopAuthConf = "auth-conf"
)

// Ciphers of the confidentiality layer (RFC 2831 cipher-value), all of
// which Java's DIGEST-MD5 (com.sun.security.sasl.digest) offers.
const (
	// Cipher3DES is two-key triple DES in CBC mode: Java's first pick,
	// and so what a default Hadoop client and server agree on.
	Cipher3DES = "3des"
	// CipherRC4 is RC4 with a 128-bit key.
	CipherRC4 = "rc4"
	// CipherDES is single DES in CBC mode.
	CipherDES = "des"
	// CipherRC456 is RC4 keyed from 56 bits of the session key.
	CipherRC456 = "rc4-56"
	// CipherRC440 is RC4 keyed from 40 bits of the session key.
	CipherRC440 = "rc4-40"
)

// DefaultCiphers are the ciphers a Server offers and a Client accepts when
// none are configured, in Java's order: the order its server names them
// in, and, strongest first, the order its client picks them in.
var DefaultCiphers = []string{Cipher3DES, CipherRC4, CipherDES, CipherRC456, CipherRC440}

// DefaultMaxBuf is the maxbuf a peer assumes when the other names none:
// the largest security-layer message it receives (RFC 2831).
const DefaultMaxBuf = 65536

const (
	// algorithm is the only algorithm RFC 2831 defines.
	algorithm = "md5-sess"
	// nonceCount is always 1: Hadoop never re-authenticates a connection.
	nonceCount = "00000001"
	// maxMaxBuf is the largest maxbuf RFC 2831 allows.
	maxMaxBuf = 1<<24 - 1
	// layerA2Suffix ends A2 when a security layer is negotiated.
	layerA2Suffix = ":00000000000000000000000000000000"
)

// ErrNoCommonQop reports a client and a server that share no quality of
// protection (or, for auth-conf, no cipher): on a Hadoop cluster, a client
// whose hadoop.rpc.protection the server does not offer.
var ErrNoCommonQop = errors.New("digest-md5: no common quality of protection")

// session holds the values both sides hash.
type session struct {
	username, realm, password string
	nonce, cnonce, authzid    string
	digestURI                 string
	qop                       string
	utf8                      bool
	hA1                       []byte // H(A1), once computed
}

// encode converts v to the bytes RFC 2831 hashes (section 2.1.2.1): ISO
// 8859-1 when every character fits in it, UTF-8 otherwise. Java does the
// same when charset=utf-8 was offered, which Hadoop always does.
func encode(v string) []byte {
	if !utf8.ValidString(v) {
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

// ha1 is H(A1) for md5-sess: MD5 of { H(user:realm:password), ":", nonce,
// ":", cnonce [, ":", authzid] }. The integrity and confidentiality keys
// are derived from it.
func (s *session) ha1() []byte {
	if s.hA1 != nil {
		return s.hA1
	}
	inner := md5.New()
	inner.Write(encode(s.username))
	inner.Write([]byte(":"))
	inner.Write(encode(s.realm))
	inner.Write([]byte(":"))
	inner.Write(encode(s.password))
	a1 := md5.New()
	a1.Write(inner.Sum(nil))
	fmt.Fprintf(a1, ":%s:%s", s.nonce, s.cnonce)
	if s.authzid != "" {
		fmt.Fprintf(a1, ":%s", s.authzid)
	}
	s.hA1 = a1.Sum(nil)
	return s.hA1
}

// digest computes the response value; prefix is "AUTHENTICATE" for the
// client's response and "" for the server's rspauth. With a security layer
// A2 ends in ":" and 32 zeros, and the qop is part of the hashed value.
func (s *session) digest(prefix string) string {
	a2 := prefix + ":" + s.digestURI
	if s.qop == QopAuthInt || s.qop == QopAuthConf {
		a2 += layerA2Suffix
	}
	ha2 := md5.Sum([]byte(a2))
	kd := md5.Sum([]byte(hex.EncodeToString(s.ha1()) + ":" + s.nonce + ":" + nonceCount + ":" + s.cnonce + ":" +
		s.qop + ":" + hex.EncodeToString(ha2[:])))
	return hex.EncodeToString(kd[:])
}

// parseMaxBuf reads a maxbuf directive; absent means DefaultMaxBuf.
func parseMaxBuf(d directives) (int, error) {
	v, err := d.once("maxbuf")
	if err != nil || !d.has("maxbuf") {
		return DefaultMaxBuf, err
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 || n > maxMaxBuf {
		return 0, fmt.Errorf("digest-md5: maxbuf %q is not a number from 1 to %d", v, maxMaxBuf)
	}
	return n, nil
}

// knownQop reports whether q is one of the three qualities of protection.
func knownQop(q string) bool { return q == QopAuth || q == QopAuthInt || q == QopAuthConf }

// knownCipher reports whether c is a cipher this package implements.
func knownCipher(c string) bool { return slices.Contains(DefaultCiphers, c) }

// checkMaxBuf validates a configured maxbuf (0 means the default).
func checkMaxBuf(n int) (int, error) {
	switch {
	case n == 0:
		return DefaultMaxBuf, nil
	case n < 0 || n > maxMaxBuf:
		return 0, fmt.Errorf("digest-md5: MaxBuf %d is not from 1 to %d", n, maxMaxBuf)
	}
	return n, nil
}

// checkLists validates configured qops and ciphers and applies defaults.
func checkLists(qops, ciphers []string) ([]string, []string, error) {
	if len(qops) == 0 {
		qops = []string{QopAuth}
	}
	for _, q := range qops {
		if !knownQop(q) {
			return nil, nil, fmt.Errorf("digest-md5: unknown qop %q", q)
		}
	}
	if len(ciphers) == 0 {
		ciphers = DefaultCiphers
	}
	for _, c := range ciphers {
		if !knownCipher(c) {
			return nil, nil, fmt.Errorf("digest-md5: unknown cipher %q", c)
		}
	}
	return qops, ciphers, nil
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
