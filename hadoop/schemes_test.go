package hadoop_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/hadoop"
)

func TestSchemePolicyCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		schemes   []string
		defaultFS string
		uri       string
		refused   string // the scheme named by the refusal; "" when allowed
	}{
		{"hdfs allowed", []string{"hdfs"}, "hdfs://nn:8020", "hdfs://nn:8020/user/alice", ""},
		{"hdfs in capitals", []string{"hdfs"}, "hdfs://nn:8020", "HDFS://nn:8020/user/alice", ""},
		{"hdfs without authority", []string{"hdfs"}, "hdfs://nn:8020", "hdfs:///user/alice", ""},
		{"bare path on hdfs", []string{"hdfs"}, "hdfs://nn:8020", "/user/alice", ""},
		{"relative path on hdfs", []string{"hdfs"}, "hdfs://nn:8020", "user/alice", ""},
		{"file refused", []string{"hdfs"}, "hdfs://nn:8020", "file:///etc/passwd", "file"},
		{"FILE refused", []string{"hdfs"}, "hdfs://nn:8020", "FILE:///etc/passwd", "file"},
		{"File: without slashes refused", []string{"hdfs"}, "hdfs://nn:8020", "File:/etc/passwd", "file"},
		{"file with localhost refused", []string{"hdfs"}, "hdfs://nn:8020", "file://localhost/etc", "file"},
		{"other scheme refused", []string{"hdfs"}, "hdfs://nn:8020", "s3a://bucket/key", "s3a"},
		{"host:port reads as a scheme", []string{"hdfs"}, "hdfs://nn:8020", "nn:8020/user", "nn"},
		{"bare path on a file default", []string{"hdfs"}, "file:///", "/etc/passwd", "file"},
		{"hdfs URI on a file default", []string{"hdfs"}, "file:///", "hdfs://nn/x", ""},
		{"file configured", []string{"hdfs", "file"}, "hdfs://nn:8020", "file:///tmp/x", ""},
		{"FILE configured in capitals", []string{"HDFS", " File "}, "file:///", "FILE:///tmp/x", ""},
		{"bare path on a configured file default", []string{"hdfs", "file"}, "file:///", "/tmp/x", ""},
		{"a star allows all", []string{"*"}, "hdfs://nn", "file:///etc", ""},
		{"nothing allowed", nil, "hdfs://nn", "hdfs://nn/x", "hdfs"},
		{"a scheme that lower-cases to fewer bytes", []string{"hdfs"}, "hdfs://nn", "İ:", strings.ToLower("İ")},
	}
	for _, tt := range tests {
		p, err := hadoop.NewSchemePolicy(tt.schemes, tt.defaultFS)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		err = p.Check(tt.uri)
		if tt.refused == "" {
			if err != nil {
				t.Errorf("%s: Check(%q) = %v, want nil", tt.name, tt.uri, err)
			}
			continue
		}
		var se *hadoop.SchemeError
		if !errors.As(err, &se) {
			t.Errorf("%s: Check(%q) = %v, want a *SchemeError", tt.name, tt.uri, err)
			continue
		}
		want := "Scheme [" + tt.refused + "] not supported in uri [" + tt.uri + "]"
		if err.Error() != want || se.ErrorCode() != "E0904" || se.Scheme != tt.refused || se.URI != tt.uri {
			t.Errorf("%s: Check(%q) = %q (%s), want %q (E0904)", tt.name, tt.uri, err, se.ErrorCode(), want)
		}
		if !errors.Is(err, hadoop.ErrUnsupportedScheme) {
			t.Errorf("%s: the refusal does not match ErrUnsupportedScheme", tt.name)
		}
	}
}

func TestNewSchemePolicyRefusesBadSettings(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		schemes   []string
		defaultFS string
	}{
		{[]string{"hdfs;file"}, "hdfs://nn"},
		{[]string{"file:"}, "hdfs://nn"},
		{[]string{"9p"}, "hdfs://nn"},
		{[]string{"hdfs"}, ""},
		{[]string{"hdfs"}, "/user"},
	} {
		if _, err := hadoop.NewSchemePolicy(tt.schemes, tt.defaultFS); err == nil {
			t.Errorf("NewSchemePolicy(%q, %q) succeeded", tt.schemes, tt.defaultFS)
		}
	}
	p, err := hadoop.NewSchemePolicy([]string{"HDFS", "", "file", "hdfs"}, "hdfs://nn")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Schemes(); !slices.Equal(got, []string{"file", "hdfs"}) {
		t.Errorf("Schemes() = %q", got)
	}
}

