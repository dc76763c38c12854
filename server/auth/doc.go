// Package auth authenticates REST clients the way Oozie's authentication filter (Hadoop's
// AuthenticationFilter) does, and lets proxy users act for others through the doAs parameter.
//
// An Authenticator is built once from Config and asked, per request, who the caller is
// (Authenticate). The server wraps its routes with it and stores the answer with
// WithIdentity, so handlers read the effective user with User(r).
//
// # Schemes
//
// simple: Hadoop's pseudo authentication. The user is the user.name query parameter; a
// request without it is anonymous (Identity{} with an empty User) unless
// Config.AnonymousAllowed is false, in which case it is refused.
//
// kerberos: SPNEGO (RFC 4559). A request without an "Authorization: Negotiate <token>"
// header is answered 401 with "WWW-Authenticate: Negotiate"; the token, a Kerberos AP-REQ
// for the service principal, is checked with the keys of the keytab (gokrb5). The user is
// the short name of the client principal: its first component, "alice" for
// alice@EXAMPLE.COM and "hue" for hue/gw1.example.com@EXAMPLE.COM (Hadoop's DEFAULT
// auth_to_local rule; other rules are not supported). The user.name parameter is ignored.
//
// # The hadoop.auth cookie
//
// After a successful authentication of a named user the answer carries a cookie
// hadoop.auth=u=<user>&p=<principal>&t=<simple|kerberos>&e=<expiry, ms since the epoch>&s=<signature>,
// the signature being the base64 HMAC-SHA256 of the text before "&s=" under
// Config.Secret. A later request that presents a valid cookie of the same scheme is
// authenticated by it alone, so clients negotiate once per Config.Validity rather than once
// per call. A cookie that is tampered with, expired or of the other scheme is ignored (and
// cleared): the request is authenticated as if it had none.
//
// # Proxy users
//
// A doAs=<user> parameter asks to act as another user. It is honoured when the doAs user is
// the authenticated user, or when the authenticated user is listed in Config.ProxyUsers
// with a host list that holds the caller's address (an IP address, a CIDR range, a host
// name resolving to it, or *) and a group list that shares a group with the doAs user (the
// operating system's groups, or *). Otherwise the request is refused with 401 and Oozie's
// code E1400, the message naming the real user, the doAs user and the host.
//
// # Errors
//
// Refusals are *Error values carrying the HTTP status, an Oozie error code (E0500 for a
// missing or invalid credential, E1400 for a refused doAs) and the message; Authenticate
// sets the WWW-Authenticate and Set-Cookie headers itself, and the caller writes the error
// in its own format.
package auth
