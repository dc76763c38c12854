package yarn

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/spnego"
)

// AuthCookie is the cookie in which Hadoop's AuthenticationFilter hands
// out its signed authentication token (AuthenticatedURL.AUTH_COOKIE).
const AuthCookie = "hadoop.auth"

// SessionAuthenticator is an [Authenticator] that keeps state from the
// ResourceManager's answers, such as the hadoop.auth cookie of a SPNEGO
// session. The [Client] shows it every answer to a request it
// authenticated; when Answered returns true, the client sends the request
// once more, authenticated afresh (and no more than once).
type SessionAuthenticator interface {
	Authenticator
	Answered(req *http.Request, resp *http.Response) (retry bool)
}

// SPNEGOAuth authenticates to a Kerberized ResourceManager as Hadoop's
// KerberosAuthenticator does: the first request to an RM carries
// "Authorization: Negotiate <token>" for the RM's HTTP service principal,
// later ones the hadoop.auth cookie the RM set, so one negotiation serves
// until the cookie expires. A 401 Negotiate challenge (an expired or
// refused cookie) drops the cookie and the request is sent once more with
// a fresh token. The [Client] adds doAs for requests made for another user
// than the principal's short name. It is safe for concurrent use.
type SPNEGOAuth struct {
	krb       *krbclient.Client
	principal string
	user      string

	mu      sync.Mutex
	cookies map[string]string // RM host:port → hadoop.auth token
}

var (
	_ SessionAuthenticator = (*SPNEGOAuth)(nil)
	_ Identity             = (*SPNEGOAuth)(nil)
)

// NewSPNEGOAuth returns an authenticator that negotiates as the logged-in
// client krb (see hadoop/krblogin, which keeps it logged in). principal is
// the RMs' SPNEGO principal (yarn.resourcemanager.webapp.spnego-principal,
// e.g. "HTTP/_HOST@EXAMPLE.COM"), _HOST standing for the host of each RM's
// web address in lower case; empty means HTTP/<that host>, what Hadoop's
// clients ask for.
func NewSPNEGOAuth(krb *krbclient.Client, principal string) (*SPNEGOAuth, error) {
	if krb == nil || krb.Credentials == nil {
		return nil, errors.New("SPNEGO authentication needs a logged-in Kerberos client")
	}
	name, _, _ := strings.Cut(krb.Credentials.UserName(), "/")
	return &SPNEGOAuth{krb: krb, principal: principal, user: name, cookies: map[string]string{}}, nil
}

// AuthenticatedUser implements [Identity]: the principal's short name
// (Hadoop's DEFAULT rule, the first component), as the RM sees it.
func (a *SPNEGOAuth) AuthenticatedUser() string { return a.user }

// Authenticate implements [Authenticator].
func (a *SPNEGOAuth) Authenticate(req *http.Request) error {
	a.mu.Lock()
	tok := a.cookies[req.URL.Host]
	a.mu.Unlock()
	if tok != "" {
		req.AddCookie(&http.Cookie{Name: AuthCookie, Value: tok})
		return nil
	}
	spn := a.servicePrincipal(req.URL.Hostname())
	if err := spnego.SetSPNEGOHeader(a.krb, req, spn); err != nil {
		return fmt.Errorf("SPNEGO toward %s: %w", spn, err)
	}
	return nil
}

// servicePrincipal is the principal to ask a ticket for, without realm
// (the client's realm or its domain_realm mapping decides it).
func (a *SPNEGOAuth) servicePrincipal(host string) string {
	host = strings.ToLower(host)
	if a.principal == "" {
		return "HTTP/" + host
	}
	p, _, _ := strings.Cut(strings.ReplaceAll(a.principal, "_HOST", host), "@")
	return p
}

// Answered implements [SessionAuthenticator]: it keeps the hadoop.auth
// cookie the RM sets (an empty one clears it, as the RM's filter does on
// a refusal) and asks for one more try on a Negotiate challenge.
func (a *SPNEGOAuth) Answered(req *http.Request, resp *http.Response) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, c := range resp.Cookies() {
		if c.Name != AuthCookie {
			continue
		}
		if v := strings.Trim(c.Value, `"`); v != "" && c.MaxAge >= 0 {
			a.cookies[req.URL.Host] = v
		} else {
			delete(a.cookies, req.URL.Host)
		}
	}
	if resp.StatusCode != http.StatusUnauthorized || !negotiateChallenge(resp) {
		return false
	}
	delete(a.cookies, req.URL.Host)
	return true
}

// negotiateChallenge reports whether an answer asks for SPNEGO.
func negotiateChallenge(resp *http.Response) bool {
	for _, v := range resp.Header.Values("WWW-Authenticate") {
		scheme, _, _ := strings.Cut(strings.TrimSpace(v), " ")
		if strings.EqualFold(scheme, "Negotiate") {
			return true
		}
	}
	return false
}
