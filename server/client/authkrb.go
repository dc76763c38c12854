package client

import (
	"fmt"
	"strings"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// KerberosFromCCache returns a Kerberos client holding the tickets of an MIT credential
// cache file (what kinit writes; "FILE:" may prefix the path), with the KDCs of the
// krb5.conf at krb5Conf. It does not renew the ticket-granting ticket: run kinit again
// when it expires.
func KerberosFromCCache(ccache, krb5Conf string) (*krbclient.Client, error) {
	cfg, err := config.Load(krb5Conf)
	if err != nil {
		return nil, fmt.Errorf("reading Kerberos configuration %s: %w", krb5Conf, err)
	}
	path := ccache
	if kind, rest, ok := strings.Cut(ccache, ":"); ok && !strings.Contains(kind, "/") {
		if !strings.EqualFold(kind, "FILE") {
			return nil, fmt.Errorf("credential cache %s: only FILE: caches are supported", ccache)
		}
		path = rest
	}
	cc, err := credentials.LoadCCache(path)
	if err != nil {
		return nil, fmt.Errorf("reading Kerberos credential cache %s (run kinit): %w", path, err)
	}
	cl, err := krbclient.NewFromCCache(cc, cfg, krbclient.DisablePAFXFAST(true))
	if err != nil {
		return nil, fmt.Errorf("using Kerberos credential cache %s (run kinit): %w", path, err)
	}
	return cl, nil
}

// KerberosFromKeytab logs principal ("user" or "user@REALM"; the krb5.conf default realm
// when none) in with the key of a keytab file.
func KerberosFromKeytab(keytabFile, principal, krb5Conf string) (*krbclient.Client, error) {
	cfg, err := config.Load(krb5Conf)
	if err != nil {
		return nil, fmt.Errorf("reading Kerberos configuration %s: %w", krb5Conf, err)
	}
	kt, err := keytab.Load(keytabFile)
	if err != nil {
		return nil, fmt.Errorf("reading keytab %s: %w", keytabFile, err)
	}
	name, realm, ok := strings.Cut(principal, "@")
	if !ok || realm == "" {
		realm = cfg.LibDefaults.DefaultRealm
	}
	cl := krbclient.NewWithKeytab(name, realm, kt, cfg, krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		return nil, fmt.Errorf("kerberos login of %s@%s with keytab %s: %w", name, realm, keytabFile, err)
	}
	return cl, nil
}
