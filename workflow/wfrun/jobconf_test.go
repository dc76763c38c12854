package wfrun_test

import (
	"slices"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
)

// TestJobConfOrder: a job's stored configuration lists the submitted properties in their
// order, then those that came from <parameters> in name order; an attempt carries the job
// configuration in name order (what a sub-workflow propagates to its child).
func TestJobConfOrder(t *testing.T) {
	w := setup(t, false)
	app := w.app(t, "order", `<workflow-app xmlns="uri:oozie:workflow:0.5" name="order">
  <parameters>
    <property><name>p.b</name><value>2</value></property>
    <property><name>p.a</name><value>1</value></property>
  </parameters>
  <start to="mk"/>
  <action name="mk"><fs><mkdir path="hdfs://nn:8020/out"/></fs><ok to="end"/><error to="end"/></action>
  <end name="end"/>
</workflow-app>`)
	var attempt *conf.Properties
	w.exec.mu.Lock()
	w.exec.onStart["mk"] = func(run *actions.Attempt, _ string) { attempt = run.JobConf.Clone() }
	w.exec.mu.Unlock()
	id, err := w.submit(t, app, true, "zeta", "z", "alpha", "a")
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@mk")
	job, _ := w.job(t, id)
	stored, err := conf.ParseConfigurationXML(job.Conf, "job configuration")
	if err != nil {
		t.Fatal(err)
	}
	submitted := []string{"user.name", "oozie.wf.application.path", "nameNode", "resourceManager", "zeta", "alpha"}
	if got, want := stored.Keys(), append(slices.Clone(submitted), "p.a", "p.b"); !slices.Equal(got, want) {
		t.Errorf("stored configuration order %q, want %q", got, want)
	}
	w.exec.mu.Lock()
	defer w.exec.mu.Unlock()
	if got, want := attempt.Keys(), slices.Sorted(slices.Values(stored.Keys())); !slices.Equal(got, want) {
		t.Errorf("attempt's job configuration order %q, want %q", got, want)
	}
	if v := attempt.Value("p.b"); v != "2" {
		t.Errorf("attempt's p.b = %q, want 2", v)
	}
}
