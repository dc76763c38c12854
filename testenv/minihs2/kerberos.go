package minihs2

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/gozie/gozie/testenv/internal/krbaccept"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/keytab"
	krbservice "github.com/jcmturner/gokrb5/v8/service"
	krbtypes "github.com/jcmturner/gokrb5/v8/types"
)

// KerberosOptions configures AuthKerberos (hive.server2.authentication=
// KERBEROS): the service principal's keytab
// (hive.server2.authentication.kerberos.keytab) and, for SPNEGO over HTTP,
// the same key (MiniHS2 uses one principal for both, as a single-host
// cluster's hive/_HOST and HTTP/_HOST keytabs usually hold).
type KerberosOptions struct {
	// Keytab holds the key of Principal.
	Keytab *keytab.Keytab
	// Principal is the service principal, e.g. "hive/localhost@TEST.LOCAL"
	// (hive.server2.authentication.kerberos.principal with _HOST
	// resolved). Clients name it in principal= of their JDBC URL.
	Principal string
}

// ProxyUserKey is the OpenSession configuration key naming the user a
// session acts for (HiveAuthConstants.HS2_PROXY_USER).
const ProxyUserKey = "hive.server2.proxy.user"

// gssapiMechanism is the SASL mechanism of Kerberos.
const gssapiMechanism = "GSSAPI"

// saslNoLayer is the security-layer offer of qop auth: bit 1 ("no
// security layer") and a 64 KiB maximum buffer.
var saslNoLayer = []byte{0x01, 0x01, 0x00, 0x00}

// gssAcceptor is the server side of one SASL GSSAPI exchange: the
// client's AP-REQ, answered by a wrapped security-layer offer, and the
// client's wrapped choice. Only "no security layer" (qop auth) is offered.
type gssAcceptor struct {
	kt     *keytab.Keytab
	key    krbtypes.EncryptionKey
	client string // user@REALM once the AP-REQ verified
}

// accept verifies the client's initial token (an AP-REQ, bare or inside a
// SPNEGO NegTokenInit) and returns the client principal and session key.
func acceptAPReq(kt *keytab.Keytab, token []byte, remoteAddr string) (principal string, key krbtypes.EncryptionKey, err error) {
	defer func() {
		// The ASN.1 decoders are fed by the client.
		if p := recover(); p != nil {
			err = fmt.Errorf("malformed Kerberos token: %v", p)
		}
	}()
	apReq, err := krbaccept.APReq(token)
	if err != nil {
		return "", key, err
	}
	settings := []func(*krbservice.Settings){krbservice.DecodePAC(false)}
	if h, err := krbtypes.GetHostAddress(remoteAddr); err == nil {
		settings = append(settings, krbservice.ClientAddress(h))
	}
	ok, creds, err := krbservice.VerifyAPREQ(apReq, krbservice.NewSettings(kt, settings...))
	if err != nil {
		return "", key, fmt.Errorf("checking the Kerberos ticket: %w", err)
	}
	if !ok || creds == nil {
		return "", key, errors.New("the Kerberos ticket is not valid")
	}
	return creds.UserName() + "@" + creds.Domain(), apReq.Ticket.DecryptedEncPart.Key, nil
}

// initiate verifies the AP-REQ and returns the wrapped offer.
func (g *gssAcceptor) initiate(token []byte, remoteAddr string) ([]byte, error) {
	client, key, err := acceptAPReq(g.kt, token, remoteAddr)
	if err != nil {
		return nil, err
	}
	g.client, g.key = client, key
	etype, err := crypto.GetEtype(key.KeyType)
	if err != nil {
		return nil, fmt.Errorf("session key type: %w", err)
	}
	wt := gssapi.WrapToken{Flags: 0x01, EC: uint16(etype.GetHMACBitLength() / 8), Payload: saslNoLayer}
	if err := wt.SetCheckSum(key, keyusage.GSSAPI_ACCEPTOR_SEAL); err != nil {
		return nil, fmt.Errorf("signing the security-layer offer: %w", err)
	}
	return wt.Marshal()
}

// response verifies the client's wrapped choice and returns the client
// principal.
func (g *gssAcceptor) response(token []byte) (string, error) {
	if g.client == "" {
		return "", errors.New("GSSAPI response before the AP-REQ")
	}
	var wt gssapi.WrapToken
	if err := wt.Unmarshal(token, false); err != nil {
		return "", fmt.Errorf("decoding the client's wrap token: %w", err)
	}
	if ok, err := wt.Verify(g.key, keyusage.GSSAPI_INITIATOR_SEAL); !ok || err != nil {
		return "", fmt.Errorf("the client's wrap token does not verify: %v", err)
	}
	if len(wt.Payload) < 4 || wt.Payload[0] != 0x01 {
		return "", errors.New("the client chose a security layer that was not offered (only qop auth is)")
	}
	return g.client, nil
}

// spnegoUser authenticates an HTTP request by its "Authorization:
// Negotiate" header and returns the client principal.
func (s *Server) spnegoUser(r *http.Request) (string, error) {
	h := r.Header.Get("Authorization")
	b64, ok := strings.CutPrefix(h, "Negotiate ")
	if !ok {
		//lint:ignore ST1005 HiveServer2's own message, verbatim
		return "", errors.New("Authorization header received from the client is empty.")
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		return "", fmt.Errorf("decoding the Negotiate token: %w", err)
	}
	principal, _, err := acceptAPReq(s.opts.Kerberos.Keytab, raw, r.RemoteAddr)
	return principal, err
}

// sessionUser decides whom a session runs as (ThriftCLIService.getProxyUser):
// the authenticated user, or the user it asks to act for (the HTTP doAs
// parameter, else hive.server2.proxy.user) when the hadoop.proxyuser rules
// allow the authenticated principal to. Without Kerberos the proxy user is
// taken as is (authentication NONE).
func (s *Server) sessionUser(real, doAs string, conf map[string]string, remoteAddr string) (string, error) {
	proxy := doAs
	if proxy == "" {
		proxy = conf[ProxyUserKey]
	}
	if proxy == "" {
		return ugi.ShortName(real), nil
	}
	if s.opts.Auth != AuthKerberos {
		return proxy, nil
	}
	if strings.EqualFold(ugi.ShortName(real), proxy) {
		return proxy, nil
	}
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	if err := s.proxyUsers.Authorize(real, proxy, host); err != nil {
		//lint:ignore ST1005 HiveServer2's own message, verbatim
		return "", fmt.Errorf("Failed to validate proxy privilege of %s for %s: %w", real, proxy, err)
	}
	return proxy, nil
}
