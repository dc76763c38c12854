package workflow

import (
	"slices"
	"testing"
)

// TestParseSpark: the spark body of each schema version, every element in
// its place, and what each version refuses.
func TestParseSpark(t *testing.T) {
	t.Parallel()
	body := func(v, inner string) string {
		return wf(`<start to="s"/><action name="s"><spark xmlns="uri:oozie:spark-action:` + v + `">` + inner +
			`</spark><ok to="end"/><error to="end"/></action><end name="end"/>`)
	}
	const (
		head01 = `<job-tracker>jt:8032</job-tracker><name-node>hdfs://nn</name-node>`
		app    = `<master>yarn</master><mode>cluster</mode><name>Copy</name><class>org.x.Copy</class><jar>lib/copy.jar</jar>` +
			`<spark-opts>--executor-memory 1G</spark-opts><arg>in</arg><arg>out</arg>`
	)
	tests := []struct {
		name, def string
		errMsg    string // "" = parses
		rm, tag   string
		files     []string
	}{
		{"0.1", body("0.1", head01+`<prepare><delete path="/out"/></prepare><job-xml>a.xml</job-xml><job-xml>b.xml</job-xml>`+
			`<configuration><property><name>a</name><value>1</value></property></configuration>`+app), "", "jt:8032", "job-tracker", nil},
		{"0.2 without a head, with files", body("0.2", app+`<file>f.txt</file><archive>a.zip</archive>`), "", "", "", []string{"f.txt"}},
		{"1.0 resource-manager and launcher", body("1.0", `<resource-manager>rm:8032</resource-manager><name-node>hdfs://nn</name-node>`+
			`<launcher><memory.mb>512</memory.mb></launcher>`+app+`<file>f.txt#g</file>`), "", "rm:8032", "resource-manager", []string{"f.txt#g"}},
		{"0.1 needs a job-tracker", body("0.1", `<name-node>hdfs://nn</name-node>`+app), "job-tracker", "", "", nil},
		{"0.1 has no file", body("0.1", head01+app+`<file>f</file>`), "file", "", "", nil},
		{"no launcher before 1.0", body("0.2", `<launcher><memory.mb>512</memory.mb></launcher>`+app), "launcher", "", "", nil},
		{"master is required", body("1.0", `<name>N</name><jar>a.jar</jar>`), "master", "", "", nil},
		{"name is required", body("1.0", `<master>yarn</master><jar>a.jar</jar>`), "name", "", "", nil},
		{"jar is required", body("1.0", `<master>yarn</master><name>N</name><arg>x</arg>`), "jar", "", "", nil},
		{"elements in order", body("1.0", `<master>yarn</master><name>N</name><mode>client</mode><jar>a.jar</jar>`), "mode", "", "", nil},
		{"unknown version", body("0.3", app), "spark-action:0.3", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			parsed, a := parseActionCase(t, tt.def, tt.errMsg, "s", "spark")
			if a == nil {
				return
			}
			s, ok := a.Body.(*Spark)
			if !ok {
				t.Fatalf("body %T, want *Spark", a.Body)
			}
			if s.JobTracker != tt.rm || s.JobTrackerTag != tt.tag {
				t.Errorf("resource manager %q (%s), want %q (%s)", s.JobTracker, s.JobTrackerTag, tt.rm, tt.tag)
			}
			if s.Master != "yarn" || s.Mode != "cluster" || s.Name != "Copy" || s.Class != "org.x.Copy" || s.Jar != "lib/copy.jar" ||
				s.SparkOpts != "--executor-memory 1G" || !slices.Equal(s.Args, []string{"in", "out"}) || !slices.Equal(s.Files, tt.files) {
				t.Errorf("spark body %+v", s)
			}
			if s.IsPySpark() {
				t.Error("a jar is not PySpark")
			}
			if err := Validate(parsed, Options{DefaultNameNode: "hdfs://nn", DefaultResourceManager: "rm"}); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

// TestSparkActionTakesGlobal: a spark action without a head gets the
// <global> resource manager and name node, as other Hadoop actions do, and
// a .py jar is PySpark.
func TestSparkActionTakesGlobal(t *testing.T) {
	t.Parallel()
	def := `<workflow-app xmlns="uri:oozie:workflow:1.0" name="w"><global><resource-manager>rm:8032</resource-manager>` +
		`<name-node>hdfs://nn:8020</name-node></global><start to="s"/><action name="s"><spark xmlns="uri:oozie:spark-action:1.0">` +
		`<master>yarn</master><name>Pi</name><jar>pi.py</jar></spark><ok to="end"/><error to="end"/></action><end name="end"/></workflow-app>`
	app := mustLoad(t, def)
	frag, err := app.ActionXML("s", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseBody(frag)
	if err != nil {
		t.Fatal(err)
	}
	s := b.(*Spark)
	if s.JobTracker != "rm:8032" || s.NameNode != "hdfs://nn:8020" || !s.IsPySpark() {
		t.Errorf("merged body %+v from %s", s, frag)
	}
}
