package workflow

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
)

// gitAction is a git action node with the given elements inside <git>.
func gitAction(inner string) string {
	return `<start to="g"/><action name="g"><git xmlns="uri:oozie:git-action:1.0">` + inner +
		`</git><ok to="end"/><error to="end"/></action><end name="end"/>`
}

// TestGitActionParses: the git action's elements in the schema's order
// become a *Git with its Hadoop head.
func TestGitActionParses(t *testing.T) {
	t.Parallel()
	app := mustLoad(t, wf(gitAction(`<resource-manager>rm:8032</resource-manager><name-node>hdfs://nn:8020</name-node>
		<prepare><delete path="hdfs://nn:8020/out"/></prepare>
		<git-uri> https://example.com/repo.git </git-uri><branch>dev</branch><key-path>/user/a/.ssh/id</key-path>
		<destination-uri>/out</destination-uri>
		<configuration><property><name>a</name><value>b</value></property></configuration>`)))
	n := app.Node("g")
	g, ok := n.Action.Body.(*Git)
	if !ok || n.Action.Type != "git" {
		t.Fatalf("body %T, type %q", n.Action.Body, n.Action.Type)
	}
	if g.GitURI != "https://example.com/repo.git" || g.Branch != "dev" || g.KeyPath != "/user/a/.ssh/id" || g.DestinationURI != "/out" {
		t.Errorf("git %+v", g)
	}
	if g.JobTracker != "rm:8032" || g.NameNode != "hdfs://nn:8020" || g.Prepare == nil || len(g.Prepare.Deletes) != 1 {
		t.Errorf("head %+v", g.Hadoop)
	}
	if len(g.Configuration) != 1 || g.Configuration[0].Name != "a" {
		t.Errorf("configuration %+v", g.Configuration)
	}
}

// TestGitActionSchema: what the git-action 1.0 schema refuses is E0701.
func TestGitActionSchema(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, inner, want string }{
		{"no git-uri", `<name-node>hdfs://nn</name-node><destination-uri>/out</destination-uri>`, "git-uri"},
		{"no destination", `<name-node>hdfs://nn</name-node><git-uri>file:///r</git-uri>`, "destination-uri"},
		{"no name-node", `<git-uri>file:///r</git-uri><destination-uri>/out</destination-uri>`, "name-node"},
		{"job-tracker is not in the schema", `<job-tracker>jt</job-tracker><name-node>hdfs://nn</name-node>` +
			`<git-uri>file:///r</git-uri><destination-uri>/out</destination-uri>`, "job-tracker"},
		{"out of order", `<name-node>hdfs://nn</name-node><destination-uri>/out</destination-uri><git-uri>file:///r</git-uri>`, "git-uri"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(wf(gitAction(tt.inner))))
			we := wantCode(t, err, oozieerr.E0701)
			if !strings.Contains(we.Msg, tt.want) {
				t.Errorf("message %q does not name %s", we.Msg, tt.want)
			}
		})
	}
}

// TestGitActionXMLMergesGlobal: the merged body of a git action takes the
// resource manager, name node, job-xml and configuration of <global> and
// still parses, with the action's own configuration winning.
func TestGitActionXMLMergesGlobal(t *testing.T) {
	t.Parallel()
	def := wf(`<global><resource-manager>global-rm</resource-manager><name-node>hdfs://global-nn</name-node>
		<launcher><memory.mb>512</memory.mb></launcher><job-xml>global.xml</job-xml>
		<configuration><property><name>both</name><value>global</value></property></configuration></global>` +
		`<start to="g"/><action name="g"><git xmlns="uri:oozie:git-action:1.0"><name-node>hdfs://own</name-node>
		<git-uri>file:///r</git-uri><destination-uri>/out</destination-uri>
		<configuration><property><name>both</name><value>action</value></property></configuration>
		</git><ok to="end"/><error to="end"/></action><end name="end"/>`)
	app := mustLoad(t, def)
	got, err := app.ActionXML("g", conf.NewProperties("d", "default"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	body, err := ParseBody(got)
	if err != nil {
		t.Fatalf("merged body does not parse: %v\n%s", err, got)
	}
	g := body.(*Git)
	if g.JobTracker != "global-rm" || g.NameNode != "hdfs://own" || !equalStrings(g.JobXMLs, []string{"global.xml"}) {
		t.Errorf("head %+v", g.Hadoop)
	}
	if g.Launcher == nil || g.Launcher.MemoryMB != "512" {
		t.Errorf("launcher %+v", g.Launcher)
	}
	conf := map[string]string{}
	for _, p := range g.Configuration {
		conf[p.Name] = p.Value
	}
	if conf["both"] != "action" || conf["d"] != "default" || g.GitURI != "file:///r" || g.DestinationURI != "/out" {
		t.Errorf("configuration %v, git %+v", conf, g)
	}
}
