package minidfs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/gozie/gozie/testenv/minidfs"
)

// setup starts a MiniDFS with a small block size (so multi-block files are
// cheap) and a real colinmarc client for it, acting as alice, who started
// the NameNode: these tests are about the protocol, the superuser passes
// every permission check (permissions_test.go has the checks).
func setup(t *testing.T) (*minidfs.MiniDFS, *hdfs.Client) {
	t.Helper()
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), BlockSize: 128 << 10, Superuser: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, newClient(t, "alice", m.Addr())
}

func newClient(t *testing.T, user string, addrs ...string) *hdfs.Client {
	t.Helper()
	c, err := hdfs.NewClient(hdfs.ClientOptions{Addresses: addrs, User: user})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func randomBytes(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestDirectories(t *testing.T) {
	t.Parallel()
	m, c := setup(t)

	if err := c.MkdirAll("/user/alice/data/2024", 0o750); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(m.Root(), "user/alice/data/2024"))
	if err != nil || !st.IsDir() || st.Mode().Perm() != 0o750 {
		t.Fatalf("local dir: %v, %v", st, err)
	}
	fi, err := c.Stat("/user/alice/data")
	if err != nil {
		t.Fatal(err)
	}
	if !fi.IsDir() || fi.Name() != "data" || fi.Mode().Perm() != 0o750 {
		t.Errorf("Stat = %v %q %v", fi.IsDir(), fi.Name(), fi.Mode())
	}
	if owner := fi.(*hdfs.FileInfo).Owner(); owner != "alice" {
		t.Errorf("owner = %q, want alice", owner)
	}
	if err := c.MkdirAll("/user/alice/data", 0o755); err != nil {
		t.Errorf("MkdirAll on an existing dir: %v", err)
	}
	if err := c.Mkdir("/user/alice/data", 0o755); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Mkdir on an existing dir = %v, want ErrExist", err)
	}
	if err := c.Mkdir("/no/such/parent", 0o755); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Mkdir without parent = %v, want ErrNotExist", err)
	}
	if _, err := c.Stat("/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(missing) = %v, want ErrNotExist", err)
	}
	if err := c.CreateEmptyFile("/user/alice/data/_SUCCESS"); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove("/user/alice/data"); err == nil {
		t.Error("Remove of a non-empty dir succeeded")
	}
	if err := c.Remove("/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Remove(missing) = %v", err)
	}
	if err := c.RemoveAll("/user/alice/data"); err != nil {
		t.Fatal(err)
	}
	if err := c.RemoveAll("/user/alice/data"); err != nil {
		t.Errorf("RemoveAll of a missing path: %v", err)
	}
	if _, err := os.Stat(filepath.Join(m.Root(), "user/alice/data")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("local dir still there: %v", err)
	}
}

func TestListing(t *testing.T) {
	t.Parallel()
	m, c := setup(t)
	// More entries than one getListing page holds, created locally.
	dir := filepath.Join(m.Root(), "many")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 1234 {
		name := fmt.Sprintf("part-%05d", i)
		want = append(want, name)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	want = append(want, "sub")
	infos, err := c.ReadDir("/many")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fi := range infos {
		got = append(got, fi.Name())
		if fi.Name() == "sub" != fi.IsDir() {
			t.Errorf("%s: IsDir = %v", fi.Name(), fi.IsDir())
		}
		if !fi.IsDir() && fi.Size() != int64(len(fi.Name())) {
			t.Errorf("%s: size %d", fi.Name(), fi.Size())
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("ReadDir returned %d names (first %v), want %d sorted", len(got), got[:min(3, len(got))], len(want))
	}
	if _, err := c.ReadDir("/nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir(missing) = %v", err)
	}
	var walked int
	err = c.Walk("/many", func(string, fs.FileInfo, error) error { walked++; return nil })
	if err != nil || walked != len(want)+1 {
		t.Errorf("Walk visited %d, err %v; want %d", walked, err, len(want)+1)
	}
}

func TestWriteAndRead(t *testing.T) {
	t.Parallel()
	m, c := setup(t)
	if err := c.MkdirAll("/out", 0o755); err != nil {
		t.Fatal(err)
	}
	// 300 KiB plus a tail: three 128 KiB blocks, the last one partial.
	data := randomBytes(300<<10 + 123)
	w, err := c.Create("/out/file.bin")
	if err != nil {
		t.Fatal(err)
	}
	// Write in odd-sized pieces to cross packet and block boundaries.
	for off := 0; off < len(data); {
		n := min(len(data)-off, 7777)
		if _, err := w.Write(data[off : off+n]); err != nil {
			t.Fatal(err)
		}
		off += n
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	local, err := os.ReadFile(filepath.Join(m.Root(), "out/file.bin"))
	if err != nil || !bytes.Equal(local, data) {
		t.Fatalf("backing file differs (len %d, err %v)", len(local), err)
	}
	got, err := c.ReadFile("/out/file.bin")
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadFile differs (len %d, err %v)", len(got), err)
	}
	r, err := c.Open("/out/file.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, off := range []int64{0, 1, 511, 512, 128<<10 - 10, 200 << 10, int64(len(data)) - 5} {
		buf := make([]byte, 100)
		n, err := r.ReadAt(buf, off)
		want := data[off:min(off+100, int64(len(data)))]
		if (err != nil && err != io.EOF) || !bytes.Equal(buf[:n], want) {
			t.Errorf("ReadAt(%d) = %d bytes, %v", off, n, err)
		}
	}
	if _, err := c.Create("/out/file.bin"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Create over an existing file = %v, want ErrExist", err)
	}
	if err := c.CreateEmptyFile("/out/empty"); err != nil {
		t.Fatal(err)
	}
	if b, err := c.ReadFile("/out/empty"); err != nil || len(b) != 0 {
		t.Errorf("empty file: %q, %v", b, err)
	}
}

// TestWriterOfADeletedFile: as in HDFS, a file deleted while its writer
// holds it takes its blocks along; the writer can neither write them nor
// complete the file, and a new file at the same path keeps its own bytes.
func TestWriterOfADeletedFile(t *testing.T) {
	t.Parallel()
	m, c := setup(t)
	other := newClient(t, "alice", m.Addr())
	if err := c.MkdirAll("/out", 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := c.Create("/out/f")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("stale bytes, longer than the new")); err != nil {
		t.Fatal(err)
	}
	if err := other.Remove("/out/f"); err != nil {
		t.Fatal(err)
	}
	nw, err := other.Create("/out/f")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nw.Write([]byte("new")); err != nil {
		t.Fatal(err)
	}
	if err := nw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err == nil {
		t.Error("the writer of a deleted file completed it")
	}
	if got, err := other.ReadFile("/out/f"); err != nil || string(got) != "new" {
		t.Errorf("the new file reads %q, %v", got, err)
	}
}

func TestAppendAndTruncate(t *testing.T) {
	t.Parallel()
	m, c := setup(t)
	first := randomBytes(1000)
	if err := os.WriteFile(filepath.Join(m.Root(), "log"), first, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := c.Append("/log")
	if err != nil {
		t.Fatal(err)
	}
	more := randomBytes(200 << 10)
	if _, err := w.Write(more); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(first), more...)
	if got, err := c.ReadFile("/log"); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("after append: %d bytes, %v; want %d", len(got), err, len(want))
	}
	if _, err := c.Truncate("/log", 10); err != nil {
		t.Fatal(err)
	}
	if got, err := c.ReadFile("/log"); err != nil || !bytes.Equal(got, first[:10]) {
		t.Errorf("after truncate: %v, %v", got, err)
	}
}

