package launch_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/workflow"
)

// confXML is a Hadoop configuration file of one property.
func confXML(name, value string) string {
	return `<configuration><property><name>` + name + `</name><value>` + value + `</value></property></configuration>`
}

// confScript reports, for each name given, whether the action's
// configuration holds it.
const confScript = `#!/bin/bash
for p in "$@"; do
  if grep -q "<name>$p</name>" "$OOZIE_ACTION_CONF_XML"; then echo "$p=yes"; else echo "$p=no"; fi
done
`

// TestJobXMLResolvedAgainstTheApplication: job-xml paths are read as
// Oozie reads them, Hadoop's Path(appPath, jobXml): "./x.xml", "conf/x.xml"
// and "../x.xml" below the application directory, an absolute path on the
// application's filesystem; their properties reach the command. Before, the
// NameNode refused "<app>/./job-queue-conf.xml" and the start was retried
// as transient.
func TestJobXMLResolvedAgainstTheApplication(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/user/alice/app/conf.sh", confScript)
	c.put(t, "/user/alice/app/job-queue-conf.xml", confXML("from.relative", "1"))
	c.put(t, "/user/alice/app/conf/x.xml", confXML("from.conf.dir", "1"))
	c.put(t, "/user/alice/shared/y.xml", confXML("from.parent", "1"))
	c.put(t, "/user/alice/abs.xml", confXML("from.absolute", "1"))
	e := c.executor(t, "shell", nil)
	run := c.run(t, "shell", "conf", "/user/alice/app", shellBody(
		`<job-xml>./job-queue-conf.xml</job-xml><job-xml>conf/x.xml</job-xml><job-xml>../shared/y.xml</job-xml>`+
			`<job-xml>/user/alice/abs.xml</job-xml><exec>conf.sh</exec>`+
			`<argument>from.relative</argument><argument>from.conf.dir</argument>`+
			`<argument>from.parent</argument><argument>from.absolute</argument>`+
			`<file>conf.sh</file><capture-output/>`))
	st := c.finish(t, e, run)
	if st.Outcome != workflow.OutcomeOK {
		t.Fatalf("status %+v, want OK", st)
	}
	props, err := conf.ReadProperties(strings.NewReader(st.Data), "data")
	if err != nil {
		t.Fatalf("captured output %q: %v", st.Data, err)
	}
	for _, name := range []string{"from.relative", "from.conf.dir", "from.parent", "from.absolute"} {
		if got := props.Value(name); got != "yes" {
			t.Errorf("%s in the action configuration: %q (all: %q)", name, got, st.Data)
		}
	}
}

// TestJobXMLRefusalsAreNotRetried: a job-xml that is missing, or whose
// path no HDFS name can be (above the root), or empty, ends the action in
// ERROR with Oozie's code (JA008 for FileNotFoundException,
// IllegalArgumentException for the path Hadoop's client refuses), never a
// transient error that would be retried; nothing is submitted.
func TestJobXMLRefusalsAreNotRetried(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/user/alice/app/ok.sh", "#!/bin/sh\n")
	e := c.executor(t, "shell", nil)
	tests := []struct {
		name, jobXML, code, msg string
	}{
		{"missing", "./nope.xml", "JA008", "/user/alice/app/nope.xml"},
		{"above the root", "../../../../up.xml", "IllegalArgumentException", "/../up.xml: getFileInfo call failed with ERROR_APPLICATION (org.apache.hadoop.fs.InvalidPathException)"},
		{"empty", " ", "IllegalArgumentException", "can not create a Path from an empty string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := c.run(t, "shell", "bad", "/user/alice/app", shellBody(`<job-xml>`+tt.jobXML+`</job-xml><exec>ok.sh</exec>`))
			_, err := e.Start(ctxT(t), run)
			var ee *actions.ExecError
			if !errors.As(err, &ee) || ee.Kind != actions.ActionError || ee.Code != tt.code || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Start error %v, want ERROR %s naming %q", err, tt.code, tt.msg)
			}
		})
	}
	if n := len(c.rm.Apps()); n != 0 {
		t.Errorf("%d applications submitted for refused actions", n)
	}
}
