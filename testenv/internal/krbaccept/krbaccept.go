// Package krbaccept holds what the stand-ins' Kerberos acceptors share.
package krbaccept

import (
	"errors"
	"fmt"

	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/spnego"
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
