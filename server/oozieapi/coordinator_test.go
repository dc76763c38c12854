package oozieapi

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestCoordinatorJSON(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 1, 27, 1, 0, 0, 0, time.UTC)
	job := CoordinatorJob{
		ID: "0000001-250127091857123-gozie-C", AppName: "hourly", Status: "RUNNING", Frequency: "60", TimeUnit: "MINUTE",
		Concurrency: 2, Timeout: -1, NextMaterializedTime: NewDate(at, GMT), Throttle: 12, Total: 7,
		Actions: []CoordinatorAction{{ID: "0000001-250127091857123-gozie-C@1", ActionNumber: 1, NominalTime: NewDate(at, GMT),
			Status: "WAITING", MissingDependencies: "file:///a/_SUCCESS#file:///b/_SUCCESS"}},
		ToString: CoordinatorJobString("0000001-250127091857123-gozie-C", "RUNNING"),
	}
	b, err := json.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"coordJobId":"0000001-250127091857123-gozie-C"`, `"coordJobName":"hourly"`,
		`"frequency":"60"`, `"timeUnit":"MINUTE"`, `"concurrency":2`, `"timeOut":-1`, `"mat_throttling":12`, `"total":7`,
		`"nextMaterializedTime":"Mon, 27 Jan 2025 01:00:00 GMT"`, `"pauseTime":null`, `"coordJobPath":null`,
		`"actionNumber":1`, `"nominalTime":"Mon, 27 Jan 2025 01:00:00 GMT"`, `"externalId":null`,
		`"missingDependencies":"file:///a/_SUCCESS#file:///b/_SUCCESS"`,
		`"toString":"Coordinator application id[0000001-250127091857123-gozie-C] status[RUNNING]"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b)
		}
	}
	var back CoordinatorJob
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !back.NextMaterializedTime.Equal(at) || !reflect.DeepEqual(back.Actions[0].MissingDependencies, job.Actions[0].MissingDependencies) ||
		back.Total != 7 || back.Frequency != "60" {
		t.Errorf("round trip = %+v", back)
	}
	for _, tc := range []struct {
		v    any
		want string
	}{
		{CoordinatorJob{}, `"actions":[]`},
		{CoordinatorActions{}, `{"actions":[]}`},
		{CoordinatorList{}, `{"coordinatorjobs":[],"total":0,"offset":0,"len":0}`},
		{DatasetNotification{Notified: 3}, `{"notified":3}`},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil || !strings.Contains(string(b), tc.want) {
			t.Errorf("Marshal(%T) = %s, %v; want %s", tc.v, b, err, tc.want)
		}
	}
}
