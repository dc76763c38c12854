package launch

import (
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/yarn"
)

// sparkBody wraps the elements after the head in a spark-action 1.0 body.
func sparkBody(inner string) string {
	return `<spark xmlns="uri:oozie:spark-action:1.0"><resource-manager>rm:8032</resource-manager><name-node>hdfs://nn:8020</name-node>` +
		inner + `</spark>`
}

// TestPlanSparkArguments: the spark-submit command line of Oozie's
// SparkArgsExtractor for each master and mode, with the run's cache.
func TestPlanSparkArguments(t *testing.T) {
	t.Parallel()
	const (
		tag     = "--conf spark.yarn.tags=TAG," + ChildCommonTag
		oozie   = "--conf spark.oozie.action.id=0000001-250101000000000-gozie-W@node --conf spark.oozie.child.mapreduce.job.tags=TAG --conf spark.oozie.job.id=0000001-250101000000000-gozie-W"
		secure  = "--conf spark.yarn.security.tokens.hadoopfs.enabled=false --conf spark.yarn.security.tokens.hive.enabled=false --conf spark.yarn.security.tokens.hbase.enabled=false --conf spark.yarn.security.credentials.hadoopfs.enabled=false --conf spark.yarn.security.credentials.hive.enabled=false --conf spark.yarn.security.credentials.hbase.enabled=false"
		yarnCP  = "--conf spark.executor.extraClassPath=$PWD/* --conf spark.driver.extraClassPath=$PWD/*"
		libJar  = "hdfs://nn:8020/apps/spark/lib/copy.jar"
		libPy   = "hdfs://nn:8020/apps/spark/lib/pi.py"
		dataTxt = "hdfs://nn:8020/data/in.txt"
	)
	cache := []cached{{"copy.jar", libJar, yarn.ResourceFile}, {"pi.py", libPy, yarn.ResourceFile},
		{"input.txt", dataTxt, yarn.ResourceFile}, {"dict", "hdfs://nn:8020/d/dict.zip", yarn.ResourceArchive}}
	tests := []struct {
		name, inner string
		want        string // "TAG" stands for the run's child tag
	}{
		{"yarn cluster: the application from the cache, files and archives, no waiting",
			`<master>yarn</master><mode>cluster</mode><name>Copy</name><class>org.example.Copy</class>` +
				`<jar>${nameNode}/apps/spark/lib/copy.jar</jar><arg>in</arg><arg>out</arg>`,
			"--master yarn --deploy-mode cluster --name Copy --class org.example.Copy " + oozie + " " + yarnCP + " " + tag +
				" --conf spark.yarn.submit.waitAppCompletion=false " + secure +
				" --files " + libPy + "," + dataTxt + "#input.txt --archives hdfs://nn:8020/d/dict.zip#dict --verbose " + libJar + " in out"},
		{"local master: no cache, the jar as written",
			`<master>local[*]</master><mode>client</mode><name>Copy</name><class>C</class><jar>/apps/x.jar</jar>`,
			"--master local[*] --deploy-mode client --name Copy --class C " + oozie + " " + tag + " " + secure +
				" --verbose /apps/x.jar"},
		{"pyspark on yarn client: the .py found in the cache",
			`<master>yarn</master><mode>client</mode><name>Pi</name><jar>pi.py</jar><spark-opts>--py-files lib.zip</spark-opts>`,
			"--master yarn --deploy-mode client --name Pi " + oozie + " --py-files lib.zip " + yarnCP + " " + tag + " " + secure +
				" --files " + libJar + "," + dataTxt + "#input.txt --archives hdfs://nn:8020/d/dict.zip#dict --verbose " + libPy},
		{"spark-opts: class paths merged, files and archives taken out, token and wait settings kept",
			`<master>yarn-cluster</master><name>N</name><class>C</class><jar>copy.jar</jar>` +
				`<spark-opts>--executor-memory 2G --conf spark.executor.extraClassPath=/opt/a.jar --driver-class-path /opt/d.jar ` +
				`--files=hdfs://nn:8020/extra/e.txt --archives hdfs://nn:8020/x/a.tgz --conf spark.yarn.submit.waitAppCompletion=true ` +
				`--conf spark.yarn.security.tokens.hive.enabled=true --conf spark.driver.extraJavaOptions="-Da=1 -Db=2" --verbose</spark-opts>`,
			"--master yarn-cluster --name N --class C " + oozie + " --executor-memory 2G --conf spark.yarn.submit.waitAppCompletion=true " +
				"--conf spark.yarn.security.tokens.hive.enabled=true --conf spark.driver.extraJavaOptions=-Da=1 -Db=2 --verbose " +
				"--conf spark.executor.extraClassPath=/opt/a.jar:$PWD/* --conf spark.driver.extraClassPath=/opt/d.jar:$PWD/* " + tag + " " +
				strings.Replace(secure, "--conf spark.yarn.security.tokens.hive.enabled=false ", "", 1) +
				" --files " + libPy + "," + dataTxt + "#input.txt,hdfs://nn:8020/extra/e.txt --archives hdfs://nn:8020/d/dict.zip#dict,hdfs://nn:8020/x/a.tgz " +
				libJar},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := planFor(t, "spark", strings.ReplaceAll(sparkBody(tt.inner), "${nameNode}", "hdfs://nn:8020"), nil)
			if err != nil {
				t.Fatal(err)
			}
			p.sparkResources(cacheOf(cache))
			got := p.spec.Spark.Args
			want := splitWant(strings.ReplaceAll(tt.want, "TAG", p.spec.ChildTag))
			if !slices.Equal(got, want) {
				t.Errorf("spark-submit arguments\n got %q\nwant %q", got, want)
			}
			if err := p.spec.Validate(); err != nil {
				t.Error(err)
			}
			if p.spec.Conf["oozie.spark.name"] == "" || p.spec.Conf["oozie.spark.master"] != got[1] {
				t.Errorf("action configuration lacks Oozie's oozie.spark.* entries: %v", p.spec.Conf)
			}
		})
	}
}

