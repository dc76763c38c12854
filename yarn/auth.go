package yarn

import (
	"errors"
	"net/http"

	"github.com/gozie/gozie/hadoop"
)

// Authenticator adds credentials to each request the [Client] sends. It is
// called once per attempt and per ResourceManager, so an implementation that
// depends on the host (SPNEGO, whose service principal is HTTP/<rm-host>) sees
// the right URL after a failover.
type Authenticator interface {
	Authenticate(req *http.Request) error
}

// Identity is implemented by an [Authenticator] that knows the (short) name of
// the user it authenticates; the [Client] then sends no doAs for requests
// made for that user.
type Identity interface {
	AuthenticatedUser() string
}

// PseudoAuth is Hadoop's simple (pseudo) authentication: the user name goes in
// the user.name query parameter of every request. RMs without authentication
// ignore the parameter, so it is always safe to send.
type PseudoAuth struct {
	// User is the name the requests act as.
	User string
}

// Authenticate implements [Authenticator].
func (a PseudoAuth) Authenticate(req *http.Request) error {
	if a.User == "" {
		return errors.New("pseudo authentication: empty user name")
	}
	q := req.URL.Query()
	q.Set("user.name", a.User)
	req.URL.RawQuery = q.Encode()
	return nil
}

// AuthenticatedUser implements [Identity].
func (a PseudoAuth) AuthenticatedUser() string { return a.User }

// AuthenticatorFunc adapts a function to [Authenticator].
type AuthenticatorFunc func(req *http.Request) error

// Authenticate implements [Authenticator].
func (f AuthenticatorFunc) Authenticate(req *http.Request) error { return f(req) }

// DelegationTokenHeader carries an RM delegation token on REST requests
// (RMWebServices.DELEGATION_TOKEN_HEADER), the token's URL string.
const DelegationTokenHeader = "Hadoop-YARN-RM-Delegation-Token"

// TokenAuth authenticates with an RM delegation token (kind
// RM_DELEGATION_TOKEN), as a job's own clients do inside a Kerberized
// cluster's containers, where they have no Kerberos ticket: the RM acts
// for the token's owner.
type TokenAuth struct {
	Token hadoop.Token
}

// Authenticate implements Authenticator.
func (a TokenAuth) Authenticate(req *http.Request) error {
	req.Header.Set(DelegationTokenHeader, EncodeTokenURLString(a.Token))
	return nil
}
