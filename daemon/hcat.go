package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/hcat/metastore"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// hiveSite is the Hive client configuration read from the Hadoop
// configuration directory, where Oozie's
// oozie.service.HCatAccessorService.hcat.configuration usually points.
const hiveSite = "hive-site.xml"

// newHCat builds the hcat:// dataset checker (coordrun.Config.HCat) and
// its notification watcher. On a Kerberized cluster it connects with the
// server's login to hive.metastore.kerberos.principal, read from
// hive-site.xml or the Hadoop configuration; a Kerberized cluster without
// that principal gets no checker, and hcat datasets wait, failing with
// "No FileSystem for scheme" (logged at start-up).
func newHCat(hconf *conf.Hadoop, krb *krbclient.Client, log *slog.Logger) (*metastore.Datasets, error) {
	cfg := metastore.Config{}
	if hconf.Kerberos() {
		principal, err := metastorePrincipal(hconf)
		if err != nil {
			return nil, err
		}
		if principal == "" || krb == nil {
			log.Warn("hcat datasets are not available: the cluster is Kerberized and hive.metastore.kerberos.principal (" +
				hiveSite + ") or the server's Kerberos login is missing")
			return nil, nil
		}
		cfg.Kerberos, cfg.Principal = krb, principal
	}
	client, err := metastore.New(cfg)
	if err != nil {
		return nil, err
	}
	return metastore.NewDatasets(client, 0, log), nil
}

// metastorePrincipal reads hive.metastore.kerberos.principal from
// hive-site.xml in the Hadoop configuration directory, else from the
// Hadoop configuration itself.
func metastorePrincipal(hconf *conf.Hadoop) (string, error) {
	const key = "hive.metastore.kerberos.principal"
	if hconf.Dir != "" {
		path := filepath.Join(hconf.Dir, hiveSite)
		f, err := os.Open(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return "", fmt.Errorf("hive configuration: %w", err)
		default:
			props, err := conf.ReadConfigurationXML(f, path)
			f.Close()
			if err != nil {
				return "", err
			}
			if v, ok := props.Get(key); ok && v != "" {
				return v, nil
			}
		}
	}
	return hconf.GetDefault(key, ""), nil
}

// runHCat polls the metastores of waited-on hcat datasets until ctx ends;
// the returned function stops it and waits.
func runHCat(ctx context.Context, d *metastore.Datasets) func() {
	if d == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Run(ctx)
	}()
	return func() { cancel(); <-done }
}

// hcatDatasets is d as the coordinator engine's checker (nil stays nil).
func hcatDatasets(d *metastore.Datasets) coordrun.HCatDatasets {
	if d == nil {
		return nil
	}
	return d
}
