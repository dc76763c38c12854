package credentials

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// The hcat credential type of workflow <credentials> (Oozie's
// HCatCredentials and HCatCredentialHelper).
const (
	// HCatType is the credential's type attribute.
	HCatType = "hcat"
	// HCatMetastoreURI names the metastore's thrift://host:port URIs, comma
	// separated; hive.metastore.uris is read when it is absent.
	HCatMetastoreURI = "hcat.metastore.uri"
	// HCatMetastorePrincipal names the metastore's principal (_HOST is
	// the URI's host); hive.metastore.kerberos.principal is read when it
	// is absent.
	HCatMetastorePrincipal = "hcat.metastore.principal"
	// HCatAlias is the alias the token is stored under in the job's
	// credentials.
	HCatAlias = "HCat Token"

	hiveMetastoreURIs      = "hive.metastore.uris"
	hiveMetastorePrincipal = "hive.metastore.kerberos.principal"
)

// ErrHCatCredential reports an hcat credential whose properties are
// missing or wrong (Oozie's E0510).
var ErrHCatCredential = errors.New("bad hcat credential")

// fetchHCat gets a Hive metastore delegation token for user, as Oozie's
// hcat credential does: it connects to each metastore URI in turn with
// SASL GSSAPI as krb's principal and calls get_delegation_token with user
// as the owner and the short name of krb's principal (the server's login
// user) as the renewer. The metastore refuses unless its hadoop.proxyuser
// rules let krb's principal act for user.
func fetchHCat(ctx context.Context, krb *krbclient.Client, c actions.Credential, user string) ([]Token, error) {
	uris, principal := propOr(c.Properties, HCatMetastoreURI, hiveMetastoreURIs), propOr(c.Properties, HCatMetastorePrincipal, hiveMetastorePrincipal)
	switch {
	case principal == "":
		return nil, fmt.Errorf("%w: %s is required to get hcat credential", ErrHCatCredential, HCatMetastorePrincipal)
	case uris == "":
		return nil, fmt.Errorf("%w: %s is required to get hcat credential", ErrHCatCredential, HCatMetastoreURI)
	case krb == nil:
		return nil, errors.New("hcat credential: gozie has no Kerberos login (gozie.kerberos.principal, gozie.kerberos.keytab)")
	case user == "":
		return nil, fmt.Errorf("%w: no user to get the token for", ErrHCatCredential)
	}
	addrs, err := metastoreAddrs(uris)
	if err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, hive2.DefaultFetchTimeout)
		defer cancel()
	}
	renewer := loginShortName(krb)
	var errs []error
	for _, addr := range addrs {
		host, _, _ := net.SplitHostPort(addr)
		tok, err := metastoreToken(ctx, krb, addr, hive2.ServicePrincipal(principal, host), user, renewer)
		if err == nil {
			return []Token{{Alias: HCatAlias, Token: tok}}, nil
		}
		errs = append(errs, fmt.Errorf("metastore %s: %w", addr, err))
		if ctx.Err() != nil {
			break
		}
	}
	return nil, fmt.Errorf("hcat credential for %s: %w", user, errors.Join(errs...))
}

// propOr returns props[key], or props[alt] when key is absent.
func propOr(props *conf.Properties, key, alt string) string {
	if v, ok := props.Get(key); ok {
		return v
	}
	return props.Value(alt)
}

// metastoreAddrs parses a comma-separated list of thrift://host:port URIs.
func metastoreAddrs(uris string) ([]string, error) {
	var addrs []string
	for raw := range strings.SplitSeq(uris, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "thrift" || u.Port() == "" {
			return nil, fmt.Errorf("%w: %s %q is not a thrift://host:port URI", ErrHCatCredential, HCatMetastoreURI, raw)
		}
		addrs = append(addrs, u.Host)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%w: %s names no metastore", ErrHCatCredential, HCatMetastoreURI)
	}
	return addrs, nil
}

// loginShortName is the short name of krb's principal (UGI's
// getShortUserName of the login user): its first component.
func loginShortName(krb *krbclient.Client) string {
	name := krb.Credentials.UserName()
	if i := strings.IndexAny(name, "/@"); i >= 0 {
		name = name[:i]
	}
	return name
}

