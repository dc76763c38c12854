package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// CookieName is the cookie that carries a signed authentication token, as in Hadoop.
const CookieName = "hadoop.auth"

// Token is the content of the hadoop.auth cookie.
type Token struct {
	// User is the short user name.
	User string
	// Principal is the authenticated principal: the Kerberos principal, or the user name
	// under simple authentication.
	Principal string
	// Type is the scheme that authenticated the user, TypeSimple or TypeKerberos.
	Type string
	// Expires is when the token stops being accepted (millisecond precision).
	Expires time.Time
}

// Token parts, in Hadoop's names.
const (
	tokenUser      = "u"
	tokenPrincipal = "p"
	tokenType      = "t"
	tokenExpires   = "e"
	tokenSignature = "&s="
)

// errTokenChars refuses values that would break the token's key=value&... text.
var errTokenChars = errors.New("token values must not contain '&', '=' or control characters")

// String returns the unsigned token text, u=<user>&p=<principal>&t=<type>&e=<ms>.
func (t Token) String() string {
	return tokenUser + "=" + t.User + "&" + tokenPrincipal + "=" + t.Principal + "&" +
		tokenType + "=" + t.Type + "&" + tokenExpires + "=" + strconv.FormatInt(t.Expires.UnixMilli(), 10)
}

// signer signs and verifies tokens with one secret.
type signer struct{ secret []byte }

// signature returns the base64 HMAC-SHA256 of text.
func (s signer) signature(text string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(text))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// sign returns the cookie value of t: its text, "&s=" and the signature.
func (s signer) sign(t Token) (string, error) {
	for _, v := range []string{t.User, t.Principal, t.Type} {
		if v == "" || strings.ContainsAny(v, "&=\";\\,") || strings.ContainsFunc(v, isControlOrSpace) {
			return "", errTokenChars
		}
	}
	text := t.String()
	return text + tokenSignature + s.signature(text), nil
}

// isControlOrSpace reports runes that cannot travel in a cookie value.
func isControlOrSpace(r rune) bool { return r <= ' ' || r == 0x7f }

// verify checks the signature of a cookie value and returns its token. It does not look at
// the expiry or the type.
func (s signer) verify(value string) (Token, error) {
	value = strings.Trim(value, `"`)
	i := strings.LastIndex(value, tokenSignature)
	if i < 0 {
		return Token{}, errors.New("unsigned token")
	}
	text, sig := value[:i], value[i+len(tokenSignature):]
	if !hmac.Equal([]byte(sig), []byte(s.signature(text))) {
		return Token{}, errors.New("invalid token signature")
	}
	return ParseToken(text)
}

// ParseToken parses the unsigned token text u=...&p=...&t=...&e=... (any order, each part
// once, nothing else).
func ParseToken(text string) (Token, error) {
	var t Token
	seen := map[string]bool{}
	for _, part := range strings.Split(text, "&") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return Token{}, fmt.Errorf("invalid token part %q", part)
		}
		if seen[k] {
			return Token{}, fmt.Errorf("token part %q given twice", k)
		}
		seen[k] = true
		switch k {
		case tokenUser:
			t.User = v
		case tokenPrincipal:
			t.Principal = v
		case tokenType:
			t.Type = v
		case tokenExpires:
			ms, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return Token{}, fmt.Errorf("invalid token expiry %q", v)
			}
			t.Expires = time.UnixMilli(ms)
		default:
			return Token{}, fmt.Errorf("unknown token part %q", k)
		}
	}
	if len(seen) != 4 || t.User == "" || t.Type == "" {
		return Token{}, errors.New("incomplete token: want u, p, t and e")
	}
	return t, nil
}
