package auth

import (
	"encoding/base64"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/service"
	"github.com/jcmturner/gokrb5/v8/spnego"
	"github.com/jcmturner/gokrb5/v8/types"
)

// Header values of SPNEGO (RFC 4559).
const (
	negotiate = "Negotiate"
	// negotiateAccepted is the SPNEGO answer "accept-completed, mechanism Kerberos" that
	// gokrb5's own acceptor sends on success.
	negotiateAccepted = "Negotiate oRQwEqADCgEAoQsGCSqGSIb3EgECAg=="
)

// acceptor checks SPNEGO tokens with the keys of one service principal.
type acceptor struct {
	kt     *keytab.Keytab
	logger *log.Logger
}

// newAcceptor loads the keytab and keeps the keys of the principal: HTTP/<host>[@REALM]
// (_HOST replaced by hostname; without a realm any realm's key matches) or "*" for every
// HTTP/ principal of the keytab.
func newAcceptor(keytabFile, principal, hostname string, logger *slog.Logger) (*acceptor, error) {
	if keytabFile == "" {
		return nil, errors.New("kerberos authentication needs a keytab")
	}
	kt, err := keytab.Load(keytabFile)
	if err != nil {
		return nil, fmt.Errorf("loading keytab %s: %w", keytabFile, err)
	}
	principal = strings.ReplaceAll(principal, "_HOST", strings.ToLower(hostname))
	name, realm, _ := strings.Cut(principal, "@")
	want := strings.Split(name, "/")
	keep := kt.Entries[:0:0]
	var held []string
	for _, e := range kt.Entries {
		if p := e.Principal.String(); !slices.Contains(held, p) {
			held = append(held, p)
		}
		match := principal == "*" && len(e.Principal.Components) > 1 && e.Principal.Components[0] == "HTTP"
		if principal != "*" {
			match = slices.Equal(e.Principal.Components, want) && (realm == "" || e.Principal.Realm == realm)
		}
		if match {
			keep = append(keep, e)
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("keytab %s holds no key of %s (it holds %s)", keytabFile, principal, strings.Join(held, ", "))
	}
	filtered := *kt
	filtered.Entries = keep
	return &acceptor{kt: &filtered, logger: slog.NewLogLogger(logger.Handler(), slog.LevelDebug)}, nil
}

// accept checks the Negotiate token of r and returns the client principal as
// (name, realm), e.g. ("alice", "EXAMPLE.COM") or ("hue/gw1", "EXAMPLE.COM").
func (a *acceptor) accept(r *http.Request) (name, realm string, err error) {
	scheme, b64, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, negotiate) {
		return "", "", errNoNegotiation
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		return "", "", fmt.Errorf("decoding the Negotiate token: %w", err)
	}
	defer func() {
		// The ASN.1 decoders are fed by the client; a malformed token must not take the
		// request down.
		if p := recover(); p != nil {
			name, realm, err = "", "", fmt.Errorf("malformed Negotiate token: %v", p)
		}
	}()
	apReq, err := apReqOf(raw)
	if err != nil {
		return "", "", err
	}
	settings := []func(*service.Settings){service.DecodePAC(false), service.Logger(a.logger)}
	if h, err := types.GetHostAddress(r.RemoteAddr); err == nil {
		settings = append(settings, service.ClientAddress(h))
	}
	ok, creds, err := service.VerifyAPREQ(apReq, service.NewSettings(a.kt, settings...))
	if err != nil {
		return "", "", fmt.Errorf("checking the Kerberos ticket: %w", err)
	}
	if !ok || creds == nil {
		return "", "", errors.New("the Kerberos ticket is not valid")
	}
	return creds.UserName(), creds.Domain(), nil
}

// errNoNegotiation means the request carries no Negotiate token.
var errNoNegotiation = errors.New("no Negotiate token")

// apReqOf extracts the Kerberos AP-REQ of a SPNEGO NegTokenInit, or of a bare Kerberos
// GSS-API token as some clients send.
func apReqOf(raw []byte) (*messages.APReq, error) {
	var st spnego.SPNEGOToken
	mech := raw
	if err := st.Unmarshal(raw); err == nil {
		if !st.Init || len(st.NegTokenInit.MechTypes) == 0 {
			return nil, errors.New("the Negotiate token is not a SPNEGO NegTokenInit")
		}
		oid := st.NegTokenInit.MechTypes[0]
		if !oid.Equal(gssapi.OIDKRB5.OID()) && !oid.Equal(gssapi.OIDMSLegacyKRB5.OID()) {
			return nil, fmt.Errorf("unsupported SPNEGO mechanism %s (want Kerberos)", oid)
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

// shortName maps a principal name to a user name with Hadoop's DEFAULT rule: its first
// component ("hue/gw1" → "hue").
func shortName(principal string) string {
	name, _, _ := strings.Cut(principal, "/")
	return name
}
