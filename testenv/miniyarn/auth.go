package miniyarn

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/gozie/gozie/yarn"
)

// authCookie is the cookie Hadoop's authentication filter sets.
const authCookie = "hadoop.auth"

// authenticate applies pseudo (simple) authentication: the user comes from the
// user.name parameter or from a valid hadoop.auth cookie; without either the
// request is refused with 401 unless anonymous access is allowed, in which case
// it runs as dr.who. An authenticated request with a doAs parameter acts for
// the user it names if the proxy-user rules allow it, and is refused with 403
// AuthorizationException otherwise (DelegationTokenAuthenticationFilter's
// doFilter with ProxyUsers.authorize). It writes the answer itself when it
// refuses.
//
// A Kerberized RM ([Options.Kerberos]) authenticates by SPNEGO or by a
// hadoop.auth cookie of type kerberos only. The second result is the
// authentication type (simple or kerberos).
func (rm *RM) authenticate(w http.ResponseWriter, r *http.Request) (string, string, bool) {
	user, typ, ok := rm.authenticateUser(w, r)
	if !ok || user == StaticUser {
		return user, typ, ok
	}
	doAs := doAsParam(r)
	if doAs == "" {
		return user, typ, true
	}
	if !validUserName(doAs) {
		writeError(w, forbidden("Invalid user name %q", doAs))
		return "", "", false
	}
	if err := rm.proxies.Authorize(user, doAs, ugi.HostOf(r.RemoteAddr)); err != nil {
		writeError(w, &webError{status: http.StatusForbidden, exception: "AuthorizationException",
			class: "org.apache.hadoop.security.authorize.AuthorizationException", message: err.Error()})
		return "", "", false
	}
	return doAs, typ, true
}

// doAsParam returns the doAs query parameter, whose name Hadoop's filters
// match case-insensitively.
func doAsParam(r *http.Request) string {
	for k, v := range r.URL.Query() {
		if strings.EqualFold(k, "doAs") && len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

// authenticateUser finds the authenticated (real) user and the
// authentication type.
func (rm *RM) authenticateUser(w http.ResponseWriter, r *http.Request) (string, string, bool) {
	if rm.opts.Kerberos != nil {
		return rm.authenticateKerberos(w, r)
	}
	user := r.URL.Query().Get("user.name")
	if user == "" {
		user = rm.cookieUser(r, authSimple)
	}
	if user == "" {
		if rm.opts.AnonymousAllowed {
			return StaticUser, authSimple, true
		}
		w.Header().Set("WWW-Authenticate", "PseudoAuth")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintln(w, "Authentication required: add the user.name query parameter")
		return "", "", false
	}
	if !validUserName(user) {
		writeError(w, forbidden("Invalid user name %q", user))
		return "", "", false
	}
	http.SetCookie(w, &http.Cookie{Name: authCookie, Value: rm.signCookie(user, user, authSimple), Path: "/", HttpOnly: true})
	return user, authSimple, true
}

// authenticateKerberos authenticates by a kerberos hadoop.auth cookie,
// else by SPNEGO (setting the cookie); user.name is ignored, a cookie of
// another type too (AuthenticationFilter.getToken).
func (rm *RM) authenticateKerberos(w http.ResponseWriter, r *http.Request) (string, string, bool) {
	if h := delegationTokenOf(r); h != "" {
		return rm.authenticateToken(w, h)
	}
	if user := rm.cookieUser(r, authKerberos); user != "" {
		return user, authKerberos, true
	}
	user, principal, ok := rm.negotiate(w, r)
	if !ok {
		return "", "", false
	}
	http.SetCookie(w, &http.Cookie{Name: authCookie, Value: rm.signCookie(user, principal, authKerberos), Path: "/", HttpOnly: true})
	return user, authKerberos, true
}

// authToken is the auth type of a request authenticated by an RM
// delegation token: not Kerberos, so it may not ask for more tokens.
const authToken = "token"

// delegationTokenOf is the RM delegation token a request carries, in
// Hadoop's header or its older X-Hadoop-Delegation-Token form
// (RMAuthenticationFilter).
func delegationTokenOf(r *http.Request) string {
	if h := r.Header.Get(yarn.DelegationTokenHeader); h != "" {
		return h
	}
	return r.Header.Get("X-Hadoop-Delegation-Token")
}

// authenticateToken authenticates by an RM delegation token: the caller
// acts as the token's owner; a token the RM did not issue or that expired
// is 403 with the secret manager's message.
func (rm *RM) authenticateToken(w http.ResponseWriter, header string) (string, string, bool) {
	tok, err := yarn.DecodeTokenURLString(header)
	if err == nil {
		var owner string
		if owner, err = rm.dtokens.verify(tok, rm.opts.Now()); err == nil {
			return ugi.ShortName(owner), authToken, true
		}
	}
	http.Error(w, err.Error(), http.StatusForbidden)
	return "", "", false
}

// validUserName refuses names that could not be a directory name under the
// NodeManager's usercache.
func validUserName(u string) bool {
	if u == "." || u == ".." || len(u) > 256 {
		return false
	}
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c <= 0x20 || c >= 0x7f || c == '/' || c == '\\' {
			return false
		}
	}
	return true
}

// signCookie makes a hadoop.auth token: user, principal, type, expiry and
// signature (AuthenticationToken.toString, Signer.sign).
func (rm *RM) signCookie(user, principal, typ string) string {
	exp := rm.opts.Now().Add(cookieLifetime).UnixMilli()
	payload := "u=" + url.QueryEscape(user) + "&p=" + url.QueryEscape(principal) + "&t=" + typ + "&e=" + strconv.FormatInt(exp, 10)
	return payload + "&s=" + rm.cookieMAC(payload)
}

func (rm *RM) cookieMAC(payload string) string {
	m := hmac.New(sha256.New, rm.secret)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// cookieUser returns the user of a valid, unexpired hadoop.auth cookie of
// authentication type typ.
func (rm *RM) cookieUser(r *http.Request, typ string) string {
	c, err := r.Cookie(authCookie)
	if err != nil {
		return ""
	}
	v := strings.Trim(c.Value, `"`)
	i := strings.LastIndex(v, "&s=")
	if i < 0 {
		return ""
	}
	payload, sig := v[:i], v[i+3:]
	if !hmac.Equal([]byte(sig), []byte(rm.cookieMAC(payload))) {
		return ""
	}
	q, err := url.ParseQuery(payload)
	if err != nil {
		return ""
	}
	exp, err := strconv.ParseInt(q.Get("e"), 10, 64)
	if err != nil || exp < rm.opts.Now().UnixMilli() || q.Get("t") != typ {
		return ""
	}
	return q.Get("u")
}
