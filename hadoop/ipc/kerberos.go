package ipc

import (
	"errors"
	"fmt"

	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/service"
	"github.com/jcmturner/gokrb5/v8/spnego"
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

// kerberosAcceptor runs the server side of one GSSAPI exchange (RFC
// 4752, as Java's GssKrb5Server runs it for Hadoop): the client's AP-REQ,
// the server's wrapped offer of security layers (those of the server's
// hadoop.rpc.protection) and maximum buffer, the client's wrapped choice.
// With integrity or privacy chosen, the context's layer protects every
// later packet.
type kerberosAcceptor struct {
	opts   *KerberosOptions
	offer  byte // the offered layers
	layer  *gssLayer
	client string
}

func newKerberosAcceptor(opts *KerberosOptions, levels []Protection) *kerberosAcceptor {
	k := &kerberosAcceptor{opts: opts}
	for _, p := range levels {
		k.offer |= gssLayerBit(p)
	}
	if k.offer == 0 {
		k.offer = gssLayerNone
	}
	return k
}

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
	// The context key is the authenticator's subkey when the client sent
	// one (Java's initiators do), else the ticket's session key; without
	// mutual authentication both sides count from the client's sequence
	// number.
	auth := kt.APReq.Authenticator
	key := kt.APReq.Ticket.DecryptedEncPart.Key
	if len(auth.SubKey.KeyValue) > 0 {
		key = auth.SubKey
	}
	if k.layer, err = newGSSLayer(key, false, uint64(uint32(auth.SeqNumber))); err != nil {
		return nil, err
	}
	k.client = creds.UserName() + "@" + creds.Domain()
	// The offer is signed, never sealed (Java's MessageProp(0, false)).
	return k.layer.wrap(gssLayerMessage(k.offer, gssMaxBuffer), false)
}

// response verifies the client's wrapped choice and returns the client
// principal (user@REALM) and the layer to use from now on (nil for none).
func (k *kerberosAcceptor) response(token []byte) (string, securityLayer, error) {
	if k.client == "" {
		return "", nil, errors.New("kerberos: response before initiate")
	}
	msg, err := k.layer.unwrap(token, false)
	if err != nil {
		return "", nil, fmt.Errorf("kerberos: client wrap token: %w", err)
	}
	chosen, maxBuf, err := parseGSSLayerMessage(msg)
	if err != nil {
		return "", nil, err
	}
	// GssKrb5Server.doHandshake2: a choice outside the offer is refused,
	// and privacy wins over integrity when the mask names both.
	if chosen&k.offer == 0 {
		return "", nil, fmt.Errorf("kerberos: client selected unsupported protection: %d", chosen)
	}
	switch {
	case chosen&gssLayerPrivacy != 0:
		k.layer.negotiated(gssLayerPrivacy, maxBuf)
	case chosen&gssLayerIntegrity != 0:
		k.layer.negotiated(gssLayerIntegrity, maxBuf)
	default:
		return k.client, nil, nil
	}
	return k.client, k.layer, nil
}
