package minidfs

import (
	"crypto/subtle"
	"errors"
	"net/http"

	"github.com/gozie/gozie/hadoop/delegation"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/internal/krbaccept"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// KindWebHDFSDelegationToken is the kind of the delegation tokens a secure
// NameNode hands the DataNode in its redirects (WebHdfsConstants.
// WEBHDFS_TOKEN_KIND).
const KindWebHDFSDelegationToken = "WEBHDFS delegation"

// WebKerberosOptions turns on SPNEGO for the WebHDFS of a Kerberized
// MiniDFS (dfs.web.authentication.kerberos.principal and .keytab).
type WebKerberosOptions struct {
	// Keytab holds Principal's key.
	Keytab *keytab.Keytab
	// Principal is the SPNEGO principal with _HOST resolved, e.g.
	// "HTTP/localhost@TEST.LOCAL"; only clients of its realm map to users.
	Principal string
}

// secureCaller is who a request to a Kerberized MiniDFS's web endpoints
// acts as (AuthFilter over KerberosAuthenticationHandler, JspHelper.
// getUGI): a delegation parameter is a token the NameNode issued and
// names its owner (the DataNode takes nothing else); otherwise the
// NameNode takes SPNEGO only, user.name is ignored, and doas makes the
// principal a proxy under the proxy-user rules. Without
// Options.WebKerberos every request gets the 401 challenge.
func (m *MiniDFS) secureCaller(w http.ResponseWriter, r *http.Request, p webParams, dataNode bool) (*ipc.Call, bool) {
	if tok := p["delegation"]; tok != "" {
		call, err := m.tokenCaller(tok, r)
		if err != nil {
			writeWebError(w, &webError{http.StatusForbidden, securityException,
				"Failed to obtain user group information: " + ipc.InvalidTokenException + ": " + err.Error()})
			return nil, false
		}
		return call, true
	}
	if dataNode {
		writeWebError(w, &webError{http.StatusForbidden, securityException,
			"Failed to obtain user group information: java.io.IOException: Security enabled but user not authenticated by filter"})
		return nil, false
	}
	if m.opts.WebKerberos == nil {
		w.Header().Set("WWW-Authenticate", "Negotiate")
		http.Error(w, "Authentication required", http.StatusUnauthorized)
		return nil, false
	}
	principal, ok := krbaccept.Negotiate(w, r, m.opts.WebKerberos.Keytab, m.opts.WebKerberos.Principal, m.opts.Logger)
	if !ok {
		return nil, false
	}
	call := &ipc.Call{Protocol: ipc.ClientProtocol, Method: "webhdfs", Auth: ipc.AuthKerberos, User: principal,
		EffectiveUser: principal, RemoteAddr: remoteAddr(r)}
	return m.actFor(w, r, call, p["doas"])
}

// tokenCaller authenticates a delegation parameter: a live token of this
// NameNode's (its own redirects' or an HDFS delegation token) whose
// password matches; the call is its owner's.
func (m *MiniDFS) tokenCaller(s string, r *http.Request) (*ipc.Call, error) {
	tok, err := delegation.DecodeURLString(s)
	if err != nil {
		return nil, err
	}
	password, owner, err := m.nn.tokens.lookup(tok.Identifier)
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare(password, tok.Password) != 1 {
		return nil, errors.New("password does not match")
	}
	return &ipc.Call{Protocol: ipc.ClientProtocol, Method: "webhdfs", Auth: ipc.AuthToken, User: owner,
		TokenIdentifier: tok.Identifier, RemoteAddr: remoteAddr(r)}, nil
}

// redirectToken is the delegation parameter of a secure NameNode's
// redirect: the caller's own, or a token issued to the caller (for its
// real user), renewable by it (NamenodeWebHdfsMethods.redirectURI,
// generateDelegationToken).
func (m *MiniDFS) redirectToken(call *ipc.Call, p webParams, idx int) string {
	if tok := p["delegation"]; tok != "" {
		return tok
	}
	t := m.nn.tokens.issue(call.User, call.RealUser, ugi.ShortName(call.User))
	return delegation.EncodeURLString(delegation.TokenFields{Identifier: t.Identifier, Password: t.Password,
		Kind: KindWebHDFSDelegationToken, Service: m.nns[idx].addr})
}
