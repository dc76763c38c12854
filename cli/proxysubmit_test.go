package cli

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/testenv/minidfs"
)

// proxyCLIFixture is the CLI fixture with a MiniDFS for the applications the server writes
// for proxy submissions, and joe's library directory on it.
type proxyCLIFixture struct {
	*cliFixture
	dfs *minidfs.MiniDFS
}

func newProxyCLIFixture(t *testing.T) *proxyCLIFixture {
	t.Helper()
	return &proxyCLIFixture{cliFixture: newCLIFixture(t), dfs: jobstest.StartDFS(t, "joe")}
}

// props writes a new .properties file with the cluster's addresses, joe's library path (as a
// bare path, which the CLI qualifies) and extra lines.
func (f *proxyCLIFixture) props(t *testing.T, extra ...string) string {
	t.Helper()
	lines := append([]string{"fs.default.name=" + f.dfs.URI(), "yarn.resourcemanager.address=127.0.0.1:8032",
		"oozie.libpath=/user/joe/lib"}, extra...)
	file, err := os.CreateTemp(f.dir, "job-*.properties")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := file.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
		t.Fatal(err)
	}
	return file.Name()
}

// submitted returns the job of a `job: <id>` line and checks the CLI printed nothing else.
func (f *proxyCLIFixture) submitted(t *testing.T, out string) store.WorkflowJob {
	t.Helper()
	id, ok := strings.CutPrefix(strings.TrimSuffix(out, "\n"), "job: ")
	if !ok || strings.Contains(id, "\n") {
		t.Fatalf("printed %q, want one job: line", out)
	}
	return f.job(t, id)
}

// local is the MiniDFS file behind a path of an hdfs URI on it.
func (f *proxyCLIFixture) local(uri string) string {
	return filepath.Join(f.dfs.Root(), filepath.FromSlash(strings.TrimPrefix(uri, f.dfs.URI())))
}

func TestProxyMapReduce(t *testing.T) {
	t.Parallel()
	f := newProxyCLIFixture(t)
	props := f.props(t, "mapred.mapper.class=org.example.SampleMapper", "mapreduce.reduce.class=org.example.SampleReducer",
		"mapred.input.dir=/user/joe/in")
	out := f.mustRun(t, "mapreduce", "-config", props, "-D", "mapred.output.dir=/user/joe/out", "-Dmapreduce.job.queuename=etl")
	job := f.submitted(t, out)
	if job.Status != store.WorkflowRunning || job.AppName != "oozie-mapreduce" || job.User != "joe" {
		t.Errorf("job %s %s %s", job.Status, job.AppName, job.User)
	}
	stored, err := conf.ReadConfigurationXML(strings.NewReader(job.Conf), "conf")
	if err != nil {
		t.Fatal(err)
	}
	if got := stored.Value("oozie.libpath"); got != f.dfs.URI()+"/user/joe/lib" {
		t.Errorf("oozie.libpath %q, want it qualified with the name node", got)
	}
	def := f.mustRun(t, "job", "-definition", job.ID)
	golden(t, "proxy_mapreduce_definition", def, map[string]string{f.dfs.URI(): "${NAMENODE}"})
}

func TestProxyHive(t *testing.T) {
	t.Parallel()
	f := newProxyCLIFixture(t)
	script := f.writeFile(t, "script.q", "DROP TABLE IF EXISTS test;\r\nINSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT * FROM test;")
	out := f.mustRun(t, "hive", "-file", script, "-config", f.props(t), "-P", "OUTPUT=/user/joe/out", "-PINPUT=/user/joe/in",
		"-X", "-Dhive.exec.scratchdir=/tmp/joe", "--verbose=true", "-v")
	job := f.submitted(t, out)
	if job.Status != store.WorkflowRunning || job.AppName != "oozie-hive" {
		t.Errorf("job %s %s", job.Status, job.AppName)
	}
	def := f.mustRun(t, "job", "-definition", job.ID)
	golden(t, "proxy_hive_definition", def, map[string]string{f.dfs.URI(): "${NAMENODE}"})
	written, err := os.ReadFile(filepath.Join(f.local(job.AppPath), "dummy.hive"))
	if err != nil {
		t.Fatal(err)
	}
	// Lines end with a newline, as Oozie's client reads them; the server trims the value.
	if want := "DROP TABLE IF EXISTS test;\nINSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT * FROM test;"; string(written) != want {
		t.Errorf("script %q, want %q", written, want)
	}

	// -e gives the statements inline (a gozie extension); without -X the lists are empty.
	out = f.mustRun(t, "hive", "-e", "SELECT 1;", "-config", f.props(t))
	job = f.submitted(t, out)
	written, err = os.ReadFile(filepath.Join(f.local(job.AppPath), "dummy.hive"))
	if err != nil || string(written) != "SELECT 1;" {
		t.Errorf("script %q (%v)", written, err)
	}
	stored, err := conf.ReadConfigurationXML(strings.NewReader(job.Conf), "conf")
	if err != nil {
		t.Fatal(err)
	}
	if stored.Value("oozie.hive.options.size") != "0" || stored.Value("oozie.hive.script.params.size") != "0" ||
		stored.Value("oozie.proxysubmission") != "true" {
		t.Errorf("stored configuration %s", job.Conf)
	}
}

