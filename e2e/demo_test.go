package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/yarn"
)

// skipOozieDemo is why Oozie's demo example is not run: its mr-node is a
// word count of Oozie's own classes.
const skipOozieDemo = "Oozie's demo example's mr-node runs DemoMapper and DemoReducer, a word count compiled into " +
	"Oozie's examples jar; the stand-in mapred runs no JVM (Hadoop's identity classes and streaming commands only), " +
	"so gozie's own demo of the same form runs instead (README.md)"

// demoShout is what the demo's pig node stores: every non-empty line,
// upper-cased.
func demoShout(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if l != "" {
			b.WriteString(strings.ToUpper(l) + "\n")
		}
	}
	return b.String()
}

// demoWordCount is what the demo's streaming node stores: each word with
// its count, in byte order, as `uniq -c` prints them.
func demoWordCount(text string) string {
	words := strings.Fields(text)
	slices.Sort(words)
	var b strings.Builder
	for i := 0; i < len(words); {
		j := i
		for j < len(words) && words[j] == words[i] {
			j++
		}
		fmt.Fprintf(&b, "%7d %s\n", j-i, words[i])
		i = j
	}
	return b.String()
}

// recordValues returns the values of "key<TAB>value" lines, sorted.
func recordValues(out string) []string {
	var vals []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		_, v, _ := strings.Cut(l, "\t")
		vals = append(vals, v)
	}
	slices.Sort(vals)
	return vals
}

// TestDemoExampleSucceeds runs gozie's demo example unchanged: the fork's
// pig and streaming nodes and, after the join, the Java job over both
// outputs each follow a child job of their own; the decision finds the
// job's output with fs:exists and the fs node moves it to final-data.
// Oozie's demo is skipped (skipOozieDemo).
func TestDemoExampleSucceeds(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		if testapps.Source(apps) == testapps.Oozie {
			t.Skip(skipOozieDemo)
		}
		t.Parallel()
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "demo")
		app := e.copyApp(t, src, "demo")
		text := stagedFile(t, e.stageInput(t, src, nil), "text")
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 3*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("demo example ended %s:\n%s", status, info)
		}
		e.checkDemoJobs(t, id)
		out := "user/" + e.user + "/examples/output-data/demo/"
		shout, counts := e.readData(t, out+"pig-node"), e.readData(t, out+"streaming-node")
		if want := demoShout(text); shout != want {
			t.Errorf("pig node stored %q, want %q", shout, want)
		}
		if want := demoWordCount(text); counts != want {
			t.Errorf("streaming node stored %q, want %q", counts, want)
		}
		if _, err := os.Stat(filepath.Join(e.dir, "dfs", out, "mr-node")); !os.IsNotExist(err) {
			t.Errorf("mr-node output not moved away: %v", err)
		}
		if _, err := os.Stat(filepath.Join(e.dir, "dfs", out, "final-data", "_SUCCESS")); err != nil {
			t.Errorf("final-data has no _SUCCESS: %v", err)
		}
		got, want := recordValues(e.readData(t, out+"final-data")), recordValues(identityInput(shout+counts))
		if !slices.Equal(got, want) {
			t.Errorf("final-data holds %q, want the lines of both outputs %q", got, want)
		}
	})
}

// identityInput keys every line with a tab, so that recordValues gives the
// lines themselves.
func identityInput(lines string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(lines, "\n"), "\n") {
		b.WriteString("\t" + l + "\n")
	}
	return b.String()
}

// checkDemoJobs checks that each of the demo's three job nodes ended OK
// following a succeeded child application of its own, and that the fs
// node after the decision ran.
func (e *env) checkDemoJobs(t *testing.T, id string) {
	t.Helper()
	job := e.jobInfo(t, id)
	seen := map[string]string{}
	for _, name := range []string{"pig-node", "streaming-node", "mr-node"} {
		a := job.action(t, name)
		seen[a.ExternalID] = name
		app, ok := e.appReport(t, a.ExternalID)
		if a.Status != "OK" || !ok || !app.Succeeded() || app.ApplicationType == launch.ApplicationType {
			t.Errorf("%s: %s following %s (%+v), want OK following its succeeded child job", name, a.Status, a.ExternalID, app)
		}
	}
	if len(seen) != 3 {
		t.Errorf("the job nodes follow %v, want three applications", seen)
	}
	if a := job.action(t, "hdfs-node"); a.Status != "OK" {
		t.Errorf("hdfs-node %s, want OK after the decision", a.Status)
	}
}

// appReport returns the report of the cluster's application id.
func (e *env) appReport(t *testing.T, id string) (yarn.AppReport, bool) {
	t.Helper()
	for _, r := range e.yarnApps(t) {
		if r.ID.String() == id {
			return r, true
		}
	}
	return yarn.AppReport{}, false
}
