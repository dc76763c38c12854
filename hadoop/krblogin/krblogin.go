// Package krblogin is the gozie server's Kerberos identity toward Hadoop:
// a login from a keytab (gozie.kerberos.keytab) as a principal
// (gozie.kerberos.principal) whose "_HOST" stands for this host's
// canonical name, as Hadoop's SecurityUtil.getServerPrincipal resolves it.
//
// The client Login returns keeps itself logged in without a restart:
// gokrb5 renews the ticket-granting ticket at five sixths of its lifetime
// while it is renewable, and logs in again from the keytab once it is not
// (past its renew-till time, or never renewable); a service ticket is
// asked for with a fresh TGT whenever the current one is in its last
// sixth. The daemon hands the client to hadoop.ResolverConfig.Kerberos.
package krblogin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop/ipc"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// DefaultKrb5Conf is the krb5.conf read when neither Config.Krb5Conf nor
// KRB5_CONFIG names one (MIT's default).
const DefaultKrb5Conf = "/etc/krb5.conf"

// Config says how to log in.
type Config struct {
	// Principal is the server's principal, e.g. "gozie/_HOST@EXAMPLE.COM"
	// (gozie.kerberos.principal); without a realm, krb5.conf's
	// default_realm.
	Principal string
	// Keytab is the path of the keytab holding the principal's keys
	// (gozie.kerberos.keytab).
	Keytab string
	// Krb5Conf is the krb5.conf path; default $KRB5_CONFIG, else
	// DefaultKrb5Conf.
	Krb5Conf string
	// Hostname replaces _HOST; default CanonicalHostname().
	Hostname string
}

// Login logs in as cfg.Principal with its keytab and returns the client,
// which renews itself (see the package documentation). The error names
// what failed: the krb5.conf, the keytab, a principal missing from it, or
// the KDC's answer.
func Login(cfg Config) (*krbclient.Client, error) {
	if cfg.Principal == "" || cfg.Keytab == "" {
		return nil, errors.New("kerberos login: gozie.kerberos.principal and gozie.kerberos.keytab are both required")
	}
	host := cfg.Hostname
	if host == "" && strings.Contains(cfg.Principal, "_HOST") {
		h, err := CanonicalHostname()
		if err != nil {
			return nil, fmt.Errorf("kerberos login: resolving _HOST of %s: %w", cfg.Principal, err)
		}
		host = h
	}
	principal := ipc.ReplaceHost(cfg.Principal, host)
	confPath := cfg.Krb5Conf
	if confPath == "" {
		confPath = os.Getenv("KRB5_CONFIG")
	}
	if confPath == "" {
		confPath = DefaultKrb5Conf
	}
	conf, err := config.Load(confPath)
	if err != nil {
		return nil, fmt.Errorf("kerberos login: reading krb5.conf %s: %w", confPath, err)
	}
	kt, err := keytab.Load(cfg.Keytab)
	if err != nil {
		return nil, fmt.Errorf("kerberos login: reading keytab %s (gozie.kerberos.keytab): %w", cfg.Keytab, err)
	}
	name, realm, _ := strings.Cut(principal, "@")
	if realm == "" {
		realm = conf.LibDefaults.DefaultRealm
	}
	if realm == "" {
		return nil, fmt.Errorf("kerberos login: %s names no realm and %s has no default_realm", principal, confPath)
	}
	if !hasPrincipal(kt, name, realm) {
		return nil, fmt.Errorf("kerberos login: keytab %s holds no key of %s@%s (gozie.kerberos.principal %s)", cfg.Keytab, name, realm, cfg.Principal)
	}
	cl := krbclient.NewWithKeytab(name, realm, kt, conf, krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		return nil, fmt.Errorf("kerberos login as %s@%s with keytab %s (KDC of %s per %s): %w", name, realm, cfg.Keytab, realm, confPath, err)
	}
	return cl, nil
}

func hasPrincipal(kt *keytab.Keytab, name, realm string) bool {
	for _, e := range kt.Entries {
		if e.Principal.Realm == realm && strings.Join(e.Principal.Components, "/") == name {
			return true
		}
	}
	return false
}

// CanonicalHostname is this host's canonical name, as Java's
// InetAddress.getLocalHost().getCanonicalHostName() gives it: the host
// name, resolved to an address and that address back to a name; the host
// name itself when either lookup fails.
func CanonicalHostname() (string, error) {
	h, err := os.Hostname()
	if err != nil {
		return "", err
	}
	addrs, err := net.LookupHost(h)
	if err != nil || len(addrs) == 0 {
		return h, nil
	}
	names, err := net.LookupAddr(addrs[0])
	if err != nil || len(names) == 0 {
		return h, nil
	}
	return strings.TrimSuffix(names[0], "."), nil
}

// TGTExpiry reports when cl's current ticket-granting ticket of its own
// realm expires; renewal and re-login move it forward. gokrb5 shows its
// session times only through Client.Print, which this reads.
func TGTExpiry(cl *krbclient.Client) (time.Time, error) {
	var buf bytes.Buffer
	cl.Print(&buf)
	_, rest, ok := strings.Cut(buf.String(), "TGT Sessions:\n")
	if !ok {
		return time.Time{}, errors.New("kerberos: no TGT sessions")
	}
	js, _, _ := strings.Cut(rest, "\nService ticket cache:")
	var sessions []struct {
		Realm   string
		EndTime time.Time
	}
	if err := json.Unmarshal([]byte(js), &sessions); err != nil {
		return time.Time{}, fmt.Errorf("kerberos: reading TGT sessions: %w", err)
	}
	for _, s := range sessions {
		if s.Realm == cl.Credentials.Domain() {
			return s.EndTime, nil
		}
	}
	return time.Time{}, fmt.Errorf("kerberos: no TGT for %s", cl.Credentials.Domain())
}