// TestRestrictedTouchesNothing: every operation of a refused scheme fails with
// the same refusal whatever is on the disk, and the disk is left as it was;
// the same operations through a policy that allows file do their work.
func TestRestrictedTouchesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{User: "u"}) // default file:///
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	hdfsOnly, err := hadoop.NewSchemePolicy([]string{"hdfs"}, res.DefaultFS())
	if err != nil {
		t.Fatal(err)
	}
	fsys := hdfsOnly.Restrict(res)

	existing, missing, folder := "file://"+secret, "file://"+dir+"/does/not/exist", "FILE://"+dir
	ops := map[string]func(uri string) error{
		"Stat":      func(u string) error { _, err := fsys.Stat(ctx, u); return err },
		"ReadDir":   func(u string) error { _, err := fsys.ReadDir(ctx, u); return err },
		"ReadFile":  func(u string) error { _, err := fsys.ReadFile(ctx, u); return err },
		"Open":      func(u string) error { _, err := fsys.Open(ctx, u); return err },
		"Glob":      func(u string) error { _, err := fsys.Glob(ctx, u+"*"); return err },
		"Chmod":     func(u string) error { return fsys.Chmod(ctx, u, 0o777) },
		"Remove":    func(u string) error { return fsys.Remove(ctx, u) },
		"RemoveAll": func(u string) error { return fsys.RemoveAll(ctx, u) },
		"Touchz":    func(u string) error { return fsys.Touchz(ctx, u) },
		"MkdirAll":  func(u string) error { return fsys.MkdirAll(ctx, u+"/made", 0o755) },
		"WriteFile": func(u string) error { return fsys.WriteFile(ctx, u+"/written", []byte("x"), 0o644) },
		"Create":    func(u string) error { _, err := fsys.Create(ctx, u+"/created"); return err },
		"Rename":    func(u string) error { return fsys.Rename(ctx, u, u+"-moved") },
		"Chown":     func(u string) error { return fsys.Chown(ctx, u, "", "nogroup") },
		"CheckScheme": func(u string) error {
			return hadoop.CheckScheme(fsys, u)
		},
	}
	for name, op := range ops {
		var msgs []string
		for _, u := range []string{existing, missing, folder, secret} { // secret: a bare path on file:///
			err := op(u)
			var se *hadoop.SchemeError
			if !errors.As(err, &se) {
				t.Errorf("%s(%s) = %v, want a *SchemeError", name, u, err)
				continue
			}
			msgs = append(msgs, strings.Replace(err.Error(), se.URI, "<uri>", 1))
		}
		for _, m := range msgs {
			if m != "Scheme [file] not supported in uri [<uri>]" {
				t.Errorf("%s: message %q differs by more than the URI", name, m)
			}
		}
	}
	fi, err := os.Stat(secret)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the secret was touched: %v %v", fi, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder changed: %v", entries)
	}

	withFile, err := hadoop.NewSchemePolicy([]string{"hdfs", "file"}, res.DefaultFS())
	if err != nil {
		t.Fatal(err)
	}
	if b, err := withFile.Restrict(res).ReadFile(ctx, "FILE://"+secret); err != nil || string(b) != "s3cret" {
		t.Errorf("with file allowed: ReadFile = %q, %v", b, err)
	}
	if _, err := withFile.Restrict(res).Stat(ctx, missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("with file allowed: Stat of a missing file = %v", err)
	}
}

// TestResolverJudgesNoScheme: a bare Resolver refuses no scheme at the check
// (that is a SchemePolicy's to do); a scheme it has no FileSystem for fails
// where it is used, with a *NoFileSystemError, never a refusal.
func TestResolverJudgesNoScheme(t *testing.T) {
	t.Parallel()
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "hdfs://nn:8020", User: "u"})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	for _, u := range []string{"hdfs://nn/x", "file:///x", "FILE:///x", "/x", "s3a://bucket/key"} {
		if err := hadoop.CheckScheme(res, u); err != nil {
			t.Errorf("CheckScheme(%q) = %v", u, err)
		}
	}
	// Schemes whose lower case is shorter or longer in bytes.
	for _, u := range []string{"İ:", "Ⱥ:", "Ⱥ://x/y"} {
		var nofs *hadoop.NoFileSystemError
		if _, err := res.Stat(context.Background(), u); !errors.As(err, &nofs) || nofs.Scheme != strings.ToLower(strings.Split(u, ":")[0]) {
			t.Errorf("Stat(%s) = %v, want a *NoFileSystemError", u, err)
		}
	}
	if err := hadoop.CheckScheme(&hadoop.LocalFS{}, "s3a://bucket/key"); err != nil {
		t.Errorf("a filesystem that judges no scheme refused: %v", err)
	}
}
