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

func TestResourceManagers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		props []string
		want  ResourceManagerSet
	}{
		{
			name: "defaults only",
			want: ResourceManagerSet{RMs: []ResourceManagerNames{{Address: "0.0.0.0:8032", WebAppURL: "http://0.0.0.0:8088"}}},
		},
		{
			name:  "one RM by hostname",
			props: []string{"yarn.resourcemanager.hostname", "rm", "yarn.resourcemanager.cluster-id", "ignored-but-kept"},
			want: ResourceManagerSet{ClusterID: "ignored-but-kept",
				RMs: []ResourceManagerNames{{Hostname: "rm", Address: "rm:8032", WebAppURL: "http://rm:8088"}}},
		},
		{
			name: "HA by hostnames, default ports, cluster id",
			props: []string{"yarn.resourcemanager.ha.enabled", "true", "yarn.resourcemanager.ha.rm-ids", "rm1,rm2",
				"yarn.resourcemanager.cluster-id", "yarnRM",
				"yarn.resourcemanager.hostname.rm1", "h1", "yarn.resourcemanager.hostname.rm2", "h2"},
			want: ResourceManagerSet{ClusterID: "yarnRM", HA: true, RMs: []ResourceManagerNames{
				{ID: "rm1", Hostname: "h1", Address: "h1:8032", WebAppURL: "http://h1:8088"},
				{ID: "rm2", Hostname: "h2", Address: "h2:8032", WebAppURL: "http://h2:8088"}}},
		},
		{
			name: "HA by explicit addresses, HTTPS only, the plain address kept",
			props: []string{"yarn.resourcemanager.ha.enabled", "true", "yarn.resourcemanager.ha.rm-ids", "a,b",
				"yarn.http.policy", "HTTPS_ONLY", "yarn.resourcemanager.address", "h1:8050",
				"yarn.resourcemanager.address.a", "h1:8050", "yarn.resourcemanager.address.b", "h2:8050",
				"yarn.resourcemanager.webapp.https.address.a", "h1:8443", "yarn.resourcemanager.hostname.b", "h2"},
			want: ResourceManagerSet{HA: true, Address: "h1:8050", RMs: []ResourceManagerNames{
				{ID: "a", Address: "h1:8050", WebAppURL: "https://h1:8443"},
				{ID: "b", Hostname: "h2", Address: "h2:8050", WebAppURL: "https://h2:8090"}}},
		},
	}
	for _, tt := range tests {
		h := NewHadoop(NewProperties(tt.props...), nil)
		if got := h.ResourceManagers(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: ResourceManagers() =\n%+v, want\n%+v", tt.name, got, tt.want)
		}
		if got, want := h.ResourceManagers().WebAppURLs(), h.ResourceManagerWebAppURLs(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: WebAppURLs = %q, want ResourceManagerWebAppURLs %q", tt.name, got, want)
		}
	}
	dir := t.TempDir()
	h, err := LoadHadoop(dir)
	if err != nil || h.ResourceManagers().ConfDir != dir {
		t.Errorf("ConfDir of a loaded configuration: %v %v", h.ResourceManagers().ConfDir, err)
	}
}

func TestYARNApplicationClasspath(t *testing.T) {
	t.Parallel()
	// Hadoop's cross-platform default, spelled out independently.
	def := []string{"{{HADOOP_CONF_DIR}}",
		"{{HADOOP_COMMON_HOME}}/share/hadoop/common/*", "{{HADOOP_COMMON_HOME}}/share/hadoop/common/lib/*",
		"{{HADOOP_HDFS_HOME}}/share/hadoop/hdfs/*", "{{HADOOP_HDFS_HOME}}/share/hadoop/hdfs/lib/*",
		"{{HADOOP_YARN_HOME}}/share/hadoop/yarn/*", "{{HADOOP_YARN_HOME}}/share/hadoop/yarn/lib/*"}
	tests := []struct {
		name  string
		props []string
		want  []string
	}{
		{"unset", nil, def},
		{"blank, as yarn-default.xml has it", []string{"yarn.application.classpath", "  "}, def},
		{"an HDP-style list over lines", []string{"yarn.application.classpath",
			"$HADOOP_CONF_DIR,\n  /usr/hdp/current/hadoop-client/*,\n  /usr/hdp/current/hadoop-client/lib/*\n"},
			[]string{"$HADOOP_CONF_DIR", "/usr/hdp/current/hadoop-client/*", "/usr/hdp/current/hadoop-client/lib/*"}},
	}
	for _, tt := range tests {
		h := NewHadoop(NewProperties(tt.props...), nil)
		got := h.YARNApplicationClasspath()
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: YARNApplicationClasspath() = %q, want %q", tt.name, got, tt.want)
		}
		got[0] = "changed"
	}
	if DefaultYARNApplicationClasspath[0] != "{{HADOOP_CONF_DIR}}" {
		t.Error("a caller changed the default through the returned slice")
	}
}
