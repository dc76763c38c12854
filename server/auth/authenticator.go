package auth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"
)

// Authentication schemes (gozie.http.authentication.type), also the t= of a token.
const (
	TypeSimple   = "simple"
	TypeKerberos = "kerberos"
)

// Defaults of Config.
const (
	// DefaultValidity is how long a token stays valid: Oozie's 36000 seconds.
	DefaultValidity = 36000 * time.Second
	// DefaultPrincipal is the SPNEGO service principal, HTTP/<this host> in any realm.
	DefaultPrincipal = "HTTP/_HOST"
)

// Config configures an Authenticator.
type Config struct {
	// Type is TypeSimple (the default when empty) or TypeKerberos.
	Type string
	// DenyAnonymous refuses simple-authentication requests without user.name (401)
	// instead of serving them as anonymous (Oozie's anonymous.allowed=false).
	DenyAnonymous bool
	// KeytabFile holds the key of Principal; required for TypeKerberos.
	KeytabFile string
	// Principal is the SPNEGO service principal: HTTP/<host>[@REALM], where _HOST stands
	// for Hostname, or "*" for every HTTP/ principal of the keytab. Empty means
	// DefaultPrincipal.
	Principal string
	// Hostname replaces _HOST in Principal; empty means os.Hostname.
	Hostname string
	// Secret signs the hadoop.auth cookie; empty means 32 random bytes, which only this
	// process can verify.
	Secret []byte
	// Validity is how long a token stays valid; zero means DefaultValidity.
	Validity time.Duration
	// ProxyUsers may act for other users with doAs.
	ProxyUsers []ProxyUser
	// Groups returns the groups of a user, for proxy-user checks; nil means the operating
	// system's (os/user).
	Groups func(user string) ([]string, error)
	// LookupHost resolves the host names of ProxyUsers; nil means net.DefaultResolver.
	LookupHost func(ctx context.Context, host string) ([]string, error)
	// Now is the clock of token expiry; nil means time.Now.
	Now func() time.Time
	// Logger receives refusals at debug level and setup problems; nil discards.
	Logger *slog.Logger
}

// Authenticator authenticates requests by one scheme. It is safe for concurrent use.
type Authenticator struct {
	typ           string
	denyAnonymous bool
	kerberos      *acceptor
	signer        signer
	validity      time.Duration
	proxy         map[string]proxyRule
	groups        func(string) ([]string, error)
	lookupHost    func(context.Context, string) ([]string, error)
	now           func() time.Time
	log           *slog.Logger
}

// New checks cfg, loads the keytab of kerberos authentication and returns the
// Authenticator.
func New(cfg Config) (*Authenticator, error) {
	a := &Authenticator{
		typ: cfg.Type, denyAnonymous: cfg.DenyAnonymous, validity: cfg.Validity,
		groups: cfg.Groups, lookupHost: cfg.LookupHost, now: cfg.Now, log: cfg.Logger,
	}
	if a.typ == "" {
		a.typ = TypeSimple
	}
	if a.validity <= 0 {
		a.validity = DefaultValidity
	}
	if a.groups == nil {
		a.groups = osGroups
	}
	if a.lookupHost == nil {
		a.lookupHost = net.DefaultResolver.LookupHost
	}
	if a.now == nil {
		a.now = time.Now
	}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	a.signer.secret = cfg.Secret
	if len(a.signer.secret) == 0 {
		a.signer.secret = make([]byte, 32)
		if _, err := rand.Read(a.signer.secret); err != nil {
			return nil, fmt.Errorf("making a token secret: %w", err)
		}
	}
	var err error
	if a.proxy, err = newProxyRules(cfg.ProxyUsers); err != nil {
		return nil, err
	}
	switch a.typ {
	case TypeSimple:
	case TypeKerberos:
		principal, host := cfg.Principal, cfg.Hostname
		if principal == "" {
			principal = DefaultPrincipal
		}
		if host == "" {
			if host, err = os.Hostname(); err != nil {
				return nil, fmt.Errorf("finding the host name for %s: %w", principal, err)
			}
		}
		if a.kerberos, err = newAcceptor(cfg.KeytabFile, principal, host, a.log); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown authentication type %q (want %s or %s)", a.typ, TypeSimple, TypeKerberos)
	}
	return a, nil
}

