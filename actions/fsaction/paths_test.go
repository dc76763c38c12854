package fsaction

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
)

// checkSchemes returns the scheme check of a server allowing schemes.
func checkSchemes(t *testing.T, schemes ...string) func(string) error {
	t.Helper()
	p, err := hadoop.NewSchemePolicy(schemes, "hdfs://nn:8020")
	if err != nil {
		t.Fatal(err)
	}
	return p.Check
}

func codeOf(err error) string {
	var ee *actions.ExecError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ""
}

func TestParseURI(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want uri
		str  string
	}{
		{"hdfs://nn:8020/a/b", uri{"hdfs", "nn:8020", "/a/b"}, "hdfs://nn:8020/a/b"},
		{"HDFS://nn/a", uri{"hdfs", "nn", "/a"}, "hdfs://nn/a"},
		{"hdfs:///a", uri{"hdfs", "", "/a"}, "hdfs:///a"},
		{"file:///tmp/x*", uri{"file", "", "/tmp/x*"}, "file:///tmp/x*"},
		{"/a/{b,c}", uri{"", "", "/a/{b,c}"}, "/a/{b,c}"},
		{"rel/x", uri{"", "", "rel/x"}, "rel/x"},
		{"hdfs://nn", uri{"hdfs", "nn", ""}, "hdfs://nn"},
		{"1ab:/x", uri{"", "", "1ab:/x"}, "1ab:/x"},
	}
	for _, tt := range tests {
		got := parseURI(tt.in)
		if got != tt.want || got.String() != tt.str {
			t.Errorf("parseURI(%q) = %+v (%q), want %+v (%q)", tt.in, got, got.String(), tt.want, tt.str)
		}
	}
}

func TestResolverFull(t *testing.T) {
	t.Parallel()
	nn := parseURI("hdfs://nn:8020")
	check := checkSchemes(t, "hdfs", "file")
	with := &resolver{nameNode: &nn, checkScheme: check}
	without := &resolver{checkScheme: check}
	hdfsOnly := &resolver{checkScheme: checkSchemes(t, "hdfs")}
	hdfsOnlyNN := &resolver{nameNode: &nn, checkScheme: checkSchemes(t, "hdfs")}
	tests := []struct {
		name string
		r    *resolver
		in   string
		want string
		code string
	}{
		{"full uri", without, "hdfs://other:8020/a", "hdfs://other:8020/a", ""},
		{"missing scheme", without, "/a/b", "", "FS001"},
		{"unsupported scheme", without, "s3a://bucket/a", "", "E0904"},
		{"local file", without, "file:///tmp/a", "file:///tmp/a", ""},
		{"absolute on the name node", with, "/a/b", "hdfs://nn:8020/a/b", ""},
		{"no authority on the name node", with, "hdfs:///a/b", "hdfs://nn:8020/a/b", ""},
		{"relative", with, "a/b", "", "FS011"},
		{"same name node", with, "hdfs://nn:8020/x", "hdfs://nn:8020/x", ""},
		{"other name node", with, "hdfs://nn2:8020/x", "hdfs://nn2:8020/x", ""},
		{"other unsupported", with, "webhdfs://nn2/x", "", "E0904"},
		{"file stays local", with, "file:///tmp/x", "file:///tmp/x", ""},
		{"blanks trimmed", with, "  /a  ", "hdfs://nn:8020/a", ""},
		{"file not configured", hdfsOnly, "file:///etc/passwd", "", "E0904"},
		{"FILE not configured", hdfsOnly, "FILE:///etc/passwd", "", "E0904"},
		{"file not configured, with a name node", hdfsOnlyNN, "file:///etc", "", "E0904"},
		{"hdfs with hdfs only", hdfsOnly, "hdfs://nn2/x", "hdfs://nn2/x", ""},
	}
	for _, tt := range tests {
		got, err := tt.r.full(tt.in)
		if tt.code != "" {
			if codeOf(err) != tt.code || actions.KindOf(err) != actions.ActionError {
				t.Errorf("%s: full(%q) error %v, want ERROR %s", tt.name, tt.in, err, tt.code)
			}
			continue
		}
		if err != nil || got.String() != tt.want {
			t.Errorf("%s: full(%q) = %q, %v; want %q", tt.name, tt.in, got, err, tt.want)
		}
	}
}

