package workflow

import "strings"

// nsSparkPrefix is the namespace prefix of spark action bodies.
const nsSparkPrefix = "uri:oozie:spark-action:"

// sparkVersions are the versions of uri:oozie:spark-action, in order.
var sparkVersions = map[string]schemaVersion{"0.1": 1, "0.2": 2, "1.0": 10}

// Spark is a spark action (uri:oozie:spark-action): the cluster's
// spark-submit run in the launcher with Oozie's mapping of the elements. A
// Jar ending in ".py" is a PySpark application.
type Spark struct {
	Hadoop
	Master    string
	Mode      string // client or cluster; empty when absent
	Name      string
	Class     string // empty when absent
	Jar       string
	SparkOpts string
	Args      []string
}

func (*Spark) actionType() string { return "spark" }

// IsPySpark reports whether the application is a Python file, as Oozie's
// SparkArgsExtractor decides (the jar ends in ".py").
func (s *Spark) IsPySpark() bool { return strings.HasSuffix(strings.TrimSpace(s.Jar), ".py") }

// spark parses a <spark> body (uri:oozie:spark-action 0.1 to 1.0): the
// Hadoop head (job-tracker and name-node required in 0.1; resource-manager
// and launcher in 1.0; job-xml may repeat), then master, mode?, name,
// class?, jar, spark-opts?, arg*, and from 0.2 on file* and archive*.
func (p *parser) spark(e *elem, v schemaVersion, node string) Body {
	c := newCursor(e, e.Name.Space, node)
	c.attrs(e, nil)
	s := &Spark{}
	p.hadoopHead(c, hadoopSchema{jtRequired: v == 1, modern: v == 10, multiJobXML: true}, &s.Hadoop, false, nil)
	s.Master = c.reqText("master")
	s.Mode = c.text("mode")
	s.Name = c.reqText("name")
	s.Class = c.text("class")
	s.Jar = c.reqText("jar")
	s.SparkOpts = c.text("spark-opts")
	s.Args = c.texts("arg")
	if v >= 2 {
		s.Files = c.texts("file")
		s.Archives = c.texts("archive")
	}
	p.keep(c.end())
	return s
}
