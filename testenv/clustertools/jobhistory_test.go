package clustertools_test

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/testenv/clustertools"
	"github.com/gozie/gozie/testenv/minijhs"
	"github.com/gozie/gozie/yarn"
)

// historyClient asks the cluster's JobHistory server as user, with gozie's
// client.
func (e *env) historyClient(t *testing.T, user string) *launch.JobHistory {
	t.Helper()
	if e.c.JobHistory == nil {
		t.Fatal("the local cluster runs no JobHistory server")
	}
	h, err := launch.NewJobHistory(e.c.JobHistory.Addr(), yarn.PseudoAuth{User: user}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// counterValues flattens a job's counters: group/name → [total, map, reduce].
func counterValues(c launch.JobCounters) map[string][3]int64 {
	out := map[string][3]int64{}
	for _, g := range c.Groups {
		for _, n := range g.Counters {
			out[g.Name+"/"+n.Name] = [3]int64{n.Total, n.Map, n.Reduce}
		}
	}
	return out
}

// historyFiles lists the user's directory of the intermediate done
// directory.
func (e *env) historyFiles(t *testing.T, user string) []string {
	t.Helper()
	entries, err := e.c.FS.ReadDir(ctxT(t), e.c.DFS.URI()+e.c.JobHistory.IntermediateDoneDir()+"/"+user)
	if err != nil {
		t.Fatalf("listing %s's history: %v", user, err)
	}
	var names []string
	for _, en := range entries {
		names = append(names, en.Name)
	}
	return names
}

// TestMapredCountsAndLeavesHistory: the stand-in job counts what it does,
// as Hadoop's tasks count it, and its AM leaves the history from which the
// JobHistory server answers gozie's client, applying the job's view ACL.
func TestMapredCountsAndLeavesHistory(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "a b\nb c\n")
	e.put(t, "/user/alice/in/b.txt", "a") // a last line without its newline
	job := jobFile(t,
		"stream.map.streamprocessor", "tr ' ' '\n'",
		"stream.reduce.streamprocessor", "uniq -c",
		"mapred.input.dir", "/user/alice/in",
		"mapred.output.dir", "/user/alice/out",
		"mapreduce.job.name", "count-words",
		minijhs.ViewACLKey, "carol")
	r := e.run(t, ctxT(t), "mapred", "job", "-submit", job)
	if r.code != 0 {
		t.Fatalf("submit exited %d: %s", r.code, r.stderr)
	}
	id := createdJob(t, r.stdout)
	if rep := e.waitApp(t, id); !rep.Succeeded() {
		t.Fatalf("job ended %s/%s: %s", rep.State, rep.FinalStatus, rep.Diagnostics)
	}
	jobID := "job_" + strings.TrimPrefix(id.String(), "application_")
	out := e.read(t, "/user/alice/out/part-00000")

	got, err := e.historyClient(t, testUser).Counters(ctxT(t), jobID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != jobID {
		t.Errorf("counters of %s, want %s", got.ID, jobID)
	}
	task, jobc, fsc := clustertools.GroupTaskCounter+"/", clustertools.GroupJobCounter+"/", clustertools.GroupFileSystemCounter+"/"
	want := map[string][3]int64{
		// Three lines in two files; tr makes five words of them, in three
		// groups; uniq -c writes a line per group.
		task + clustertools.CounterMapInputRecords:     {3, 3, 0},
		task + clustertools.CounterMapOutputRecords:    {5, 5, 0},
		task + clustertools.CounterReduceInputGroups:   {3, 0, 3},
		task + clustertools.CounterReduceInputRecords:  {5, 0, 5},
		task + clustertools.CounterReduceOutputRecords: {3, 0, 3},
		jobc + clustertools.CounterLaunchedMaps:        {2, 0, 0},
		jobc + clustertools.CounterLaunchedReduces:     {1, 0, 0},
		fsc + "HDFS_BYTES_READ":                        {9, 9, 0},
		fsc + "HDFS_BYTES_WRITTEN":                     {int64(len(out)), 0, int64(len(out))},
	}
	values := counterValues(got)
	for k, v := range want {
		if values[k] != v {
			t.Errorf("%s = %v (total, map, reduce), want %v", k, values[k], v)
		}
	}
	if len(values) != len(want) {
		t.Errorf("counters %v, want exactly %v", values, want)
	}

	// The AM left the summary, the configuration and the history, each
	// renamed into place.
	files := e.historyFiles(t, testUser)
	var jhist string
	for _, f := range files {
		if strings.HasSuffix(f, minijhs.TmpSuffix) {
			t.Errorf("%s left behind", f)
		}
		if strings.HasPrefix(f, jobID+"-") && strings.HasSuffix(f, minijhs.HistorySuffix) {
			jhist = f
		}
	}
	if jhist == "" || !strings.Contains(jhist, "-"+testUser+"-count%2Dwords-") || !strings.Contains(jhist, "-2-1-SUCCEEDED-default-") {
		t.Errorf("history file %q among %v", jhist, files)
	}
	for _, f := range []string{jobID + minijhs.ConfSuffix, jobID + minijhs.SummarySuffix} {
		if !strings.Contains(strings.Join(files, " "), f) {
			t.Errorf("no %s among %v", f, files)
		}
	}

	// The cluster has job ACLs on: the view ACL names carol, not bob.
	if _, err := e.historyClient(t, "carol").Counters(ctxT(t), jobID); err != nil {
		t.Errorf("carol, named by the view ACL: %v", err)
	}
	if _, err := e.historyClient(t, "bob").Counters(ctxT(t), jobID); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("bob: %v, want 401", err)
	}
}

// TestMapredFailedJobHistory: a failed job's history says FAILED and has
// no counters to give.
func TestMapredFailedJobHistory(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "x\n")
	job := jobFile(t, "stream.map.streamprocessor", "false", "mapred.input.dir", "/user/alice/in", "mapred.output.dir", "/user/alice/out")
	r := e.run(t, ctxT(t), "mapred", "job", "-submit", job)
	if r.code != 0 {
		t.Fatalf("submit exited %d: %s", r.code, r.stderr)
	}
	id := createdJob(t, r.stdout)
	if rep := e.waitApp(t, id); rep.FinalStatus != yarn.FinalFailed {
		t.Fatalf("job ended %s/%s", rep.State, rep.FinalStatus)
	}
	jobID := "job_" + strings.TrimPrefix(id.String(), "application_")
	if files := e.historyFiles(t, testUser); !strings.Contains(strings.Join(files, " "), "-FAILED-") {
		t.Errorf("history files %v, want one of a FAILED job", files)
	}
	got, err := e.historyClient(t, testUser).Counters(ctxT(t), jobID)
	if err != nil || got.ID != jobID || len(got.Groups) != 0 {
		t.Errorf("counters of a failed job: %+v, %v", got, err)
	}
}

// TestMapredPipesRefused: the stand-in runs no Hadoop Pipes tasks and says
// so, instead of running something else in the program's place.
func TestMapredPipesRefused(t *testing.T) {
	t.Parallel()
	e := setup(t)
	r := e.run(t, ctxT(t), "mapred", "pipes", "-program", "bin/wc", "-input", "/in", "-output", "/out")
	if r.code != 1 || !strings.Contains(r.stderr, "runs no Hadoop Pipes tasks") {
		t.Errorf("mapred pipes: exit %d, stderr %q", r.code, r.stderr)
	}
	if n := len(e.c.YARN.Apps()); n != 0 {
		t.Errorf("%d applications submitted", n)
	}
}