// Type returns the scheme, TypeSimple or TypeKerberos.
func (a *Authenticator) Type() string { return a.typ }

// Authenticate returns who r acts as. On success it may set the hadoop.auth cookie and,
// under Kerberos, the final WWW-Authenticate header on w; a refusal is an *Error (with
// WWW-Authenticate: Negotiate set on w under Kerberos) that the caller sends. Nothing is
// written to the body.
func (a *Authenticator) Authenticate(w http.ResponseWriter, r *http.Request) (Identity, error) {
	user, err := a.authenticate(w, r)
	if err != nil {
		return Identity{}, err
	}
	id := Identity{User: user, RealUser: user}
	if doAs := r.URL.Query().Get(ParamDoAs); doAs != "" {
		if err := a.checkDoAs(r.Context(), user, doAs, remoteAddr(r.RemoteAddr)); err != nil {
			a.log.Info("doAs refused", "user", user, "doAs", doAs, "remote", r.RemoteAddr, "error", err)
			return Identity{}, err
		}
		id.User = doAs
	}
	return id, nil
}

// authenticate returns the authenticated user of r, "" for an anonymous request: by a
// valid cookie first, then by the scheme.
func (a *Authenticator) authenticate(w http.ResponseWriter, r *http.Request) (string, error) {
	now := a.now()
	stale := false
	if c, err := r.Cookie(CookieName); err == nil && c.Value != "" {
		t, err := a.signer.verify(c.Value)
		switch {
		case err != nil:
			a.log.Debug("ignoring a hadoop.auth cookie", "remote", r.RemoteAddr, "error", err)
		case t.Type != a.typ:
			a.log.Debug("ignoring a hadoop.auth cookie of another scheme", "remote", r.RemoteAddr, "type", t.Type)
		case !now.Before(t.Expires):
			a.log.Debug("ignoring an expired hadoop.auth cookie", "remote", r.RemoteAddr, "user", t.User)
		default:
			return t.User, nil
		}
		stale = true
	}
	var t Token
	switch a.typ {
	case TypeKerberos:
		name, realm, err := a.kerberos.accept(r)
		if err != nil {
			if stale {
				clearCookie(w, r)
			}
			w.Header().Set("WWW-Authenticate", negotiate)
			if errors.Is(err, errNoNegotiation) {
				return "", notAuthorized("authentication required (SPNEGO)")
			}
			a.log.Info("SPNEGO authentication failed", "remote", r.RemoteAddr, "error", err)
			return "", notAuthorized("invalid Kerberos credentials")
		}
		w.Header().Set("WWW-Authenticate", negotiateAccepted)
		t = Token{User: shortName(name), Principal: name + "@" + realm, Type: TypeKerberos}
	default:
		user := r.URL.Query().Get(ParamUser)
		if user == "" {
			if stale {
				clearCookie(w, r)
			}
			if a.denyAnonymous {
				return "", notAuthorized("anonymous requests are disallowed, give the %s parameter", ParamUser)
			}
			return "", nil
		}
		t = Token{User: user, Principal: user, Type: TypeSimple}
	}
	t.Expires = now.Add(a.validity)
	if v, err := a.signer.sign(t); err == nil {
		http.SetCookie(w, &http.Cookie{Name: CookieName, Value: v, Path: "/", HttpOnly: true, Secure: r.TLS != nil})
	} else {
		// The user is authenticated; only the shortcut for later requests is lost.
		a.log.Debug("no hadoop.auth cookie for this user", "user", t.User, "error", err)
		if stale {
			clearCookie(w, r)
		}
	}
	return t.User, nil
}

// clearCookie tells the client to drop its hadoop.auth cookie.
func clearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: r.TLS != nil})
}
