package jobs

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

func TestParseJobType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want JobType
		ok   bool
	}{
		{"", TypeWorkflow, true},
		{"wf", TypeWorkflow, true},
		{"coord", TypeCoordinator, true},
		{"coordinator", TypeCoordinator, true},
		{"bundle", TypeBundle, true},
		{"bundles", TypeBundle, true},
		{"workflow", "", false},
		{"WF", "", false},
	}
	for _, tt := range tests {
		got, ok := ParseJobType(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseJobType(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseFilter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 10, 12, 30, 0, 0, time.UTC)
	tests := []struct {
		name   string
		filter string
		typ    JobType
		want   Filter
	}{
		{"empty", "", TypeWorkflow, Filter{}},
		{"only separators", ";;", TypeWorkflow, Filter{}},
		{"same name is ORed", "status=RUNNING;status=KILLED", TypeWorkflow,
			Filter{JobFilter: store.JobFilter{Statuses: []string{"RUNNING", "KILLED"}}}},
		{"names are case-insensitive, values kept as written", "USER=Joe;Name=my app;GROUP=etl;Id=0000001-250127091857123-oozie-oozi-W", TypeWorkflow,
			Filter{JobFilter: store.JobFilter{Users: []string{"Joe"}, Names: []string{"my app"}, Groups: []string{"etl"},
				IDs: []string{"0000001-250127091857123-oozie-oozi-W"}}}},
		{"text", "text=nightly", TypeWorkflow, Filter{JobFilter: store.JobFilter{Text: "nightly"}}},
		{"sortby any case", "sortby=LASTMODIFIEDTIME", TypeWorkflow, Filter{JobFilter: store.JobFilter{SortBy: SortLastModifiedTime}}},
		{"absolute created times", "startcreatedtime=2025-01-01T00:00Z;endcreatedtime=2025-02-01T10:30Z", TypeWorkflow,
			Filter{JobFilter: store.JobFilter{CreatedFrom: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
				CreatedTo: time.Date(2025, 2, 1, 10, 30, 0, 0, time.UTC)}}},
		{"relative created times", "startcreatedtime=-2d;endcreatedtime=-3h", TypeWorkflow,
			Filter{JobFilter: store.JobFilter{CreatedFrom: now.AddDate(0, 0, -2), CreatedTo: now.Add(-3 * time.Hour)}}},
		{"minutes and zero offsets", "startcreatedtime=-90m;endcreatedtime=0d", TypeWorkflow,
			Filter{JobFilter: store.JobFilter{CreatedFrom: now.Add(-90 * time.Minute), CreatedTo: now}}},
		{"trailing '=' pieces are dropped, as Java's split does", "user=joe=", TypeWorkflow,
			Filter{JobFilter: store.JobFilter{Users: []string{"joe"}}}},
		{"coordinator statuses", "status=RUNNINGWITHERROR;status=PREPSUSPENDED", TypeCoordinator,
			Filter{JobFilter: store.JobFilter{Statuses: []string{"RUNNINGWITHERROR", "PREPSUSPENDED"}}}},
		{"frequency alone is minutes", "frequency=60", TypeCoordinator, Filter{Frequency: "60", Unit: "MINUTE"}},
		{"hours become minutes", "frequency=2;unit=HOURS", TypeCoordinator, Filter{Frequency: "120", Unit: "MINUTE"}},
		{"fractions are cut", "unit=days;frequency=1.9", TypeCoordinator, Filter{Frequency: "1", Unit: "DAY"}},
		{"NaN is zero, as Java casts it", "frequency=NaN", TypeCoordinator, Filter{Frequency: "0", Unit: "MINUTE"}},
		{"infinity saturates", "frequency=Infinity;unit=hours", TypeCoordinator, Filter{Frequency: "128849018820", Unit: "MINUTE"}},
		{"months", "frequency=3;unit=months", TypeCoordinator, Filter{Frequency: "3", Unit: "MONTH"}},
		{"bundle user", "user=joe", TypeBundle, Filter{JobFilter: store.JobFilter{Users: []string{"joe"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFilter(tt.filter, tt.typ, now)
			if err != nil {
				t.Fatalf("ParseFilter(%q): %v", tt.filter, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseFilter(%q)\n got %+v\nwant %+v", tt.filter, got, tt.want)
			}
		})
	}
}

func TestParseFilterErrors(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 10, 12, 30, 0, 0, time.UTC)
	const hint = " Specify time either in UTC format (yyyy-MM-dd'T'HH:mm'Z') or a offset value in days/hours/minutes e.g. (-2d/-1h/-5m)"
	tests := []struct {
		filter string
		typ    JobType
		reason string
	}{
		{"user", TypeWorkflow, "elements must be semicolon-separated name=value pairs"},
		{"user=", TypeWorkflow, "elements must be semicolon-separated name=value pairs"},
		{"user=a=b", TypeWorkflow, "elements must be semicolon-separated name=value pairs"},
		{"user=joe;status", TypeWorkflow, "elements must be semicolon-separated name=value pairs"},
		{"=joe", TypeWorkflow, "invalid name []"},
		{"owner=joe", TypeWorkflow, "invalid name [owner]"},
		{"frequency=5", TypeWorkflow, "invalid name [frequency]"},
		{"unit=days", TypeBundle, "invalid name [unit]"},
		{"status=running", TypeWorkflow, "invalid status [running]"},
		{"status=DONEWITHERROR", TypeWorkflow, "invalid status [DONEWITHERROR]"},
		{"status=OK", TypeCoordinator, "invalid status [OK]"},
		{"text=a;text=b", TypeWorkflow, "cannot specify multiple text"},
		{"sortby=createdTime;sortby=createdTime", TypeWorkflow, "cannot specify multiple sortby"},
		{"startcreatedtime=-1d;startcreatedtime=-2d", TypeWorkflow, "cannot specify multiple startcreatedtime"},
		{"sortby=name", TypeWorkflow, "invalid sortby [name], use createdTime or lastModifiedTime"},
		{"startcreatedtime=2d", TypeWorkflow, "offset must be minus from currentTime."},
		{"endcreatedtime=-2w", TypeWorkflow, "Unsupported time format: -2w" + hint},
		{"endcreatedtime=-xd", TypeWorkflow, "Unsupported time format: -xd" + hint},
		{"startcreatedtime=2025-02-30T00:00Z", TypeWorkflow, "Unsupported time format: 2025-02-30T00:00Z" + hint},
		{"startcreatedtime=2025-01-01", TypeWorkflow, "The format of time is wrong: 2025-01-01" + hint},
		{"frequency=often", TypeCoordinator, "invalid value [often] for frequency. A numerical value is expected"},
		{"frequency=5;unit=weeks", TypeCoordinator, "invalid value [weeks] for time unit. Valid value is one of months, days, hours or minutes"},
		{"unit=days", TypeCoordinator, "time unit should be added only when frequency is specified. Either specify frequency also or else remove the time unit"},
	}
	for _, tt := range tests {
		t.Run(tt.filter, func(t *testing.T) {
			_, err := ParseFilter(tt.filter, tt.typ, now)
			var fe *FilterError
			if !errors.As(err, &fe) {
				t.Fatalf("ParseFilter(%q) = %v, want a *FilterError", tt.filter, err)
			}
			if fe.Reason != tt.reason || fe.Filter != tt.filter || fe.ErrorCode() != "E0420" {
				t.Errorf("ParseFilter(%q) = %+v, want reason %q", tt.filter, *fe, tt.reason)
			}
			if want := "E0420: Invalid jobs filter [" + tt.filter + "], " + tt.reason; err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
		})
	}
}
