// Package localcluster runs MiniDFS, MiniYARN and MiniHS2 together on free loopback
// ports: the Hadoop cluster of `gozie server -local`, `gozie minicluster`
// and the end-to-end tests. The MiniDFS root is <Dir>/dfs, so HDFS path
// /user/alice/x is the plain file <Dir>/dfs/user/alice/x and can be put
// there with cp; YARN's containers localize their resources from MiniDFS
// through the real HDFS client.
//
// The NameNode serves WebHDFS (/webhdfs/v1) on its HTTP address, named in
// hdfs-site.xml (dfs.namenode.http-address) and local-cluster.properties
// (webhdfs), for Hue and Python clients; a Kerberized cluster's takes
// SPNEGO (HTTPPrincipal).
//
// Users are as on a secured-by-permissions cluster: MiniDFS checks HDFS
// permissions, gives each user a home (/user/<u>, owned by <u>) at their
// first call, as a cluster's administrator would when adding the user
// (/tmp and MapReduce's staging root are drwxrwxrwt, as on every cluster),
// and,
// like MiniYARN, lets only Options.ProxyUsers act for other users (the
// hadoop.proxyuser.* rules of its core-site.xml). YARN localizes an
// application's resources as its user.
//
// The cluster also plays a node's installation for its YARN containers:
// <Dir>/hadoop-conf is a Hadoop client configuration naming the cluster
// (core-site.xml, yarn-site.xml, mapred-site.xml), exported to every
// container as HADOOP_CONF_DIR, and with Options.ToolsBinary the cluster
// tools (beeline, mapred, hadoop, hdfs; see package clustertools) are
// wrappers in <Dir>/tools/bin, first on the containers' PATH, so that hive
// and map-reduce actions and user scripts find them as on a real node.
package localcluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	osuser "os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/clusteradmin"
	"github.com/gozie/gozie/testenv/clustertools"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/minihs2"
	"github.com/gozie/gozie/testenv/minijhs"
	"github.com/gozie/gozie/testenv/minissh"
	"github.com/gozie/gozie/testenv/miniyarn"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// PropertiesFile is the name of the file that describes a running local
// cluster, in Java properties syntax.
const PropertiesFile = "local-cluster.properties"

// HAName is the logical name of an HA cluster's NameNodes (its HDFS
// nameservice, hdfs://localcluster) and of its ResourceManagers
// (yarn.resourcemanager.cluster-id).
const HAName = "localcluster"

// Options configures a local cluster.
type Options struct {
	// Dir holds the cluster's state: dfs/ (the HDFS namespace) and yarn/.
	Dir string
	// Env adds variables to every YARN container (PATH, JAVA_HOME, ...).
	// HADOOP_CONF_DIR is set to the cluster's own configuration, and the
	// tools directory goes first on PATH.
	Env map[string]string
	// ToolsBinary is the gozie binary that serves the cluster tools
	// (`gozie tool beeline|mapred|hadoop|hdfs|yarn`), an absolute path;
	// empty installs no tools, and hive and map-reduce actions then fail
	// for want of beeline and mapred.
	ToolsBinary string
	// ProxyUsers may act for any user, from this host only: for each u,
	// hadoop.proxyuser.<u>.hosts is 127.0.0.1,localhost and .users and
	// .groups are *, in MiniDFS's and MiniYARN's configuration and in the
	// written core-site.xml. gozie server -local passes the server's user.
	ProxyUsers []string
	// HA runs two NameNodes behind the nameservice HAName (nameNode is
	// hdfs://localcluster, reachable only through the written
	// hdfs-site.xml) and two ResourceManagers of the RM HA cluster HAName
	// (resourceManager names the cluster id), nn1 and rm1 active at start.
	HA bool
	// RPCProtection is the cluster's hadoop.rpc.protection (authentication,
	// integrity or privacy): what the NameNodes and the scheduler require of
	// SASL connections, written into core-site.xml for clients. Empty means
	// Hadoop's default, authentication.
	RPCProtection string
	// BasePort, when set, pins the cluster's ports: BasePort and the ones
	// after it (see PortsFile). Zero takes the ports recorded by the last
	// start on Dir, or free ones on a first start.
	BasePort int
	// Kerberos makes the cluster a Kerberized one, as most production
	// clusters are: a KDC of realm kdc.Realm in <Dir>/kdc with the
	// services' principals, gozie's (ServerPrincipal, a proxy user of every
	// service) and KerberosUser's, each with a keytab there; MiniDFS
	// accepts Kerberos and delegation tokens only, MiniHS2 Kerberos only,
	// and a Hive metastore (minihs2.StartMetastore, for hcat credentials)
	// runs beside it. Properties names the principals, keytabs, krb5.conf
	// and the metastore.
	Kerberos bool
	// KerberosUser is the user principal created for the cluster's user;
	// default the OS user running the cluster.
	KerberosUser string
	// TokenRenewInterval is how long the delegation tokens of the
	// NameNodes, the ResourceManager and HiveServer2 live unless renewed
	// (dfs.namenode.delegation.token.renew-interval and its YARN and Hive
	// counterparts, written into hdfs-site.xml for clients); zero means
	// Hadoop's default, a day. Shorter lives let one watch tokens expire.
	TokenRenewInterval time.Duration
	// Logger receives the stand-ins' diagnostics; nil discards them.
	Logger *slog.Logger
}

