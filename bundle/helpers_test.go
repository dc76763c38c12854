package bundle

import (
	"os"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozietime"
)

// testFormat is the default processing time zone, UTC.
var testFormat = oozietime.UTC

// readProps reads a job.properties file as the engine would see it: user.name set (to
// joe) and property-to-property substitution done.
func readProps(t *testing.T, path string) *conf.Properties {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := conf.ReadProperties(f, path)
	if err != nil {
		t.Fatal(err)
	}
	p.Set("user.name", "joe")
	p, err = conf.Substitute(p, conf.DefaultSubstituteDepth)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// props builds a configuration from name/value pairs.
func props(kv ...string) *conf.Properties {
	return conf.NewProperties(kv...)
}

// readFile reads a file, failing the test on error.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
