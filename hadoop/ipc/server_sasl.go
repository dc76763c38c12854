package ipc

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gozie/gozie/hadoop/digestmd5"
	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"google.golang.org/protobuf/proto"
)

// Hadoop's fixed SASL parameters for TOKEN authentication: the protocol is
// empty and the server id (and realm) is "default", so the digest-uri is
// "/default".
const (
	tokenMechanism = "DIGEST-MD5"
	tokenProtocol  = ""
	tokenServerID  = "default"
	tokenRealm     = "default"
)

// enabledMethods lists the server's methods in Hadoop's offer order (TOKEN
// first, SIMPLE last).
func (s *Server) enabledMethods() []AuthMethod {
	var m []AuthMethod
	if s.opts.Token != nil {
		m = append(m, AuthToken)
	}
	if s.opts.Kerberos != nil {
		m = append(m, AuthKerberos)
	}
	if s.opts.Simple {
		m = append(m, AuthSimple)
	}
	return m
}

// javaList formats methods as Java's List.toString does ("[TOKEN,
// KERBEROS]"), the form Hadoop's messages carry.
func javaList(methods []AuthMethod) string {
	s := make([]string, len(methods))
	for i, m := range methods {
		s[i] = string(m)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func (c *serverConn) offers(m AuthMethod) bool { return slices.Contains(c.offered, m) }

// handleSASL runs one step of the SASL exchange.
func (c *serverConn) handleSASL(p []byte) error {
	if !c.sasl || c.authed {
		return c.saslFatal(AccessControlException, "unexpected SASL message")
	}
	msg := &commonpb.RpcSaslProto{}
	if _, err := decodeNext(p, msg); err != nil {
		return c.saslFatal(AccessControlException, err.Error())
	}
	switch msg.GetState() {
	case commonpb.RpcSaslProto_NEGOTIATE:
		return c.saslNegotiate()
	case commonpb.RpcSaslProto_INITIATE:
		return c.saslInitiate(msg)
	case commonpb.RpcSaslProto_RESPONSE:
		return c.saslResponse(msg)
	default:
		return c.saslFatal(AccessControlException, fmt.Sprintf("unexpected SASL state %s", msg.GetState()))
	}
}

// saslNegotiate answers NEGOTIATE with the offered methods; a SIMPLE-only
// server answers SUCCESS straight away.
func (c *serverConn) saslNegotiate() error {
	if c.negotiated {
		return c.saslFatal(AccessControlException, "SASL negotiation repeated")
	}
	c.negotiated = true
	c.offered = c.srv.enabledMethods()
	if len(c.offered) == 1 && c.offered[0] == AuthSimple {
		c.auth, c.authed = AuthSimple, true
		return c.saslReply(&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_SUCCESS.Enum()})
	}
	resp := &commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_NEGOTIATE.Enum()}
	for _, m := range c.offered {
		switch m {
		case AuthToken:
			c.token = newTokenAcceptor(c.srv.opts.Token, c.srv.protection())
			challenge, err := c.token.digest.Challenge()
			if err != nil {
				return c.saslFatal(AccessControlException, err.Error())
			}
			resp.Auths = append(resp.Auths, &commonpb.RpcSaslProto_SaslAuth{
				Method: proto.String(string(AuthToken)), Mechanism: proto.String(tokenMechanism),
				Protocol: proto.String(tokenProtocol), ServerId: proto.String(tokenServerID),
				Challenge: challenge,
			})
		case AuthKerberos:
			k := c.srv.opts.Kerberos
			resp.Auths = append(resp.Auths, &commonpb.RpcSaslProto_SaslAuth{
				Method: proto.String(string(AuthKerberos)), Mechanism: proto.String(kerberosMechanism),
				Protocol: proto.String(k.Service), ServerId: proto.String(k.Host),
			})
		case AuthSimple:
			resp.Auths = append(resp.Auths, &commonpb.RpcSaslProto_SaslAuth{
				Method: proto.String(string(AuthSimple)), Mechanism: proto.String(""),
			})
		}
	}
	return c.saslReply(resp)
}

