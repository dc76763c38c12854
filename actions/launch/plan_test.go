package launch

import (
	"errors"
	"slices"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn/launcher"
)

func TestQualify(t *testing.T) {
	t.Parallel()
	const root, base = "hdfs://nn:8020", "hdfs://nn:8020/user/alice/app"
	tests := []struct{ in, want string }{
		{"run.sh", base + "/run.sh"},
		{"bin/run.sh", base + "/bin/run.sh"},
		{"/common/lib.jar", root + "/common/lib.jar"},
		{"hdfs://other:8020/x.zip", "hdfs://other:8020/x.zip"},
	}
	for _, tt := range tests {
		if got := qualify(tt.in, root, base); got != tt.want {
			t.Errorf("qualify(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got, err := fsRoot("", "hdfs://nn:8020/user/alice/x"); err != nil || got != "hdfs://nn:8020" {
		t.Errorf("fsRoot from the action dir = %q, %v", got, err)
	}
	if got, err := fsRoot("hdfs://ns1", "hdfs://nn:8020/x"); err != nil || got != "hdfs://ns1" {
		t.Errorf("fsRoot from the name node = %q, %v", got, err)
	}
	if _, err := fsRoot("nn:8020", "/bare"); err == nil {
		t.Error("fsRoot without any URI should fail")
	}
}

func TestJavaOpts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		h      workflow.Hadoop
		props  map[string]string
		j      workflow.Java
		memory int
		want   []string
	}{
		{"heap from the container size", workflow.Hadoop{}, nil, workflow.Java{JavaOpts: " -Da=1  -Db=2 "}, 1024,
			[]string{"-Xmx768m", "-Da=1", "-Db=2"}},
		{"java-opt entries stay whole", workflow.Hadoop{}, nil, workflow.Java{JavaOpt: []string{"-Dx=a b", " "}}, 400,
			[]string{"-Xmx300m", "-Dx=a b"}},
		{"user heap wins", workflow.Hadoop{Launcher: &workflow.Launcher{JavaOpts: "-Xmx1g"}}, nil, workflow.Java{JavaOpts: "-Dc=3"}, 2048,
			[]string{"-Xmx1g", "-Dc=3"}},
		{"launcher opts from the configuration", workflow.Hadoop{}, map[string]string{propLauncherJO: "-Xmx256m -verbose:gc"}, workflow.Java{}, 2048,
			[]string{"-Xmx256m", "-verbose:gc"}},
	}
	for _, tt := range tests {
		if got := javaOpts(&tt.h, tt.props, tt.memory, &tt.j); !slices.Equal(got, tt.want) {
			t.Errorf("%s: javaOpts = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSizeLauncher(t *testing.T) {
	t.Parallel()
	cfg := Config{Queue: "default", MemoryMB: 2048, VCores: 1}
	tests := []struct {
		name     string
		launcher *workflow.Launcher
		props    map[string]string
		queue    string
		mem, vc  int
		code     string
	}{
		{"defaults", nil, nil, "default", 2048, 1, ""},
		{"properties", nil, map[string]string{propMemory: "1024", propVCores: "2", propQueueMR: "etl"}, "etl", 1024, 2, ""},
		{"element wins", &workflow.Launcher{MemoryMB: "512", Queue: "adhoc"}, map[string]string{propMemory: "1024", propQueue: "etl"}, "adhoc", 512, 1, ""},
		{"not a number", nil, map[string]string{propVCores: "two"}, "", 0, 0, codeBadNumber},
		{"zero", &workflow.Launcher{MemoryMB: "0"}, nil, "", 0, 0, codeBadNumber},
	}
	for _, tt := range tests {
		p := &plan{hadoop: &workflow.Hadoop{Launcher: tt.launcher}}
		err := p.sizeLauncher(cfg, tt.props)
		if tt.code != "" {
			var ee *actions.ExecError
			if !errors.As(err, &ee) || ee.Code != tt.code {
				t.Errorf("%s: error %v, want %s", tt.name, err, tt.code)
			}
			continue
		}
		if err != nil || p.queue != tt.queue || p.memoryMB != tt.mem || p.vcores != tt.vc {
			t.Errorf("%s: queue %q memory %d vcores %d, %v", tt.name, p.queue, p.memoryMB, p.vcores, err)
		}
	}
}

func TestLauncherEnv(t *testing.T) {
	t.Parallel()
	p := &plan{hadoop: &workflow.Hadoop{Launcher: &workflow.Launcher{Env: "A=1, B=x=y ,"}}, env: map[string]string{}}
	if err := p.launcherEnv(map[string]string{propEnv: "IGNORED=1"}); err != nil {
		t.Fatal(err)
	}
	if len(p.env) != 2 || p.env["A"] != "1" || p.env["B"] != "x=y" {
		t.Errorf("env %v", p.env)
	}
	bad := &plan{hadoop: &workflow.Hadoop{}, env: map[string]string{}}
	if err := bad.launcherEnv(map[string]string{propEnv: "NOVALUE"}); actions.KindOf(err) != actions.ActionFailed {
		t.Errorf("bad launcher env: %v", err)
	}
}

func TestCheckLink(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"run.sh", "dir/run.sh", "a..b"} {
		if err := checkLink(ok); err != nil {
			t.Errorf("checkLink(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"..", "../x", "/etc/passwd", "__gozie_launcher__", "__gozie_launch__.json", "a/../../b"} {
		if err := checkLink(bad); err == nil {
			t.Errorf("checkLink(%q) accepted", bad)
		}
	}
}

// TestPlanJavaClasspath: a java action's CLASSPATH is the working directory
// and its jars, then the cluster's yarn.application.classpath, or Hadoop's
// cross-platform default when the configuration has none, joined with the
// NodeManager's <CPS>. Other action types get no CLASSPATH.
func TestPlanJavaClasspath(t *testing.T) {
	t.Parallel()
	body := `<java xmlns="uri:oozie:workflow:0.5"><main-class>org.example.Main</main-class></java>`
	tests := []struct {
		name  string
		props []string
		want  string
	}{
		{"default", nil, "{{PWD}}<CPS>{{PWD}}/*<CPS>{{HADOOP_CONF_DIR}}" +
			"<CPS>{{HADOOP_COMMON_HOME}}/share/hadoop/common/*<CPS>{{HADOOP_COMMON_HOME}}/share/hadoop/common/lib/*" +
			"<CPS>{{HADOOP_HDFS_HOME}}/share/hadoop/hdfs/*<CPS>{{HADOOP_HDFS_HOME}}/share/hadoop/hdfs/lib/*" +
			"<CPS>{{HADOOP_YARN_HOME}}/share/hadoop/yarn/*<CPS>{{HADOOP_YARN_HOME}}/share/hadoop/yarn/lib/*"},
		{"configured", []string{"yarn.application.classpath", "/etc/hadoop/conf, /usr/lib/hadoop/*"},
			"{{PWD}}<CPS>{{PWD}}/*<CPS>/etc/hadoop/conf<CPS>/usr/lib/hadoop/*"},
	}
	for _, tt := range tests {
		cp := conf.NewHadoop(conf.NewProperties(tt.props...), nil).YARNApplicationClasspath()
		p, err := planFor(t, launcher.TypeJava, body, func(c *Config) { c.Classpath = cp })
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := p.env["CLASSPATH"]; got != tt.want {
			t.Errorf("%s: CLASSPATH = %q, want %q", tt.name, got, tt.want)
		}
	}
	shell := `<shell xmlns="uri:oozie:shell-action:1.0"><exec>true</exec></shell>`
	p, err := planFor(t, launcher.TypeShell, shell, func(c *Config) { c.Classpath = []string{"/x/*"} })
	if err != nil {
		t.Fatal(err)
	}
	if cp, ok := p.env["CLASSPATH"]; ok {
		t.Errorf("a shell action got CLASSPATH %q", cp)
	}
}
