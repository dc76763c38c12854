package auth_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/keytab"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server/auth"
)

func TestParseToken(t *testing.T) {
	t.Parallel()
	exp := time.UnixMilli(1767225600123)
	for _, c := range []struct {
		text string
		want auth.Token
		ok   bool
	}{
		{"u=joe&p=joe&t=simple&e=1767225600123", auth.Token{User: "joe", Principal: "joe", Type: "simple", Expires: exp}, true},
		{"e=1767225600123&t=kerberos&p=alice@TEST.LOCAL&u=alice",
			auth.Token{User: "alice", Principal: "alice@TEST.LOCAL", Type: "kerberos", Expires: exp}, true},
		{"u=joe&p=&t=simple&e=1767225600123", auth.Token{User: "joe", Type: "simple", Expires: exp}, true},
		{"u=joe&p=joe&t=simple", auth.Token{}, false},                           // no expiry
		{"u=joe&p=joe&t=simple&e=soon", auth.Token{}, false},                    // bad expiry
		{"u=joe&p=joe&t=simple&e=1&x=1", auth.Token{}, false},                   // unknown part
		{"u=joe&u=root&p=joe&t=simple&e=1", auth.Token{}, false},                // repeated part
		{"u=&p=joe&t=simple&e=1", auth.Token{}, false},                          // no user
		{"u=joe&p=joe&t=&e=1", auth.Token{}, false},                             // no type
		{"u=joe&p=joe&t=simple&e=1&", auth.Token{}, false},                      // empty part
		{"", auth.Token{}, false},                                               // nothing
		{"u=joe&p=joe&t=simple&e=1767225600123&s=abc", auth.Token{}, false},     // signature is not token text
		{"ujoe&p=joe&t=simple&e=1767225600123", auth.Token{}, false},            // part without '='
		{"u=joe&p=joe&t=simple&e=99999999999999999999999", auth.Token{}, false}, // expiry overflows
	} {
		got, err := auth.ParseToken(c.text)
		if (err == nil) != c.ok || (c.ok && !tokensEqual(got, c.want)) {
			t.Errorf("ParseToken(%q) = %+v, %v; want %+v, ok=%v", c.text, got, err, c.want, c.ok)
		}
	}
}

func tokensEqual(a, b auth.Token) bool {
	return a.User == b.User && a.Principal == b.Principal && a.Type == b.Type && a.Expires.Equal(b.Expires)
}

func TestTokenString(t *testing.T) {
	t.Parallel()
	tok := auth.Token{User: "alice", Principal: "alice@TEST.LOCAL", Type: auth.TypeKerberos, Expires: time.UnixMilli(42)}
	if got, want := tok.String(), "u=alice&p=alice@TEST.LOCAL&t=kerberos&e=42"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// FuzzParseToken checks that ParseToken never panics and that what it accepts prints back
// to the same token.
func FuzzParseToken(f *testing.F) {
	f.Add("u=joe&p=joe&t=simple&e=1767225600123")
	f.Add("u=a=b&p=&t=kerberos&e=-5")
	f.Fuzz(func(t *testing.T, text string) {
		tok, err := auth.ParseToken(text)
		if err != nil {
			return
		}
		again, err := auth.ParseToken(tok.String())
		if err != nil || !tokensEqual(again, tok) {
			t.Fatalf("%q parsed to %+v, which prints as %q and parses to %+v, %v", text, tok, tok.String(), again, err)
		}
	})
}

// FuzzCookie sends arbitrary hadoop.auth cookies: none may authenticate (the secret is
// random) and none may break the request.
func FuzzCookie(f *testing.F) {
	f.Add("u=root&p=root&t=simple&e=99999999999999&s=AAAA")
	f.Add(`"u=root&p=root&t=simple&e=1&s="`)
	f.Add("&s=&s=")
	a, err := auth.New(auth.Config{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, value string) {
		r, _ := http.NewRequest(http.MethodGet, "/oozie/v2/jobs", nil)
		r.Header.Set("Cookie", auth.CookieName+"="+value)
		id, err := a.Authenticate(nopWriter{http.Header{}}, r)
		if err != nil || id != (auth.Identity{}) {
			t.Fatalf("cookie %q: identity %+v, error %v; want anonymous", value, id, err)
		}
	})
}

// FuzzNegotiate sends arbitrary SPNEGO tokens to a kerberos authenticator whose keytab is
// made up here: every one is refused with 401, none panics.
func FuzzNegotiate(f *testing.F) {
	f.Add("YIIBhgYGKwYBBQUCoIIBejCCAXagDTALBgkqhkiG9xIBAgKiggFjBIIBX2CCAVsGCSqGSIb3EgECAgEA")
	f.Add("oQcwBaADCgEC")
	f.Add("")
	kt := keytab.New()
	if err := kt.AddEntry("HTTP/localhost", "TEST.LOCAL", "made-up", time.Now(), 1, etypeID.AES256_CTS_HMAC_SHA1_96); err != nil {
		f.Fatal(err)
	}
	b, err := kt.Marshal()
	if err != nil {
		f.Fatal(err)
	}
	ktFile := filepath.Join(f.TempDir(), "http.keytab")
	if err := os.WriteFile(ktFile, b, 0o600); err != nil {
		f.Fatal(err)
	}
	a, err := auth.New(auth.Config{Type: auth.TypeKerberos, KeytabFile: ktFile, Principal: "HTTP/localhost"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, token string) {
		r, _ := http.NewRequest(http.MethodGet, "/oozie/v2/jobs", nil)
		r.RemoteAddr = "127.0.0.1:40000"
		r.Header.Set("Authorization", "Negotiate "+token)
		w := nopWriter{http.Header{}}
		_, err := a.Authenticate(w, r)
		var ae *auth.Error
		if err == nil || !asAuthError(err, &ae) || ae.Status != http.StatusUnauthorized || ae.Code != oozieerr.E0500 {
			t.Fatalf("token %q: error %v, want 401 E0500", token, err)
		}
		if got := w.h.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Negotiate") {
			t.Fatalf("token %q: WWW-Authenticate %q", token, got)
		}
	})
}

func asAuthError(err error, target **auth.Error) bool {
	e, ok := err.(*auth.Error)
	*target = e
	return ok
}
