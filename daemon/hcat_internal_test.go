package daemon

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/gozie/gozie/conf"
)

// TestHCatConfiguration: on a Kerberized cluster the metastore's
// principal comes from hive-site.xml in the Hadoop configuration
// directory; without it there is no hcat checker (hcat datasets then wait
// with "No FileSystem for scheme"); a simple cluster needs none.
func TestHCatConfiguration(t *testing.T) {
	t.Parallel()
	write := func(dir, name string, props map[string]string) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := conf.WriteConfigurationXML(f, conf.PropertiesFromMap(props)); err != nil {
			t.Fatal(err)
		}
	}
	log := slog.New(slog.DiscardHandler)
	kerberized := t.TempDir()
	write(kerberized, "core-site.xml", map[string]string{"hadoop.security.authentication": "kerberos"})
	h, err := conf.LoadHadoop(kerberized)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := newHCat(h, nil, log); err != nil || d != nil {
		t.Errorf("Kerberized without a metastore principal: %v, %v; want no checker", d, err)
	}
	if hcatDatasets(nil) != nil {
		t.Error("a nil checker is not a nil interface")
	}
	write(kerberized, hiveSite, map[string]string{"hive.metastore.kerberos.principal": "hive/_HOST@TEST.LOCAL"})
	if p, err := metastorePrincipal(h); err != nil || p != "hive/_HOST@TEST.LOCAL" {
		t.Errorf("principal %q, %v", p, err)
	}
	simple, err := conf.LoadHadoop(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if d, err := newHCat(simple, nil, log); err != nil || d == nil {
		t.Errorf("simple cluster: %v, %v", d, err)
	}
}
