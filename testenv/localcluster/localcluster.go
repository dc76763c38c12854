// Package localcluster runs MiniDFS, MiniYARN and MiniHS2 together on free loopback
// ports: the Hadoop cluster of `gozie server -local`, `gozie minicluster`
// and the end-to-end tests. The MiniDFS root is <Dir>/dfs, so HDFS path
// /user/alice/x is the plain file <Dir>/dfs/user/alice/x and can be put
// there with cp; YARN's containers localize their resources from MiniDFS
// through the real HDFS client.
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
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/clustertools"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/minihs2"
	"github.com/gozie/gozie/testenv/miniyarn"
)

// PropertiesFile is the name of the file that describes a running local
// cluster, in Java properties syntax.
const PropertiesFile = "local-cluster.properties"

// Options configures a local cluster.
type Options struct {
	// Dir holds the cluster's state: dfs/ (the HDFS namespace) and yarn/.
	Dir string
	// Env adds variables to every YARN container (PATH, JAVA_HOME, ...).
	// HADOOP_CONF_DIR is set to the cluster's own configuration, and the
	// tools directory goes first on PATH.
	Env map[string]string
	// ToolsBinary is the gozie binary that serves the cluster tools
	// (`gozie tool beeline|mapred|hadoop|hdfs`), an absolute path; empty
	// installs no tools, and hive and map-reduce actions then fail for want
	// of beeline and mapred.
	ToolsBinary string
	// ProxyUsers may act for any user, from this host only: for each u,
	// hadoop.proxyuser.<u>.hosts is 127.0.0.1,localhost and .users and
	// .groups are *, in MiniDFS's and MiniYARN's configuration and in the
	// written core-site.xml. gozie server -local passes the server's user.
	ProxyUsers []string
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
	// FS reaches MiniDFS (and file://) through the real HDFS client.
	FS *hadoop.Resolver
	// ConfDir is the cluster's Hadoop client configuration directory.
	ConfDir string
	// ToolsDir holds the cluster tools' wrappers; empty without them.
	ToolsDir string
	dir      string
	core     map[string]string // core-site.xml properties beyond fs.defaultFS
	storage  *miniyarn.HDFSStorage
}

// Directories below Options.Dir.
const (
	confDirName  = "hadoop-conf"
	toolsDirName = "tools/bin"
)

// Start starts MiniDFS and MiniYARN.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if opts.Dir == "" {
		return nil, fmt.Errorf("localcluster: Dir is required")
	}
	dfsRoot := filepath.Join(opts.Dir, "dfs")
	yarnDir := filepath.Join(opts.Dir, "yarn")
	confDir := filepath.Join(opts.Dir, confDirName)
	toolsDir := ""
	for _, d := range []string{dfsRoot, yarnDir, confDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("localcluster: %w", err)
		}
	}
	core := minidfs.ProxyUserConf(opts.ProxyUsers...)
	dfs, err := minidfs.Start(ctx, minidfs.Options{Root: dfsRoot, Conf: core, CreateHomes: true, Logger: opts.Logger})
	if err != nil {
		return nil, fmt.Errorf("localcluster: starting MiniDFS: %w", err)
	}
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI()})
	if err != nil {
		dfs.Close()
		return nil, fmt.Errorf("localcluster: %w", err)
	}
	env := map[string]string{}
	for k, v := range opts.Env {
		env[k] = v
	}
	env["HADOOP_CONF_DIR"] = confDir
	if opts.ToolsBinary != "" {
		toolsDir = filepath.Join(opts.Dir, toolsDirName)
		if err := clustertools.Install(toolsDir, opts.ToolsBinary); err != nil {
			fs.Close()
			dfs.Close()
			return nil, fmt.Errorf("localcluster: %w", err)
		}
		path, ok := env["PATH"]
		if !ok {
			path = os.Getenv("PATH")
		}
		env["PATH"] = toolsDir + string(os.PathListSeparator) + path
	}
	storage := &miniyarn.HDFSStorage{DefaultFS: dfs.URI()}
	rm, err := miniyarn.Start(ctx, miniyarn.Options{WorkDir: yarnDir, Storage: storage, Env: env,
		AnonymousAllowed: true, Conf: core, Logger: opts.Logger})
	if err != nil {
		fs.Close()
		dfs.Close()
		return nil, fmt.Errorf("localcluster: starting MiniYARN: %w", err)
	}
	hs2, err := minihs2.Start(ctx, minihs2.Options{FS: fs, YARN: rm.WebURL(), Logger: opts.Logger})
	if err != nil {
		rm.Close()
		storage.Close()
		fs.Close()
		dfs.Close()
		return nil, fmt.Errorf("localcluster: starting MiniHS2: %w", err)
	}
	c := &Cluster{DFS: dfs, YARN: rm, HS2: hs2, FS: fs, ConfDir: confDir, ToolsDir: toolsDir, dir: opts.Dir,
		core: core, storage: storage}
	if err := c.writeHadoopConf(); err != nil {
		c.Close()
		return nil, fmt.Errorf("localcluster: %w", err)
	}
	// /tmp is world-writable with the sticky bit, as on every Hadoop
	// cluster, and so is MapReduce's staging root below it (a cluster's
	// JobHistory server leaves it so), where every user's job files go.
	admin := hadoop.AsUser(ctx, "") // as the superuser, whoever ctx acts for
	for _, dir := range []string{"/tmp", "/tmp/hadoop-yarn", "/tmp/hadoop-yarn/staging"} {
		if err := c.FS.MkdirAll(admin, dir, 0o777); err != nil {
			c.Close()
			return nil, fmt.Errorf("localcluster: %s: %w", dir, err)
		}
		if err := c.FS.Chmod(admin, dir, 0o1777); err != nil {
			c.Close()
			return nil, fmt.Errorf("localcluster: %s: %w", dir, err)
		}
	}
	return c, nil
}

// writeHadoopConf writes the client configuration that names the cluster.
func (c *Cluster) writeHadoopConf() error {
	core := []string{"fs.defaultFS", c.DFS.URI()}
	keys := make([]string, 0, len(c.core))
	for k := range c.core {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		core = append(core, k, c.core[k])
	}
	files := map[string][]string{
		"core-site.xml": core,
		"yarn-site.xml": {"yarn.resourcemanager.webapp.address", c.YARN.WebAddr(),
			"yarn.resourcemanager.scheduler.address", c.YARN.SchedulerAddr()},
		"mapred-site.xml": {"mapreduce.framework.name", "yarn"},
	}
	for name, pairs := range files {
		var b strings.Builder
		if err := conf.WriteConfigurationXML(&b, conf.NewProperties(pairs...)); err != nil {
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
// and for tools run by hand dfsRoot and hadoopConfDir.
func (c *Cluster) Properties() map[string]string {
	return map[string]string{
		"nameNode":              c.DFS.URI(),
		"jobTracker":            c.YARN.WebAddr(),
		"resourceManager":       c.YARN.WebAddr(),
		"resourceManagerWebapp": c.YARN.WebURL(),
		"dfsRoot":               c.DFS.Root(),
		"hive2JdbcUrl":          c.HS2.JDBCURL("default"),
		"hadoopConfDir":         c.ConfDir,
	}
}

// WriteProperties writes Properties to <Dir>/local-cluster.properties and
// returns its path.
func (c *Cluster) WriteProperties() (string, error) {
	props := c.Properties()
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
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
func (c *Cluster) Close() error {
	c.HS2.Close()
	err := c.YARN.Close()
	c.storage.Close()
	c.FS.Close()
	if derr := c.DFS.Close(); err == nil {
		err = derr
	}
	return err
}
