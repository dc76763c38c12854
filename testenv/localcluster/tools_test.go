package localcluster_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/testenv/clustertools"
	"github.com/gozie/gozie/testenv/localcluster"
)

func TestClientConfigurationAndTools(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: t.TempDir(), ToolsBinary: "/usr/local/bin/gozie"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	h, err := conf.LoadHadoop(c.ConfDir)
	if err != nil {
		t.Fatal(err)
	}
	p := c.Properties()
	if h.DefaultFS() != p["nameNode"] || len(h.ResourceManagerWebAppURLs()) != 1 || h.ResourceManagerWebAppURLs()[0] != p["resourceManagerWebapp"] {
		t.Errorf("configuration names %s and %v, want %s and %s", h.DefaultFS(), h.ResourceManagerWebAppURLs(), p["nameNode"], p["resourceManagerWebapp"])
	}
	if p["hadoopConfDir"] != c.ConfDir {
		t.Errorf("hadoopConfDir = %q", p["hadoopConfDir"])
	}
	for _, name := range clustertools.Tools {
		if _, err := os.Stat(filepath.Join(c.ToolsDir, name)); err != nil {
			t.Errorf("tool %s: %v", name, err)
		}
	}

	bare, err := localcluster.Start(ctx, localcluster.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	if bare.ToolsDir != "" {
		t.Errorf("tools installed without a binary: %s", bare.ToolsDir)
	}
	if _, err := localcluster.Start(ctx, localcluster.Options{Dir: t.TempDir(), ToolsBinary: "relative/gozie"}); err == nil {
		t.Error("a relative tools binary was accepted")
	}
}
