package conf

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeSite writes a Hadoop configuration file with the given name/value pairs into dir.
// A name prefixed with "final:" is written as a final property.
func writeSite(t *testing.T, dir, file string, kv ...string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<configuration>\n")
	for i := 0; i+1 < len(kv); i += 2 {
		name, final := strings.CutPrefix(kv[i], "final:")
		b.WriteString("  <property><name>" + name + "</name><value>" + kv[i+1] + "</value>")
		if final {
			b.WriteString("<final>true</final>")
		}
		b.WriteString("</property>\n")
	}
	b.WriteString("</configuration>\n")
	if err := os.WriteFile(filepath.Join(dir, file), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadHadoopHA(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeSite(t, dir, "core-site.xml",
		"fs.defaultFS", "hdfs://mycluster",
		"hadoop.security.authentication", "Kerberos",
		"final:locked", "core")
	writeSite(t, dir, "hdfs-site.xml",
		"dfs.namenode.kerberos.principal", "nn/_HOST@EXAMPLE.COM",
		"locked", "hdfs")
	writeSite(t, dir, "yarn-site.xml",
		"yarn.resourcemanager.ha.enabled", "true",
		"yarn.resourcemanager.ha.rm-ids", " rm1, rm2 ,",
		"yarn.resourcemanager.hostname.rm1", "host1",
		"yarn.resourcemanager.hostname.rm2", "host2",
		"yarn.resourcemanager.webapp.address.rm1", "${yarn.resourcemanager.hostname.rm1}:18088",
		"yarn.resourcemanager.principal", "rm/_HOST@EXAMPLE.COM")
	h, err := LoadHadoop(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Files) != 3 {
		t.Errorf("Files = %q, want the three site files", h.Files)
	}
	checks := []struct{ name, got, want string }{
		{"DefaultFS", h.DefaultFS(), "hdfs://mycluster"},
		{"SecurityAuthentication", h.SecurityAuthentication(), "kerberos"},
		{"NameNodePrincipal", h.NameNodePrincipal(), "nn/_HOST@EXAMPLE.COM"},
		{"ResourceManagerPrincipal", h.ResourceManagerPrincipal(), "rm/_HOST@EXAMPLE.COM"},
		{"final kept", h.GetDefault("locked", ""), "core"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if !h.Kerberos() {
		t.Error("Kerberos() = false")
	}
	if got := h.RMHAIDs(); !reflect.DeepEqual(got, []string{"rm1", "rm2"}) {
		t.Errorf("RMHAIDs = %q", got)
	}
	// rm1 has an explicit (expanded) address, rm2 falls back to its hostname.
	if got, want := h.ResourceManagerWebAppURLs(), []string{"http://host1:18088", "http://host2:8088"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ResourceManagerWebAppURLs = %q, want %q", got, want)
	}
	if got, want := h.SchedulerAddresses(), []string{"host1:8030", "host2:8030"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SchedulerAddresses = %q, want %q", got, want)
	}
	if m := h.Map(); m["yarn.resourcemanager.webapp.address.rm1"] != "host1:18088" {
		t.Errorf("Map does not expand: %q", m["yarn.resourcemanager.webapp.address.rm1"])
	}
	if raw, _ := h.Raw("yarn.resourcemanager.webapp.address.rm1"); !strings.Contains(raw, "${") {
		t.Errorf("Raw expanded the value: %q", raw)
	}
}

func TestHadoopDefaultsAndFallbacks(t *testing.T) {
	t.Parallel()
	env := map[string]string{"RM_HOST": "envhost"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		name    string
		props   []string
		fs      string
		auth    string
		webapps []string
		rms     []string
	}{
		{
			name: "empty", fs: "file:///", auth: "simple",
			webapps: []string{"http://0.0.0.0:8088"}, rms: []string{"0.0.0.0:8032"},
		},
		{
			name:  "old fs name and hostname",
			props: []string{"fs.default.name", "hdfs://old:9000", "yarn.resourcemanager.hostname", "rm"},
			fs:    "hdfs://old:9000", auth: "simple",
			webapps: []string{"http://rm:8088"}, rms: []string{"rm:8032"},
		},
		{
			name: "https only and env reference",
			props: []string{"yarn.http.policy", "HTTPS_ONLY", "yarn.resourcemanager.hostname", "${env.RM_HOST}",
				"yarn.resourcemanager.address", "${yarn.resourcemanager.hostname}:9032"},
			fs: "file:///", auth: "simple",
			webapps: []string{"https://envhost:8090"}, rms: []string{"envhost:9032"},
		},
		{
			name:  "rm-ids ignored without ha",
			props: []string{"yarn.resourcemanager.ha.rm-ids", "rm1,rm2", "yarn.resourcemanager.webapp.address", "single:8088"},
			fs:    "file:///", auth: "simple",
			webapps: []string{"http://single:8088"}, rms: []string{"0.0.0.0:8032"},
		},
		{
			name:  "unbound reference kept",
			props: []string{"fs.defaultFS", "hdfs://${nn.host}:8020"},
			fs:    "hdfs://${nn.host}:8020", auth: "simple",
			webapps: []string{"http://0.0.0.0:8088"}, rms: []string{"0.0.0.0:8032"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := NewHadoop(NewProperties(tt.props...), lookup)
			if got := h.DefaultFS(); got != tt.fs {
				t.Errorf("DefaultFS = %q, want %q", got, tt.fs)
			}
			if got := h.SecurityAuthentication(); got != tt.auth {
				t.Errorf("SecurityAuthentication = %q, want %q", got, tt.auth)
			}
			if got := h.ResourceManagerWebAppURLs(); !reflect.DeepEqual(got, tt.webapps) {
				t.Errorf("ResourceManagerWebAppURLs = %q, want %q", got, tt.webapps)
			}
			if got := h.ResourceManagerAddresses(); !reflect.DeepEqual(got, tt.rms) {
				t.Errorf("ResourceManagerAddresses = %q, want %q", got, tt.rms)
			}
		})
	}
}

func TestLoadHadoopErrors(t *testing.T) {
	t.Parallel()
	if _, err := LoadHadoop(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing directory: no error")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "yarn-site.xml"), []byte("<configuration>\n<oops/>\n</configuration>"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadHadoop(dir)
	if err == nil || !strings.Contains(err.Error(), "yarn-site.xml:2:") {
		t.Errorf("error = %v, want it to name yarn-site.xml line 2", err)
	}
	h, err := LoadHadoop("")
	if err != nil || h.DefaultFS() != "file:///" || len(h.Files) != 0 {
		t.Errorf("LoadHadoop(\"\") = %+v, %v", h, err)
	}
}

func TestHadoopConfDir(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HADOOP_CONF_DIR": "/etc/hadoop/conf", "HADOOP_HOME": "/opt/h"}, "/etc/hadoop/conf"},
		{map[string]string{"HADOOP_CONF_DIR": "", "HADOOP_HOME": "/opt/h"}, filepath.Join("/opt/h", "etc", "hadoop")},
		{map[string]string{}, ""},
	}
	for _, tt := range tests {
		got := HadoopConfDir(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
		if got != tt.want {
			t.Errorf("HadoopConfDir(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}