// splitWant splits an expected command line at blanks, keeping the one
// option value that holds blanks (-Da=1 -Db=2) whole.
func splitWant(s string) []string {
	s = strings.ReplaceAll(s, "-Da=1 -Db=2", "-Da=1\x00-Db=2")
	f := strings.Fields(s)
	for i := range f {
		f[i] = strings.ReplaceAll(f[i], "\x00", " ")
	}
	return f
}

// cached is one local resource of a run's cache.
type cached struct {
	link, uri string
	typ       yarn.LocalResourceType
}

func cacheOf(entries []cached) (yarn.EntryMap[yarn.LocalResource], []string) {
	res := yarn.EntryMap[yarn.LocalResource]{}
	var links []string
	for _, c := range entries {
		res[c.link] = yarn.LocalResource{Resource: c.uri, Type: c.typ}
		links = append(links, c.link)
	}
	return res, links
}

// TestPlanSparkRefusesOtherTypes: a spark body given to another executor
// is refused, and an empty master fails the action.
func TestPlanSparkRefusesOtherTypes(t *testing.T) {
	t.Parallel()
	body := sparkBody(`<master>yarn</master><name>N</name><jar>a.py</jar>`)
	if _, err := planFor(t, "shell", body, nil); err == nil || !strings.Contains(err.Error(), "is a spark action") {
		t.Errorf("shell executor planned a spark action: %v", err)
	}
	if _, err := planFor(t, "spark", sparkBody(`<master> </master><name>N</name><jar>a.py</jar>`), nil); err == nil ||
		!strings.Contains(err.Error(), "<master> is empty") {
		t.Errorf("empty master: %v", err)
	}
}

// TestSplitSparkOpts: Oozie's SparkOptionsSplitter scenarios.
func TestSplitSparkOpts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"--executor-memory 1G --num-executors 2", []string{"--executor-memory", "1G", "--num-executors", "2"}},
		{"  --conf   spark.a=b   --conf spark.c=d ", []string{"--conf", "spark.a=b", "--conf", "spark.c=d"}},
		{"--driver-memory=1G", []string{"--driver-memory", "1G"}},
		{`--conf spark.executor.extraJavaOptions="-XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath=/tmp"`,
			[]string{"--conf", "spark.executor.extraJavaOptions=-XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath=/tmp"}},
		{`--conf key=a "b c" "d e"`, []string{"--conf", `key=a "b c" "d e"`}},
		{`--conf spark.x=-Da -Dlog4j.configuration="/some path/x" -Db`,
			[]string{"--conf", `spark.x=-Da -Dlog4j.configuration="/some path/x" -Db`}},
		{"ignored-before --verbose", []string{"--verbose"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := SplitSparkOpts(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitSparkOpts(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
