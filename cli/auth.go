package cli

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	krbclient "github.com/jcmturner/gokrb5/v8/client"

	"github.com/gozie/gozie/server/client"
)

// Environment variables of authentication, besides the -auth and -doas flags.
const (
	// envAuth is the default of -auth, as in Oozie's CLI.
	envAuth = "OOZIE_AUTH"
	// envTokenCache overrides where tokens are kept (default ~/.gozie-auth-token); "none"
	// keeps them for one command only.
	envTokenCache = "GOZIE_AUTH_TOKEN_CACHE"
	// envClientKeytab and envClientPrincipal make -auth KERBEROS log in with a keytab
	// instead of reading the ticket cache (for services and tests without kinit).
	envClientKeytab    = "GOZIE_CLIENT_KEYTAB"
	envClientPrincipal = "GOZIE_CLIENT_PRINCIPAL"
)

// tokenCacheFile is the default token cache, in the home directory.
const tokenCacheFile = ".gozie-auth-token"

// authFlags are -auth and -doas, shared by every verb that talks to the server.
type authFlags struct {
	auth  string
	doAs  string
	debug bool
}

func (a *authFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.auth, "auth", "", "authentication `TYPE`, SIMPLE or KERBEROS (default $"+envAuth+", then SIMPLE); "+
		"KERBEROS uses the ticket of kinit ($KRB5CCNAME) or $"+envClientKeytab+" and $"+envClientPrincipal)
	fs.StringVar(&a.doAs, "doas", "", "act as `USER` (the server must allow the caller as a proxy user)")
	fs.BoolVar(&a.debug, "debug", false, "print every web-service call and its status on stderr (also $"+envDebug+"=1)")
}

// httpClient returns env's HTTP client for the server at server with the authentication
// of the flags and the environment: SIMPLE sends user.name=<the user running the command>
// on every call as Oozie's CLI does, KERBEROS negotiates SPNEGO when the server asks and
// keeps the server's token in the token cache; -doas adds doAs to every call.
func (a *authFlags) httpClient(env Env, server string) (*http.Client, error) {
	typ := a.auth
	if typ == "" {
		typ = env.Getenv(envAuth)
	}
	cfg := client.Auth{Type: strings.ToUpper(strings.TrimSpace(typ)), DoAs: a.doAs}
	switch cfg.Type {
	case "", client.AuthSimple, client.AuthKerberos:
		// user.name goes with KERBEROS too, for servers that do not negotiate (Hadoop's
		// fallback to pseudo authentication); kerberized servers ignore it.
		u, err := env.user()
		if err != nil {
			return nil, err
		}
		cfg.User = u
	}
	switch cfg.Type {
	case "", client.AuthSimple:
		cfg.Type = client.AuthSimple
	case client.AuthKerberos:
		cfg.Kerberos = func() (*krbclient.Client, error) { return kerberosLogin(env) }
		if path := tokenCachePath(env); path != "" {
			cfg.Tokens = &client.TokenCache{Path: path}
		}
	case "BASIC":
		return nil, &plainError{msg: "-auth BASIC is not supported; use SIMPLE or KERBEROS"}
	default:
		return nil, &plainError{msg: fmt.Sprintf("invalid -auth %q; use SIMPLE or KERBEROS", typ)}
	}
	base := env.HTTPClient
	if base == nil {
		base = http.DefaultClient
	}
	hc := *base
	cfg.Base = hc.Transport
	tr, err := client.NewAuthTransport(cfg)
	if err != nil {
		return nil, err
	}
	ws := &wsTransport{base: tr, headers: env.headers, notes: env.Stderr, server: server, tries: connectTries,
		backoff: env.backoff}
	if a.debug || env.Getenv(envDebug) == "1" {
		ws.debug = env.Stderr
	}
	hc.Transport = ws
	return &hc, nil
}

// kerberosLogin returns the Kerberos client of the user: from $GOZIE_CLIENT_KEYTAB and
// $GOZIE_CLIENT_PRINCIPAL when set, otherwise from the ticket cache $KRB5CCNAME (default
// /tmp/krb5cc_<uid>), with the KDCs of $KRB5_CONFIG (default /etc/krb5.conf).
func kerberosLogin(env Env) (*krbclient.Client, error) {
	krb5Conf := env.Getenv("KRB5_CONFIG")
	if krb5Conf == "" {
		krb5Conf = "/etc/krb5.conf"
	}
	if kt := env.Getenv(envClientKeytab); kt != "" {
		principal := env.Getenv(envClientPrincipal)
		if principal == "" {
			return nil, &plainError{msg: envClientKeytab + " is set but " + envClientPrincipal + " is not"}
		}
		return client.KerberosFromKeytab(kt, principal, krb5Conf)
	}
	ccache := env.Getenv("KRB5CCNAME")
	if ccache == "" {
		ccache = "/tmp/krb5cc_" + strconv.Itoa(os.Getuid())
	}
	return client.KerberosFromCCache(ccache, krb5Conf)
}

// tokenCachePath is the token cache file, "" for none.
func tokenCachePath(env Env) string {
	switch p := env.Getenv(envTokenCache); p {
	case "none":
		return ""
	case "":
		home := env.Getenv("HOME")
		if home == "" {
			if h, err := os.UserHomeDir(); err == nil {
				home = h
			}
		}
		if home == "" {
			return ""
		}
		return filepath.Join(home, tokenCacheFile)
	default:
		return p
	}
}
