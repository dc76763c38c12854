package client

import (
	"context"
	"errors"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/jobs/jobstest"
)

func TestBundleCommands(t *testing.T) {
	t.Parallel()
	c, env, _, noOp := jobsSetup(t)
	env.StartEngine(t)
	ctx := context.Background()
	coord := env.WriteCoordApp(t, "hourly", jobstest.HourlyCoordApp(noOp, "2025-01-27T00:00Z", "2025-01-27T02:00Z"))
	app := env.WriteBundleApp(t, "bundle", `<bundle-app name="pair" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="one"><app-path>`+coord+`</app-path></coordinator>
  <coordinator name="two"><app-path>`+coord+`</app-path></coordinator>
</bundle-app>`)
	id, err := c.Submit(ctx, conf.NewProperties("user.name", "joe", "oozie.bundle.application.path", app), false)
	if err != nil {
		t.Fatal(err)
	}
	waitStatus(t, c, id, "SUCCEEDED")
	job, err := c.BundleInfo(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if job.ID != id || job.AppName != "pair" || len(job.Coordinators) != 2 || job.Coordinators[0].AppName != "one" ||
		job.Coordinators[1].Status != "SUCCEEDED" {
		t.Fatalf("info %+v", job)
	}
	l, err := c.BundleJobs(ctx, JobsQuery{Filter: "name=pair", Len: 5})
	if err != nil || l.Total != 1 || l.Len != 5 || len(l.Jobs) != 1 || l.Jobs[0].ID != id {
		t.Fatalf("list %+v, %v", l, err)
	}
	if err := c.BundleRerun(ctx, id, BundleRerunOptions{Coordinators: "two", NoCleanup: true}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, c, id, "SUCCEEDED")
	var e *Error
	if err := c.BundleRerun(ctx, id, BundleRerunOptions{}); !errors.As(err, &e) || e.Code != "E0305" {
		t.Errorf("rerun without scope: %v, want E0305", err)
	}
	if err := c.Change(ctx, id, "endtime=2025-01-27T04:00Z"); err != nil {
		t.Fatal(err)
	}
	if job, err = c.BundleInfo(ctx, id); err != nil || job.EndTime.IsZero() || job.Coordinators[0].EndTime.Time != job.EndTime.Time {
		t.Errorf("after change: %+v, %v", job, err)
	}
}
