package bundle

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/gozie/gozie/internal/testapps"
)

// bundleEntry is one coordinator entry of a bundle example as it resolves with the
// example's job.properties (user.name joe).
type bundleEntry struct {
	name, appPath string
	critical      bool
	conf          []string // the entry's configuration, name/value pairs
}

// bundleExample is the bundle example of one source, resolved.
type bundleExample struct {
	name    string
	entries []bundleEntry
}

// bundleExamples: gozie's bundle runs the aggregator app twice, an hour each, the first
// entry critical and naming coordinator.xml, the second the app's directory; Oozie's runs
// its aggregator once for two hours.
var bundleExamples = map[string]bundleExample{
	testapps.Gozie: {name: "clicks-bundle", entries: []bundleEntry{
		{name: "clicks-first-hour", appPath: "hdfs://localhost:8020/user/joe/examples/apps/aggregator/coordinator.xml",
			critical: true, conf: []string{"start", "2010-01-01T02:00Z", "end", "2010-01-01T03:00Z"}},
		{name: "clicks-second-hour", appPath: "hdfs://localhost:8020/user/joe/examples/apps/aggregator",
			conf: []string{"start", "2010-01-01T03:00Z", "end", "2010-01-01T04:00Z"}},
	}},
	testapps.Oozie: {name: "bundle-app", entries: []bundleEntry{
		{name: "coord-1", appPath: "hdfs://localhost:8020/user/joe/examples/apps/aggregator/coordinator.xml",
			conf: []string{"start", "2010-01-01T01:00Z", "end", "2010-01-01T03:00Z"}},
	}},
}

// TestParseExamples parses every bundle among the example apps (gozie's, and Oozie's when
// GOZIE_OOZIE_EXAMPLES names them) and resolves it with its job.properties, as a
// submission would.
func TestParseExamples(t *testing.T) {
	t.Parallel()
	testapps.Each(t, parseExamples)
}

// parseExamples is TestParseExamples on the apps under root.
func parseExamples(t *testing.T, root string) {
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
