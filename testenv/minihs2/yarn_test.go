package minihs2_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/beltran/gohive"
	"github.com/beltran/gohive/hiveserver"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/testenv/minihs2"
	"github.com/gozie/gozie/yarn"
)

// Statements that Hive runs as DAGs become YARN applications with the
// session's tags, whose AM registers and unregisters with the statement's
// outcome (MiniYARN is strict about the AM life cycle).
func TestStatementsRunAsTaggedYARNApplications(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	s := startServer(t, minihs2.Options{FS: c.FS, YARN: c.YARN.WebURL()})
	rm, err := yarn.NewClient(yarn.Config{Addresses: []string{c.YARN.WebURL()}, Auth: yarn.PseudoAuth{User: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.FS.WriteFile(ctx, "/in/t/data", []byte("1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	conn := connect(t, s, minihs2.Binary, minihs2.AuthNone, "alice", map[string]string{
		"set:hiveconf:tez.application.tags": "gozie-Tag1",
		"set:hiveconf:tez.queue.name":       "default",
	})
	exec(t, conn, "CREATE EXTERNAL TABLE t (a INT) LOCATION '/in/t'")
	cur := exec(t, conn, "INSERT OVERWRITE DIRECTORY '/out' SELECT * FROM t WHERE a > 1")
	if got, err := c.FS.ReadFile(ctx, "/out/000000_0"); err != nil || string(got) != "2\n" {
		t.Fatalf("output %q %v", got, err)
	}
	hist := s.Statements()
	if hist[0].AppID != "" {
		t.Errorf("DDL ran as application %s", hist[0].AppID)
	}
	id, err := yarn.ParseApplicationID(hist[1].AppID)
	if err != nil {
		t.Fatalf("INSERT's application id %q: %v", hist[1].AppID, err)
	}
	r := waitApp(t, rm, id, func(r yarn.AppReport) bool { return r.State == yarn.StateFinished })
	if r.FinalStatus != yarn.FinalSucceeded || r.ApplicationType != "TEZ" || r.User != "alice" ||
		!slices.Equal(r.Tags, []string{"gozie-tag1"}) || !strings.HasPrefix(r.Name, "HIVE-") {
		t.Errorf("application report %+v", r)
	}
	if logs := strings.Join(cur.FetchLogs(), "\n"); !strings.Contains(logs, "Executing on YARN cluster with App id "+id.String()) {
		t.Errorf("operation log lacks the application id:\n%s", logs)
	}

	t.Run("failed statement unregisters FAILED", func(t *testing.T) {
		s.FailNext(2, "Vertex failed, vertexName=Map 1")
		cur := conn.Cursor()
		cur.Exec(ctxT(t), "INSERT OVERWRITE DIRECTORY '/out2' SELECT * FROM t")
		if cur.Err == nil || !strings.Contains(cur.Err.Error(), "Vertex failed") {
			t.Fatalf("statement error %v", cur.Err)
		}
		r := waitApp(t, rm, lastApp(t, s), func(r yarn.AppReport) bool { return r.State == yarn.StateFinished })
		if r.FinalStatus != yarn.FinalFailed || !strings.Contains(r.Diagnostics, "Vertex failed") {
			t.Errorf("report %+v", r)
		}
	})

	t.Run("cancelled statement unregisters KILLED", func(t *testing.T) {
		s.HangNext()
		cur := startHanging(t, s, conn, rm)
		cur.Cancel()
		if cur.Err != nil {
			t.Fatal(cur.Err)
		}
		r := waitApp(t, rm, lastApp(t, s), func(r yarn.AppReport) bool { return r.State == yarn.StateFinished })
		if r.FinalStatus != yarn.FinalKilled {
			t.Errorf("report %+v", r)
		}
	})

	t.Run("killed application fails the statement", func(t *testing.T) {
		s.HangNext()
		cur := startHanging(t, s, conn, rm)
		if err := rm.Kill(ctxT(t), lastApp(t, s)); err != nil {
			t.Fatal(err)
		}
		st := poll(t, cur)
		if st.GetOperationState() != hiveserver.TOperationState_ERROR_STATE || st.GetErrorCode() != 2 ||
			!strings.Contains(st.GetErrorMessage(), "was killed") {
			t.Errorf("statement: %v %d %q", st.GetOperationState(), st.GetErrorCode(), st.GetErrorMessage())
		}
	})
}

// startHanging starts a hanging INSERT and waits until its application's
// AM has registered.
func startHanging(t *testing.T, s *minihs2.Server, conn *gohive.Connection, rm *yarn.Client) *gohive.Cursor {
	t.Helper()
	n := len(s.Statements())
	cur := conn.Cursor()
	cur.Execute(ctxT(t), "INSERT OVERWRITE DIRECTORY '/out3' SELECT * FROM t", true)
	if cur.Err != nil {
		t.Fatal(cur.Err)
	}
	testwait.WaitFor(t, testwait.Timeout, "the statement's application", func() bool {
		h := s.Statements()
		return len(h) > n && h[n].AppID != ""
	})
	waitApp(t, rm, lastApp(t, s), func(r yarn.AppReport) bool { return r.State == yarn.StateRunning })
	return cur
}

func lastApp(t *testing.T, s *minihs2.Server) yarn.ApplicationID {
	t.Helper()
	h := s.Statements()
	id, err := yarn.ParseApplicationID(h[len(h)-1].AppID)
	if err != nil {
		t.Fatalf("last statement's application %q: %v", h[len(h)-1].AppID, err)
	}
	return id
}

func waitApp(t *testing.T, rm *yarn.Client, id yarn.ApplicationID, cond func(yarn.AppReport) bool) yarn.AppReport {
	t.Helper()
	var r yarn.AppReport
	testwait.WaitFor(t, testwait.Timeout, "application "+id.String(), func() bool {
		var err error
		r, err = rm.App(ctxT(t), id)
		return err == nil && cond(r)
	})
	return r
}
