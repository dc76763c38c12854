package oozieapi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestBundleJSON(t *testing.T) {
	t.Parallel()
	kick := time.Date(2025, 1, 27, 1, 0, 0, 0, time.UTC)
	job := BundleJob{
		ID: "0000002-250127091857123-gozie-B", AppName: "nightly", Status: "RUNNING", TimeUnit: BundleTimeUnit,
		KickoffTime: NewDate(kick, GMT), User: "joe",
		Coordinators: []CoordinatorJob{{ID: "0000003-250127091857123-gozie-C", AppName: "load",
			BundleID: "0000002-250127091857123-gozie-B", Status: "RUNNING", Frequency: "60", TimeUnit: "MINUTE"}},
		ToString: BundleJobString("0000002-250127091857123-gozie-B", "RUNNING"),
	}
	b, err := json.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"bundleJobId":"0000002-250127091857123-gozie-B"`, `"bundleJobName":"nightly"`,
		`"bundleJobPath":null`, `"bundleExternalId":null`, `"timeUnit":"NONE"`, `"timeOut":0`,
		`"kickoffTime":"Mon, 27 Jan 2025 01:00:00 GMT"`, `"pauseTime":null`, `"user":"joe"`,
		`"bundleCoordJobs":[{`, `"coordJobName":"load"`, `"bundleId":"0000002-250127091857123-gozie-B"`, `"actions":[]`,
		`"toString":"Bundle id[0000002-250127091857123-gozie-B] status[RUNNING]"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b)
		}
	}
	var back BundleJob
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !back.KickoffTime.Equal(kick) || len(back.Coordinators) != 1 || back.Coordinators[0].AppName != "load" {
		t.Errorf("round trip = %+v", back)
	}
	for _, tc := range []struct {
		v    any
		want string
	}{
		{BundleJob{}, `"bundleCoordJobs":[]`},
		{BundleList{}, `{"bundlejobs":[],"total":0,"offset":0,"len":0}`},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil || !strings.Contains(string(b), tc.want) {
			t.Errorf("Marshal(%T) = %s, %v; want %s", tc.v, b, err, tc.want)
		}
	}
}
