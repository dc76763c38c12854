package server

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestAvailableTimezones(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{})
	resp, body := f.call(t, http.MethodGet, "/oozie/v1/admin/available-timezones")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var got struct {
		Zones []Timezone `json:"available-timezones"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Zones) != len(zoneList)+len(gmtOffsetZones) || len(zoneList) < 400 {
		t.Fatalf("%d zones listed from %d tz database zones", len(got.Zones), len(zoneList))
	}
	byID := map[string]string{}
	var ids []string
	for i, z := range got.Zones {
		if strings.HasPrefix(z.ID, "Etc/GMT") {
			t.Errorf("%s is listed; Oozie leaves Etc/GMT zones out", z.ID)
		}
		if !strings.HasSuffix(z.DisplayName, " ("+z.ID+")") {
			t.Errorf("display name %q does not end with the id", z.DisplayName)
		}
		byID[z.ID] = z.DisplayName
		if i < len(zoneList) {
			ids = append(ids, z.ID)
		}
	}
	if !sort.StringsAreSorted(ids) {
		t.Error("zone ids are not sorted")
	}
	// Examples from Oozie's documentation and Java's short standard names.
	for id, want := range map[string]string{
		"Pacific/Midway":      "SST (Pacific/Midway)",
		"America/Los_Angeles": "PST (America/Los_Angeles)",
		"Europe/London":       "GMT (Europe/London)",
		"Asia/Kolkata":        "IST (Asia/Kolkata)",
		"UTC":                 "UTC (UTC)",
		"GMT+05:00":           "GMT+05:00 (GMT+05:00)",
		"GMT-12:00":           "GMT-12:00 (GMT-12:00)",
	} {
		if byID[id] != want {
			t.Errorf("%s: %q, want %q", id, byID[id], want)
		}
	}
	if tail := got.Zones[len(got.Zones)-1]; tail.ID != "GMT+12:00" {
		t.Errorf("the list ends with %s, want the GMT offsets last", tail.ID)
	}
}

func TestListedZonesLoad(t *testing.T) {
	t.Parallel()
	// Every listed id must be usable as a job time zone (from the embedded tz database when
	// the machine has none). Display names come from the generator and are only checked for
	// shape here: the machine's own tz database may be older than Go's.
	for _, z := range zoneList {
		if _, err := time.LoadLocation(z.id); err != nil {
			t.Errorf("%s: %v", z.id, err)
		}
		if z.display == "" || strings.ContainsAny(z.display, " ()") {
			t.Errorf("%s: display name %q", z.id, z.display)
		}
	}
}
