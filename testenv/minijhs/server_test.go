package minijhs_test

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/minijhs"
	"github.com/gozie/gozie/yarn"
)

// The users of the tests: hdfs started the NameNode (and reads history as
// the JobHistory server), gozie may act for others, alice owns the jobs.
const (
	superuser = "hdfs"
	proxyUser = "gozie"
	owner     = "alice"
)

const taskGroup = "org.apache.hadoop.mapreduce.TaskCounter"

type env struct {
	fs  *hadoop.Resolver
	dfs *minidfs.MiniDFS
	jhs *minijhs.Server
}

// setup starts MiniDFS and a JobHistory server with conf beyond the
// proxy-user rules that let gozie act for anyone from the loopback host.
func setup(t *testing.T, conf map[string]string) *env {
	t.Helper()
	core := minidfs.ProxyUserConf(superuser, proxyUser)
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: superuser, Conf: core, CreateHomes: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI(), User: superuser})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	all := maps.Clone(core)
	maps.Copy(all, conf)
	jhs, err := minijhs.Start(ctxT(t), minijhs.Options{FS: fs, DefaultFS: dfs.URI(), Conf: all})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { jhs.Close() })
	return &env{fs: fs, dfs: dfs, jhs: jhs}
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// leaveHistory writes a succeeded job's history as its owner's AM leaves
// it, with the given view ACL (none: ACLs were off for the job).
func (e *env) leaveHistory(t *testing.T, jobID string, viewACL *string, tmp bool) {
	t.Helper()
	acls := map[string]string{}
	if viewACL != nil {
		acls[minijhs.ViewACLKey] = *viewACL
	}
	counters := func(name string, in, out int64) minijhs.Counters {
		return minijhs.Counters{Name: name, Groups: []minijhs.CounterGroup{{Name: taskGroup, DisplayName: "Map-Reduce Framework",
			Counts: []minijhs.Counter{{Name: "MAP_INPUT_RECORDS", Value: in}, {Name: "REDUCE_OUTPUT_RECORDS", Value: out}}}}}
	}
	h := &minijhs.History{
		Submitted: minijhs.JobSubmitted{JobID: jobID, UserName: owner, JobName: "word-count", JobQueueName: "default", ACLs: acls},
		Finished: &minijhs.JobFinished{JobID: jobID, FinishedMaps: 1, FinishedReduces: 1,
			TotalCounters: counters("TOTAL_COUNTERS", 3, 2), MapCounters: counters("MAP_COUNTERS", 3, 0),
			ReduceCounters: counters("REDUCE_COUNTERS", 0, 2)},
	}
	data, err := h.Encode()
	if err != nil {
		t.Fatal(err)
	}
	name := minijhs.DoneFileName(minijhs.IndexInfo{JobID: jobID, User: owner, JobName: "word-count", Queue: "default",
		Status: "SUCCEEDED", Maps: 1, Reduces: 1})
	if tmp {
		name += minijhs.TmpSuffix
	}
	ctx := hadoop.AsUser(ctxT(t), owner)
	dir := e.dfs.URI() + e.jhs.IntermediateDoneDir() + "/" + owner
	if err := e.fs.MkdirAll(ctx, dir, minijhs.IntermediateUserDirPerm); err != nil {
		t.Fatal(err)
	}
	if err := e.fs.WriteFile(ctx, dir+"/"+name, data, minijhs.IntermediateFilePerm); err != nil {
		t.Fatal(err)
	}
}