// metastoreToken calls get_delegation_token on one metastore.
func metastoreToken(ctx context.Context, krb *krbclient.Client, addr, principal, owner, renewer string) (hadoop.Token, error) {
	var nd net.Dialer
	c, err := nd.DialContext(ctx, "tcp", addr)
	if err != nil {
		return hadoop.Token{}, err
	}
	defer c.Close()
	dl, _ := ctx.Deadline()
	c.SetDeadline(dl)
	sc, err := hive2.SASLGSSAPI(c, krb, principal)
	if err != nil {
		return hadoop.Token{}, err
	}
	conf := &thrift.TConfiguration{SocketTimeout: time.Until(dl)}
	trans := thrift.NewTBufferedTransport(thrift.NewTSocketFromConnConf(sc, conf), 4096)
	prot := thrift.NewTBinaryProtocolConf(trans, conf)
	if err := writeTokenCall(ctx, prot, owner, renewer); err != nil {
		return hadoop.Token{}, fmt.Errorf("calling get_delegation_token: %w", err)
	}
	s, err := readTokenReply(ctx, prot)
	if err != nil {
		return hadoop.Token{}, fmt.Errorf("get_delegation_token: %w", err)
	}
	return yarn.DecodeTokenURLString(s)
}

// writeTokenCall sends get_delegation_token(owner, renewer).
func writeTokenCall(ctx context.Context, prot thrift.TProtocol, owner, renewer string) error {
	steps := []func() error{
		func() error { return prot.WriteMessageBegin(ctx, "get_delegation_token", thrift.CALL, 1) },
		func() error { return prot.WriteStructBegin(ctx, "get_delegation_token_args") },
		func() error { return prot.WriteFieldBegin(ctx, "token_owner", thrift.STRING, 1) },
		func() error { return prot.WriteString(ctx, owner) },
		func() error { return prot.WriteFieldEnd(ctx) },
		func() error { return prot.WriteFieldBegin(ctx, "renewer_kerberos_principal_name", thrift.STRING, 2) },
		func() error { return prot.WriteString(ctx, renewer) },
		func() error { return prot.WriteFieldEnd(ctx) },
		func() error { return prot.WriteFieldStop(ctx) },
		func() error { return prot.WriteStructEnd(ctx) },
		func() error { return prot.WriteMessageEnd(ctx) },
		func() error { return prot.Flush(ctx) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// readTokenReply reads get_delegation_token's reply: the token string,
// the MetaException's message, or the TApplicationException of a server
// that does not know the method.
func readTokenReply(ctx context.Context, prot thrift.TProtocol) (string, error) {
	_, typ, _, err := prot.ReadMessageBegin(ctx)
	if err != nil {
		return "", err
	}
	if typ == thrift.EXCEPTION {
		x := thrift.NewTApplicationException(thrift.UNKNOWN_APPLICATION_EXCEPTION, "")
		if err := x.Read(ctx, prot); err != nil {
			return "", err
		}
		return "", x
	}
	if typ != thrift.REPLY {
		return "", fmt.Errorf("unexpected message type %d", typ)
	}
	var tok, failure string
	var hasTok bool
	err = readStruct(ctx, prot, func(id int16, ft thrift.TType) (bool, error) {
		switch {
		case id == 0 && ft == thrift.STRING:
			hasTok = true
			tok, err = prot.ReadString(ctx)
			return true, err
		case id == 1 && ft == thrift.STRUCT:
			failure = "MetaException"
			return true, readStruct(ctx, prot, func(id int16, ft thrift.TType) (bool, error) {
				if id != 1 || ft != thrift.STRING {
					return false, nil
				}
				msg, err := prot.ReadString(ctx)
				failure = "MetaException: " + msg
				return true, err
			})
		}
		return false, nil
	})
	if err != nil {
		return "", err
	}
	if err := prot.ReadMessageEnd(ctx); err != nil {
		return "", err
	}
	switch {
	case failure != "":
		return "", errors.New(failure)
	case !hasTok:
		return "", errors.New("the reply holds no token")
	}
	return tok, nil
}

// readStruct reads a struct, handing each field to field, which reads it
// and returns true, or returns false to have it skipped.
func readStruct(ctx context.Context, prot thrift.TProtocol, field func(id int16, ft thrift.TType) (bool, error)) error {
	if _, err := prot.ReadStructBegin(ctx); err != nil {
		return err
	}
	for {
		_, ft, id, err := prot.ReadFieldBegin(ctx)
		if err != nil {
			return err
		}
		if ft == thrift.STOP {
			break
		}
		read, err := field(id, ft)
		if err != nil {
			return err
		}
		if !read {
			if err := prot.Skip(ctx, ft); err != nil {
				return err
			}
		}
		if err := prot.ReadFieldEnd(ctx); err != nil {
			return err
		}
	}
	return prot.ReadStructEnd(ctx)
}
