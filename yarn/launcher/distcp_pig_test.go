package launcher

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDistcpCommand: `hadoop distcp -conf <action configuration> args...`
// with <java-opts> in HADOOP_CLIENT_OPTS after the container's.
func TestDistcpCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeScript(t, dir, "hadoop", "#!/bin/sh\n", 0o755)
	f := newFiles(dir)
	spec := &Spec{Type: TypeDistcp, Distcp: &DistcpSpec{JavaOpts: "-Xmx1g", Args: []string{"-update", "/a", "/b"}}}
	c, err := distcpCommand(spec, []string{"PATH=" + dir, "HADOOP_CLIENT_OPTS=-Dx=1"}, f, time.UnixMilli(1))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"hadoop", "distcp", "-conf", f.actionConf, "-update", "/a", "/b"}; !slices.Equal(c.args, want) {
		t.Errorf("args %q, want %q", c.args, want)
	}
	if !slices.Contains(c.env, "HADOOP_CLIENT_OPTS=-Dx=1 -Xmx1g") {
		t.Errorf("env %q lacks the java-opts", c.env)
	}
}

// TestPigCommand: `pig -propertyFile pig.properties -file <script> -param
// k=v... args...`, with the action configuration written as
// pig.properties (Java properties, escaped).
func TestPigCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeScript(t, dir, "pig", "#!/bin/sh\n", 0o755)
	f := newFiles(dir)
	spec := &Spec{Type: TypePig, Conf: map[string]string{"mapreduce.job.tags": "t-child", "odd key": "a=b:c"},
		Pig: &PigSpec{Script: "id.pig", Params: []string{"IN=/a", "OUT=/b=c"}, Args: []string{"-verbose"}}}
	c, err := pigCommand(spec, []string{"PATH=" + dir}, f, time.UnixMilli(1))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"pig", "-propertyFile", pigProperties, "-file", "id.pig", "-param", "IN=/a", "-param", "OUT=/b=c", "-verbose"}
	if !slices.Equal(c.args, want) {
		t.Errorf("args %q, want %q", c.args, want)
	}
	b, err := os.ReadFile(filepath.Join(dir, pigProperties))
	if err != nil || !strings.Contains(string(b), "mapreduce.job.tags=t-child") || !strings.Contains(string(b), `odd\ key=a\=b\:c`) {
		t.Errorf("pig.properties %q, %v", b, err)
	}
}

// TestDistcpPigSpecsAndOutput: the specs' checks, and what the launcher
// reads from the tools' output: Pig's HadoopJobId lines and DistCp's end
// line name the jobs, the last one is the run's new id.
func TestDistcpPigSpecsAndOutput(t *testing.T) {
	t.Parallel()
	dir := `"actionDir":"hdfs://nn/a"`
	for _, tt := range []struct{ json, err string }{
		{`{"version":1,"type":"distcp",` + dir + `}`, "a distcp action needs distcp"},
		{`{"version":1,"type":"pig",` + dir + `,"pig":{"script":""}}`, "a pig action needs pig.script"},
		{`{"version":1,"type":"pig",` + dir + `,"pig":{"script":"../x.pig"}}`, "must be a relative link name"},
		{`{"version":1,"type":"pig",` + dir + `,"pig":{"script":"x.pig","params":["NOEQ"]}}`, "is not NAME=VALUE"},
		{`{"version":1,"type":"pig",` + dir + `,"pig":{"script":"x.pig","params":["A=1"]}}`, ""},
		{`{"version":1,"type":"distcp",` + dir + `,"distcp":{"args":["/a","/b"]}}`, ""},
	} {
		_, err := ParseSpec([]byte(tt.json))
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: error %v, want %q", tt.json, err, tt.err)
		}
	}
	sc := &outputScanner{}
	w := sc.stream(true)
	w.Write([]byte("INFO ...MapReduceLauncher - HadoopJobId: job_1700000000000_0004\n" +
		"INFO mapreduce.Job: Job job_1700000000000_0005 completed successfully\n"))
	w.flush()
	if got := sc.childApps(); !slices.Equal(got, []string{"application_1700000000000_0004", "application_1700000000000_0005"}) {
		t.Errorf("children %q", got)
	}
	if got := lastChild(sc); got != "application_1700000000000_0005" {
		t.Errorf("last child %q", got)
	}
	if got := toolError(&Spec{Type: TypeDistcp}, &outputScanner{}, 25); got != "Main Class [hadoop distcp], exit code [25]" {
		t.Errorf("tool error %q", got)
	}
}