// Cluster is a running local cluster.
type Cluster struct {
	DFS  *minidfs.MiniDFS
	YARN *miniyarn.RM
	// HS2 is a HiveServer2 whose tables are MiniDFS files and whose
	// queries run as tagged applications on MiniYARN.
	HS2 *minihs2.Server
	// Metastore is the Hive metastore stand-in over HS2's catalog
	// (partitions and notifications, for hcat:// datasets; Properties'
	// hcatNode), Kerberized with get_delegation_token (hcat credentials)
	// on a Kerberized cluster.
	Metastore *minihs2.Metastore
	// JobHistory is the MapReduce JobHistory server, named in
	// mapred-site.xml (mapreduce.jobhistory.webapp.address); nil on a
	// Kerberized cluster.
	JobHistory *minijhs.Server
	// SSH is the host ssh actions log in to (package minissh; see
	// startSSH): commands run as the OS user, in <Dir>/ssh/home.
	SSH *minissh.Server
	// FS reaches MiniDFS (and file://) through the real HDFS client.
	FS *hadoop.Resolver
	// ConfDir is the cluster's Hadoop client configuration directory.
	ConfDir string
	// ToolsDir holds the cluster tools' wrappers; empty without them.
	ToolsDir string
	dir      string
	ha       bool
	core     map[string]string // core-site.xml properties beyond fs.defaultFS
	storage  *miniyarn.HDFSStorage
	rmFS     *hadoop.Resolver // the RM's own HDFS client (Kerberos), which cancels tokens
	rmKrb    *krbclient.Client
	admin    *adminServer
	realm    *realm // nil unless Kerberized
}

// Directories and files below Options.Dir.
const (
	confDirName    = "hadoop-conf"
	toolsDirName   = "tools/bin"
	adminTokenName = "admin.token"
)

// Start starts MiniDFS, MiniYARN and MiniHS2.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	c, err := start(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("localcluster: %w", err)
	}
	return c, nil
}

