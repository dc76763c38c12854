package hadoop_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/colinmarc/hdfs/v2/hadoopconf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/minidfs"
)

// fixedNow is the clock Touchz uses in these tests, in whole seconds
// because colinmarc sends times in seconds.
var fixedNow = time.Date(2024, 3, 10, 2, 30, 0, 0, time.UTC)

func clock() time.Time { return fixedNow }

func startDFS(t *testing.T) *minidfs.MiniDFS {
	t.Helper()
	// gozie started the NameNode: its superuser passes every permission
	// check (the checks have their own tests).
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), BlockSize: 64 << 10, Superuser: "gozie"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// fsCase is one FileSystem under test: base is a directory prefix (a path
// or a URI) below which the suite works.
type fsCase struct {
	name string
	fsys hadoop.FileSystem
	base string
}

func fileSystems(t *testing.T) []fsCase {
	t.Helper()
	m := startDFS(t)
	c, err := hdfs.NewClient(hdfs.ClientOptions{Addresses: []string{m.Addr()}, User: "gozie"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: m.URI(), User: "gozie", Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	hdfsOnly, err := hadoop.NewSchemePolicy([]string{"hdfs"}, m.URI())
	if err != nil {
		t.Fatal(err)
	}
	withFile, err := hadoop.NewSchemePolicy([]string{"hdfs", "file"}, m.URI())
	if err != nil {
		t.Fatal(err)
	}
	ha := haResolver(t, startHADFS(t, nil), nil)
	return []fsCase{
		{"local", &hadoop.LocalFS{Now: clock}, t.TempDir()},
		{"hdfs", hadoop.NewHDFS(c, clock), "/hdfs-direct"},
		{"resolver-hdfs-uri", res, m.URI() + "/via-uri"},
		{"resolver-bare-path", res, "/via-default"},
		{"resolver-file-uri", res, "file://" + t.TempDir()},
		// An HA nameservice, nn1 standby at the first call.
		{"resolver-ha-nameservice", ha, "hdfs://minicluster/via-ha"},
		// The restricted view passes what its policy allows through unchanged.
		{"restricted-hdfs-uri", hdfsOnly.Restrict(res), m.URI() + "/restricted"},
		{"restricted-bare-path", hdfsOnly.Restrict(res), "/restricted-default"},
		{"restricted-file-allowed", withFile.Restrict(res), "file://" + t.TempDir()},
	}
}

func TestFileSystems(t *testing.T) {
	t.Parallel()
	for _, tc := range fileSystems(t) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runSuite(t, tc.fsys, tc.base)
		})
	}
}

