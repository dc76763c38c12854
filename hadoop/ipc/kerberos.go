package ipc

import (
	"errors"
	"fmt"

	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/service"
	"github.com/jcmturner/gokrb5/v8/spnego"
	krbtypes "github.com/jcmturner/gokrb5/v8/types"
)

// kerberosMechanism is the SASL mechanism of KERBEROS authentication.
const kerberosMechanism = "GSSAPI"

// KerberosOptions enables KERBEROS (GSSAPI) authentication on a Server.
type KerberosOptions struct {
	// Keytab holds the key of the service principal Service/Host.
	Keytab *keytab.Keytab
	// Service is the principal's service part, "nn" for a NameNode and
	// "rm" for a ResourceManager.
	Service string
	// Host is the principal's host part, e.g. "localhost"; clients build the
	// principal they ask a ticket for from it.
	Host string
}

// kerberosAcceptor runs the server side of one GSSAPI exchange: the
// client's AP-REQ, the server's wrapped security-layer offer, the client's
// wrapped answer. Only the "no security layer" option is offered, so calls
// stay in plain text afterwards.
type kerberosAcceptor struct {
	opts   *KerberosOptions
	key    krbtypes.EncryptionKey
	client string
}

func newKerberosAcceptor(opts *KerberosOptions) *kerberosAcceptor {
	return &kerberosAcceptor{opts: opts}
}

// noSecurityLayer is the 4-byte offer: bit 1 ("no security layer") and a
// maximum buffer size of 64 KiB.
var noSecurityLayer = []byte{0x01, 0x01, 0x00, 0x00}

// initiate verifies the client's AP-REQ and returns the server's challenge.
func (k *kerberosAcceptor) initiate(token []byte) ([]byte, error) {
	var kt spnego.KRB5Token
	if err := kt.Unmarshal(token); err != nil {
		return nil, fmt.Errorf("kerberos: decoding GSSAPI token: %w", err)
	}
	if !kt.IsAPReq() {
		return nil, errors.New("kerberos: GSSAPI token is not an AP-REQ")
	}
	settings := service.NewSettings(k.opts.Keytab, service.DecodePAC(false))
	ok, creds, err := service.VerifyAPREQ(&kt.APReq, settings)
	if err != nil {
		return nil, fmt.Errorf("kerberos: verifying AP-REQ: %w", err)
	}
	if !ok {
		return nil, errors.New("kerberos: AP-REQ rejected")
	}
	k.key = kt.APReq.Ticket.DecryptedEncPart.Key
	k.client = creds.UserName() + "@" + creds.Domain()
	etype, err := crypto.GetEtype(k.key.KeyType)
	if err != nil {
		return nil, fmt.Errorf("kerberos: session key type: %w", err)
	}
	wt := gssapi.WrapToken{
		Flags:   0x01, // sent by the acceptor
		EC:      uint16(etype.GetHMACBitLength() / 8),
		Payload: noSecurityLayer,
	}
	if err := wt.SetCheckSum(k.key, keyusage.GSSAPI_ACCEPTOR_SEAL); err != nil {
		return nil, fmt.Errorf("kerberos: signing challenge: %w", err)
	}
	return wt.Marshal()
}

// response verifies the client's wrapped answer and returns the client
// principal (user@REALM).
func (k *kerberosAcceptor) response(token []byte) (string, error) {
	if k.client == "" {
		return "", errors.New("kerberos: response before initiate")
	}
	var wt gssapi.WrapToken
	if err := wt.Unmarshal(token, false); err != nil {
		return "", fmt.Errorf("kerberos: decoding wrap token: %w", err)
	}
	if ok, err := wt.Verify(k.key, keyusage.GSSAPI_INITIATOR_SEAL); !ok || err != nil {
		return "", fmt.Errorf("kerberos: client wrap token does not verify: %v", err)
	}
	if len(wt.Payload) < 4 || wt.Payload[0]&0x01 == 0 {
		return "", errors.New("kerberos: client asked for a security layer; only none is offered")
	}
	return k.client, nil
}