// client is gozie's JobHistory client, authenticated as user.
func (e *env) client(t *testing.T, user string) *launch.JobHistory {
	t.Helper()
	c, err := launch.NewJobHistory(e.jhs.Addr(), yarn.PseudoAuth{User: user}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func aclOf(s string) *string { return &s }

func TestServerCreatesTheIntermediateDirectoryWorldWritable(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	fi, err := e.fs.Stat(ctxT(t), e.dfs.URI()+e.jhs.IntermediateDoneDir())
	if err != nil {
		t.Fatal(err)
	}
	// HDFS's bits as the client reports them: 0o1000 is the sticky bit.
	if !fi.IsDir || fi.Mode&0o7777 != 0o1777 {
		t.Errorf("%s: %o, want drwxrwxrwt", e.jhs.IntermediateDoneDir(), fi.Mode&0o7777)
	}
}

func TestCountersForTheJobUserThroughDoAs(t *testing.T) {
	t.Parallel()
	e := setup(t, map[string]string{minijhs.ACLsEnabledKey: "true"})
	e.leaveHistory(t, "job_1700000000000_0001", aclOf(" "), false)
	// The server asks as itself for the job's user, as gozie's executor does.
	got, err := e.client(t, proxyUser).Counters(hadoop.AsUser(ctxT(t), owner), "job_1700000000000_0001")
	if err != nil {
		t.Fatal(err)
	}
	want := launch.JobCounters{ID: "job_1700000000000_0001", Groups: []launch.CounterGroup{{Name: taskGroup, Counters: []launch.Counter{
		{Name: "MAP_INPUT_RECORDS", Total: 3, Map: 3}, {Name: "REDUCE_OUTPUT_RECORDS", Total: 2, Reduce: 2}}}}}
	if !equalCounters(got, want) {
		t.Errorf("counters %+v, want %+v", got, want)
	}
	stats, err := launch.MRStats(got)
	if err != nil || !strings.Contains(stats, `"MAP_INPUT_RECORDS":3`) {
		t.Errorf("stats %s, %v", stats, err)
	}
}

func equalCounters(a, b launch.JobCounters) bool {
	if a.ID != b.ID || len(a.Groups) != len(b.Groups) {
		return false
	}
	for i := range a.Groups {
		if a.Groups[i].Name != b.Groups[i].Name || len(a.Groups[i].Counters) != len(b.Groups[i].Counters) {
			return false
		}
		for j := range a.Groups[i].Counters {
			if a.Groups[i].Counters[j] != b.Groups[i].Counters[j] {
				return false
			}
		}
	}
	return true
}

func TestUnknownJobIsNotFound(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	// A history still being written (_tmp) is not the job's yet.
	e.leaveHistory(t, "job_1700000000000_0002", nil, true)
	for _, id := range []string{"job_1700000000000_0002", "job_1700000000000_0099"} {
		_, err := e.client(t, owner).Counters(ctxT(t), id)
		if !errors.Is(err, launch.ErrJobNotInHistory) || !strings.Contains(err.Error(), "NotFoundException: java.lang.Exception: job, "+id+", is not found") {
			t.Errorf("%s: %v, want ErrJobNotInHistory with the NotFoundException", id, err)
		}
	}
	_, err := e.client(t, owner).Counters(ctxT(t), "application_1_1")
	if !errors.Is(err, launch.ErrJobNotInHistory) || !strings.Contains(err.Error(), "is not properly formed") {
		t.Errorf("malformed id: %v", err)
	}
}

func TestViewACL(t *testing.T) {
	t.Parallel()
	e := setup(t, map[string]string{minijhs.ACLsEnabledKey: "true", minijhs.AdminsKey: "root"})
	e.leaveHistory(t, "job_1700000000000_0003", aclOf(" "), false)
	e.leaveHistory(t, "job_1700000000000_0004", aclOf("bob "), false)
	cases := []struct {
		user, job string
		ok        bool
	}{
		{owner, "job_1700000000000_0003", true},  // the owner
		{"root", "job_1700000000000_0003", true}, // an administrator
		{"bob", "job_1700000000000_0003", false}, // nobody else
		{"bob", "job_1700000000000_0004", true},  // named by the view ACL
		{"carol", "job_1700000000000_0004", false},
	}
	for _, c := range cases {
		_, err := e.client(t, c.user).Counters(ctxT(t), c.job)
		if c.ok && err != nil {
			t.Errorf("%s reading %s: %v", c.user, c.job, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "401")) {
			t.Errorf("%s reading %s: %v, want 401", c.user, c.job, err)
		}
	}
	// Anonymous callers are the static user, whom the ACL does not name.
	if _, err := e.client(t, proxyUser).Counters(hadoop.AsUser(ctxT(t), minijhs.StaticUser), "job_1700000000000_0003"); err == nil {
		t.Error("dr.who read alice's job")
	}
}

func TestACLsOffAdmitEveryone(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	e.leaveHistory(t, "job_1700000000000_0005", aclOf(" "), false)
	if _, err := e.client(t, "bob").Counters(ctxT(t), "job_1700000000000_0005"); err != nil {
		t.Errorf("with mapreduce.cluster.acls.enabled off: %v", err)
	}
}

func TestDoAsRefusedWithoutProxyUserRule(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	e.leaveHistory(t, "job_1700000000000_0006", nil, false)
	_, err := e.client(t, "mallory").Counters(hadoop.AsUser(ctxT(t), owner), "job_1700000000000_0006")
	if err == nil || !strings.Contains(err.Error(), "403") ||
		!strings.Contains(err.Error(), "AuthorizationException: User: mallory is not allowed to impersonate alice") {
		t.Errorf("doAs without a rule: %v", err)
	}
}
