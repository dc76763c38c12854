package client

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/jobs/jobstest"
)

// waitStatus polls a job's status until it is want, failing after a deadline.
func waitStatus(t *testing.T, c *Client, id, want string) {
	t.Helper()
	testwait.WaitForLast(t, testwait.Timeout, id+" to be "+want, func() (bool, string) {
		got, err := c.JobStatus(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return got == want, got
	})
}

// coordSetup runs an hourly coordinator of three no-op actions to its end and returns its id.
func coordSetup(t *testing.T) (*Client, *jobstest.Env, string) {
	t.Helper()
	c, env, _, noOp := jobsSetup(t)
	env.StartEngine(t)
	app := env.WriteCoordApp(t, "hourly", jobstest.HourlyCoordApp(noOp, "2025-01-27T00:00Z", "2025-01-27T03:00Z"))
	id, err := c.Submit(context.Background(), conf.NewProperties("user.name", "joe", "oozie.coord.application.path", app), false)
	if err != nil {
		t.Fatal(err)
	}
	waitStatus(t, c, id, "SUCCEEDED")
	return c, env, id
}

func TestCoordinatorCommands(t *testing.T) {
	t.Parallel()
	c, _, id := coordSetup(t)
	ctx := context.Background()

	job, err := c.CoordinatorInfo(ctx, id, CoordQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if job.ID != id || len(job.Actions) != 3 || job.Total != 3 || job.Frequency != "60" || job.TimeUnit != "MINUTE" {
		t.Fatalf("info %+v", job)
	}
	page, err := c.CoordinatorInfo(ctx, id, CoordQuery{Offset: 1, Len: 2, Desc: true, Filter: "status=SUCCEEDED"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Actions) != 2 || page.Actions[0].ActionNumber != 3 || page.Actions[1].ActionNumber != 2 {
		t.Errorf("page %+v", page.Actions)
	}
	a, err := c.CoordActionInfo(ctx, id+"@1")
	if err != nil {
		t.Fatal(err)
	}
	if a.ActionNumber != 1 || a.Status != "SUCCEEDED" || !a.NominalTime.Equal(time.Date(2025, 1, 27, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("action %+v", a)
	}
	killed, err := c.KillActions(ctx, id, Scope{Type: "action", Scope: "1-3"})
	if err != nil || len(killed) != 0 {
		t.Errorf("kill finished actions: %v %+v", err, killed)
	}
	var e *Error
	if _, err := c.IgnoreActions(ctx, id, Scope{Type: "action", Scope: "1"}); !errors.As(err, &e) || e.Code != "E1024" {
		t.Errorf("ignore of a succeeded action: %v", err)
	}
	rerun, err := c.CoordRerun(ctx, id, Scope{Type: "date", Scope: "2025-01-27T01:00Z::2025-01-27T02:00Z"},
		CoordRerunOptions{NoCleanup: true, Conf: conf.NewProperties("extra", "1")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rerun) != 2 || rerun[0].ActionNumber != 2 || rerun[1].ActionNumber != 3 || rerun[0].Status != "WAITING" {
		t.Errorf("rerun %+v", rerun)
	}
	waitStatus(t, c, id, "SUCCEEDED")
	if err := c.Change(ctx, id, "concurrency=5"); err != nil {
		t.Fatal(err)
	}
	if job, err = c.CoordinatorInfo(ctx, id, CoordQuery{}); err != nil || job.Concurrency != 5 {
		t.Errorf("after change: %v concurrency %d", err, job.Concurrency)
	}
	if err := c.Change(ctx, id, "colour=blue"); !errors.As(err, &e) || e.Code != "E1015" {
		t.Errorf("bad change: %v", err)
	}
	if err := c.Ignore(ctx, id); !errors.As(err, &e) || e.Code != "E1024" {
		t.Errorf("ignore of a succeeded job: %v", err)
	}
	list, err := c.CoordinatorJobs(ctx, JobsQuery{Filter: "status=SUCCEEDED"})
	if err != nil || list.Total != 1 || len(list.Jobs) != 1 || list.Jobs[0].ID != id {
		t.Errorf("list: %v %+v", err, list)
	}
	n, err := c.NotifyDataset(ctx, "file:///nothing/waits/here")
	if err != nil || n != 0 {
		t.Errorf("notify: %d %v", n, err)
	}
}
