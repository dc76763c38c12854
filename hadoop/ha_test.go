package hadoop_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2/hadoopconf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/minidfs"
)

// startHADFS starts an HA MiniDFS (gozie the superuser, 64 KiB blocks,
// conf as core-site.xml) and makes nn2 the active NameNode, so that a
// client's first call meets the standby nn1.
func startHADFS(t *testing.T, conf map[string]string) *minidfs.MiniDFS {
	t.Helper()
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), HA: true, BlockSize: 64 << 10, Superuser: "gozie", Conf: conf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	if err := m.Failover(1); err != nil {
		t.Fatal(err)
	}
	return m
}

// haResolver returns a Resolver acting as gozie on the cluster's
// nameservice: its configuration is the cluster's client configuration
// plus extra, as a gateway's hdfs-site.xml would hold them.
func haResolver(t *testing.T, m *minidfs.MiniDFS, extra map[string]string) *hadoop.Resolver {
	t.Helper()
	conf := hadoopconf.HadoopConf{}
	maps.Copy(conf, m.ClientConf())
	maps.Copy(conf, extra)
	r, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: m.URI(), Conf: conf, User: "gozie", Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// flip fails the cluster over to the NameNode that is not active.
func flip(t *testing.T, m *minidfs.MiniDFS) {
	t.Helper()
	if err := m.Failover(1 - m.ActiveNameNode()); err != nil {
		t.Fatal(err)
	}
}

// TestResolverHANameservice: hdfs://minicluster resolves only through the
// configuration; with it, one Resolver keeps working through a failover
// after every step of a sequence of operations (nn1 standby at the first
// call), and what it shows keeps the nameservice, never a NameNode's
// address.
func TestResolverHANameservice(t *testing.T) {
	t.Parallel()
	m := startHADFS(t, nil)
	ctx := testCtx(t)

	bare, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: m.URI(), User: "gozie"})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	if _, err := bare.Stat(ctx, "/"); err == nil || !strings.Contains(err.Error(), "minicluster") {
		t.Errorf("Stat without the client configuration = %v, want the nameservice unresolved", err)
	}

	r := haResolver(t, m, nil)
	var want []string
	for i := range 6 {
		dir := fmt.Sprintf("hdfs://minicluster/seq/%d", i)
		data := []byte(fmt.Sprintf("step %d", i))
		if err := r.WriteFile(ctx, dir+"/data", data, 0o644); err != nil {
			t.Fatalf("step %d: WriteFile: %v", i, err)
		}
		flip(t, m)
		if got, err := r.ReadFile(ctx, dir+"/data"); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("step %d: ReadFile = %q, %v", i, got, err)
		}
		flip(t, m)
		if err := r.Rename(ctx, dir+"/data", dir+"/renamed"); err != nil {
			t.Fatalf("step %d: Rename: %v", i, err)
		}
		want = append(want, dir)
		got, err := r.Glob(ctx, "hdfs://minicluster/seq/*")
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("step %d: Glob = %v, %v; want %v", i, got, err, want)
		}
	}
	_, err = r.Stat(ctx, "hdfs://minicluster/seq/missing")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(missing) = %v", err)
	}
	for _, addr := range m.NameNodeAddrs() {
		if strings.Contains(err.Error(), addr) {
			t.Errorf("an error names NameNode %s: %v", addr, err)
		}
	}
}

// TestResolverHAWriteAcrossFailovers: a file written through the
// nameservice survives three failovers while it is open (blocks are
// allocated on both NameNodes, the lease holds), appears only when closed,
// and holds every byte.
func TestResolverHAWriteAcrossFailovers(t *testing.T) {
	t.Parallel()
	m := startHADFS(t, nil)
	r := haResolver(t, m, nil)
	ctx := testCtx(t)
	w, err := r.Create(ctx, "hdfs://minicluster/out/big.bin")
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("0123456789abcdef"), 4*(100<<10)/16) // 400 KiB: 7 blocks
	quarter := len(data) / 4
	for i := range 4 {
		if i > 0 {
			flip(t, m)
		}
		if _, err := w.Write(data[i*quarter : (i+1)*quarter]); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if _, err := r.Stat(ctx, "/out/big.bin"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat before Close = %v, want ErrNotExist", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := r.ReadFile(ctx, "/out/big.bin"); err != nil || !bytes.Equal(got, data) {
		t.Errorf("ReadFile: %d bytes, %v; want %d", len(got), err, len(data))
	}
	if got, err := os.ReadFile(filepath.Join(m.Root(), "out/big.bin")); err != nil || !bytes.Equal(got, data) {
		t.Errorf("backing file: %d bytes, %v", len(got), err)
	}
}

