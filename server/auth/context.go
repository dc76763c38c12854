package auth

import (
	"context"
	"net/http"
)

// ParamUser is the query parameter of Hadoop's pseudo authentication.
const ParamUser = "user.name"

// ParamDoAs is the query parameter by which a proxy user acts for another user.
const ParamDoAs = "doAs"

// Identity is who a request acts as.
type Identity struct {
	// User is the effective user: the doAs user when a proxy user impersonates one,
	// otherwise the authenticated user. Empty for an anonymous request.
	User string
	// RealUser is the authenticated user, which differs from User under doAs.
	RealUser string
}

type identityKey struct{}

// WithIdentity returns ctx carrying id.
func WithIdentity(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// FromContext returns the identity the authentication middleware stored, if any.
func FromContext(ctx context.Context) (Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(Identity)
	return id, ok
}

// User returns the effective user of r: the identity the middleware stored or, when r did
// not pass through it (a handler tested on its own), the user.name parameter. Empty means
// anonymous.
func User(r *http.Request) string {
	if id, ok := FromContext(r.Context()); ok {
		return id.User
	}
	return r.URL.Query().Get(ParamUser)
}