// saslInitiate starts the method the client picked.
func (c *serverConn) saslInitiate(msg *commonpb.RpcSaslProto) error {
	if !c.negotiated || c.auth != "" {
		return c.saslFatal(AccessControlException, "SASL INITIATE out of order")
	}
	if len(msg.GetAuths()) != 1 {
		return c.saslFatal(AccessControlException, "SASL INITIATE must name exactly one method")
	}
	m := AuthMethod(msg.GetAuths()[0].GetMethod())
	if !c.offers(m) {
		return c.saslFatal(AccessControlException, fmt.Sprintf("client selected an invalid SASL method %s", m))
	}
	c.auth = m
	switch m {
	case AuthSimple:
		c.authed = true
		return c.saslReply(&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_SUCCESS.Enum()})
	case AuthToken:
		if len(msg.GetToken()) == 0 {
			// The client ignored the early challenge: send it again.
			challenge, err := c.token.digest.Challenge()
			if err != nil {
				return c.saslFatal(AccessControlException, err.Error())
			}
			return c.saslReply(&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_CHALLENGE.Enum(), Token: challenge})
		}
		return c.finishToken(msg.GetToken())
	case AuthKerberos:
		c.krb = newKerberosAcceptor(c.srv.opts.Kerberos, c.srv.protection())
		challenge, err := c.krb.initiate(msg.GetToken())
		if err != nil {
			return c.saslFatal(AccessControlException, err.Error())
		}
		return c.saslReply(&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_CHALLENGE.Enum(), Token: challenge})
	}
	return c.saslFatal(AccessControlException, fmt.Sprintf("unsupported SASL method %s", m))
}

// saslResponse continues a multi-step method.
func (c *serverConn) saslResponse(msg *commonpb.RpcSaslProto) error {
	switch c.auth {
	case AuthToken:
		return c.finishToken(msg.GetToken())
	case AuthKerberos:
		user, layer, err := c.krb.response(msg.GetToken())
		if err != nil {
			return c.saslFatal(AccessControlException, err.Error())
		}
		c.user, c.authed = user, true
		if err := c.saslReply(&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_SUCCESS.Enum()}); err != nil {
			return err
		}
		if layer != nil {
			c.startWrapping(layer)
		}
		return nil
	}
	return c.saslFatal(AccessControlException, "SASL RESPONSE out of order")
}

// finishToken checks a DIGEST-MD5 response and answers SUCCESS with the
// server's rspauth.
func (c *serverConn) finishToken(token []byte) error {
	rspauth, err := c.token.digest.Respond(token)
	if err != nil {
		class, msg := AccessControlException, err.Error()
		if errors.Is(err, errInvalidToken) {
			class = InvalidTokenException
		}
		if c.token.refusal != nil {
			// The secret manager's own words, as Hadoop's client sees them.
			msg = c.token.refusal.Error()
		}
		return c.saslFatal(class, msg)
	}
	c.user, c.tokenID, c.authed = c.token.user, c.token.identifier, true
	if err := c.saslReply(&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_SUCCESS.Enum(), Token: rspauth}); err != nil {
		return err
	}
	if layer := c.token.digest.SecurityLayer(); layer != nil {
		c.startWrapping(digestLayer{layer})
	}
	return nil
}

func (c *serverConn) saslReply(msg *commonpb.RpcSaslProto) error {
	return c.send(c.responseHeader(callIDSASL, commonpb.RpcResponseHeaderProto_SUCCESS), msg)
}

func (c *serverConn) saslFatal(class, msg string) error {
	return c.fatal(callIDSASL, &RemoteError{Class: class, Code: CodeUnauthorized, Message: msg})
}

// errInvalidToken marks a token the secret lookup refused.
var errInvalidToken = errors.New("invalid token")

// tokenAcceptor runs the server side of TOKEN authentication.
type tokenAcceptor struct {
	digest     *digestmd5.Server
	user       string
	identifier []byte
	refusal    error // the lookup's refusal of the token, if any
}

// newTokenAcceptor offers the qops of levels (validated by Start), in
// their order, as Hadoop builds javax.security.sasl.qop from
// hadoop.rpc.protection, and Java's default ciphers.
func newTokenAcceptor(lookup SecretLookup, levels []Protection) *tokenAcceptor {
	offer, _ := qops(levels)
	t := &tokenAcceptor{}
	t.digest = &digestmd5.Server{
		Realm:      tokenRealm,
		Protocol:   tokenProtocol,
		ServerName: tokenServerID,
		Qops:       offer,
		Password: func(username string) (string, error) {
			id, err := base64.StdEncoding.DecodeString(username)
			if err != nil {
				return "", fmt.Errorf("%w: identifier is not base64: %v", errInvalidToken, err)
			}
			password, user, err := lookup(id)
			if err != nil {
				t.refusal = err
				return "", fmt.Errorf("%w: %w", errInvalidToken, err)
			}
			t.user, t.identifier = user, id
			return base64.StdEncoding.EncodeToString(password), nil
		},
	}
	return t
}
