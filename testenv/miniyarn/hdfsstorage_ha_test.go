package miniyarn_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/miniyarn"
)

// TestHDFSStorageHA: with the cluster's client configuration (Conf),
// localization reads resources named by an HA nameservice, as the
// application's user, through a failover; without it hdfs://minicluster
// names no host.
func TestHDFSStorageHA(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dfs, err := minidfs.Start(ctx, minidfs.Options{Root: t.TempDir(), HA: true})
	if err != nil {
		t.Fatal(err)
	}
	defer dfs.Close()
	if err := dfs.CreateHome("alice"); err != nil {
		t.Fatal(err)
	}
	alice, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI(), Conf: dfs.ClientConf(), User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	defer alice.Close()
	if err := alice.WriteFile(ctx, "/user/alice/job.sh", []byte("echo ok\n"), 0o755); err != nil {
		t.Fatal(err)
	}

	storage := &miniyarn.HDFSStorage{DefaultFS: dfs.URI(), Conf: dfs.ClientConf()}
	defer storage.Close()
	for i, uri := range []string{"hdfs://minicluster/user/alice/job.sh", "/user/alice/job.sh"} {
		if i > 0 {
			if err := dfs.Failover(1); err != nil {
				t.Fatal(err)
			}
		}
		size, _, err := storage.Stat(ctx, "alice", uri)
		if err != nil || size != 8 {
			t.Fatalf("Stat(%s) = %d, %v", uri, size, err)
		}
		rc, err := storage.Open(ctx, "alice", uri)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || string(b) != "echo ok\n" {
			t.Errorf("Open(%s) read %q, %v", uri, b, err)
		}
	}

	unconfigured := &miniyarn.HDFSStorage{DefaultFS: dfs.URI()}
	defer unconfigured.Close()
	if _, _, err := unconfigured.Stat(ctx, "alice", "/user/alice/job.sh"); err == nil {
		t.Error("Stat through hdfs://minicluster without Conf succeeded")
	}
}
