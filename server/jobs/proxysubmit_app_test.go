package jobs

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/workflow"
)

// TestGenerateProxyApp compares generated applications with the expected documents in
// testdata/proxy, and reads each back with the workflow parser.
func TestGenerateProxyApp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		jobType string
		props   *conf.Properties
		script  string
		check   func(t *testing.T, body workflow.Body)
	}{
		{
			name: "mapreduce", jobType: ProxyMapReduce,
			props: conf.NewProperties("user.name", "joe", "fs.default.name", "hdfs://nn:8020",
				"yarn.resourcemanager.address", "rm:8032", "fs.defaultFS", "hdfs://nn:8020", "mapreduce.job.user.name", "joe",
				"mapred.mapper.class", "org.example.SampleMapper", "mapred.reducer.class", "org.example.SampleReducer",
				"mapred.input.dir", "/user/joe/in", "mapred.output.dir", "/user/joe/out & <more>",
				"oozie.libpath", "hdfs://nn:8020/user/joe/lib", "oozie.proxysubmission", "true",
				"oozie.files", "/user/joe/input1.txt,/user/joe/input2.txt#my.txt,,hdfs://nn:8020/dir/",
				"oozie.archives", "/user/joe/udf1.jar,/user/joe/udf2.jar#my.jar"),
			check: func(t *testing.T, body workflow.Body) {
				mr, ok := body.(*workflow.MapReduce)
				if !ok {
					t.Fatalf("body %T, want a map-reduce action", body)
				}
				names := make([]string, 0, len(mr.Configuration))
				for _, p := range mr.Configuration {
					names = append(names, p.Name)
				}
				want := []string{"mapred.mapper.class", "mapred.reducer.class", "mapred.input.dir", "mapred.output.dir", "oozie.proxysubmission"}
				if !slices.Equal(names, want) {
					t.Errorf("configuration %v, want %v", names, want)
				}
				if mr.JobTracker != "rm:8032" || mr.NameNode != "hdfs://nn:8020" {
					t.Errorf("job-tracker %q, name-node %q", mr.JobTracker, mr.NameNode)
				}
				if want := []string{"/user/joe/input1.txt#input1.txt", "/user/joe/input2.txt#my.txt", "hdfs://nn:8020/dir/"}; !slices.Equal(mr.Files, want) {
					t.Errorf("files %v, want %v", mr.Files, want)
				}
			},
		},
		{
			name: "mapreduce-minimal", jobType: ProxyMapReduce,
			props: conf.NewProperties("user.name", "joe", "fs.default.name", "hdfs://nn:8020", "mapred.job.tracker", "jt:8021",
				"oozie.libpath", "/user/joe/lib"),
			check: func(t *testing.T, body workflow.Body) {
				if mr := body.(*workflow.MapReduce); mr.JobTracker != "jt:8021" || len(mr.Configuration) != 0 {
					t.Errorf("job-tracker %q, configuration %v", mr.JobTracker, mr.Configuration)
				}
			},
		},
		{
			name: "hive", jobType: ProxyHive,
			props: conf.NewProperties("user.name", "joe", "fs.default.name", "hdfs://nn:8020", "yarn.resourcemanager.address", "rm:8032",
				"oozie.libpath", "hdfs://nn:8020/user/joe/lib",
				"oozie.hive.script", "INSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT * FROM t;\n",
				"oozie.hive.options.size", "4", "oozie.hive.options.0", "-Dmapreduce.job.queuename=etl",
				"oozie.hive.options.1", "-v", "oozie.hive.options.2", "-Dhive.flag", "oozie.hive.options.3", "--silent=true",
				"oozie.hive.script.params.size", "2", "oozie.hive.script.params.0", "OUTPUT=/user/joe/out",
				"oozie.hive.script.params.1", "INPUT=/user/joe/in",
				"oozie.files", "hdfs://nn:8020/user/joe/udf.properties"),
			script: "INSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT * FROM t;\n",
			check: func(t *testing.T, body workflow.Body) {
				h, ok := body.(*workflow.Hive)
				if !ok {
					t.Fatalf("body %T, want a hive action", body)
				}
				if h.Script != ProxyHiveScript || !slices.Equal(h.Params, []string{"OUTPUT=/user/joe/out", "INPUT=/user/joe/in"}) ||
					!slices.Equal(h.Arguments, []string{"-v", "--silent=true"}) {
					t.Errorf("script %q, params %v, arguments %v", h.Script, h.Params, h.Arguments)
				}
				if len(h.Configuration) != 2 || h.Configuration[0].Name != "mapreduce.job.queuename" ||
					h.Configuration[0].Value != "etl" || h.Configuration[1].Name != "hive.flag" || h.Configuration[1].Value != "" {
					t.Errorf("configuration %v", h.Configuration)
				}
			},
		},
		{
			name: "pig", jobType: ProxyPig,
			props: conf.NewProperties("user.name", "joe", "fs.default.name", "hdfs://nn:8020", "yarn.resourcemanager.address", "rm:8032",
				"oozie.libpath", "hdfs://nn:8020/user/joe/lib",
				"oozie.pig.script", "A = LOAD '$INPUT';\nSTORE A INTO '$OUTPUT';\n",
				"oozie.pig.options.size", "3", "oozie.pig.options.0", "-Dpig.tmpfilecompression=false",
				"oozie.pig.options.1", "-verbose", "oozie.pig.options.2", "-Dflag",
				"oozie.pig.script.params.size", "1", "oozie.pig.script.params.0", "INPUT=/user/joe/in",
				"oozie.archives", "/user/joe/udf.jar"),
			script: "A = LOAD '$INPUT';\nSTORE A INTO '$OUTPUT';\n",
			check: func(t *testing.T, body workflow.Body) {
				p, ok := body.(*workflow.Pig)
				if !ok {
					t.Fatalf("body %T, want a pig action", body)
				}
				if p.Script != ProxyPigScript || !slices.Equal(p.Params, []string{"INPUT=/user/joe/in"}) ||
					!slices.Equal(p.Arguments, []string{"-verbose"}) || !slices.Equal(p.Archives, []string{"/user/joe/udf.jar#udf.jar"}) {
					t.Errorf("script %q, params %v, arguments %v, archives %v", p.Script, p.Params, p.Arguments, p.Archives)
				}
				if len(p.Configuration) != 2 || p.Configuration[0].Name != "pig.tmpfilecompression" ||
					p.Configuration[0].Value != "false" || p.Configuration[1].Name != "flag" || p.Configuration[1].Value != "" {
					t.Errorf("configuration %v", p.Configuration)
				}
			},
		},
		{
			name: "sqoop", jobType: ProxySqoop,
			props: conf.NewProperties("user.name", "joe", "fs.default.name", "hdfs://nn:8020", "mapred.job.tracker", "jt:8021",
				"oozie.libpath", "hdfs://nn:8020/user/joe/lib",
				"oozie.sqoop.command", "import\n--connect\njdbc:postgresql://db/shop\n--query\nSELECT * FROM t WHERE $CONDITIONS",
				"oozie.sqoop.options.size", "2", "oozie.sqoop.options.0", "-verbose", "oozie.sqoop.options.1", "-Dmapreduce.job.queuename=etl",
				"oozie.files", "/user/joe/driver.jar"),
			check: func(t *testing.T, body workflow.Body) {
				s, ok := body.(*workflow.Sqoop)
				if !ok {
					t.Fatalf("body %T, want a sqoop action", body)
				}
				want := []string{"import", "--connect", "jdbc:postgresql://db/shop", "--query", "SELECT * FROM t WHERE $CONDITIONS"}
				if s.HasCommand || !slices.Equal(s.Args, want) || !slices.Equal(s.Files, []string{"/user/joe/driver.jar#driver.jar"}) {
					t.Errorf("command %v, args %v, files %v; want args %v", s.HasCommand, s.Args, s.Files, want)
				}
				if len(s.Configuration) != 1 || s.Configuration[0].Name != "mapreduce.job.queuename" || s.Configuration[0].Value != "etl" {
					t.Errorf("configuration %v", s.Configuration)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rm, nn := tt.props.Value(propOf(tt.props, PropResourceManager, PropJobTracker)), "hdfs://nn:8020"
			app, err := generateProxyApp(tt.jobType, tt.props, rm, nn)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", "proxy", tt.name+".xml"))
			if err != nil {
				t.Fatal(err)
			}
			if string(app.Definition) != string(want) {
				t.Errorf("definition\n%s\nwant\n%s", app.Definition, want)
			}
			if app.Script != tt.script {
				t.Errorf("script %q, want %q", app.Script, tt.script)
			}
			parsed, err := workflow.Load(app.Definition, workflow.Options{})
			if err != nil {
				t.Fatalf("the generated workflow does not load: %v", err)
			}
			if parsed.Name != "oozie-"+tt.jobType {
				t.Errorf("app name %q", parsed.Name)
			}
			for _, n := range parsed.Nodes {
				if n.Name == tt.jobType+"1" {
					tt.check(t, n.Action.Body)
					return
				}
			}
			t.Fatalf("no node %s1 in %+v", tt.jobType, parsed.Nodes)
		})
	}
}

func TestGenerateProxyAppErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		props *conf.Properties
		msg   string
	}{
		{"size not a number", conf.NewProperties("oozie.hive.options.size", "two"),
			"E0303: Invalid parameter value, [oozie.hive.options.size] = [two]"},
		{"negative size", conf.NewProperties("oozie.hive.script.params.size", "-1"),
			"E0303: Invalid parameter value, [oozie.hive.script.params.size] = [-1]"},
		{"huge size", conf.NewProperties("oozie.hive.script.params.size", "2000000000"),
			"E0303: Invalid parameter value, [oozie.hive.script.params.size] = [2000000000]"},
		{"missing entry", conf.NewProperties("oozie.hive.script.params.size", "2", "oozie.hive.script.params.1", "B=2"),
			"E0401: Missing configuration property [oozie.hive.script.params.0]"},
		{"-D without a name", conf.NewProperties("oozie.hive.options.size", "2", "oozie.hive.options.0", "-v", "oozie.hive.options.1", "-D=x"),
			"E0303: Invalid parameter value, [oozie.hive.options.1] = [-D=x]"},
		{"pig -D without a name", conf.NewProperties("oozie.pig.options.size", "1", "oozie.pig.options.0", "-D"),
			"E0303: Invalid parameter value, [oozie.pig.options.0] = [-D]"},
		{"sqoop options missing", conf.NewProperties("oozie.sqoop.command", "import", "oozie.sqoop.options.size", "1"),
			"E0401: Missing configuration property [oozie.sqoop.options.0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobType := ProxyHive
			for _, jt := range []string{ProxyPig, ProxySqoop} {
				if strings.HasPrefix(tt.name, jt) {
					jobType = jt
				}
			}
			_, err := generateProxyApp(jobType, tt.props, "rm:8032", "hdfs://nn:8020")
			var se *server.Error
			if !errors.As(err, &se) || se.Status != http.StatusBadRequest || se.Msg != tt.msg {
				t.Errorf("error %v, want 400 %q", err, tt.msg)
			}
		})
	}
}