func runSuite(t *testing.T, fsys hadoop.FileSystem, base string) {
	ctx := context.Background()
	p := func(rel string) string { return base + "/" + rel }

	if err := fsys.MkdirAll(ctx, p("in/2024-01-01"), 0o755); err != nil {
		t.Fatal(err)
	}
	if fi, err := fsys.Stat(ctx, p("in")); err != nil || !fi.IsDir || fi.Name != "in" {
		t.Fatalf("Stat(dir) = %+v, %v", fi, err)
	}
	if _, err := fsys.Stat(ctx, p("missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(missing) = %v, want ErrNotExist", err)
	}

	// WriteFile creates and replaces.
	for _, content := range []string{"first version", "second"} {
		if err := fsys.WriteFile(ctx, p("in/2024-01-01/data.txt"), []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
		got, err := fsys.ReadFile(ctx, p("in/2024-01-01/data.txt"))
		if err != nil || string(got) != content {
			t.Fatalf("ReadFile = %q, %v; want %q", got, err, content)
		}
	}
	if err := fsys.WriteFile(ctx, p("new/parents/f"), []byte("x"), 0o644); err != nil {
		t.Errorf("WriteFile with missing parents: %v", err)
	}
	fi, err := fsys.Stat(ctx, p("in/2024-01-01/data.txt"))
	if err != nil || fi.Size != 6 || fi.IsDir || fi.Mode.Perm() != 0o640 {
		t.Errorf("Stat(file) = %+v, %v", fi, err)
	}

	// WriteNew writes in place: missing parents made, an earlier file
	// replaced, a directory refused, nothing else left beside the file.
	for _, content := range []string{"first spec", "second"} {
		if err := fsys.WriteNew(ctx, p("attempt/0.0/spec.json"), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := fsys.ReadFile(ctx, p("attempt/0.0/spec.json"))
		if err != nil || string(got) != content {
			t.Fatalf("ReadFile after WriteNew = %q, %v; want %q", got, err, content)
		}
	}
	if list, err := fsys.ReadDir(ctx, p("attempt/0.0")); err != nil || len(list) != 1 || list[0].Mode.Perm() != 0o600 {
		t.Errorf("after WriteNew: ReadDir = %+v, %v; want spec.json alone, mode 0600", list, err)
	}
	if err := fsys.WriteNew(ctx, p("in"), []byte("x"), 0o644); !errors.Is(err, hadoop.ErrIsDirectory) {
		t.Errorf("WriteNew(dir) = %v, want ErrIsDirectory", err)
	}

	// Create publishes the file only on Close.
	w, err := fsys.Create(ctx, p("in/big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 20000) // 320 KB, several blocks
	if _, err := w.Write(big); err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Stat(ctx, p("in/big.bin")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("file visible before Close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := fsys.Open(ctx, p("in/big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if _, err := got.ReadFrom(r); err != nil || !bytes.Equal(got.Bytes(), big) {
		t.Errorf("Open+read: %d bytes, %v", got.Len(), err)
	}
	r.Close()
	if _, err := fsys.Open(ctx, p("in")); !errors.Is(err, hadoop.ErrIsDirectory) {
		t.Errorf("Open(dir) = %v, want ErrIsDirectory", err)
	}
	if _, err := fsys.ReadFile(ctx, p("nope")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v", err)
	}

	// The listing holds no temporary files.
	list, err := fsys.ReadDir(ctx, p("in"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
	}
	if !slices.Equal(names, []string{"2024-01-01", "big.bin"}) {
		// Temporary ._COPYING_ files must be gone too.
		t.Errorf("ReadDir = %v", names)
	}

	// Touchz creates, then stamps the injected time.
	if err := fsys.Touchz(ctx, p("in/2024-01-01/_SUCCESS")); err != nil {
		t.Fatal(err)
	}
	if fi, err := fsys.Stat(ctx, p("in/2024-01-01/_SUCCESS")); err != nil || fi.Size != 0 {
		t.Errorf("after Touchz: %+v, %v", fi, err)
	}
	if err := fsys.Touchz(ctx, p("in/2024-01-01/data.txt")); err != nil {
		t.Fatal(err)
	}
	if fi, err := fsys.Stat(ctx, p("in/2024-01-01/data.txt")); err != nil || !fi.ModTime.Equal(fixedNow) || fi.Size != 6 {
		t.Errorf("Touchz of an existing file: %+v, %v; want mtime %v", fi, err, fixedNow)
	}
	if err := fsys.Touchz(ctx, p("in")); !errors.Is(err, hadoop.ErrIsDirectory) {
		t.Errorf("Touchz(dir) = %v", err)
	}

	if err := fsys.Chmod(ctx, p("in/big.bin"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, err := fsys.Stat(ctx, p("in/big.bin")); err != nil || fi.Mode.Perm() != 0o600 {
		t.Errorf("after Chmod: %v, %v", fi.Mode, err)
	}

	// Globs, as fs:exists and dataset checks use them.
	for _, day := range []string{"2024-01-02", "2024-01-03"} {
		if err := fsys.MkdirAll(ctx, p("in/"+day), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := fsys.Touchz(ctx, p("in/2024-01-03/_SUCCESS")); err != nil {
		t.Fatal(err)
	}
	globs := []struct {
		pattern string
		want    []string
	}{
		{"in/*/_SUCCESS", []string{"in/2024-01-01/_SUCCESS", "in/2024-01-03/_SUCCESS"}},
		{"in/2024-01-0{2,3}/_SUCCESS", []string{"in/2024-01-03/_SUCCESS"}},
		{"in/2024-01-0[12]", []string{"in/2024-01-01", "in/2024-01-02"}},
		{"in/2024-01-0[!12]", []string{"in/2024-01-03"}},
		{"in/2024-01-0?/data.txt", []string{"in/2024-01-01/data.txt"}},
		{"in/big.bin", []string{"in/big.bin"}},
		{"in/*/nothing", nil},
		{"in/big.bin/*", nil},
	}
	for _, g := range globs {
		matches, err := fsys.Glob(ctx, p(g.pattern))
		if err != nil {
			t.Errorf("Glob(%s): %v", g.pattern, err)
			continue
		}
		var want []string
		for _, w := range g.want {
			want = append(want, p(w))
		}
		if !slices.Equal(matches, want) {
			t.Errorf("Glob(%s) = %v, want %v", g.pattern, matches, want)
		}
	}
	if _, err := fsys.Glob(ctx, p("in/[")); !errors.Is(err, hadoop.ErrBadPattern) {
		t.Errorf("Glob with a bad pattern = %v", err)
	}

	// Rename, Remove, RemoveAll.
	if err := fsys.Rename(ctx, p("in/big.bin"), p("in/2024-01-02/big.bin")); err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Stat(ctx, p("in/2024-01-02/big.bin")); err != nil {
		t.Errorf("after Rename: %v", err)
	}
	if err := fsys.Rename(ctx, p("in/nope"), p("in/nope2")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Rename(missing) = %v", err)
	}
	if err := fsys.Remove(ctx, p("in/2024-01-02")); err == nil {
		t.Error("Remove of a non-empty directory succeeded")
	}
	if err := fsys.Remove(ctx, p("in/2024-01-02/big.bin")); err != nil {
		t.Error(err)
	}
	if err := fsys.RemoveAll(ctx, p("in")); err != nil {
		t.Fatal(err)
	}
	if err := fsys.RemoveAll(ctx, p("in")); err != nil {
		t.Errorf("RemoveAll(missing) = %v", err)
	}
	if _, err := fsys.Stat(ctx, p("in")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after RemoveAll: %v", err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := fsys.Stat(cancelled, base); !errors.Is(err, context.Canceled) {
		t.Errorf("Stat with a cancelled context = %v", err)
	}
}

func TestResolverSharesNamespaceWithMiniDFSRoot(t *testing.T) {
	t.Parallel()
	m := startDFS(t)
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: m.URI(), User: "gozie"})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	ctx := context.Background()
	// A file dropped into the root is visible through every spelling.
	if err := os.MkdirAll(filepath.Join(m.Root(), "feeds/day=1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m.Root(), "feeds/day=1/_SUCCESS"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, uri := range []string{"/feeds/day=1/_SUCCESS", m.URI() + "/feeds/day=1/_SUCCESS", "hdfs:///feeds/day=1/_SUCCESS"} {
		if _, err := res.Stat(ctx, uri); err != nil {
			t.Errorf("Stat(%s): %v", uri, err)
		}
	}
	a, _, err := res.Resolve(m.URI() + "/x")
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := res.Resolve("/y")
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("two paths on one NameNode got different clients")
	}
	if err := res.Rename(ctx, m.URI()+"/feeds", "file:///tmp/feeds"); err == nil || !strings.Contains(err.Error(), "different filesystems") {
		t.Errorf("cross-filesystem rename = %v", err)
	}
	if err := res.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := res.Stat(ctx, "/feeds"); err == nil {
		t.Error("Stat after Close succeeded")
	}
}

func TestNameNodes(t *testing.T) {
	t.Parallel()
	conf := hadoopconf.HadoopConf{
		"dfs.ha.namenodes.ns1":            "a,b",
		"dfs.namenode.rpc-address.ns1.a":  "h1:8020",
		"dfs.namenode.rpc-address.ns1.b":  "h2:8020",
		"dfs.ha.namenodes.broken":         "a",
		"dfs.namenode.rpc-address.single": "h3:9000",
	}
	tests := []struct {
		authority string
		want      []string
		wantErr   bool
	}{
		{"nn:9000", []string{"nn:9000"}, false},
		{"ns1", []string{"h1:8020", "h2:8020"}, false},
		{"single", []string{"h3:9000"}, false},
		{"plainhost", []string{"plainhost:8020"}, false},
		{"broken", nil, true},
	}
	for _, tt := range tests {
		got, err := hadoop.NameNodes(conf, tt.authority)
		if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
			t.Errorf("NameNodes(%s) = %v, %v; want %v (error %v)", tt.authority, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestResolverParse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{User: "u"}) // default file:///
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	tests := []struct {
		uri  string
		path string
	}{
		{uri: dir + "/f", path: dir + "/f"},
		{uri: "file://" + dir + "/f", path: dir + "/f"},
		{uri: "file:" + dir + "/f", path: dir + "/f"},
		{uri: "file://localhost" + dir + "/f", path: dir + "/f"},
		{uri: "file:///a/b?c/{d,e}", path: "/a/b?c/{d,e}"},
		{uri: "s3a://bucket/key"}, // a *NoFileSystemError: TestNoFileSystem
		{uri: "relative/path"},
		{uri: "hdfs:///x"},
		{uri: "file://otherhost/x"},
	}
	for _, tt := range tests {
		fsys, p, err := res.Resolve(tt.uri)
		if tt.path == "" {
			if err == nil {
				t.Errorf("Resolve(%q) succeeded", tt.uri)
			}
			continue
		}
		if err != nil || p != tt.path {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.uri, p, err, tt.path)
			continue
		}
		if _, ok := fsys.(*hadoop.LocalFS); !ok {
			t.Errorf("Resolve(%q) gave %T", tt.uri, fsys)
		}
	}
	for _, bad := range []string{"/no-scheme", "ftp://x/", "hdfs:///"} {
		if _, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: bad}); err == nil {
			t.Errorf("NewResolver(DefaultFS %q) succeeded", bad)
		}
	}
}

// TestWriteNewReplacesAnAbandonedFile: a file an earlier writer left under
// construction (its lease still held, as after a crash) does not stop
// WriteNew, and the earlier writer cannot complete it afterwards.
func TestWriteNewReplacesAnAbandonedFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := startDFS(t)
	dead, err := hdfs.NewClient(hdfs.ClientOptions{Addresses: []string{m.Addr()}, User: "gozie"})
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	if err := dead.MkdirAll("/attempt", 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := dead.Create("/attempt/spec.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("half a spec")); err != nil {
		t.Fatal(err)
	}
	c, err := hdfs.NewClient(hdfs.ClientOptions{Addresses: []string{m.Addr()}, User: "gozie"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fsys := hadoop.NewHDFS(c, clock)
	if err := fsys.WriteNew(ctx, "/attempt/spec.json", []byte("the spec"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err == nil {
		t.Error("the abandoned writer completed its file after WriteNew replaced it")
	}
	if got, err := fsys.ReadFile(ctx, "/attempt/spec.json"); err != nil || string(got) != "the spec" {
		t.Errorf("ReadFile = %q, %v; want the new spec", got, err)
	}
}