func TestFilesCopiedIn(t *testing.T) {
	t.Parallel()
	m, c := setup(t)
	dir := filepath.Join(m.Root(), "data", "2024-01-01")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	content := randomBytes(5000)
	if err := os.WriteFile(filepath.Join(dir, "part-0"), content, 0o640); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2024, 1, 2, 3, 4, 5, 678_900_000, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "part-0"), mtime, mtime); err != nil {
		t.Fatal(err)
	}
	fi, err := c.Stat("/data/2024-01-01/part-0")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != 5000 || fi.Mode().Perm() != 0o640 || !fi.ModTime().Equal(mtime.Truncate(time.Millisecond)) {
		t.Errorf("Stat = size %d mode %v mtime %v", fi.Size(), fi.Mode(), fi.ModTime())
	}
	if got, err := c.ReadFile("/data/2024-01-01/part-0"); err != nil || !bytes.Equal(got, content) {
		t.Errorf("ReadFile: %d bytes, %v", len(got), err)
	}
}

func TestRenamePermsTimes(t *testing.T) {
	t.Parallel()
	m, c := setup(t)
	if err := c.MkdirAll("/a/b", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateEmptyFile("/a/b/f"); err != nil {
		t.Fatal(err)
	}
	if err := c.Rename("/a/b/f", "/a/g"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(m.Root(), "a/g")); err != nil {
		t.Errorf("renamed file not in root: %v", err)
	}
	if err := c.Rename("/a/missing", "/a/h"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Rename(missing) = %v", err)
	}
	if err := c.CreateEmptyFile("/a/h"); err != nil {
		t.Fatal(err)
	}
	// colinmarc's Rename overwrites an existing destination.
	if err := c.Rename("/a/h", "/a/g"); err != nil {
		t.Errorf("Rename onto a file: %v", err)
	}
	if err := c.Chmod("/a/g", 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.Chown("/a/g", "bob", "analysts"); err != nil {
		t.Fatal(err)
	}
	when := time.Date(2023, 5, 6, 7, 8, 9, 0, time.UTC)
	if err := c.Chtimes("/a/g", when, when); err != nil {
		t.Fatal(err)
	}
	fi, err := c.Stat("/a/g")
	if err != nil {
		t.Fatal(err)
	}
	hfi := fi.(*hdfs.FileInfo)
	if fi.Mode().Perm() != 0o600 || hfi.Owner() != "bob" || hfi.OwnerGroup() != "analysts" || !fi.ModTime().Equal(when) || !hfi.AccessTime().Equal(when) {
		t.Errorf("after chmod/chown/chtimes: %v %s %s %v %v", fi.Mode(), hfi.Owner(), hfi.OwnerGroup(), fi.ModTime(), hfi.AccessTime())
	}
	if err := c.Chmod("/nope", 0o600); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Chmod(missing) = %v", err)
	}
	cs, err := c.GetContentSummary("/a")
	if err != nil {
		t.Fatal(err)
	}
	if cs.FileCount() != 1 || cs.DirectoryCount() != 2 || cs.Size() != 0 {
		t.Errorf("content summary: files %d dirs %d size %d", cs.FileCount(), cs.DirectoryCount(), cs.Size())
	}
	if _, err := c.StatFs(); err != nil {
		t.Errorf("StatFs: %v", err)
	}
	if d, err := c.ServerDefaults(); err != nil || d.BlockSize != 128<<10 {
		t.Errorf("ServerDefaults = %+v, %v", d, err)
	}
}

func TestStartValidation(t *testing.T) {
	t.Parallel()
	tests := []minidfs.Options{
		{},
		{Root: filepath.Join(t.TempDir(), "missing")},
		{Root: t.TempDir(), BlockSize: 1000},
	}
	for _, o := range tests {
		if m, err := minidfs.Start(context.Background(), o); err == nil {
			m.Close()
			t.Errorf("Start(%+v) succeeded", o)
		}
	}
}
