package daemon

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/yarn/launcher"
)

// TestLaunchConfigTakesTheClusterClasspath: the launch executors get
// yarn.application.classpath from the server's Hadoop configuration, and
// Hadoop's cross-platform default when the configuration has none.
func TestLaunchConfigTakesTheClusterClasspath(t *testing.T) {
	t.Parallel()
	cfg, err := conf.Load(conf.Sources{ConfigDir: t.TempDir(), LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	site := `<configuration><property><name>yarn.application.classpath</name>` +
		`<value>$HADOOP_CONF_DIR, /usr/hdp/current/hadoop-client/*</value></property></configuration>`
	if err := os.WriteFile(filepath.Join(dir, "yarn-site.xml"), []byte(site), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		dir  string
		want []string
	}{
		{dir, []string{"$HADOOP_CONF_DIR", "/usr/hdp/current/hadoop-client/*"}},
		{"", conf.DefaultYARNApplicationClasspath},
	} {
		hc, err := conf.LoadHadoop(tt.dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := launchConfig(cfg, hc, launcher.TypeJava).Classpath; !slices.Equal(got, tt.want) {
			t.Errorf("conf dir %q: Classpath = %q, want %q", tt.dir, got, tt.want)
		}
	}
}
