package jobs

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

func TestJobLogOfAFailedRun(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2025, 1, 27, 9, 0, 0, 0, time.UTC)
	job := store.WorkflowJob{
		ID: "0000004-250127091857123-gozie-test-W", AppName: "etl", AppPath: "hdfs://nn/apps/etl", User: "joe", Group: "eng",
		Status: store.WorkflowKilled, Run: 1, ErrorCode: "E0729", ErrorMessage: "load failed",
		CreatedTime: t0, StartTime: t0.Add(time.Minute), EndTime: t0.Add(10 * time.Minute), LastModified: t0.Add(10 * time.Minute),
	}
	acts := []store.WorkflowAction{
		{ID: job.ID + "@load", Name: "load", Type: "hive2", Status: store.ActionError, Transition: "fail",
			ExternalID: "hive-op-1", ConsoleURL: "http://hs2/op/1", ErrorCode: "JA018", ErrorMessage: "table not found",
			UserRetryCount: 2, UserRetryMax: 3, CreatedTime: t0.Add(time.Minute), StartTime: t0.Add(2 * time.Minute),
			EndTime: t0.Add(9 * time.Minute), LastModified: t0.Add(8 * time.Minute)},
		{ID: job.ID + "@report", Name: "report", Type: "shell", Status: store.ActionRunning, ExternalID: "application_1_2",
			ExternalStatus: "RUNNING", CreatedTime: t0.Add(3 * time.Minute), StartTime: t0.Add(3 * time.Minute),
			LastModified: t0.Add(4 * time.Minute)},
	}
	var b strings.Builder
	if err := writeJobLog(&b, &job, acts, oozieapi.GMT); err != nil {
		t.Fatal(err)
	}
	p := "USER[joe] GROUP[eng] APP[etl] JOB[" + job.ID + "] ACTION["
	want := []string{
		"2025-01-27 09:00:00,000 INFO  " + p + "-] workflow job submitted, app path [hdfs://nn/apps/etl]",
		"2025-01-27 09:01:00,000 INFO  " + p + "-] workflow job started, run [1]",
		"2025-01-27 09:02:00,000 INFO  " + p + job.ID + "@load] node [load] type [hive2] started, external id [hive-op-1], console [http://hs2/op/1]",
		"2025-01-27 09:03:00,000 INFO  " + p + job.ID + "@report] node [report] type [shell] started, external id [application_1_2]",
		"2025-01-27 09:04:00,000 INFO  " + p + job.ID + "@report] node [report] is [RUNNING], external status [RUNNING]",
		"2025-01-27 09:08:00,000 INFO  " + p + job.ID + "@load] node [load] user retry [2] of [3]",
		"2025-01-27 09:09:00,000 WARN  " + p + job.ID + "@load] node [load] ended with status [ERROR], transition [fail], error [JA018]: table not found",
		"2025-01-27 09:10:00,000 WARN  " + p + "-] workflow job ended with status [KILLED], error [E0729]: load failed",
	}
	if got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"); !reflect.DeepEqual(got, want) {
		t.Errorf("log\n got %q\nwant %q", got, want)
	}
}
