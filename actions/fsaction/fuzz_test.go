package fsaction

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/gozie/gozie/hadoop"
)

// FuzzParseURI checks that a parsed path renders back to the same parts.
func FuzzParseURI(f *testing.F) {
	for _, s := range []string{"hdfs://nn:8020/a/b", "file:///tmp/x*", "/a/{b,c}", "rel", "hdfs:", "x:y:z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u := parseURI(s)
		if u.scheme != "" && (!hadoop.ValidScheme(u.scheme) || u.scheme != strings.ToLower(u.scheme)) {
			t.Fatalf("scheme %q of %q", u.scheme, s)
		}
		if strings.Contains(u.authority, "/") {
			t.Fatalf("authority %q of %q holds a slash", u.authority, s)
		}
		if u.scheme == "" || u.path == "" || strings.HasPrefix(u.path, "/") {
			if again := parseURI(u.String()); again != u {
				t.Fatalf("%q parses to %+v, rendered %q parses to %+v", s, u, u.String(), again)
			}
		}
	})
}

// FuzzParsePermissions checks that accepted masks hold permission bits only.
func FuzzParsePermissions(f *testing.F) {
	for _, s := range []string{"755", "-rwxr-x--t", "drwxrwxrwT", "9", "-rwxr-x--"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, ok := parsePermissions(s)
		if !ok {
			if m != 0 {
				t.Fatalf("refused %q with mode %v", s, m)
			}
			return
		}
		if m&^(fs.ModePerm|fs.ModeSticky) != 0 {
			t.Fatalf("%q gives %v", s, m)
		}
	})
}
