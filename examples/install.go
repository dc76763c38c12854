package examples

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/krblogin"
	"github.com/gozie/gozie/testenv/localcluster"
)

// Cluster is what the commands of an app are written for: the running
// local cluster's properties (local-cluster.properties), the server's URL,
// the user and the program running them.
type Cluster struct {
	// Props are the local cluster's properties (nameNode, resourceManager,
	// hive2JdbcUrl, dfsRoot, hadoopConfDir, ...).
	Props map[string]string
	// OozieURL is the server's REST URL; default cli.DefaultURL, where `make run` serves it.
	OozieURL string
	// User owns the installed apps and runs them.
	User string
	// Program is the gozie binary as the user calls it (bin/gozie).
	Program string
	// Dir is the working directory the commands are run from; paths below
	// it are printed relative to it.
	Dir string
}

// ReadCluster reads <dataDir>/local-cluster.properties, which `gozie
// server -local` (make run) writes once its cluster is up.
func ReadCluster(dataDir string) (map[string]string, error) {
	p := filepath.Join(dataDir, localcluster.PropertiesFile)
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("reading the local cluster's addresses: %w (is `make run`, gozie server -local -data-dir %s, running?)", err, dataDir)
	}
	defer f.Close()
	props, err := conf.ReadProperties(f, p)
	if err != nil {
		return nil, err
	}
	m := props.Map()
	if m["nameNode"] == "" {
		return nil, fmt.Errorf("%s names no nameNode", p)
	}
	return m, nil
}

// Command is the command line that runs app on c: gozie job -run with the
// app's installed job.properties (read from the DFS root, a plain local
// folder of the local cluster) and the cluster's addresses, with -auth
// KERBEROS on a Kerberized cluster.
func (c Cluster) Command(a App) string {
	props := filepath.Join(c.Props["dfsRoot"], "user", c.User, "examples", "apps", a.Name, "job.properties")
	if c.Dir != "" {
		if rel, err := filepath.Rel(c.Dir, props); err == nil && !strings.HasPrefix(rel, "..") {
			props = rel
		}
	}
	args := []string{c.Program, "job"}
	if c.Props["userPrincipal"] != "" {
		// A Kerberized cluster's server takes SPNEGO: the user's kinit
		// ticket (userKeytab) authenticates the CLI.
		args = append(args, "-auth", "KERBEROS")
	}
	args = append(args, "-oozie", c.oozieURL(), "-config", props,
		"-D", "nameNode="+c.Props["nameNode"], "-D", "resourceManager="+c.Props["resourceManager"])
	for _, p := range a.Props {
		args = append(args, "-D", p[0]+"="+c.Props[p[1]])
	}
	return strings.Join(append(args, "-run"), " ")
}

// Install writes files into the cluster through fsys as its user: each
// app's folder is replaced (so an install over an older one leaves no
// stale files), input files are overwritten.
func Install(ctx context.Context, fsys *hadoop.Resolver, nameNode string, apps []App, files []File, user string) error {
	for _, a := range apps {
		dir := nameNode + path.Join("/user", user, "examples", "apps", a.Name)
		if err := fsys.RemoveAll(ctx, dir); err != nil {
			return fmt.Errorf("replacing %s: %w", dir, err)
		}
	}
	for _, f := range files {
		uri := nameNode + f.Path
		if err := fsys.MkdirAll(ctx, nameNode+path.Dir(f.Path), 0o755); err != nil {
			return fmt.Errorf("installing %s: %w", f.Path, err)
		}
		perm := fs.FileMode(0o644)
		if f.Script {
			perm = 0o755
		}
		if err := fsys.WriteFile(ctx, uri, f.Data, perm); err != nil {
			return fmt.Errorf("installing %s: %w", f.Path, err)
		}
	}
	return nil
}

// resolver opens the cluster's HDFS as user, from the cluster's Hadoop
// client configuration (hadoopConfDir: HA nameservices, protection); a
// Kerberized cluster is reached as its user principal (userPrincipal,
// userKeytab), whose short name must be user.
func resolver(props map[string]string, user string) (*hadoop.Resolver, error) {
	cfg := hadoop.ResolverConfig{DefaultFS: props["nameNode"], User: user}
	if dir := props["hadoopConfDir"]; dir != "" {
		h, err := conf.LoadHadoop(dir)
		if err != nil {
			return nil, fmt.Errorf("reading the cluster's Hadoop configuration: %w", err)
		}
		cfg.Conf = h.Map()
	}
	if principal := props["userPrincipal"]; principal != "" {
		short, _, _ := strings.Cut(principal, "@")
		short, _, _ = strings.Cut(short, "/")
		if short != user {
			return nil, fmt.Errorf("the Kerberized cluster's user is %s (%s), not %s: install with -user %s", short, principal, user, short)
		}
		krb, err := krblogin.Login(krblogin.Config{Principal: principal, Keytab: props["userKeytab"], Krb5Conf: props["krb5Config"]})
		if err != nil {
			return nil, err
		}
		cfg.Kerberos = krb
	}
	return hadoop.NewResolver(cfg)
}
