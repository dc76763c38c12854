// Package localcluster runs MiniDFS, MiniYARN and MiniHS2 together on free loopback
// ports: the Hadoop cluster of `gozie server -local`, `gozie minicluster`
// and the end-to-end tests. The MiniDFS root is <Dir>/dfs, so HDFS path
// /user/alice/x is the plain file <Dir>/dfs/user/alice/x and can be put
// there with cp; YARN's containers localize their resources from MiniDFS
// through the real HDFS client.
package localcluster

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gozie/gozie/hadoop"
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
	Env map[string]string
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
	FS  *hadoop.Resolver
	dir string
}

// Start starts MiniDFS and MiniYARN.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if opts.Dir == "" {
		return nil, fmt.Errorf("localcluster: Dir is required")
	}
	dfsRoot := filepath.Join(opts.Dir, "dfs")
	yarnDir := filepath.Join(opts.Dir, "yarn")
	for _, d := range []string{dfsRoot, yarnDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("localcluster: %w", err)
		}
	}
	dfs, err := minidfs.Start(ctx, minidfs.Options{Root: dfsRoot, Logger: opts.Logger})
	if err != nil {
		return nil, fmt.Errorf("localcluster: starting MiniDFS: %w", err)
	}
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI()})
	if err != nil {
		dfs.Close()
		return nil, fmt.Errorf("localcluster: %w", err)
	}
	rm, err := miniyarn.Start(ctx, miniyarn.Options{WorkDir: yarnDir, Storage: storage{fs}, Env: opts.Env,
		AnonymousAllowed: true, Logger: opts.Logger})
	if err != nil {
		fs.Close()
		dfs.Close()
		return nil, fmt.Errorf("localcluster: starting MiniYARN: %w", err)
	}
	hs2, err := minihs2.Start(ctx, minihs2.Options{FS: fs, YARN: rm.WebURL(), Logger: opts.Logger})
	if err != nil {
		rm.Close()
		fs.Close()
		dfs.Close()
		return nil, fmt.Errorf("localcluster: starting MiniHS2: %w", err)
	}
	return &Cluster{DFS: dfs, YARN: rm, HS2: hs2, FS: fs, dir: opts.Dir}, nil
}

// Properties returns the values job.properties files use: nameNode,
// jobTracker and resourceManager (the ResourceManager's address as actions
// name it) and resourceManagerWebapp (its REST URL).
func (c *Cluster) Properties() map[string]string {
	return map[string]string{
		"nameNode":              c.DFS.URI(),
		"jobTracker":            c.YARN.WebAddr(),
		"resourceManager":       c.YARN.WebAddr(),
		"resourceManagerWebapp": c.YARN.WebURL(),
		"dfsRoot":               c.DFS.Root(),
		"hive2JdbcUrl":          c.HS2.JDBCURL("default"),
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
	c.FS.Close()
	if derr := c.DFS.Close(); err == nil {
		err = derr
	}
	return err
}

// storage lets MiniYARN localize resources from MiniDFS.
type storage struct{ fs hadoop.FileSystem }

func (s storage) Stat(ctx context.Context, uri string) (int64, int64, error) {
	fi, err := s.fs.Stat(ctx, uri)
	if err != nil {
		return 0, 0, err
	}
	return fi.Size, fi.ModTime.UnixMilli(), nil
}

func (s storage) Open(ctx context.Context, uri string) (io.ReadCloser, error) {
	return s.fs.Open(ctx, uri)
}
