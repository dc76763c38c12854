package jobs_test

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/testenv/minidfs"
)

// proxyFixture is the jobs fixture with a MiniDFS as the name node of proxy submissions,
// holding joe's library directory.
type proxyFixture struct {
	*fixture
	dfs *minidfs.MiniDFS
}

func setupProxy(t *testing.T) *proxyFixture {
	t.Helper()
	return &proxyFixture{fixture: setup(t), dfs: jobstest.StartDFS(t, "joe", "bob")}
}

// mrConf is a proxy map-reduce configuration as Oozie's CLI sends it, with pairs added or
// (with an empty value) removed.
func (f *proxyFixture) mrConf(t *testing.T, pairs ...string) string {
	t.Helper()
	p := conf.NewProperties("user.name", "joe", "fs.default.name", f.dfs.URI(), "yarn.resourcemanager.address", "127.0.0.1:8032",
		"mapred.mapper.class", "org.example.SampleMapper", "mapred.reducer.class", "org.example.SampleReducer",
		"mapred.input.dir", "/user/joe/in", "mapred.output.dir", "/user/joe/out",
		"oozie.libpath", f.dfs.URI()+"/user/joe/lib", "oozie.proxysubmission", "true")
	return f.edit(t, p, pairs)
}

// hiveConf is a proxy hive configuration as Oozie's CLI sends it, edited like mrConf.
func (f *proxyFixture) hiveConf(t *testing.T, pairs ...string) string {
	t.Helper()
	p := conf.NewProperties("user.name", "joe", "fs.default.name", f.dfs.URI(), "yarn.resourcemanager.address", "127.0.0.1:8032",
		"oozie.libpath", f.dfs.URI()+"/user/joe/lib", "oozie.proxysubmission", "true",
		"oozie.hive.script", "INSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT * FROM test;\n",
		"oozie.hive.script.params.size", "1", "oozie.hive.script.params.0", "OUTPUT=/user/joe/out",
		"oozie.hive.options.size", "1", "oozie.hive.options.0", "-Dhive.exec.scratchdir=/tmp/joe")
	return f.edit(t, p, pairs)
}

// pigConf is a proxy pig configuration as Oozie's CLI sends it, edited like mrConf.
func (f *proxyFixture) pigConf(t *testing.T, pairs ...string) string {
	t.Helper()
	p := conf.NewProperties("user.name", "joe", "fs.default.name", f.dfs.URI(), "yarn.resourcemanager.address", "127.0.0.1:8032",
		"oozie.libpath", f.dfs.URI()+"/user/joe/lib", "oozie.proxysubmission", "true",
		"oozie.pig.script", "A = LOAD '$INPUT';\nSTORE A INTO '$OUTPUT';\n",
		"oozie.pig.script.params.size", "2", "oozie.pig.script.params.0", "INPUT=/user/joe/in",
		"oozie.pig.script.params.1", "OUTPUT=/user/joe/out",
		"oozie.pig.options.size", "2", "oozie.pig.options.0", "-Dpig.tmpfilecompression=false", "oozie.pig.options.1", "-verbose")
	return f.edit(t, p, pairs)
}

// sqoopConf is a proxy sqoop configuration as Oozie's CLI sends it, edited like mrConf.
func (f *proxyFixture) sqoopConf(t *testing.T, pairs ...string) string {
	t.Helper()
	p := conf.NewProperties("user.name", "joe", "fs.default.name", f.dfs.URI(), "yarn.resourcemanager.address", "127.0.0.1:8032",
		"oozie.libpath", f.dfs.URI()+"/user/joe/lib", "oozie.proxysubmission", "true",
		"oozie.sqoop.command", "import\n--connect\njdbc:postgresql://db/shop\n--table\nT\n",
		"oozie.sqoop.options.size", "2", "oozie.sqoop.options.0", "-Dmapreduce.job.queuename=default", "oozie.sqoop.options.1", "-verbose")
	return f.edit(t, p, pairs)
}

