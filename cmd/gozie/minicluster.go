package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/user"
	"path/filepath"
	"time"

	"github.com/gozie/gozie/testenv/localcluster"
)

// runMiniCluster runs a local Hadoop cluster (MiniDFS + MiniYARN) as its own
// process, as a real cluster outlives a server crash, until SIGTERM.
func runMiniCluster(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("minicluster", flag.ContinueOnError)
	dir := fs.String("data-dir", "./gozie-data", "directory for the cluster: dfs/ is the HDFS root")
	self := ""
	if u, err := user.Current(); err == nil {
		self = u.Username
	}
	proxy := fs.String("proxy-user", self, "the user allowed to act for every user from this host "+
		"(hadoop.proxyuser.<user>.*): the user gozie server runs as")
	cf := registerClusterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	c, err := startLocalCluster(ctx, *dir, *proxy, cf, log)
	if err != nil {
		log.Error("minicluster failed to start", "err", err)
		return 1
	}
	<-ctx.Done()
	if err := c.Close(); err != nil {
		log.Error("stopping minicluster", "err", err)
		return 1
	}
	log.Info("minicluster stopped")
	return 0
}

// clusterFlags are the local cluster's shape, flags of `gozie minicluster`
// and `gozie server -local`.
type clusterFlags struct {
	ha            *bool
	rpcProtection *string
	basePort      *int
	kerberos      *bool
	tokenRenew    *time.Duration
}

func registerClusterFlags(fs *flag.FlagSet) clusterFlags {
	return clusterFlags{
		ha: fs.Bool("ha", false, "run two NameNodes (nameservice "+localcluster.HAName+") and two ResourceManagers "+
			"(cluster id "+localcluster.HAName+"); fail them over with `hdfs haadmin -failover nn1 nn2` and `yarn rmadmin -failover rm1 rm2`"),
		rpcProtection: fs.String("rpc-protection", "", "the cluster's hadoop.rpc.protection: authentication (default), integrity or privacy"),
		basePort: fs.Int("base-port", 0, "pin the cluster's ports to this one and the "+fmt.Sprint(localcluster.PortCount-1)+
			" after it; 0 keeps the ports of the last start on the data dir ("+localcluster.PortsFile+")"),
		kerberos: fs.Bool("kerberos", false, "a Kerberized cluster: an MIT KDC in <data-dir>/kdc (Debian's krb5-kdc), "+
			"principals and keytabs for the services, gozie and your user; "+localcluster.PropertiesFile+" names them"),
		tokenRenew: fs.Duration("delegation-token-renew-interval", 0, "with -kerberos, how long delegation tokens live "+
			"unless renewed (dfs.namenode.delegation.token.renew-interval); 0 is Hadoop's day"),
	}
}

// startLocalCluster starts a local cluster in dir, with this binary serving
// the cluster tools of its containers and proxyUser (the gozie server's user)
// allowed to act for every user, and writes its local-cluster.properties.
func startLocalCluster(ctx context.Context, dir, proxyUser string, cf clusterFlags, log *slog.Logger) (*localcluster.Cluster, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the gozie binary for the cluster tools: %w", err)
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	var proxies []string
	if proxyUser != "" {
		proxies = []string{proxyUser}
	}
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: dir, Env: containerEnv(), ToolsBinary: self,
		ProxyUsers: proxies, HA: *cf.ha, RPCProtection: *cf.rpcProtection, BasePort: *cf.basePort, Kerberos: *cf.kerberos,
		TokenRenewInterval: *cf.tokenRenew,
		Logger:             log.With("component", "minicluster")})
	if err != nil {
		return nil, err
	}
	path, err := c.WriteProperties()
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("writing %s: %w", localcluster.PropertiesFile, err)
	}
	p := c.Properties()
	log.Info("local cluster started", "nameNode", p["nameNode"], "resourceManager", p["resourceManager"],
		"hive2JdbcUrl", p["hive2JdbcUrl"], "properties", path, "dfs_root", p["dfsRoot"], "hadoop_conf_dir", c.ConfDir)
	return c, nil
}

// containerEnv passes the tools of this machine (PATH, JAVA_HOME) to YARN
// containers, as a NodeManager's environment would.
func containerEnv() map[string]string {
	env := map[string]string{}
	for _, k := range []string{"PATH", "JAVA_HOME", "LANG", "TZ"} {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	return env
}