func TestMoveTarget(t *testing.T) {
	t.Parallel()
	src := parseURI("hdfs://nn:8020/data/in")
	tests := []struct {
		target string
		src    uri
		want   string
		code   string
	}{
		{"/data/out", src, "hdfs://nn:8020/data/out", ""},
		{"hdfs://nn:8020/data/out", src, "hdfs://nn:8020/data/out", ""},
		{"hdfs://other:8020/data/out", src, "", "FS007"},
		{"file:///data/out", src, "", "FS007"},
		{"out/x", src, "hdfs://nn:8020/user/alice/out/x", ""},
		{"out", parseURI("file:///tmp/in"), "", "FS011"},
		{"/tmp/out/", parseURI("file:///tmp/in"), "file:///tmp/out", ""},
	}
	for _, tt := range tests {
		got, err := moveTarget(tt.src, tt.target, "alice")
		if tt.code != "" {
			if codeOf(err) != tt.code {
				t.Errorf("moveTarget(%q) error %v, want %s", tt.target, err, tt.code)
			}
			continue
		}
		if err != nil || got.String() != tt.want {
			t.Errorf("moveTarget(%q) = %q, %v; want %q", tt.target, got, err, tt.want)
		}
	}
}

func TestParsePermissions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want fs.FileMode
		ok   bool
	}{
		{"755", 0o755, true},
		{"000", 0, true},
		{"-rwxr-x--x", 0o751, true},
		{"drw-r--r--", 0o644, true},
		{"-rwxrwxrwt", 0o777 | fs.ModeSticky, true},
		{"-rwxrwxrwT", 0o776 | fs.ModeSticky, true},
		{"758", 0, false},
		{"75", 0, false},
		{"-rwxr-x--z", 0, false},
		{"-rwtr-x--x", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := parsePermissions(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parsePermissions(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestPlanChecksEveryPathFirst(t *testing.T) {
	t.Parallel()
	ops := func(o ...workflow.FSOp) *workflow.FS { return &workflow.FS{Ops: o} }
	tests := []struct {
		name string
		body *workflow.FS
		code string
	}{
		{"name node without scheme", &workflow.FS{NameNode: "namenode-host"}, "FS001"},
		{"host:port reads as a scheme", &workflow.FS{NameNode: "nn:8020"}, "E0904"},
		{"later path without scheme", ops(workflow.FSOp{Op: "mkdir", Path: "hdfs://nn/a"}, workflow.FSOp{Op: "delete", Path: "/b"}), "FS001"},
		{"bad mask", ops(workflow.FSOp{Op: "chmod", Path: "hdfs://nn/a", Permissions: "rwx"}), "FS010"},
		{"move across filesystems", ops(workflow.FSOp{Op: "move", Source: "hdfs://nn/a", Target: "hdfs://nn2/b"}), "FS007"},
		{"bad replication", ops(workflow.FSOp{Op: "setrep", Path: "hdfs://nn/a", ReplicationFactor: "x"}), "NumberFormatException"},
		{"chgrp without group", ops(workflow.FSOp{Op: "chgrp", Path: "hdfs://nn/a"}), "Exception"},
	}
	for _, tt := range tests {
		if _, err := plan(tt.body, checkSchemes(t, "hdfs", "file"), "alice"); codeOf(err) != tt.code {
			t.Errorf("%s: plan error %v, want %s", tt.name, err, tt.code)
		}
	}
	got, err := plan(&workflow.FS{NameNode: "hdfs://nn:8020", Ops: []workflow.FSOp{
		{Op: "chmod", Path: "/a", Permissions: "750", DirFiles: "false", Recursive: true},
		{Op: "delete", Path: "/b", SkipTrash: "false"},
		{Op: "setrep", Path: "/c"}, // no factor: skipped, as in Oozie
		{Op: "move", Source: "/d", Target: "/e"},
	}}, checkSchemes(t, "hdfs", "file"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].perm != 0o750 || got[0].dirFiles || !got[0].recursive || got[1].skipTrash ||
		got[2].path.String() != "hdfs://nn:8020/d" || got[2].target.String() != "hdfs://nn:8020/e" {
		t.Errorf("plan = %+v", got)
	}
}
