package bundle

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// referenceApps is Oozie's example apps directory beside the repository.
func referenceApps(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "shared", "oozie-reference", "examples", "apps"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Oozie's example apps are missing at %s", dir)
		}
		t.Skipf("Oozie's example apps not found at %s", dir)
	}
	return dir
}

// TestParseExamples parses every bundle among Oozie's example apps and resolves it with
// its job.properties, as a submission would.
func TestParseExamples(t *testing.T) {
	t.Parallel()
	root := referenceApps(t)
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".xml" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("uri:oozie:bundle:")) {
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("no bundle among the example apps")
	}
	for _, path := range found {
		t.Run(filepath.Base(filepath.Dir(path)), func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			app, err := Parse(b)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if len(app.Coordinators) == 0 {
				t.Fatalf("%s: no coordinator", path)
			}
			props := readProps(t, filepath.Join(filepath.Dir(path), "job.properties"))
			job, err := Resolve(app, Request{Conf: props})
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, c := range job.Coordinators {
				if c.Name == "" || c.AppPath == "" || !c.Enabled {
					t.Errorf("%s: coordinator %+v", path, c)
				}
			}
			again, err := LoadJob(job.DefinitionXML(testFormat), job.Conf, testFormat)
			if err != nil {
				t.Fatalf("reading back the resolved definition: %v", err)
			}
			if again.Name != job.Name || len(again.Coordinators) != len(job.Coordinators) {
				t.Errorf("read back %+v, want %+v", again, job)
			}
		})
	}
}