// TestProxyPig checks `gozie pig` sends what Oozie's CLI sends: the script's text, its -P
// parameters and the -X options; the server writes the script as dummy.pig beside a
// generated pig action, in Oozie's form.
func TestProxyPig(t *testing.T) {
	t.Parallel()
	f := newProxyCLIFixture(t)
	script := f.writeFile(t, "script.pig", "A = LOAD '$INPUT';\r\nSTORE A INTO '$OUTPUT';")
	out := f.mustRun(t, "pig", "-file", script, "-config", f.props(t), "-P", "INPUT=/user/joe/in", "-POUTPUT=/user/joe/out",
		"-X", "-Dpig.tmpfilecompression=false", "-param_file", "p.properties")
	job := f.submitted(t, out)
	if job.Status != store.WorkflowRunning || job.AppName != "oozie-pig" || job.User != "joe" {
		t.Errorf("job %s %s %s", job.Status, job.AppName, job.User)
	}
	def := f.mustRun(t, "job", "-definition", job.ID)
	golden(t, "proxy_pig_definition", def, map[string]string{f.dfs.URI(): "${NAMENODE}"})
	written, err := os.ReadFile(filepath.Join(f.local(job.AppPath), "dummy.pig"))
	if want := "A = LOAD '$INPUT';\nSTORE A INTO '$OUTPUT';"; err != nil || string(written) != want {
		t.Errorf("script %q (%v), want %q", written, err, want)
	}
	stored, err := conf.ReadConfigurationXML(strings.NewReader(job.Conf), "conf")
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"oozie.pig.options.size": "3", "oozie.pig.options.1": "-param_file",
		"oozie.pig.options.2": "p.properties", "oozie.pig.script.params.size": "2", "oozie.proxysubmission": "true"} {
		if got := stored.Value(k); got != want {
			t.Errorf("stored %s = %q, want %q", k, got, want)
		}
	}
}

// TestProxySqoop checks `gozie sqoop` sends the command one argument per line and the -X
// options, and the server turns them into a sqoop action's <arg>s and <configuration>.
func TestProxySqoop(t *testing.T) {
	t.Parallel()
	f := newProxyCLIFixture(t)
	out := f.mustRun(t, "sqoop", "-command", "import", "--connect", "jdbc:postgresql://db/shop", "--table", "orders",
		"--target-dir", "/user/joe/orders", "-config", f.props(t), "-X", "-Dmapreduce.job.queuename=etl")
	job := f.submitted(t, out)
	if job.Status != store.WorkflowRunning || job.AppName != "oozie-sqoop" {
		t.Errorf("job %s %s", job.Status, job.AppName)
	}
	def := f.mustRun(t, "job", "-definition", job.ID)
	golden(t, "proxy_sqoop_definition", def, map[string]string{f.dfs.URI(): "${NAMENODE}"})
	stored, err := conf.ReadConfigurationXML(strings.NewReader(job.Conf), "conf")
	if err != nil {
		t.Fatal(err)
	}
	// Oozie's client ends every argument with a newline; the server trims the value.
	if got, want := stored.Value("oozie.sqoop.command"), "import\n--connect\njdbc:postgresql://db/shop\n--table\norders\n--target-dir\n/user/joe/orders"; got != want {
		t.Errorf("oozie.sqoop.command %q, want %q", got, want)
	}
}

