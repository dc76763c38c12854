package localcluster_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/yarn"
)

func TestLocalCluster(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	// A file put into the DFS root with cp is an HDFS file, and back.
	if err := os.MkdirAll(filepath.Join(dir, "dfs", "user", "alice"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dfs", "user", "alice", "in.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	nn := c.Properties()["nameNode"]
	got, err := c.FS.ReadFile(ctx, nn+"/user/alice/in.txt")
	if err != nil || string(got) != "hello" {
		t.Fatalf("read through HDFS: %q %v", got, err)
	}
	if err := c.FS.WriteFile(ctx, nn+"/user/alice/out/part-0", []byte("world"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "dfs", "user", "alice", "out", "part-0")); err != nil || string(b) != "world" {
		t.Fatalf("written through HDFS: %q %v", b, err)
	}

	// The properties file names both stand-ins, and the REST address works.
	path, err := c.WriteProperties()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	props, err := conf.ReadProperties(f, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"nameNode", "jobTracker", "resourceManager", "resourceManagerWebapp", "hive2JdbcUrl"} {
		if v, _ := props.Get(k); v == "" {
			t.Errorf("%s missing from %s", k, localcluster.PropertiesFile)
		}
	}
	if v, _ := props.Get("nameNode"); !strings.HasPrefix(v, "hdfs://127.0.0.1:") {
		t.Errorf("nameNode = %q", v)
	}
	web, _ := props.Get("resourceManagerWebapp")
	yc, err := yarn.NewClient(yarn.Config{Addresses: []string{web}, Auth: yarn.PseudoAuth{User: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	info, err := yc.ClusterInfo(ctx)
	if err != nil || info.State != "STARTED" {
		t.Fatalf("cluster info: %+v %v", info, err)
	}
}
