package hadoop_test

import (
	"errors"
	"testing"

	"github.com/gozie/gozie/hadoop"
)

// TestParsePath: paths read as Hadoop's Path(String) reads them, dot
// segments and repeated or trailing slashes gone (HDFS refuses them).
func TestParsePath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want hadoop.Path
		str  string
	}{
		{"hdfs://nn:8020/a/b", hadoop.Path{Scheme: "hdfs", HasAuthority: true, Authority: "nn:8020", Path: "/a/b"}, "hdfs://nn:8020/a/b"},
		{"hdfs://nn:8020/a//b/./c/", hadoop.Path{Scheme: "hdfs", HasAuthority: true, Authority: "nn:8020", Path: "/a/b/c"}, "hdfs://nn:8020/a/b/c"},
		{"hdfs://nn/a/x/../b", hadoop.Path{Scheme: "hdfs", HasAuthority: true, Authority: "nn", Path: "/a/b"}, "hdfs://nn/a/b"},
		{"hdfs:///a", hadoop.Path{Scheme: "hdfs", HasAuthority: true, Path: "/a"}, "hdfs:///a"},
		{"file:/tmp/x", hadoop.Path{Scheme: "file", Path: "/tmp/x"}, "file:/tmp/x"},
		{"FILE:///tmp/x", hadoop.Path{Scheme: "FILE", HasAuthority: true, Path: "/tmp/x"}, "FILE:///tmp/x"},
		{"/a/b/", hadoop.Path{Path: "/a/b"}, "/a/b"},
		{"/", hadoop.Path{Path: "/"}, "/"},
		{"./conf.xml", hadoop.Path{Path: "conf.xml"}, "conf.xml"},
		{"conf/x.xml", hadoop.Path{Path: "conf/x.xml"}, "conf/x.xml"},
		{"../shared/x.xml", hadoop.Path{Path: "../shared/x.xml"}, "../shared/x.xml"},
		{"/../x", hadoop.Path{Path: "/../x"}, "/../x"}, // Hadoop keeps it; the NameNode refuses it
		{"a/b:c", hadoop.Path{Path: "a/b:c"}, "a/b:c"}, // a ':' after a '/' is no scheme
		{"//nn/x", hadoop.Path{HasAuthority: true, Authority: "nn", Path: "/x"}, "//nn/x"},
		{"hdfs:x", hadoop.Path{Scheme: "hdfs", Path: "x"}, "hdfs:x"},
	}
	for _, tt := range tests {
		got, err := hadoop.ParsePath(tt.in)
		if err != nil || got != tt.want || got.String() != tt.str {
			t.Errorf("ParsePath(%q) = %+v (%q), %v; want %+v (%q)", tt.in, got, got.String(), err, tt.want, tt.str)
		}
	}
	if _, err := hadoop.ParsePath(""); !errors.Is(err, hadoop.ErrEmptyPath) {
		t.Errorf("empty path: %v", err)
	}
}

// TestPathResolve: Hadoop's Path(parent, child), as Oozie resolves job-xml,
// file and archive entries against the application directory.
func TestPathResolve(t *testing.T) {
	t.Parallel()
	app, err := hadoop.ParsePath("hdfs://nn:8020/user/alice/app")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ child, want string }{
		{"./job-queue-conf.xml", "hdfs://nn:8020/user/alice/app/job-queue-conf.xml"},
		{"conf/x.xml", "hdfs://nn:8020/user/alice/app/conf/x.xml"},
		{"../shared/x.xml", "hdfs://nn:8020/user/alice/shared/x.xml"},
		{"/etc/site.xml", "hdfs://nn:8020/etc/site.xml"},
		{"hdfs://other:8020/x.xml", "hdfs://other:8020/x.xml"},
		{"//other:8020/x.xml", "hdfs://other:8020/x.xml"},
		{"file:///tmp/x.xml", "file:///tmp/x.xml"},
		{"File:/tmp/x.xml", "File:/tmp/x.xml"},
	}
	for _, tt := range tests {
		child, err := hadoop.ParsePath(tt.child)
		if err != nil {
			t.Fatal(err)
		}
		if got := app.Resolve(child).String(); got != tt.want {
			t.Errorf("resolve %q = %q, want %q", tt.child, got, tt.want)
		}
	}
	root, _ := hadoop.ParsePath("hdfs://nn")
	x, _ := hadoop.ParsePath("x")
	if got := root.Resolve(x).String(); got != "hdfs://nn/x" {
		t.Errorf("resolve below an empty path = %q", got)
	}
}
