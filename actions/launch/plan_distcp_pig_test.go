package launch

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/yarn/launcher"
)

// TestPlanDistcp: a distcp action is `hadoop distcp` with its <java-opts>
// and trimmed <arg>s, and its configuration (the job's) carries the child
// tag in mapreduce.job.tags next to the action's own properties, as
// Oozie's DistcpMain hands DistCp the action configuration.
func TestPlanDistcp(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"0.1", "0.2", "1.0"} {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			body := `<distcp xmlns="uri:oozie:distcp-action:` + v + `"><job-tracker>rm:8032</job-tracker><name-node>file:///</name-node>` +
				`<prepare><delete path="file:///tmp/out"/></prepare>` +
				`<configuration><property><name>mapred.job.queue.name</name><value>q1</value></property></configuration>` +
				`<java-opts>-Xmx1g -Dx=y</java-opts><arg> -update </arg><arg>-skipcrccheck</arg><arg>/in/data.txt</arg><arg>/out/data.txt</arg></distcp>`
			p, err := planFor(t, launcher.TypeDistcp, body, nil)
			if err != nil {
				t.Fatal(err)
			}
			d := p.spec.Distcp
			if d == nil || d.JavaOpts != "-Xmx1g -Dx=y" || !slices.Equal(d.Args, []string{"-update", "-skipcrccheck", "/in/data.txt", "/out/data.txt"}) {
				t.Fatalf("distcp spec %+v", d)
			}
			c := p.spec.Conf
			if c["mapreduce.job.tags"] != p.spec.ChildTag || c["mapred.job.queue.name"] != "q1" || p.spec.Prepare == nil {
				t.Errorf("conf tags %q queue %q prepare %+v", c["mapreduce.job.tags"], c["mapred.job.queue.name"], p.spec.Prepare)
			}
			if err := p.spec.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestPlanPig: a pig action localizes its script under its base name, runs
// it with its params and arguments, and its configuration carries the
// child tag for MapReduce and Tez and Oozie's oozie.pig.* entries.
func TestPlanPig(t *testing.T) {
	t.Parallel()
	body := `<pig xmlns="uri:oozie:workflow:0.5"><job-tracker>rm</job-tracker><name-node>file:///</name-node>` +
		`<configuration><property><name>k</name><value>v</value></property></configuration>` +
		`<script>scripts/id.pig</script><param>INPUT=/in</param><param> OUTPUT=/out,x </param>` +
		`<argument>-verbose</argument></pig>`
	p, err := planFor(t, launcher.TypePig, body, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := p.spec.Pig
	if g == nil || g.Script != "id.pig" || !slices.Equal(g.Params, []string{"INPUT=/in", "OUTPUT=/out,x"}) ||
		!slices.Equal(g.Args, []string{"-verbose"}) || !slices.Equal(p.files, []string{"scripts/id.pig#id.pig"}) {
		t.Fatalf("pig spec %+v files %v", g, p.files)
	}
	c := p.spec.Conf
	for k, want := range map[string]string{
		"mapreduce.job.tags": p.spec.ChildTag, "tez.application.tags": p.spec.ChildTag, "k": "v",
		"oozie.pig.script": "id.pig", "oozie.pig.params.size": "2", "oozie.pig.params.1": "OUTPUT=/out,x",
		"oozie.pig.args.size": "1", "oozie.pig.args.0": "-verbose", "pig.log.trace.id": "oozie:0000001-250101000000000-gozie-W",
	} {
		if c[k] != want {
			t.Errorf("conf %s = %q, want %q", k, c[k], want)
		}
	}
	if err := p.spec.Validate(); err != nil {
		t.Error(err)
	}
}

// TestPlanPigRefuses: the arguments Oozie's PigMain refuses, and a param
// that is not NAME=VALUE, end the action in ERROR before any launch.
func TestPlanPigRefuses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ inner, msg string }{
		{`<argument>-file</argument>`, "Error: Pig argument -file is not supported"},
		{`<argument>-propertyFile</argument>`, "Error: Pig argument -propertyFile is not supported"},
		{`<argument>-e</argument>`, "Error: Pig argument -e is not supported"},
		{`<param>NOEQUALS</param>`, "Wrong param format [NOEQUALS]"},
	} {
		inner := tt.inner
		if strings.HasPrefix(inner, "<argument>") {
			inner = "<param>A=1</param>" + inner
		}
		body := `<pig xmlns="uri:oozie:workflow:1.0"><script>x.pig</script>` + inner + `</pig>`
		_, err := planFor(t, launcher.TypePig, body, nil)
		var ee *actions.ExecError
		if !errors.As(err, &ee) || ee.Kind != actions.ActionError || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: error %v, want an ActionError with %q", tt.inner, err, tt.msg)
		}
	}
}

// TestPlanWrongType: a distcp body given to the pig executor is refused.
func TestPlanDistcpPigWrongType(t *testing.T) {
	t.Parallel()
	_, err := planFor(t, launcher.TypePig, `<distcp xmlns="uri:oozie:distcp-action:1.0"><arg>a</arg><arg>b</arg></distcp>`, nil)
	if err == nil || !strings.Contains(err.Error(), "is a distcp action, this executor runs pig actions") {
		t.Errorf("error %v", err)
	}
}
