package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/spnego"
)

// Authentication schemes of the client (the CLI's -auth values).
const (
	AuthSimple   = "SIMPLE"
	AuthKerberos = "KERBEROS"
)

// authCookie is the server's signed token cookie, as in Hadoop.
const authCookie = "hadoop.auth"

// Auth says how an AuthTransport authenticates, as Oozie's client does.
type Auth struct {
	// Type is AuthSimple (the default when empty) or AuthKerberos.
	Type string
	// User is sent as user.name on every request (Hadoop's PseudoAuthenticator); empty
	// sends none (an anonymous request). A kerberized server ignores it; under AuthKerberos
	// it serves a server that does not ask to negotiate, as Hadoop's Kerberos client falls
	// back to pseudo authentication.
	User string
	// DoAs, if set, is sent as doAs on every request: the server acts as that user when
	// the authenticated user is a proxy user allowed to.
	DoAs string
	// Kerberos returns the logged-in Kerberos client under AuthKerberos. It is called once,
	// when the server first asks to negotiate, so a cached token spares the ticket lookup.
	Kerberos func() (*krbclient.Client, error)
	// SPN is the server's service principal; empty means HTTP/<host of the URL>.
	SPN string
	// Tokens keeps the hadoop.auth tokens the server hands out, per server, across
	// processes; nil keeps them for the transport's lifetime only.
	Tokens *TokenCache
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper
}

// AuthTransport is an http.RoundTripper that authenticates every request as configured by
// Auth: user.name (SIMPLE) or SPNEGO when the server answers 401 Negotiate (KERBEROS), then
// the hadoop.auth cookie the server sets, and doAs.
type AuthTransport struct {
	cfg Auth

	mu     sync.Mutex
	krb    *krbclient.Client
	krbErr error
	tokens map[string]string // origin → token, when cfg.Tokens is nil
}

// NewAuthTransport checks a and returns its transport.
func NewAuthTransport(a Auth) (*AuthTransport, error) {
	switch strings.ToUpper(a.Type) {
	case "", AuthSimple:
		a.Type = AuthSimple
	case AuthKerberos:
		a.Type = AuthKerberos
		if a.Kerberos == nil {
			return nil, errors.New("kerberos authentication needs a Kerberos client")
		}
	default:
		return nil, fmt.Errorf("authentication type %q is not supported (want %s or %s)", a.Type, AuthSimple, AuthKerberos)
	}
	if a.Base == nil {
		a.Base = http.DefaultTransport
	}
	return &AuthTransport{cfg: a, tokens: map[string]string{}}, nil
}

// RoundTrip sends req with the configured credentials. Under Kerberos it answers a 401
// Negotiate challenge once per request with a fresh SPNEGO token, resending the body.
func (t *AuthTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	q := r.URL.Query()
	if t.cfg.DoAs != "" {
		q.Set("doAs", t.cfg.DoAs)
	}
	if t.cfg.User != "" {
		q.Set("user.name", t.cfg.User)
	}
	r.URL.RawQuery = q.Encode()
	if t.cfg.Type == AuthSimple {
		return t.cfg.Base.RoundTrip(r)
	}

	// The body may be sent twice: keep it.
	if r.Body != nil && r.Body != http.NoBody && r.GetBody == nil {
		b, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("reading the request body: %w", err)
		}
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		r.Body, _ = r.GetBody()
	}
	origin := r.URL.Scheme + "://" + r.URL.Host
	if tok := t.token(origin); tok != "" {
		r.AddCookie(&http.Cookie{Name: authCookie, Value: tok})
	}
	resp, err := t.cfg.Base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	t.remember(origin, resp) // a refused token is cleared here
	if resp.StatusCode != http.StatusUnauthorized || !challenged(resp) {
		return resp, nil
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()

	again := req.Clone(req.Context())
	again.URL.RawQuery = r.URL.RawQuery
	if r.GetBody != nil {
		if again.Body, err = r.GetBody(); err != nil {
			return nil, fmt.Errorf("resending the request body: %w", err)
		}
	}
	if err := t.negotiate(again); err != nil {
		return nil, err
	}
	resp, err = t.cfg.Base.RoundTrip(again)
	if err != nil {
		return nil, err
	}
	t.remember(origin, resp)
	return resp, nil
}

// challenged reports whether a 401 answer asks for SPNEGO.
func challenged(resp *http.Response) bool {
	for _, v := range resp.Header.Values("WWW-Authenticate") {
		if scheme, _, _ := strings.Cut(strings.TrimSpace(v), " "); strings.EqualFold(scheme, "Negotiate") {
			return true
		}
	}
	return false
}

// negotiate sets the Authorization header of r to a fresh SPNEGO token.
func (t *AuthTransport) negotiate(r *http.Request) error {
	cl, err := t.kerberos()
	if err != nil {
		return err
	}
	spn := t.cfg.SPN
	if spn == "" {
		spn = "HTTP/" + strings.ToLower(r.URL.Hostname())
		if ip := net.ParseIP(r.URL.Hostname()); ip != nil {
			// Service principals name hosts; find the name of an address.
			if names, err := net.DefaultResolver.LookupAddr(r.Context(), ip.String()); err == nil && len(names) > 0 {
				spn = "HTTP/" + strings.ToLower(strings.TrimSuffix(names[0], "."))
			}
		}
	}
	if err := spnego.SetSPNEGOHeader(cl, r, spn); err != nil {
		return fmt.Errorf("kerberos authentication to %s as %s: %w", spn, cl.Credentials.UserName(), err)
	}
	return nil
}

// kerberos returns the Kerberos client, made on first use.
func (t *AuthTransport) kerberos() (*krbclient.Client, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.krb == nil && t.krbErr == nil {
		t.krb, t.krbErr = t.cfg.Kerberos()
		if t.krbErr == nil && t.krb == nil {
			t.krbErr = errors.New("no Kerberos client")
		}
	}
	return t.krb, t.krbErr
}

// token returns the known token of a server, "" if none.
func (t *AuthTransport) token(origin string) string {
	if t.cfg.Tokens != nil {
		return t.cfg.Tokens.Get(origin)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tokens[origin]
}

// remember keeps the token a response sets, or forgets the one it clears.
func (t *AuthTransport) remember(origin string, resp *http.Response) {
	for _, c := range resp.Cookies() {
		if c.Name != authCookie {
			continue
		}
		value := c.Value
		if c.MaxAge < 0 {
			value = ""
		}
		if t.cfg.Tokens != nil {
			// A token that cannot be saved only costs a negotiation next time.
			_ = t.cfg.Tokens.Put(origin, value)
			continue
		}
		t.mu.Lock()
		if value == "" {
			delete(t.tokens, origin)
		} else {
			t.tokens[origin] = value
		}
		t.mu.Unlock()
	}
}