func start(ctx context.Context, opts Options) (_ *Cluster, err error) {
	if opts.Dir == "" {
		return nil, errors.New("the data directory (Options.Dir) is required")
	}
	dfsRoot := filepath.Join(opts.Dir, "dfs")
	yarnDir := filepath.Join(opts.Dir, "yarn")
	confDir := filepath.Join(opts.Dir, confDirName)
	for _, d := range []string{dfsRoot, yarnDir, confDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	pp, err := planPorts(opts.Dir, opts.BasePort)
	if err != nil {
		return nil, err
	}
	c := &Cluster{ConfDir: confDir, dir: opts.Dir, ha: opts.HA}
	defer func() {
		if err != nil {
			c.Close()
		}
	}()
	proxies := opts.ProxyUsers
	if opts.Kerberos {
		self, err := osuser.Current()
		if err != nil {
			return nil, err
		}
		user := opts.KerberosUser
		if user == "" {
			user = self.Username
		}
		if c.realm, err = startRealm(opts.Dir, pp["kdc"], user, self.Username); err != nil {
			return nil, fmt.Errorf("starting the KDC: %w", err)
		}
		pp.byName("localhost", "kdc", "admin")
		// gozie acts for every user toward every service, HiveServer2
		// toward YARN.
		proxies = append(append([]string{}, proxies...), serverShortName, hiveShortName)
	}
	core := minidfs.ProxyUserConf(proxies...)
	if c.realm != nil {
		for k, v := range c.realm.hadoopConf() {
			core[k] = v
		}
	}
	c.core = core
	if opts.RPCProtection != "" {
		if _, err := ipc.ParseProtection(opts.RPCProtection); err != nil {
			return nil, err
		}
		core[ipc.RPCProtectionKey] = opts.RPCProtection
	}
	n := 1
	if opts.HA {
		n = 2
	}
	nnNames := []string{"namenode.nn1", "namenode.nn2"}[:n]
	dfsOpts := minidfs.Options{Root: dfsRoot, Conf: core, CreateHomes: true, Logger: opts.Logger,
		HA: opts.HA, Nameservice: HAName, NameNodeAddrs: pp.pick(nnNames...), DataNodeAddr: pp["datanode"],
		NameNodeHTTPAddrs: pp.pick([]string{"namenode.http.nn1", "namenode.http.nn2"}[:n]...), DataNodeHTTPAddr: pp["datanode.http"]}
	if c.realm != nil {
		dfsOpts.Kerberos = &ipc.KerberosOptions{Keytab: c.realm.services, Service: "nn", Host: "localhost"}
		dfsOpts.WebKerberos = &minidfs.WebKerberosOptions{Keytab: c.realm.services, Principal: kdc.Principal(HTTPPrincipal)}
		dfsOpts.TokenRenewInterval = opts.TokenRenewInterval
	}
	c.DFS, err = minidfs.Start(ctx, dfsOpts)
	if err != nil {
		return nil, fmt.Errorf("starting MiniDFS: %w", err)
	}
	// What every HDFS client of the cluster needs: the nameservice's
	// NameNodes and the protection they require.
	client := map[string]string{}
	for k, v := range core {
		client[k] = v
	}
	for k, v := range c.DFS.ClientConf() {
		client[k] = v
	}
	// Where WebHDFS clients (Hue, Python's) find the NameNodes.
	maps.Copy(client, c.DFS.HTTPConf())
	if opts.TokenRenewInterval > 0 {
		client[hadoop.TokenRenewIntervalKey] = strconv.FormatInt(opts.TokenRenewInterval.Milliseconds(), 10)
	}
	fsCfg := hadoop.ResolverConfig{DefaultFS: c.DFS.URI(), Conf: client}
	if c.realm != nil {
		// The cluster's own calls (its administrator's, HiveServer2's) are
		// the HDFS superuser's, the OS user running the cluster.
		if fsCfg.Kerberos, err = c.realm.login(c.realm.admin, c.realm.adminKeytab); err != nil {
			return nil, err
		}
	}
	c.FS, err = hadoop.NewResolver(fsCfg)
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	for k, v := range opts.Env {
		env[k] = v
	}
	env["HADOOP_CONF_DIR"] = confDir
	if opts.ToolsBinary != "" {
		c.ToolsDir = filepath.Join(opts.Dir, toolsDirName)
		if err := clustertools.Install(c.ToolsDir, opts.ToolsBinary); err != nil {
			return nil, err
		}
		path, ok := env["PATH"]
		if !ok {
			path = os.Getenv("PATH")
		}
		env["PATH"] = c.ToolsDir + string(os.PathListSeparator) + path
	}
	c.storage = &miniyarn.HDFSStorage{DefaultFS: c.DFS.URI(), Conf: client}
	var yarnKerberos *miniyarn.KerberosOptions
	if c.realm != nil {
		if yarnKerberos, err = c.rmKerberos(fsCfg, opts.TokenRenewInterval); err != nil {
			return nil, err
		}
	}
	c.YARN, err = miniyarn.Start(ctx, miniyarn.Options{WorkDir: yarnDir, Storage: c.storage, Env: env,
		AnonymousAllowed: c.realm == nil, Kerberos: yarnKerberos, LogAggregation: c.realm == nil, // served by JobHistory
		Conf: core, HDFSConf: c.DFS.ClientConf(), Standbys: n - 1, ClusterID: HAName,
		Addrs: miniyarn.Addrs{
			Web:         pp.pick([]string{"resourcemanager.webapp.rm1", "resourcemanager.webapp.rm2"}[:n]...),
			Scheduler:   pp.pick([]string{"resourcemanager.scheduler.rm1", "resourcemanager.scheduler.rm2"}[:n]...),
			NodeManager: pp["nodemanager.webapp"],
		},
		Logger: opts.Logger})
	if err != nil {
		return nil, fmt.Errorf("starting MiniYARN: %w", err)
	}
	hs2Opts := minihs2.Options{FS: c.FS, YARN: c.YARN.WebURL(), Addr: pp["hiveserver2"], Logger: opts.Logger}
	if c.realm != nil {
		hs2Opts.Auth = minihs2.AuthKerberos
		hs2Opts.Kerberos = &minihs2.KerberosOptions{Keytab: c.realm.services, Principal: kdc.Principal(HivePrincipal)}
		hs2Opts.HadoopConf = core
		hs2Opts.TokenRenewInterval = opts.TokenRenewInterval
		if hs2Opts.YARNKerberos, err = c.realm.login(HivePrincipal, c.realm.servicesPath); err != nil {
			return nil, err
		}
	}
	c.HS2, err = minihs2.Start(ctx, hs2Opts)
	if err != nil {
		return nil, fmt.Errorf("starting MiniHS2: %w", err)
	}
	// The metastore serves HiveServer2's catalog (hcat:// datasets) and,
	// Kerberized, hcat credentials.
	msOpts := minihs2.MetastoreOptions{Addr: pp["metastore"], Hive: c.HS2, Logger: opts.Logger}
	if c.realm != nil {
		msOpts.Kerberos = &minihs2.KerberosOptions{Keytab: c.realm.services, Principal: kdc.Principal(HivePrincipal)}
		msOpts.HadoopConf, msOpts.TokenRenewInterval = core, opts.TokenRenewInterval
	}
	if c.Metastore, err = minihs2.StartMetastore(ctx, msOpts); err != nil {
		return nil, fmt.Errorf("starting the Hive metastore: %w", err)
	}
	if err := c.startJobHistory(ctx, pp[jobHistoryPort], opts.Logger); err != nil {
		return nil, err
	}
	if err := c.startSSH(pp[sshPort], opts.Logger); err != nil {
		return nil, err
	}
	c.admin, err = startAdmin(c, pp["admin"], filepath.Join(opts.Dir, adminTokenName))
	if err != nil {
		return nil, fmt.Errorf("starting the admin endpoint: %w", err)
	}
	if err := c.writeHadoopConf(client); err != nil {
		return nil, err
	}
	if err := c.ports().write(opts.Dir); err != nil {
		return nil, err
	}
	// /tmp is world-writable with the sticky bit, as on every Hadoop
	// cluster, and so is MapReduce's staging root below it (a cluster's
	// JobHistory server leaves it so), where every user's job files go.
	admin := hadoop.AsUser(ctx, "") // as the superuser, whoever ctx acts for
	for _, dir := range []string{"/tmp", "/tmp/hadoop-yarn", "/tmp/hadoop-yarn/staging"} {
		if err := c.FS.MkdirAll(admin, dir, 0o777); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		if err := c.FS.Chmod(admin, dir, 0o1777); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
	}
	return c, nil
}

// ports are the addresses the running cluster listens on.
func (c *Cluster) ports() ports {
	p := ports{"datanode": c.DFS.DataNodeAddr(), "datanode.http": c.DFS.DataNodeHTTPAddr(), "nodemanager.webapp": c.YARN.NodeManagerAddr(),
		"hiveserver2": c.HS2.Addr(), "admin": c.admin.addr}
	if c.realm != nil {
		p["kdc"] = c.realm.kdc.Addr
	}
	if c.Metastore != nil {
		p["metastore"] = c.Metastore.Addr()
	}
	if c.JobHistory != nil {
		p[jobHistoryPort] = c.JobHistory.Addr()
	}
	if c.SSH != nil {
		p[sshPort] = c.SSH.Addr()
	}
	for i, a := range c.DFS.NameNodeAddrs() {
		p[fmt.Sprintf("namenode.nn%d", i+1)] = a
	}
	for i, a := range c.DFS.HTTPAddrs() {
		p[fmt.Sprintf("namenode.http.nn%d", i+1)] = a
	}
	for i, a := range c.YARN.WebAddrs() {
		p[fmt.Sprintf("resourcemanager.webapp.rm%d", i+1)] = a
	}
	for i, a := range c.YARN.SchedulerAddrs() {
		p[fmt.Sprintf("resourcemanager.scheduler.rm%d", i+1)] = a
	}
	return p
}

// writeHadoopConf writes the client configuration that names the cluster:
// core-site.xml (fs.defaultFS, the proxy-user rules, hadoop.rpc.protection,
// the admin endpoint), hdfs-site.xml (the nameservice under HA),
// yarn-site.xml (the ResourceManagers, every rm-id under HA) and
// mapred-site.xml. client holds the HDFS client properties.
func (c *Cluster) writeHadoopConf(client map[string]string) error {
	core := map[string]string{"fs.defaultFS": c.DFS.URI(),
		clusteradmin.AddressKey: c.admin.addr, clusteradmin.TokenFileKey: c.admin.tokenFile}
	for k, v := range c.core {
		core[k] = v
	}
	hdfsSite := map[string]string{}
	for k, v := range client {
		if _, ok := c.core[k]; !ok {
			hdfsSite[k] = v
		}
	}
	files := map[string]map[string]string{
		"core-site.xml":   core,
		"hdfs-site.xml":   hdfsSite,
		"yarn-site.xml":   c.YARN.YarnSite(),
		"mapred-site.xml": c.mapredConf(),
	}
	if c.realm != nil && c.Metastore != nil {
		// Where gozie (and Hive clients) find the metastore's principal.
		files["hive-site.xml"] = map[string]string{"hive.metastore.uris": c.Metastore.URI(),
			"hive.metastore.sasl.enabled": "true", "hive.metastore.kerberos.principal": c.Metastore.Principal()}
	}
	for name, props := range files {
		var b strings.Builder
		if err := conf.WriteConfigurationXML(&b, conf.PropertiesFromMap(props)); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(c.ConfDir, name), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Properties returns the values job.properties files use: nameNode,
// jobTracker and resourceManager (the ResourceManager's address as actions
// name it), resourceManagerWebapp (its REST URL), hive2JdbcUrl (MiniHS2),
// hcatMetastoreUri (the metastore of a Kerberized cluster), sshPort,
// sshKeyFile, sshKnownHosts and sshHome (the SSH host of ssh actions), and
// for tools run by hand dfsRoot, hadoopConfDir and webhdfs (the WebHDFS URL
// of the NameNode active at start, http://<dfs.namenode.http-address>/webhdfs/v1).
func (c *Cluster) Properties() map[string]string {
	// Without HA the ResourceManager is named by its web address, which
	// gozie's router takes as such; with HA by its cluster id, which the
	// configuration maps to every rm-id.
	rm := c.YARN.WebAddr()
	if c.ha {
		rm = HAName
	}
	props := map[string]string{
		"nameNode":              c.DFS.URI(),
		"jobTracker":            rm,
		"resourceManager":       rm,
		"resourceManagerWebapp": c.YARN.WebURL(),
		"dfsRoot":               c.DFS.Root(),
		"hive2JdbcUrl":          c.HS2.JDBCURL("default"),
		"hadoopConfDir":         c.ConfDir,
		"webhdfs":               "http://" + c.DFS.HTTPAddr() + minidfs.WebHDFSPrefix,
	}
	if c.realm != nil {
		for k, v := range c.realm.properties() {
			props[k] = v
		}
	}
	if c.Metastore != nil {
		props["hcatMetastoreUri"] = c.Metastore.URI()
		props["hcatNode"] = "hcat://" + c.Metastore.Addr()
	}
	maps.Copy(props, c.sshProperties())
	return props
}

// WriteProperties writes Properties to <Dir>/local-cluster.properties and
// returns its path.
func (c *Cluster) WriteProperties() (string, error) {
	props := c.Properties()
	keys := slices.Sorted(maps.Keys(props))
	var b strings.Builder
	b.WriteString("# The running gozie local cluster; use these values in job.properties.\n")
	for _, k := range keys {
		// Values are URLs and host:port pairs: nothing in them needs a
		// properties escape, so they stay readable and copyable.
		fmt.Fprintf(&b, "%s=%s\n", k, props[k])
	}
	path := filepath.Join(c.dir, PropertiesFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return "", err
	}
	return path, os.Rename(tmp, path)
}

// Close stops HiveServer2 and YARN (killing its containers), then HDFS.
// It also tidies a cluster that failed to start.
func (c *Cluster) Close() error {
	var err error
	if c.admin != nil {
		c.admin.close()
	}
	defer c.realm.close()
	if c.Metastore != nil {
		c.Metastore.Close()
	}
	if c.JobHistory != nil {
		c.JobHistory.Close()
	}
	if c.SSH != nil {
		c.SSH.Close()
	}
	if c.HS2 != nil {
		c.HS2.Close()
	}
	if c.YARN != nil {
		err = c.YARN.Close()
	}
	if c.storage != nil {
		c.storage.Close()
	}
	if c.rmFS != nil {
		c.rmFS.Close()
		c.rmKrb.Destroy()
	}
	if c.FS != nil {
		c.FS.Close()
	}
	if c.DFS != nil {
		if derr := c.DFS.Close(); err == nil {
			err = derr
		}
	}
	return err
}
