// Package krbaccept holds what the stand-ins' Kerberos acceptors share.
package krbaccept

import (
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/messages"
	krbservice "github.com/jcmturner/gokrb5/v8/service"
	"github.com/jcmturner/gokrb5/v8/spnego"
	krbtypes "github.com/jcmturner/gokrb5/v8/types"
)

// APReq extracts the AP-REQ of a SPNEGO NegTokenInit (an HTTP Negotiate
// token) or of a bare Kerberos GSS-API token (SASL GSSAPI's first message).
func APReq(raw []byte) (*messages.APReq, error) {
	var st spnego.SPNEGOToken
	mech := raw
	if err := st.Unmarshal(raw); err == nil {
		if !st.Init {
			return nil, errors.New("the Negotiate token is not a SPNEGO NegTokenInit")
		}
		mech = st.NegTokenInit.MechTokenBytes
	}
	var k spnego.KRB5Token
	if err := k.Unmarshal(mech); err != nil {
		return nil, fmt.Errorf("reading the Kerberos token: %w", err)
	}
	if !k.IsAPReq() {
		return nil, errors.New("the Kerberos token is not an AP-REQ")
	}
	return &k.APReq, nil
}

// Verify checks an HTTP Negotiate token (SPNEGO, or a bare Kerberos
// token) from a client at remoteAddr against the key of the service
// principal server ("HTTP/localhost@REALM") in kt, as Hadoop's
// KerberosAuthenticationHandler does, and returns the client principal
// (user@REALM). Only clients of the server's realm map to a user (the
// DEFAULT auth_to_local rule); any other is refused with KerberosName's
// NoMatchingRule.
func Verify(raw []byte, kt *keytab.Keytab, server, remoteAddr string) (client string, err error) {
	defer func() {
		// The ASN.1 decoders are fed by the client.
		if p := recover(); p != nil {
			client, err = "", fmt.Errorf("malformed Negotiate token: %v", p)
		}
	}()
	apReq, err := APReq(raw)
	if err != nil {
		return "", err
	}
	name, realm, _ := strings.Cut(server, "@")
	settings := []func(*krbservice.Settings){krbservice.DecodePAC(false), krbservice.KeytabPrincipal(name)}
	if h, err := krbtypes.GetHostAddress(remoteAddr); err == nil {
		settings = append(settings, krbservice.ClientAddress(h))
	}
	ok, creds, err := krbservice.VerifyAPREQ(apReq, krbservice.NewSettings(kt, settings...))
	if err != nil {
		return "", fmt.Errorf("GSSException: checking the Kerberos ticket: %w", err)
	}
	if !ok || creds == nil {
		return "", errors.New("GSSException: the Kerberos ticket is not valid")
	}
	if creds.Domain() != realm {
		return "", &NoMatchingRule{Principal: creds.UserName() + "@" + creds.Domain()}
	}
	return creds.UserName() + "@" + creds.Domain(), nil
}

// NoMatchingRule refuses a principal no auth_to_local rule maps to a user.
type NoMatchingRule struct{ Principal string }

func (e *NoMatchingRule) Error() string {
	return "org.apache.hadoop.security.authentication.util.KerberosName$NoMatchingRule: No rules applied to " + e.Principal
}

// NegotiateAccepted is the SPNEGO answer "accept-completed, mechanism
// Kerberos" a server sends with the response of a negotiated request.
const NegotiateAccepted = "Negotiate oRQwEqADCgEAoQsGCSqGSIb3EgECAg=="

// Negotiate authenticates an HTTP request by its SPNEGO token, as Hadoop's
// KerberosAuthenticationHandler does, for the service principal server
// whose key kt holds: no Negotiate token gets 401 with a bare
// "WWW-Authenticate: Negotiate" challenge, a token that does not verify
// 403 (AuthenticationException), a principal of another realm 403
// (NoMatchingRule). It returns the client principal, having set the
// accepted answer, or false once it has answered.
func Negotiate(w http.ResponseWriter, r *http.Request, kt *keytab.Keytab, server string, log *slog.Logger) (string, bool) {
	scheme, b64, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Negotiate") {
		w.Header().Set("WWW-Authenticate", "Negotiate")
		http.Error(w, "Authentication required", http.StatusUnauthorized)
		return "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	var client string
	if err == nil {
		client, err = Verify(raw, kt, server, r.RemoteAddr)
	}
	var foreign *NoMatchingRule
	if errors.As(err, &foreign) {
		http.Error(w, err.Error(), http.StatusForbidden)
		return "", false
	}
	if err != nil {
		log.Debug("SPNEGO refused", "err", err)
		http.Error(w, "org.apache.hadoop.security.authentication.client.AuthenticationException: "+err.Error(), http.StatusForbidden)
		return "", false
	}
	w.Header().Set("WWW-Authenticate", NegotiateAccepted)
	return client, true
}
