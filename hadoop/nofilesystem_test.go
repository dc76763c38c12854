package hadoop_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/gozie/gozie/hadoop"
)

// TestNoFileSystem: every operation of the Resolver on a scheme it has no
// FileSystem for fails with a *NoFileSystemError carrying Hadoop 3's message
// (FileSystem.getFileSystemClass) and Oozie's E0902; it is neither a policy
// refusal (ErrUnsupportedScheme) nor a missing file.
func TestNoFileSystem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{User: "u"}) // default file:///
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	const uri = "FOO://x/y/2025"
	ops := map[string]func() error{
		"Resolve":   func() error { _, _, err := res.Resolve(uri); return err },
		"Stat":      func() error { _, err := res.Stat(ctx, uri); return err },
		"ReadDir":   func() error { _, err := res.ReadDir(ctx, uri); return err },
		"ReadFile":  func() error { _, err := res.ReadFile(ctx, uri); return err },
		"Open":      func() error { _, err := res.Open(ctx, uri); return err },
		"Create":    func() error { _, err := res.Create(ctx, uri); return err },
		"Glob":      func() error { _, err := res.Glob(ctx, uri); return err },
		"MkdirAll":  func() error { return res.MkdirAll(ctx, uri, 0o755) },
		"WriteFile": func() error { return res.WriteFile(ctx, uri, []byte("x"), 0o644) },
		"Chmod":     func() error { return res.Chmod(ctx, uri, 0o755) },
		"Chown":     func() error { return res.Chown(ctx, uri, "", "g") },
		"Remove":    func() error { return res.Remove(ctx, uri) },
		"RemoveAll": func() error { return res.RemoveAll(ctx, uri) },
		"Touchz":    func() error { return res.Touchz(ctx, uri) },
		"Rename":    func() error { return res.Rename(ctx, uri, uri+"-moved") },
	}
	for name, op := range ops {
		err := op()
		var nofs *hadoop.NoFileSystemError
		if !errors.As(err, &nofs) {
			t.Errorf("%s: %v, want a *NoFileSystemError", name, err)
			continue
		}
		if err.Error() != `No FileSystem for scheme "foo"` || nofs.Scheme != "foo" || nofs.URI != uri {
			t.Errorf("%s: %q (scheme %q, uri %q)", name, err, nofs.Scheme, nofs.URI)
		}
		if nofs.ErrorCode() != "E0902" {
			t.Errorf("%s: code %s, want E0902", name, nofs.ErrorCode())
		}
		if errors.Is(err, hadoop.ErrUnsupportedScheme) || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v reads as a refusal or a missing file", name, err)
		}
	}
}

// TestPolicyAllowsWhatNoFileSystemReaches: the policy alone decides what may
// be named. A scheme it allows ("*", or listed) passes the check and fails
// where it is used with a *NoFileSystemError; a scheme it leaves out is
// refused with E0904 before anything, as before.
func TestPolicyAllowsWhatNoFileSystemReaches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "hdfs://nn:8020", User: "u"})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	const uri = "foo://x/y/2025"
	for _, schemes := range [][]string{{"*"}, {"hdfs", "foo"}} {
		p, err := hadoop.NewSchemePolicy(schemes, res.DefaultFS())
		if err != nil {
			t.Fatal(err)
		}
		fsys := p.Restrict(res)
		if err := hadoop.CheckScheme(fsys, uri); err != nil {
			t.Errorf("%v: CheckScheme(%s) = %v, want nil", schemes, uri, err)
		}
		var nofs *hadoop.NoFileSystemError
		if _, err := fsys.Stat(ctx, uri); !errors.As(err, &nofs) || err.Error() != `No FileSystem for scheme "foo"` {
			t.Errorf("%v: Stat(%s) = %v, want No FileSystem for scheme \"foo\"", schemes, uri, err)
		}
	}
	p, err := hadoop.NewSchemePolicy([]string{"hdfs"}, res.DefaultFS())
	if err != nil {
		t.Fatal(err)
	}
	fsys := p.Restrict(res)
	want := "Scheme [foo] not supported in uri [" + uri + "]"
	for name, err := range map[string]error{"CheckScheme": hadoop.CheckScheme(fsys, uri), "Stat": func() error {
		_, err := fsys.Stat(ctx, uri)
		return err
	}()} {
		var se *hadoop.SchemeError
		if !errors.As(err, &se) || err.Error() != want || se.ErrorCode() != "E0904" {
			t.Errorf("hdfs only: %s(%s) = %v, want E0904 %q", name, uri, err, want)
		}
	}
}
