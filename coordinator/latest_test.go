package coordinator

import (
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/gozie/gozie/oozietime"
)

// fileExists is the ExistsFunc of the tests: a real check of file:// URIs on the local
// filesystem, as the engine's local-filesystem backend does.
func fileExists(uri string) (bool, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return false, err
	}
	_, err = os.Stat(u.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// mkdirs creates directories (and _SUCCESS files when the path ends with it) under root.
func mkdirs(t testing.TB, root string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		full := filepath.Join(root, filepath.FromSlash(p))
		if filepath.Base(full) == "_SUCCESS" {
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(full, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// fileContext returns B0 with its dataset on the local filesystem under a fresh directory.
func fileContext(t testing.TB) (*ELContext, string) {
	t.Helper()
	root := t.TempDir()
	c := b0(t)
	c.Dataset.URITemplate = "file://" + filepath.ToSlash(root) + "/${YEAR}/${MONTH}/${DAY}"
	c.Exists = fileExists
	return c, root
}

func TestLatestAndFuture(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id   string
		dirs []string
		expr string
		want string
		err  bool
	}{
		{"L1 newer than the nominal time", []string{"2009/09/10"}, "${coord:latest(0)}", "2009-09-10T23:59Z", false},
		{"latest(-1)", []string{"2009/09/10", "2009/09/09"}, "${coord:latest(-1)}", "2009-09-09T23:59Z", false},
		{"L3", []string{"2009/09/10", "2009/09/09", "2009/09/08"}, "${coord:latest(-2)}", "2009-09-08T23:59Z", false},
		{"latest skips gaps", []string{"2009/09/10", "2009/09/05"}, "${coord:latest(-1)}", "2009-09-05T23:59Z", false},
		{"latest unresolved", []string{"2009/09/10"}, "${coord:latest(-100)}", "${coord:latest(-100)}", false},
		{"latestRange newest first", []string{"2009/09/10", "2009/09/08", "2009/09/07"}, "${coord:latestRange(-2, 0)}",
			"2009-09-10T23:59Z#2009-09-08T23:59Z#2009-09-07T23:59Z", false},
		{"L5", []string{"2009/09/10"}, "${coord:latest(1)}", "", true},
		{"future", []string{"2009/09/10", "2009/09/11"}, "${coord:future(1, 20)}", "2009-09-11T23:59Z", false},
		{"future unresolved", []string{"2009/09/10", "2009/09/11"}, "${coord:future(4, 20)}", "${coord:future(4, 20)}", false},
		{"future limit", []string{"2009/09/12"}, "${coord:future(0, 2)}", "${coord:future(0, 2)}", false},
		{"futureRange oldest first", []string{"2009/09/09", "2009/09/12", "2009/09/13"}, "${coord:futureRange(0, 2, 10)}",
			"2009-09-09T23:59Z#2009-09-12T23:59Z#2009-09-13T23:59Z", false},
		{"L7", []string{"2009/09/10"}, "${coord:future(-1, 3)}", "", true},
		{"future limit must be positive", []string{"2009/09/10"}, "${coord:future(1, 0)}", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			c, root := fileContext(t)
			mkdirs(t, root, tc.dirs...)
			got, err := c.EvalString(PhaseActionStart, tc.expr)
			if tc.err {
				if err == nil {
					t.Fatalf("%s = %q, want an error", tc.expr, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("%s = %q, want %q", tc.expr, got, tc.want)
			}
		})
	}
}

func TestLatestFutureLazy(t *testing.T) {
	t.Parallel()
	// L11: daily (1440 minutes) dataset with the default _SUCCESS done-flag.
	root := t.TempDir()
	c := dsContext(t, 1440, oozietime.Minute, "2009-01-01T00:00Z", "UTC", oozietime.NoUnit, "2009-09-01T00:00Z")
	c.Action.ActualTime = utc(t, "2009-09-01T01:00Z")
	c.Dataset.HasDoneFlag = false
	c.Dataset.URITemplate = "file://" + filepath.ToSlash(root) + "/${YEAR}/${MONTH}/${DAY}"
	c.Exists = fileExists
	mkdirs(t, root, "2009/01/02/_SUCCESS", "2009/01/05") // no _SUCCESS: not ready
	got, err := c.EvalString(PhaseActionStart, "${coord:latest(0)} ${coord:latest(-1)}")
	if err != nil || got != "2009-01-02T00:00Z ${coord:latest(-1)}" {
		t.Fatalf("latest: %q, %v", got, err)
	}
	mkdirs(t, root, "2009/09/04/_SUCCESS", "2009/09/05/_SUCCESS")
	got, err = c.EvalString(PhaseActionStart, "${coord:future(1, 30)}")
	if err != nil || got != "2009-09-05T00:00Z" {
		t.Fatalf("L11: %q, %v", got, err)
	}
	if !c.resolved || len(c.resolvedURIs) != 1 || c.resolvedURIs[0] != "file://"+filepath.ToSlash(root)+"/2009/09/05" {
		t.Fatalf("L11 resolved URIs %v (resolved %v)", c.resolvedURIs, c.resolved)
	}
}