// TestResolverHANoActiveNameNode: while neither NameNode is active, a call
// fails after the configured attempts with an error naming the
// nameservice, and a file being written fails as a whole: the writer says
// so and nothing appears at its path.
func TestResolverHANoActiveNameNode(t *testing.T) {
	t.Parallel()
	m := startHADFS(t, nil)
	r := haResolver(t, m, map[string]string{
		hadoop.FailoverMaxAttemptsKey: "3", hadoop.FailoverSleepBaseKey: "1", hadoop.FailoverSleepMaxKey: "5",
	})
	ctx := testCtx(t)
	w, err := r.Create(ctx, "hdfs://minicluster/out/f")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(bytes.Repeat([]byte("a"), 100<<10)); err != nil {
		t.Fatal(err)
	}
	if err := m.TransitionToStandby(1); err != nil {
		t.Fatal(err)
	}
	_, werr := w.Write(bytes.Repeat([]byte("b"), 200<<10))
	cerr := w.Close()
	var noActive *hadoop.NoActiveNameNodeError
	for _, err := range []error{werr, cerr} {
		if !errors.As(err, &noActive) || noActive.Nameservice != "hdfs://minicluster" || !strings.Contains(err.Error(), "nothing was written to /out/f") {
			t.Errorf("writing with no active NameNode: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(m.Root(), "out/f")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the file appeared: %v", err)
	}

	_, err = r.Stat(ctx, "/out")
	if !errors.As(err, &noActive) || noActive.Attempts != 3 || !strings.Contains(err.Error(), "hdfs://minicluster: no NameNode served the call in 3 attempts") {
		t.Errorf("Stat with no active NameNode = %v", err)
	}
}

// TestResolverHAProxyUser: a Resolver acting for bob through the HA pair
// sends bob as the effective user on every connection it makes, the ones
// failing over included: bob owns what it writes on either NameNode. A
// server user without a proxy rule is refused through the pair as well.
func TestResolverHAProxyUser(t *testing.T) {
	t.Parallel()
	m := startHADFS(t, minidfs.ProxyUserConf("gozie"))
	if err := m.CreateHome("bob"); err != nil {
		t.Fatal(err)
	}
	r := haResolver(t, m, nil)
	bob := hadoop.AsUser(testCtx(t), "bob")
	for i := range 3 {
		p := fmt.Sprintf("hdfs://minicluster/user/bob/part-%d", i)
		if err := r.WriteFile(bob, p, []byte("x"), 0o644); err != nil {
			t.Fatalf("write %d as bob: %v", i, err)
		}
		fi, err := r.Stat(bob, p)
		if err != nil || fi.Owner != "bob" {
			t.Errorf("%s: %+v, %v; want bob's", p, fi, err)
		}
		flip(t, m)
	}

	mallory, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: m.URI(), Conf: m.ClientConf(), User: "mallory"})
	if err != nil {
		t.Fatal(err)
	}
	defer mallory.Close()
	if _, err := mallory.Stat(hadoop.AsUser(testCtx(t), "bob"), "/user/bob"); err == nil || !strings.Contains(err.Error(), "User: mallory is not allowed to impersonate bob") {
		t.Errorf("mallory acting for bob = %v", err)
	}
}

// TestResolverHAPrivacy: with hadoop.rpc.protection=privacy on both
// NameNodes, a SIMPLE Resolver (no SASL, so no security layer, as on a
// real cluster) works through the pair across a failover.
func TestResolverHAPrivacy(t *testing.T) {
	t.Parallel()
	m := startHADFS(t, map[string]string{"hadoop.rpc.protection": "privacy"})
	r := haResolver(t, m, map[string]string{"hadoop.rpc.protection": "privacy"})
	ctx := testCtx(t)
	for i := range 2 {
		if err := r.MkdirAll(ctx, fmt.Sprintf("/private/%d", i), 0o700); err != nil {
			t.Fatalf("MkdirAll under privacy (active nn%d): %v", m.ActiveNameNode()+1, err)
		}
		flip(t, m)
	}
}

func TestFailoverSettings(t *testing.T) {
	t.Parallel()
	for _, key := range []string{hadoop.FailoverMaxAttemptsKey, hadoop.FailoverSleepBaseKey, hadoop.FailoverSleepMaxKey} {
		_, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///", Conf: hadoopconf.HadoopConf{key: "soon"}})
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s=soon: %v, want an error naming the key", key, err)
		}
	}
}
