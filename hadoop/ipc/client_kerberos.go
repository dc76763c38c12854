package ipc

import (
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/spnego"
	"google.golang.org/protobuf/proto"
)

// kerberosAuth runs the client side of GSSAPI (RFC 4752, as Java's
// GssKrb5Client runs it for Hadoop's SaslRpcClient): an AP-REQ for the
// server's principal, the server's signed offer of security layers, and
// the client's signed choice, the first level of ClientOptions.Protection
// the server offers. Integrity and privacy then wrap every packet.
func (c *Client) kerberosAuth(r io.Reader, offer *commonpb.RpcSaslProto_SaslAuth) error {
	spn, err := c.servicePrincipal(offer)
	if err != nil {
		return err
	}
	cl := c.opts.Kerberos
	tkt, key, err := cl.GetServiceTicket(spn)
	if err != nil {
		return fmt.Errorf("SASL GSSAPI: service ticket for %s: %w", spn, err)
	}
	// No mutual authentication (no AP-REP), as Hadoop's SASL client asks;
	// integrity and confidentiality are requested so the server may offer
	// its layers.
	tok, err := spnego.NewKRB5TokenAPREQ(cl, tkt, key, []int{gssapi.ContextFlagInteg, gssapi.ContextFlagConf}, nil)
	if err != nil {
		return fmt.Errorf("SASL GSSAPI: building the AP-REQ for %s: %w", spn, err)
	}
	if err := tok.APReq.DecryptAuthenticator(key); err != nil {
		return fmt.Errorf("SASL GSSAPI: %w", err)
	}
	layer, err := newGSSLayer(key, true, uint64(uint32(tok.APReq.Authenticator.SeqNumber)))
	if err != nil {
		return err
	}
	apreq, err := tok.Marshal()
	if err != nil {
		return fmt.Errorf("SASL GSSAPI: encoding the AP-REQ: %w", err)
	}
	chosen := &commonpb.RpcSaslProto_SaslAuth{
		Method: proto.String(offer.GetMethod()), Mechanism: proto.String(offer.GetMechanism()),
		Protocol: proto.String(offer.GetProtocol()), ServerId: proto.String(offer.GetServerId()),
	}
	if err := c.writeSASL(&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_INITIATE.Enum(), Token: apreq, Auths: []*commonpb.RpcSaslProto_SaslAuth{chosen}}); err != nil {
		return err
	}
	msg, err := c.readSASL(r)
	if err != nil {
		return err
	}
	if msg.GetState() != commonpb.RpcSaslProto_CHALLENGE {
		return fmt.Errorf("SASL GSSAPI: unexpected state %s, want CHALLENGE", msg.GetState())
	}
	offered, err := layer.unwrap(msg.GetToken(), false)
	if err != nil {
		return fmt.Errorf("SASL GSSAPI: the server's security layer offer: %w", err)
	}
	mask, _, err := parseGSSLayerMessage(offered)
	if err != nil {
		return fmt.Errorf("SASL GSSAPI: %w", err)
	}
	pick, err := c.pickGSSLayer(mask)
	if err != nil {
		return err
	}
	maxBuf := 0
	if pick != gssLayerNone {
		maxBuf = gssMaxBuffer
	}
	answer, err := layer.wrap(gssLayerMessage(pick, maxBuf), false)
	if err != nil {
		return err
	}
	if err := c.writeSASL(&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_RESPONSE.Enum(), Token: answer}); err != nil {
		return err
	}
	if msg, err = c.readSASL(r); err != nil {
		return err
	}
	if msg.GetState() != commonpb.RpcSaslProto_SUCCESS {
		return fmt.Errorf("SASL GSSAPI: unexpected state %s, want SUCCESS", msg.GetState())
	}
	if pick != gssLayerNone {
		_, peerMax, _ := parseGSSLayerMessage(offered)
		layer.negotiated(pick, peerMax)
		c.layer = layer
	}
	return nil
}

// pickGSSLayer chooses the first of the client's levels that the server's
// mask offers (GssKrb5Client.findPreferredMask).
func (c *Client) pickGSSLayer(mask byte) (byte, error) {
	levels := c.opts.Protection
	if len(levels) == 0 {
		levels = []Protection{ProtectionAuthentication}
	}
	for _, p := range levels {
		if b := gssLayerBit(p); mask&b != 0 {
			return b, nil
		}
	}
	return 0, fmt.Errorf("SASL GSSAPI: %w (the client's is %s, the server offers layers %#x)",
		ErrNoCommonProtection, protectionList(c.opts.Protection), mask)
}

// servicePrincipal is the principal to ask a ticket for: the configured
// one with _HOST replaced by the host dialled (SecurityUtil.
// getServerPrincipal), else the server's offer, protocol/serverId.
func (c *Client) servicePrincipal(offer *commonpb.RpcSaslProto_SaslAuth) (string, error) {
	spn := c.opts.ServicePrincipal
	if spn == "" {
		if offer.GetProtocol() == "" || offer.GetServerId() == "" {
			return "", fmt.Errorf("SASL GSSAPI: no service principal configured and the server names none")
		}
		return offer.GetProtocol() + "/" + offer.GetServerId(), nil
	}
	spn, _, _ = strings.Cut(spn, "@") // the client's realm (gokrb5 asks its default realm)
	host, _, err := net.SplitHostPort(c.opts.Addr)
	if err != nil {
		host = c.opts.Addr
	}
	return ReplaceHost(spn, host), nil
}

// ReplaceHost replaces the _HOST of a Kerberos principal pattern such as
// "nn/_HOST@REALM" with host, lower-cased, as Hadoop's
// SecurityUtil.getServerPrincipal does; other principals are returned
// unchanged.
func ReplaceHost(principal, host string) string {
	name, realm, hasRealm := strings.Cut(principal, "@")
	svc, h, ok := strings.Cut(name, "/")
	if !ok || h != "_HOST" {
		return principal
	}
	out := svc + "/" + strings.ToLower(host)
	if hasRealm {
		out += "@" + realm
	}
	return out
}