func (f *proxyFixture) edit(t *testing.T, p *conf.Properties, pairs []string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			p.Delete(pairs[i])
		} else {
			p.Set(pairs[i], pairs[i+1])
		}
	}
	var b strings.Builder
	if err := conf.WriteConfigurationXML(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// proxyDirs lists the application directories written below the proxy directory of user.
func (f *proxyFixture) proxyDirs(t *testing.T, user string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(f.dfs.Root(), "user", user, "gozie-sys", "proxy"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// countJobs returns how many workflow jobs are stored.
func (f *fixture) countJobs(t *testing.T) int {
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

// TestProxySubmit submits proxy map-reduce and hive jobs and checks the stored, started
// job and the application written for it.
func TestProxySubmit(t *testing.T) {
	t.Parallel()
	f := setupProxy(t)
	tests := []struct {
		name, path, body string
		user             string
		appName, node    string
		wantDef          []string // parts of the definition
		noDef            []string // parts the definition must not have
		script           string   // the dummy.hive or dummy.pig written, for hive and pig
	}{
		{name: "mapreduce", path: "/oozie/v1/jobs?jobtype=mapreduce", body: f.mrConf(t), user: "joe",
			appName: "oozie-mapreduce", node: "mapreduce1",
			wantDef: []string{`<job-tracker>127.0.0.1:8032</job-tracker>`, `<name-node>` + f.dfs.URI() + `</name-node>`,
				"<name>mapred.mapper.class</name>\n          <value>org.example.SampleMapper</value>"}},
		{name: "mapreduce with old property names and action=start", path: "/oozie/v2/jobs?jobtype=mapreduce&action=start",
			body: f.mrConf(t, "yarn.resourcemanager.address", "", "mapred.job.tracker", "jt:8021",
				"fs.default.name", "", "fs.defaultFS", f.dfs.URI()), user: "joe",
			appName: "oozie-mapreduce", node: "mapreduce1",
			wantDef: []string{`<job-tracker>jt:8021</job-tracker>`, `<name-node>` + f.dfs.URI() + `</name-node>`}},
		{name: "hive", path: "/oozie/v1/jobs?jobtype=hive", body: f.hiveConf(t), user: "joe",
			appName: "oozie-hive", node: "hive1",
			wantDef: []string{`<hive xmlns="uri:oozie:hive-action:0.5">`, `<script>dummy.hive</script>`,
				`<param>OUTPUT=/user/joe/out</param>`, "<name>hive.exec.scratchdir</name>"},
			script: "INSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT * FROM test;"}, // values are trimmed, as Oozie trims them
		{name: "the request's user wins", path: "/oozie/v1/jobs?jobtype=hive&user.name=bob", body: f.hiveConf(t), user: "bob",
			appName: "oozie-hive", node: "hive1", wantDef: []string{`<script>dummy.hive</script>`},
			script: "INSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT * FROM test;"}, // values are trimmed, as Oozie trims them
		{name: "pig", path: "/oozie/v1/jobs?jobtype=pig", body: f.pigConf(t), user: "joe",
			appName: "oozie-pig", node: "pig1",
			wantDef: []string{"<pig>\n      <job-tracker>127.0.0.1:8032</job-tracker>", `<script>dummy.pig</script>`,
				"<name>pig.tmpfilecompression</name>\n          <value>false</value>",
				"<param>INPUT=/user/joe/in</param>\n      <param>OUTPUT=/user/joe/out</param>\n      <argument>-verbose</argument>"},
			script: "A = LOAD '$INPUT';\nSTORE A INTO '$OUTPUT';"},
		{name: "sqoop", path: "/oozie/v2/jobs?jobtype=sqoop&action=start", body: f.sqoopConf(t), user: "joe",
			appName: "oozie-sqoop", node: "sqoop1",
			wantDef: []string{`<sqoop xmlns="uri:oozie:sqoop-action:0.4">`, "<name>mapreduce.job.queuename</name>",
				"<arg>import</arg>\n      <arg>--connect</arg>\n      <arg>jdbc:postgresql://db/shop</arg>\n" +
					"      <arg>--table</arg>\n      <arg>T</arg>\n    </sqoop>"},
			noDef: []string{"-verbose", "<arg/>"}}, // options that are not -D go nowhere, as in Oozie
		{name: "variables resolved", path: "/oozie/v1/jobs?jobtype=mapreduce",
			body: f.mrConf(t, "nameNode", f.dfs.URI(), "fs.default.name", "${nameNode}", "mapred.output.dir", "${nameNode}/user/joe/out"),
			user: "joe", appName: "oozie-mapreduce", node: "mapreduce1",
			wantDef: []string{`<name-node>` + f.dfs.URI() + `</name-node>`, "<value>" + f.dfs.URI() + "/user/joe/out</value>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.call(t, http.MethodPost, tt.path, "application/xml;charset=UTF-8", tt.body)
			if r.status != http.StatusCreated {
				t.Fatalf("status %d %s %s", r.status, r.header.Get(server.HeaderErrorMessage), r.body)
			}
			var out struct{ ID string }
			decode(t, r.body, &out)
			job := f.workflowJob(t, out.ID)
			prefix := f.dfs.URI() + "/user/" + tt.user + "/gozie-sys/proxy/" + strings.TrimSuffix(tt.node, "1") + "-20250127-091857-"
			if job.Status != store.WorkflowRunning || job.AppName != tt.appName || job.User != tt.user || !strings.HasPrefix(job.AppPath, prefix) {
				t.Fatalf("job %s %s app %s user %s path %s; want RUNNING %s %s below %s", job.ID, job.Status, job.AppName, job.User,
					job.AppPath, tt.appName, tt.user, prefix)
			}
			stored, err := conf.ReadConfigurationXML(strings.NewReader(job.Conf), "conf")
			if err != nil {
				t.Fatal(err)
			}
			if stored.Value("oozie.proxysubmission") != "true" || stored.Value("oozie.wf.application.path") != job.AppPath {
				t.Errorf("stored configuration: proxysubmission %q, app path %q", stored.Value("oozie.proxysubmission"),
					stored.Value("oozie.wf.application.path"))
			}
			local := filepath.Join(f.dfs.Root(), strings.TrimPrefix(job.AppPath, f.dfs.URI()))
			written, err := os.ReadFile(filepath.Join(local, "workflow.xml"))
			if err != nil {
				t.Fatal(err)
			}
			def := f.call(t, http.MethodGet, "/oozie/v2/job/"+job.ID+"?show=definition", "", "")
			if def.body != string(written) || job.Definition != string(written) {
				t.Errorf("show=definition\n%s\ndiffers from the written workflow.xml\n%s", def.body, written)
			}
			for _, part := range append(tt.wantDef, `name="`+tt.appName+`"`, `<action name="`+tt.node+`">`) {
				if !strings.Contains(string(written), part) {
					t.Errorf("definition lacks %q:\n%s", part, written)
				}
			}
			for _, part := range tt.noDef {
				if strings.Contains(string(written), part) {
					t.Errorf("definition has %q:\n%s", part, written)
				}
			}
			for _, lang := range []string{"hive", "pig"} {
				want := ""
				if tt.node == lang+"1" {
					want = tt.script
				}
				script, err := os.ReadFile(filepath.Join(local, "dummy."+lang))
				if want == "" && !errors.Is(err, fs.ErrNotExist) || want != "" && string(script) != want {
					t.Errorf("dummy.%s %q (%v), want %q", lang, script, err, want)
				}
			}
			err = f.Store.Tx(context.Background(), func(x store.Tx) error {
				a, err := x.GetWorkflowAction(context.Background(), job.ID+"@"+tt.node)
				if err == nil && a.Type != strings.TrimSuffix(strings.Replace(tt.node, "mapreduce", "map-reduce", 1), "1") {
					t.Errorf("action %s has type %s", a.ID, a.Type)
				}
				return err
			})
			if err != nil {
				t.Errorf("action %s: %v", tt.node, err)
			}
		})
	}
}

// TestProxySubmitRefused checks the refusals of proxy submissions: each answers its Oozie
// error and leaves neither a job nor an application directory behind.
func TestProxySubmitRefused(t *testing.T) {
	t.Parallel()
	f := setupProxy(t)
	missingLib := f.dfs.URI() + "/user/joe/nolib"
	tests := []struct {
		name, path, body string
		status           int
		code, msg        string
	}{
		{"no pig script", "/oozie/v1/jobs?jobtype=pig", f.pigConf(t, "oozie.pig.script", " "), 400, "E0401",
			"E0401: Missing configuration property [oozie.pig.script]"},
		{"pig option naming nothing", "/oozie/v1/jobs?jobtype=pig", f.pigConf(t, "oozie.pig.options.1", "-D=x"), 400, "E0303",
			"E0303: Invalid parameter value, [oozie.pig.options.1] = [-D=x]"},
		{"missing pig parameter", "/oozie/v1/jobs?jobtype=pig", f.pigConf(t, "oozie.pig.script.params.size", "3"), 400, "E0401",
			"E0401: Missing configuration property [oozie.pig.script.params.2]"},
		{"no sqoop command", "/oozie/v2/jobs?jobtype=sqoop&action=start", f.sqoopConf(t, "oozie.sqoop.command", ""), 400, "E0401",
			"E0401: Missing configuration property [oozie.sqoop.command]"},
		{"bad sqoop option count", "/oozie/v1/jobs?jobtype=sqoop", f.sqoopConf(t, "oozie.sqoop.options.size", "-1"), 400, "E0303",
			"E0303: Invalid parameter value, [oozie.sqoop.options.size] = [-1]"},
		{"sqoop without libpath", "/oozie/v1/jobs?jobtype=sqoop", f.sqoopConf(t, "oozie.libpath", ""), 400, "E0405",
			"E0405: Submission request does not have any application or lib path"},
		{"unknown job type", "/oozie/v1/jobs?jobtype=spark", f.mrConf(t), 400, "E0303", "E0303: Invalid parameter value, [jobtype] = [spark]"},
		{"empty job type", "/oozie/v1/jobs?jobtype=", f.mrConf(t), 400, "E0303", "E0303: Invalid parameter value, [jobtype] = []"},
		{"not XML", "/oozie/v1/jobs?jobtype=mapreduce", "", 400, "E0300", "E0300: Invalid content-type [text/plain]"},
		{"no user", "/oozie/v1/jobs?jobtype=mapreduce", f.mrConf(t, "user.name", ""), 400, "E0401",
			"E0401: Missing configuration property [user.name]"},
		{"user that is a path", "/oozie/v1/jobs?jobtype=mapreduce", f.mrConf(t, "user.name", "../../tmp"), 400, "E0303",
			"E0303: Invalid parameter value, [user.name] = [../../tmp]"},
		{"no libpath", "/oozie/v1/jobs?jobtype=mapreduce", f.mrConf(t, "oozie.libpath", ""), 400, "E0405",
			"E0405: Submission request does not have any application or lib path"},
		{"libpath missing", "/oozie/v1/jobs?jobtype=hive", f.hiveConf(t, "oozie.libpath", missingLib+",/x"), 400, "E0504",
			"E0504: App directory [" + missingLib + "] does not exist"},
		{"coordinator path", "/oozie/v1/jobs?jobtype=mapreduce", f.mrConf(t, "oozie.coord.application.path", f.dfs.URI()+"/user/joe/lib"),
			400, "E0401", "E0401: Missing configuration property [oozie.wf.application.path]"},
		{"no resource manager", "/oozie/v1/jobs?jobtype=mapreduce", f.mrConf(t, "yarn.resourcemanager.address", ""), 400, "E0401",
			"E0401: Missing configuration property [yarn.resourcemanager.address or mapred.job.tracker]"},
		{"no name node", "/oozie/v1/jobs?jobtype=hive", f.hiveConf(t, "fs.default.name", ""), 400, "E0401",
			"E0401: Missing configuration property [fs.default.name or fs.defaultFS]"},
		{"name node not a URI", "/oozie/v1/jobs?jobtype=mapreduce", f.mrConf(t, "fs.default.name", "localhost:8020"), 400, "E0303",
			"E0303: Invalid parameter value, [fs.default.name] = [localhost:8020]"},
		{"libpath missing with an app path", "/oozie/v1/jobs?jobtype=mapreduce",
			f.mrConf(t, "oozie.libpath", "", "oozie.wf.application.path", f.dfs.URI()+"/user/joe/lib"), 400, "E0401",
			"E0401: Missing configuration property [oozie.libpath]"},
		{"no hive script", "/oozie/v1/jobs?jobtype=hive", f.hiveConf(t, "oozie.hive.script", " "), 400, "E0401",
			"E0401: Missing configuration property [oozie.hive.script]"},
		{"bad option count", "/oozie/v1/jobs?jobtype=hive", f.hiveConf(t, "oozie.hive.options.size", "x"), 400, "E0303",
			"E0303: Invalid parameter value, [oozie.hive.options.size] = [x]"},
		{"missing parameter", "/oozie/v1/jobs?jobtype=hive", f.hiveConf(t, "oozie.hive.script.params.size", "2"), 400, "E0401",
			"E0401: Missing configuration property [oozie.hive.script.params.1]"},
		{"unknown action", "/oozie/v1/jobs?jobtype=hive&action=go", f.hiveConf(t), 400, "E0303",
			"E0303: Invalid parameter value, [action] = [go]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct := "application/xml"
			if tt.body == "" {
				ct = "text/plain"
			}
			r := f.call(t, http.MethodPost, tt.path, ct, tt.body)
			checkError(t, r, tt.status, tt.code, tt.msg)
		})
	}
	if n := f.countJobs(t); n != 0 {
		t.Errorf("refused submissions stored %d jobs", n)
	}
	if dirs := f.proxyDirs(t, "joe"); len(dirs) != 0 {
		t.Errorf("refused submissions left application directories %v", dirs)
	}
}

// TestProxySubmitDryRun checks that action=dryrun checks a proxy submission without
// writing or storing anything.
func TestProxySubmitDryRun(t *testing.T) {
	t.Parallel()
	f := setupProxy(t)
	for jobType, body := range map[string]string{"mapreduce": f.mrConf(t), "hive": f.hiveConf(t), "pig": f.pigConf(t), "sqoop": f.sqoopConf(t)} {
		r := f.call(t, http.MethodPost, "/oozie/v1/jobs?action=dryrun&jobtype="+jobType, "application/xml", body)
		if r.status != http.StatusCreated || strings.TrimSpace(r.body) != `{"id":"OK"}` {
			t.Errorf("dry run of %s: %d %s %s", jobType, r.status, r.header.Get(server.HeaderErrorMessage), r.body)
		}
	}
	r := f.call(t, http.MethodPost, "/oozie/v1/jobs?action=dryrun&jobtype=hive", "application/xml", f.hiveConf(t, "oozie.hive.script", ""))
	checkError(t, r, 400, "E0401", "E0401: Missing configuration property [oozie.hive.script]")
	if n, dirs := f.countJobs(t), f.proxyDirs(t, "joe"); n != 0 || len(dirs) != 0 {
		t.Errorf("dry runs stored %d jobs and wrote %v", n, dirs)
	}
}

// TestProxySubmitCleansUp checks that a submission failing after its application was
// written removes it again: when the application cannot be written, and when the job
// cannot be stored.
func TestProxySubmitCleansUp(t *testing.T) {
	t.Parallel()
	t.Run("unwritable", func(t *testing.T) {
		t.Parallel()
		f := setupProxy(t)
		// A file where the proxy directory should be.
		sys := filepath.Join(f.dfs.Root(), "user", "joe", "gozie-sys")
		if err := os.MkdirAll(sys, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sys, "proxy"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := f.call(t, http.MethodPost, "/oozie/v1/jobs?jobtype=hive", "application/xml", f.hiveConf(t))
		if r.status != http.StatusInternalServerError || r.header.Get(server.HeaderErrorCode) != "E0307" ||
			!strings.Contains(r.header.Get(server.HeaderErrorMessage), "writing the proxy application") {
			t.Errorf("answer %d %s %s", r.status, r.header.Get(server.HeaderErrorCode), r.header.Get(server.HeaderErrorMessage))
		}
		if n := f.countJobs(t); n != 0 {
			t.Errorf("%d jobs stored", n)
		}
	})
	t.Run("store fails", func(t *testing.T) {
		t.Parallel()
		f := setupProxy(t)
		if err := f.Store.Close(); err != nil {
			t.Fatal(err)
		}
		r := f.call(t, http.MethodPost, "/oozie/v1/jobs?jobtype=mapreduce", "application/xml", f.mrConf(t))
		if r.status != http.StatusInternalServerError {
			t.Errorf("answer %d %s", r.status, r.header.Get(server.HeaderErrorMessage))
		}
		if dirs := f.proxyDirs(t, "joe"); len(dirs) != 0 {
			t.Errorf("the failed submission left %v", dirs)
		}
	})
}
