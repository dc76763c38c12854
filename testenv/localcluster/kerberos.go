package localcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/krblogin"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/miniyarn"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// The principals of a Kerberized local cluster, in the realm kdc.Realm.
// Services run on host localhost, as their _HOST patterns resolve there.
const (
	// ServerPrincipal is gozie's own principal toward Hadoop
	// (gozie.kerberos.principal), a proxy user of every service.
	ServerPrincipal = "gozie/localhost"
	// HTTPPrincipal is the SPNEGO principal of every web endpoint: the
	// ResourceManager's REST API and gozie's own.
	HTTPPrincipal = "HTTP/localhost"
	// NameNodePrincipal, ResourceManagerPrincipal and HivePrincipal are
	// the services' own.
	NameNodePrincipal        = "nn/localhost"
	ResourceManagerPrincipal = "rm/localhost"
	HivePrincipal            = "hive/localhost"
	// serverShortName is the short name of ServerPrincipal, the user the
	// proxy-user rules name.
	serverShortName = "gozie"
	// hiveShortName is HivePrincipal's, the user HiveServer2 submits its
	// applications as (for the session's user).
	hiveShortName = "hive"
)

// Keytab files below <Dir>/kdc.
const (
	serviceKeytabName = "services.keytab"
	serverKeytabName  = "gozie.keytab"
	userKeytabName    = "user.keytab"
	adminKeytabName   = "admin.keytab"
)

// realm is a Kerberized cluster's KDC and keytabs.
type realm struct {
	kdc *kdc.KDC
	// services holds the keys of every service principal, read from
	// servicesPath.
	services     *keytab.Keytab
	servicesPath string
	// serverKeytab, userKeytab and adminKeytab are the paths of gozie's
	// keytab, the cluster user's and its administrator's (the HDFS
	// superuser, the OS user running the cluster).
	serverKeytab, userKeytab, adminKeytab string
	user, admin                           string
}

// startRealm runs the cluster's KDC in <dir>/kdc on addr (a free port when
// empty), creating the service principals, gozie's, user's (a user
// principal with a keytab, for the cluster's user to kinit with) and
// admin's (the HDFS superuser), and exports their keytabs. A KDC run before on dir keeps its database.
func startRealm(dir, addr, user, admin string) (*realm, error) {
	k, err := kdc.Run(kdc.Options{Dir: filepath.Join(dir, "kdc"), Addr: addr})
	if err != nil {
		return nil, err
	}
	r := &realm{kdc: k, user: user, admin: admin}
	services := []string{HTTPPrincipal, NameNodePrincipal, ResourceManagerPrincipal, HivePrincipal}
	for _, p := range append(append([]string{}, services...), ServerPrincipal, user, admin) {
		if err := k.AddPrincipal(p, ""); err != nil {
			k.Close()
			return nil, err
		}
	}
	r.servicesPath, err = r.export(serviceKeytabName, services...)
	if err == nil {
		r.services, err = loadKeytab(r.servicesPath)
	}
	if err == nil {
		r.serverKeytab, err = r.export(serverKeytabName, ServerPrincipal, HTTPPrincipal)
	}
	if err == nil {
		r.userKeytab, err = r.export(userKeytabName, user)
	}
	if err == nil {
		r.adminKeytab, err = r.export(adminKeytabName, admin)
	}
	if err != nil {
		k.Close()
		return nil, err
	}
	return r, nil
}

// export writes a fresh keytab of principals (an old one would only grow).
func (r *realm) export(name string, principals ...string) (string, error) {
	path := filepath.Join(r.kdc.Dir, name)
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return "", err
	}
	return r.kdc.ExportKeytab(path, principals...)
}

func loadKeytab(path string) (*keytab.Keytab, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	kt := keytab.New()
	if err := kt.Unmarshal(b); err != nil {
		return nil, fmt.Errorf("keytab %s: %w", path, err)
	}
	return kt, nil
}

// hadoopConf is what a Kerberized cluster's core-site.xml and
// yarn-site.xml say of its security.
func (r *realm) hadoopConf() map[string]string {
	return map[string]string{
		"hadoop.security.authentication":                 "kerberos",
		"hadoop.security.authorization":                  "true",
		"dfs.namenode.kerberos.principal":                "nn/_HOST@" + kdc.Realm,
		"yarn.resourcemanager.principal":                 "rm/_HOST@" + kdc.Realm,
		"yarn.resourcemanager.webapp.spnego-principal":   "HTTP/_HOST@" + kdc.Realm,
		"hive.server2.authentication.kerberos.principal": "hive/_HOST@" + kdc.Realm,
	}
}

// properties are the realm's entries of local-cluster.properties.
func (r *realm) properties() map[string]string {
	return map[string]string{
		"kerberosRealm":            kdc.Realm,
		"krb5Config":               r.kdc.Krb5Conf,
		"goziePrincipal":           kdc.Principal(ServerPrincipal),
		"gozieKeytab":              r.serverKeytab,
		"gozieHTTPPrincipal":       kdc.Principal(HTTPPrincipal),
		"userPrincipal":            kdc.Principal(r.user),
		"userKeytab":               r.userKeytab,
		"hive2ServerPrincipal":     kdc.Principal(HivePrincipal),
		"hcatMetastorePrincipal":   kdc.Principal(HivePrincipal),
		"nameNodePrincipal":        kdc.Principal(NameNodePrincipal),
		"resourceManagerPrincipal": kdc.Principal(ResourceManagerPrincipal),
	}
}

// login logs principal in from keytab with the realm's krb5.conf.
func (r *realm) login(principal, keytabPath string) (*krbclient.Client, error) {
	return krblogin.Login(krblogin.Config{Principal: kdc.Principal(principal), Keytab: keytabPath, Krb5Conf: r.kdc.Krb5Conf})
}

func (r *realm) close() {
	if r != nil {
		r.kdc.Close()
	}
}

// rmKerberos is MiniYARN's security: SPNEGO as HTTPPrincipal, and the
// RM's own login (ResourceManagerPrincipal) on an HDFS client of fsCfg's
// filesystem, with which it renews the HDFS tokens of new applications
// and cancels those of ended ones, as a real RM does.
func (c *Cluster) rmKerberos(fsCfg hadoop.ResolverConfig, renewInterval time.Duration) (*miniyarn.KerberosOptions, error) {
	krb, err := c.realm.login(ResourceManagerPrincipal, c.realm.servicesPath)
	if err != nil {
		return nil, fmt.Errorf("logging the ResourceManager in: %w", err)
	}
	fsCfg.Kerberos = krb
	if c.rmFS, err = hadoop.NewResolver(fsCfg); err != nil {
		krb.Destroy()
		return nil, err
	}
	c.rmKrb = krb
	fs, uri := c.rmFS, fsCfg.DefaultFS
	return &miniyarn.KerberosOptions{Keytab: c.realm.services, Principal: kdc.Principal(HTTPPrincipal),
		RMPrincipal: kdc.Principal(ResourceManagerPrincipal), TokenRenewInterval: renewInterval,
		CancelHDFSToken: func(ctx context.Context, t hadoop.Token) error { return fs.CancelDelegationToken(ctx, uri, t) },
		RenewHDFSToken: func(ctx context.Context, t hadoop.Token) (time.Time, error) {
			return fs.RenewDelegationToken(ctx, uri, t)
		},
	}, nil
}