// TestProxyCLIErrors checks the client-side checks of the proxy verbs, which Oozie's CLI
// makes before it calls the server.
func TestProxyCLIErrors(t *testing.T) {
	t.Parallel()
	f := newProxyCLIFixture(t)
	script := f.writeFile(t, "script.q", "SELECT 1;\n")
	mr := []string{"mapred.mapper.class=M", "mapred.reducer.class=R", "mapred.input.dir=/in", "mapred.output.dir=/out"}
	noRM := f.writeFile(t, "no-rm.properties", "fs.default.name="+f.dfs.URI()+"\noozie.libpath=/user/joe/lib\n")
	tests := []struct {
		name string
		args []string
		want string // stderr
	}{
		{"hive without -file", []string{"hive", "-config", f.props(t)}, "Error: Need to specify -file <scriptfile>\n"},
		{"hive with -file and -e", []string{"hive", "-file", script, "-e", "SELECT 2;", "-config", f.props(t)},
			"Error: Give -file <scriptfile> or -e <statements>, not both\n"},
		{"hive without -config", []string{"hive", "-file", script}, "Error: Need to specify -config <configfile>\n"},
		{"hive with a stray argument", []string{"hive", "-file", script, "-config", f.props(t), "extra", "-X", "-v"},
			"Error: Unrecognized option: extra Expecting -X\n"},
		{"script missing", []string{"hive", "-file", script + ".nope", "-config", f.props(t)},
			"Error: script file [" + script + ".nope] does not exist\n"},
		{"no resource manager", []string{"pig", "-file", script, "-config", noRM}, "Error: Resource manager is not specified in conf\n"},
		{"no name node", []string{"hive", "-file", script, "-config", f.props(t), "-D", "fs.default.name="},
			"Error: namenode is not specified in conf\n"},
		{"relative libpath", []string{"hive", "-file", script, "-config", f.props(t), "-D", "oozie.libpath=lib"},
			"Error: libpath should be absolute\n"},
		{"sqoop without -command", []string{"sqoop", "-config", f.props(t)}, "Error: Need to specify -command\n"},
		{"sqoop without -config", []string{"sqoop", "-command", "import"}, "Error: Need to specify -config <configfile>\n"},
		{"mapreduce without a mapper", []string{"mapreduce", "-config", f.props(t, mr[1:]...)},
			"Error: mapper (mapred.mapper.class or mapreduce.map.class) must be specified in conf\n"},
		{"mapreduce without a reducer", []string{"mapreduce", "-config", f.props(t, mr[0], mr[2], mr[3])},
			"Error: reducer (mapred.reducer.class or mapreduce.reduce.class) must be specified in conf\n"},
		{"mapreduce without an output", []string{"mapreduce", "-config", f.props(t, mr[:3]...)},
			"Error: output dir (mapred.output.dir) must be specified in conf\n"},
		{"mapreduce without libpath", []string{"mapreduce", "-config", f.props(t, mr...), "-D", "oozie.libpath="},
			"Error: libpath is not specified in conf\n"},
		{"mapreduce without configuration", []string{"mapreduce"}, "Error: configuration is not specified\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := f.run(t, tt.args...)
			if code != 255 || out != "" || errOut != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want 255 and %q", code, out, errOut, tt.want)
			}
		})
	}
	if n := f.countJobs(t); n != 0 {
		t.Errorf("%d jobs stored", n)
	}
}

// TestParseProxy checks how the pig, hive and sqoop verbs split their arguments.
func TestParseProxy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		args         []string
		sqoop        bool
		command      []string
		pass, params []string
		config       string
	}{
		{name: "-X passes the rest through", args: []string{"-config", "c", "-X", "-Dk=v", "-config", "x"},
			pass: []string{"-Dk=v", "-config", "x"}, config: "c"},
		{name: "no -X", args: []string{"-PA=1", "-P", "B=2", "-config", "c"}, pass: []string{}, params: []string{"A=1", "B=2"}, config: "c"},
		{name: "sqoop command up to the next option", sqoop: true,
			args:    []string{"-Dq=1", "-command", "import", "--connect", "jdbc:x", "-m", "1", "--query", "SELECT $C", "-config", "c", "-X", "-Dy=2"},
			command: []string{"import", "--connect", "jdbc:x", "-m", "1", "--query", "SELECT $C"}, pass: []string{"-Dy=2"}, config: "c"},
		{name: "sqoop command ended by -D", sqoop: true, args: []string{"-command", "list-tables", "-Dk=v"},
			command: []string{"list-tables"}, pass: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var f proxyFlags
			f.register(fs, !tt.sqoop)
			var command []string
			var cmd *[]string
			if tt.sqoop {
				cmd = &command
			}
			pass, err := parseProxy(fs, tt.args, cmd)
			if err != nil {
				t.Fatal(err)
			}
			var params []string
			for k, v := range f.params.props.All() {
				params = append(params, k+"="+v)
			}
			if !slices.Equal(pass, tt.pass) || !slices.Equal(command, tt.command) || !slices.Equal(params, tt.params) || f.config != tt.config {
				t.Errorf("pass %q, command %q, params %q, config %q", pass, command, params, f.config)
			}
		})
	}
}

// countJobs returns how many workflow jobs are stored.
func (f *proxyCLIFixture) countJobs(t *testing.T) int {
	t.Helper()
	var n int
	err := f.Store.Tx(context.Background(), func(x store.Tx) error {
		_, total, err := x.ListWorkflowJobs(context.Background(), store.JobFilter{})
		n = total
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
