package hive2

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/beltran/gohive/hiveserver"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/spnego"
)

// The hive2 credential type of workflow <credentials> (Oozie's
// Hive2Credentials).
const (
	// CredentialType is the credential's type attribute.
	CredentialType = "hive2"
	// CredentialJDBCURL is the property naming the HiveServer2 JDBC URL
	// (without principal=).
	CredentialJDBCURL = "hive2.jdbc.url"
	// CredentialPrincipal is the property naming HiveServer2's principal;
	// it is also the token's renewer.
	CredentialPrincipal = "hive2.server.principal"
	// CredentialAlias is the alias the token is stored under in the job's
	// credentials.
	CredentialAlias = "hive.server2.delegation.token"
	// TokenKind is the kind of a HiveServer2 delegation token.
	TokenKind = "HIVE_DELEGATION_TOKEN"
)

// ErrCredential reports a hive2 credential whose properties are missing
// or wrong (Oozie's E0510).
var ErrCredential = errors.New("bad hive2 credential")

// DefaultFetchTimeout bounds FetchDelegationToken when ctx has no
// deadline.
const DefaultFetchTimeout = 30 * time.Second

// FetchDelegationToken gets the HiveServer2 delegation token a job's
// containers use (beeline and the Hive JDBC driver with
// auth=delegationToken), as Oozie's hive2 credential does: it connects to
// props[CredentialJDBCURL] with principal=props[CredentialPrincipal] as
// krb's principal (SASL GSSAPI, or SPNEGO when the URL says
// transportMode=http), and asks for a token owned by user and renewable by
// the server principal. HiveServer2 refuses unless its hadoop.proxyuser
// rules let krb's principal act for user.
//
// The caller adds the token to the launch's credentials under
// CredentialAlias. The token's Kind is TokenKind and its Service
// "hiveserver2ClientToken", the service the JDBC driver looks for.
// Errors for missing or malformed properties wrap ErrCredential.
func FetchDelegationToken(ctx context.Context, krb *krbclient.Client, props *conf.Properties, user string) (hadoop.Token, error) {
	raw, principal := props.Value(CredentialJDBCURL), props.Value(CredentialPrincipal)
	switch {
	case raw == "":
		return hadoop.Token{}, fmt.Errorf("%w: %s is required to get a hive server 2 credential", ErrCredential, CredentialJDBCURL)
	case principal == "":
		return hadoop.Token{}, fmt.Errorf("%w: %s is required to get a hive server 2 credential", ErrCredential, CredentialPrincipal)
	case krb == nil:
		return hadoop.Token{}, errors.New("hive2 credential: gozie has no Kerberos login (gozie.kerberos.principal, gozie.kerberos.keytab)")
	case user == "":
		return hadoop.Token{}, fmt.Errorf("%w: no user to get the token for", ErrCredential)
	}
	u, err := ParseJDBCURL(raw + ";principal=" + principal)
	if err != nil {
		return hadoop.Token{}, fmt.Errorf("%w: %v", ErrCredential, err)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultFetchTimeout)
		defer cancel()
	}
	var errs []error
	for _, addr := range u.Hosts {
		tok, err := fetchTokenFrom(ctx, krb, u, addr, user)
		if err == nil {
			return tok, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
		if ctx.Err() != nil {
			break
		}
	}
	return hadoop.Token{}, fmt.Errorf("hive2 credential for %s: %w", user, errors.Join(errs...))
}

// fetchTokenFrom opens a session on one server and asks for the token.
func fetchTokenFrom(ctx context.Context, krb *krbclient.Client, u *JDBCURL, addr, user string) (hadoop.Token, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return hadoop.Token{}, err
	}
	principal := ServicePrincipal(u.Principal, host)
	trans, err := kerberosTransport(ctx, krb, u, addr, principal)
	if err != nil {
		return hadoop.Token{}, err
	}
	defer trans.Close()
	client := hiveserver.NewTCLIServiceClientFactory(trans, thrift.NewTBinaryProtocolFactoryConf(nil))
	open, err := client.OpenSession(ctx, &hiveserver.TOpenSessionReq{
		ClientProtocol: hiveserver.TProtocolVersion_HIVE_CLI_SERVICE_PROTOCOL_V6,
		Configuration:  map[string]string{"use:database": u.Database},
	})
	if err != nil {
		return hadoop.Token{}, fmt.Errorf("opening a session: %w", err)
	}
	if err := statusErr(open.Status); err != nil {
		return hadoop.Token{}, fmt.Errorf("opening a session: %w", err)
	}
	defer client.CloseSession(ctx, &hiveserver.TCloseSessionReq{SessionHandle: open.SessionHandle})
	resp, err := client.GetDelegationToken(ctx, &hiveserver.TGetDelegationTokenReq{
		SessionHandle: open.SessionHandle, Owner: user, Renewer: principal})
	if err != nil {
		return hadoop.Token{}, fmt.Errorf("GetDelegationToken: %w", err)
	}
	if err := statusErr(resp.Status); err != nil {
		return hadoop.Token{}, fmt.Errorf("GetDelegationToken: %w", err)
	}
	return yarn.DecodeTokenURLString(resp.GetDelegationToken())
}

// statusErr turns a failed TStatus into an error with Hive's message.
func statusErr(st *hiveserver.TStatus) error {
	if st == nil {
		return errors.New("no status in the reply")
	}
	switch st.StatusCode {
	case hiveserver.TStatusCode_SUCCESS_STATUS, hiveserver.TStatusCode_SUCCESS_WITH_INFO_STATUS:
		return nil
	}
	return errors.New(st.GetErrorMessage())
}

// kerberosTransport opens a Thrift transport to addr authenticated as
// krb's principal: SASL GSSAPI over the binary transport, SPNEGO on each
// request over HTTP.
func kerberosTransport(ctx context.Context, krb *krbclient.Client, u *JDBCURL, addr, principal string) (thrift.TTransport, error) {
	dl, _ := ctx.Deadline()
	conf := &thrift.TConfiguration{SocketTimeout: time.Until(dl), ConnectTimeout: time.Until(dl)}
	if u.TransportMode == "http" {
		scheme := "http"
		if u.SSL {
			scheme = "https"
		}
		spn, _ := splitPrincipal(principal)
		hc := &http.Client{Transport: &spnegoTransport{krb: krb, spn: spn, next: http.DefaultTransport}}
		t, err := thrift.NewTHttpClientWithOptions(scheme+"://"+addr+"/"+u.HTTPPath, thrift.THttpClientOptions{Client: hc})
		if err != nil {
			return nil, err
		}
		return t, t.Open()
	}
	if u.SSL {
		return nil, fmt.Errorf("%w: ssl=true with the binary transport for a hive2 credential", errUnsupportedURL)
	}
	var nd net.Dialer
	c, err := nd.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	c.SetDeadline(dl)
	sc, err := SASLGSSAPI(c, krb, principal)
	if err != nil {
		c.Close()
		return nil, err
	}
	return thrift.NewTBufferedTransport(thrift.NewTSocketFromConnConf(sc, conf), 4096), nil
}

// spnegoTransport adds a SPNEGO token to each request.
type spnegoTransport struct {
	krb  *krbclient.Client
	spn  string
	next http.RoundTripper
}

func (t *spnegoTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if err := spnego.SetSPNEGOHeader(t.krb, r, t.spn); err != nil {
		return nil, fmt.Errorf("SPNEGO for %s: %w", t.spn, err)
	}
	return t.next.RoundTrip(r)
}
