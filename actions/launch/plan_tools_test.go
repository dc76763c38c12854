package launch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// planFor plans one run of body in a local application directory; nothing
// is staged or submitted.
func planFor(t *testing.T, typ, body string, adjust func(*Config)) (*plan, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "workflow.xml"), []byte("<workflow-app/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///"})
	if err != nil {
		t.Fatal(err)
	}
	yc, err := yarn.NewClient(yarn.Config{Addresses: []string{"http://127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Type: typ, YARN: yc, FS: fs, Binary: "/bin/true"}
	if adjust != nil {
		adjust(&cfg)
	}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	key := "0000001-250101000000000-gozie-W@node#0.0"
	return e.makePlan(context.Background(), &actions.Attempt{
		ActionID: "0000001-250101000000000-gozie-W@node", JobID: "0000001-250101000000000-gozie-W", Node: "node",
		Type: typ, Key: key, Tag: yarn.ActionTag(key), User: "alice", AppPath: "file://" + dir, Body: body,
		NameNode: "file:///", CallbackURL: "http://gozie/callback?id=x&status=", ActionDir: "file://" + dir + "/action",
	})
}

func TestPlanHive(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body     string
		script, query  string
		files          []string
		params, args   []string
		url, engine    string
		confKey, value string
	}{
		{name: "0.2 with job-tracker",
			body: `<hive xmlns="uri:oozie:hive-action:0.2"><job-tracker>rm:8032</job-tracker><name-node>file:///</name-node>` +
				`<configuration><property><name>oozie.hive2.jdbc.url</name><value>jdbc:hive2://conf:1/db</value></property></configuration>` +
				`<script>sql/script.q</script><param>A=1</param></hive>`,
			script: "script.q", files: []string{"sql/script.q#script.q"}, params: []string{"A=1"},
			url: "jdbc:hive2://conf:1/db", engine: "tez"},
		{name: "0.5 with arguments and engine", body: `<hive xmlns="uri:oozie:hive-action:0.5"><job-tracker>rm</job-tracker><name-node>file:///</name-node>` +
			`<configuration><property><name>hive.execution.engine</name><value>mr</value></property></configuration>` +
			`<script>s.q#renamed.q</script><argument>--silent=true</argument></hive>`,
			script: "renamed.q", files: []string{"s.q#renamed.q"}, args: []string{"--silent=true"}, url: "jdbc:hive2://default:1/x", engine: "mr"},
		{name: "1.0 query", body: `<hive xmlns="uri:oozie:hive-action:1.0"><query>SELECT 1</query></hive>`,
			query: "SELECT 1", url: "jdbc:hive2://default:1/x", engine: "tez"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planFor(t, "hive", tt.body, func(c *Config) { c.HiveJDBCURL = "jdbc:hive2://default:1/x" })
			if err != nil {
				t.Fatal(err)
			}
			h := p.spec.Hive
			if h.Script != tt.script || h.Query != tt.query || h.JDBCURL != tt.url || !slices.Equal(h.Params, tt.params) ||
				!slices.Equal(h.Args, tt.args) || !slices.Equal(p.files, tt.files) {
				t.Errorf("spec %+v files %v", h, p.files)
			}
			tag := p.spec.ChildTag
			if h.HiveConf["hive.execution.engine"] != tt.engine || h.HiveConf["tez.application.tags"] != tag ||
				h.HiveConf["mapreduce.job.tags"] != tag || h.HiveConf["oozie.hive2.jdbc.url"] != "" || h.HiveConf["oozie.action.id"] != "" {
				t.Errorf("hiveconf %v", h.HiveConf)
			}
			if err := p.spec.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestPlanMapReduce(t *testing.T) {
	t.Parallel()
	p, err := planFor(t, "map-reduce", `<map-reduce xmlns="uri:oozie:workflow:0.5"><job-tracker>rm</job-tracker><name-node>file:///</name-node>`+
		`<streaming><mapper>/bin/cat</mapper><reducer>/usr/bin/wc -l</reducer><env>A=1</env><env>B=2</env></streaming>`+
		`<configuration><property><name>mapred.input.dir</name><value>/in</value></property></configuration></map-reduce>`, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := p.spec.Conf
	want := map[string]string{
		"stream.map.streamprocessor": "/bin/cat", "stream.reduce.streamprocessor": "/usr/bin/wc -l",
		"oozie.streaming.mapper": "/bin/cat", "stream.addenvironment": "A=1 B=2", "mapred.input.dir": "/in",
		"mapreduce.job.tags":                 p.spec.ChildTag + "," + ChildCommonTag,
		"mapreduce.job.end-notification.url": "http://gozie/callback?id=x&status=$jobStatus",
		"job.end.notification.url":           "http://gozie/callback?id=x&status=$jobStatus",
		"mapreduce.job.name":                 "gozie:action:T=map-reduce:A=node:ID=0000001-250101000000000-gozie-W",
	}
	for k, v := range want {
		if c[k] != v {
			t.Errorf("job conf %s = %q, want %q", k, c[k], v)
		}
	}
	if p.spec.MapReduce == nil || p.spec.Validate() != nil {
		t.Errorf("spec %+v", p.spec)
	}
	for _, body := range []string{
		`<map-reduce xmlns="uri:oozie:workflow:0.5"><job-tracker>rm</job-tracker><name-node>file:///</name-node><config-class>a.B</config-class></map-reduce>`,
		`<map-reduce xmlns="uri:oozie:workflow:0.5"><job-tracker>rm</job-tracker><name-node>file:///</name-node><pipes><program>p</program></pipes></map-reduce>`,
	} {
		if _, err := planFor(t, "map-reduce", body, nil); actions.KindOf(err) != actions.ActionError || !strings.Contains(err.Error(), codeUnsupported) {
			t.Errorf("%s: %v, want %s", body, err, codeUnsupported)
		}
	}
	if _, err := planFor(t, "hive", `<map-reduce xmlns="uri:oozie:workflow:0.5"/>`, nil); actions.KindOf(err) != actions.ActionFailed {
		t.Errorf("a map-reduce body on the hive executor: %v", err)
	}
}
