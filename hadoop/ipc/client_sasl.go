package ipc

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/gozie/gozie/hadoop/digestmd5"
	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"google.golang.org/protobuf/proto"
)

// saslConnect runs the client side of SASL negotiation and returns the
// method the connection ended up with: TOKEN when the server offers it,
// otherwise SIMPLE when the server accepts it.
func (c *Client) saslConnect(r io.Reader) (AuthMethod, error) {
	if err := c.writeSASL(&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_NEGOTIATE.Enum()}); err != nil {
		return "", err
	}
	msg, err := c.readSASL(r)
	if err != nil {
		return "", err
	}
	switch msg.GetState() {
	case commonpb.RpcSaslProto_SUCCESS:
		// A SIMPLE-only server.
		return AuthSimple, nil
	case commonpb.RpcSaslProto_NEGOTIATE:
	default:
		return "", fmt.Errorf("SASL: unexpected state %s in reply to NEGOTIATE", msg.GetState())
	}
	var token, kerberos, simple *commonpb.RpcSaslProto_SaslAuth
	for _, a := range msg.GetAuths() {
		switch {
		case a.GetMethod() == string(AuthToken) && a.GetMechanism() == tokenMechanism:
			token = a
		case a.GetMethod() == string(AuthKerberos) && a.GetMechanism() == kerberosMechanism:
			kerberos = a
		case a.GetMethod() == string(AuthSimple):
			simple = a
		}
	}
	switch {
	case token != nil && c.opts.Token != nil:
		return AuthToken, c.tokenAuth(r, token)
	case kerberos != nil && c.opts.Kerberos != nil:
		return AuthKerberos, c.kerberosAuth(r, kerberos)
	case simple != nil && c.opts.User != "" && c.opts.Kerberos == nil:
		// Hadoop clients switch to SIMPLE without another SASL message.
		return AuthSimple, nil
	}
	var offered []string
	for _, a := range msg.GetAuths() {
		offered = append(offered, a.GetMethod()+"/"+a.GetMechanism())
	}
	return "", fmt.Errorf("SASL: no usable method among %v", offered)
}

// tokenAuth runs DIGEST-MD5 with the token, accepting the qops of
// ClientOptions.Protection, and keeps the security layer it negotiated.
func (c *Client) tokenAuth(r io.Reader, offer *commonpb.RpcSaslProto_SaslAuth) error {
	accept, err := qops(c.opts.Protection)
	if err != nil {
		return err
	}
	dm := &digestmd5.Client{
		Username:   base64.StdEncoding.EncodeToString(c.opts.Token.Identifier),
		Password:   base64.StdEncoding.EncodeToString(c.opts.Token.Password),
		Protocol:   offer.GetProtocol(),
		ServerName: offer.GetServerId(),
		Qops:       accept,
	}
	chosen := &commonpb.RpcSaslProto_SaslAuth{
		Method: proto.String(offer.GetMethod()), Mechanism: proto.String(offer.GetMechanism()),
		Protocol: proto.String(offer.GetProtocol()), ServerId: proto.String(offer.GetServerId()),
	}
	challenge := offer.GetChallenge()
	if len(challenge) == 0 {
		// No early challenge: ask for one with an empty INITIATE.
		if err := c.writeSASL(&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_INITIATE.Enum(), Auths: []*commonpb.RpcSaslProto_SaslAuth{chosen}}); err != nil {
			return err
		}
		msg, err := c.readSASL(r)
		if err != nil {
			return err
		}
		if msg.GetState() != commonpb.RpcSaslProto_CHALLENGE {
			return fmt.Errorf("SASL: unexpected state %s, want CHALLENGE", msg.GetState())
		}
		challenge = msg.GetToken()
		chosen = nil
	}
	resp, err := dm.Respond(challenge)
	if errors.Is(err, digestmd5.ErrNoCommonQop) {
		return fmt.Errorf("SASL: %w (the client's is %s): %w", ErrNoCommonProtection, protectionList(c.opts.Protection), err)
	}
	if err != nil {
		return fmt.Errorf("SASL: %w", err)
	}
	out := &commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_INITIATE.Enum(), Token: resp, Auths: []*commonpb.RpcSaslProto_SaslAuth{chosen}}
	if chosen == nil {
		out = &commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_RESPONSE.Enum(), Token: resp}
	}
	if err := c.writeSASL(out); err != nil {
		return err
	}
	msg, err := c.readSASL(r)
	if err != nil {
		return err
	}
	if msg.GetState() != commonpb.RpcSaslProto_SUCCESS {
		return fmt.Errorf("SASL: unexpected state %s, want SUCCESS", msg.GetState())
	}
	if err := dm.Verify(msg.GetToken()); err != nil {
		return fmt.Errorf("SASL: %w", err)
	}
	// Wrapping starts with the next packet, the connection context.
	if l := dm.SecurityLayer(); l != nil {
		c.layer = digestLayer{l}
	}
	return nil
}

func (c *Client) writeSASL(m *commonpb.RpcSaslProto) error {
	p, err := buildPacket(c.requestHeader(callIDSASL), m)
	if err != nil {
		return err
	}
	if _, err := c.nc.Write(p); err != nil {
		return fmt.Errorf("SASL: writing %s: %w", m.GetState(), err)
	}
	return nil
}

// readSASL reads one SASL reply; an error status becomes a RemoteError.
func (c *Client) readSASL(r io.Reader) (*commonpb.RpcSaslProto, error) {
	p, err := readPacket(r, c.opts.MaxPacketSize)
	if err != nil {
		return nil, fmt.Errorf("SASL: reading reply: %w", err)
	}
	hdr := &commonpb.RpcResponseHeaderProto{}
	rest, err := decodeNext(p, hdr)
	if err != nil {
		return nil, err
	}
	if hdr.GetStatus() != commonpb.RpcResponseHeaderProto_SUCCESS {
		return nil, &RemoteError{Class: hdr.GetExceptionClassName(), Message: hdr.GetErrorMsg(), Code: hdr.GetErrorDetail(),
			Fatal: hdr.GetStatus() == commonpb.RpcResponseHeaderProto_FATAL, Method: "sasl"}
	}
	if int32(hdr.GetCallId()) != callIDSASL {
		return nil, fmt.Errorf("SASL: reply has call id %d", int32(hdr.GetCallId()))
	}
	msg := &commonpb.RpcSaslProto{}
	if _, err := decodeNext(rest, msg); err != nil {
		return nil, err
	}
	return msg, nil
}
