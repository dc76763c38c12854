package jobs

import (
	"errors"
	"slices"
	"testing"
	"time"
)

func TestParseLogFilter(t *testing.T) {
	t.Parallel()
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	jobStart := time.Date(2025, 1, 27, 10, 0, 0, 0, time.UTC)
	now := jobStart.Add(10 * time.Hour)
	tests := []struct {
		filter   string
		levels   []string
		text     string
		limit    int
		debug    bool
		from, to time.Time // the window for jobStart and now
	}{
		{filter: ""},
		{filter: ";;"},
		{filter: "limit=5", limit: 5},
		{filter: "LIMIT = 5 ", limit: 5},
		{filter: "text= a=b ", text: " a=b "},
		{filter: "loglevel=warn|Error", levels: []string{"WARN", "ERROR"}},
		{filter: "loglevel=INFO;loglevel=DEBUG", levels: []string{"DEBUG"}},
		{filter: "debug", debug: true},
		{filter: "debug=false"},
		{filter: "start=2025-01-27T11:30Z", from: time.Date(2025, 1, 27, 11, 30, 0, 0, time.UTC)},
		{filter: "start=2025-01-27 03:30:00,250", from: time.Date(2025, 1, 27, 11, 30, 0, 250e6, time.UTC)}, // in LA
		{filter: "start=2025-01-27 03:30:00", from: time.Date(2025, 1, 27, 11, 30, 0, 0, time.UTC)},         // Oozie's own layout
		{filter: "start=2h", from: jobStart.Add(2 * time.Hour)},
		{filter: "start=2", from: jobStart.Add(2 * time.Hour)},
		{filter: "end=90m", to: jobStart.Add(90 * time.Minute)},
		{filter: "start=30M;end=1H", from: jobStart.Add(30 * time.Minute), to: jobStart.Add(time.Hour)},
		{filter: "start=1h;end=1h", from: jobStart.Add(time.Hour), to: jobStart.Add(time.Hour)},
		// An end offset counts from a start time, as in Oozie.
		{filter: "start=2025-01-27T20:00Z;end=90m", from: time.Date(2025, 1, 27, 20, 0, 0, 0, time.UTC),
			to: time.Date(2025, 1, 27, 21, 30, 0, 0, time.UTC)},
		// recent counts back from where the log ends when no end is given.
		{filter: "recent=1h;start=2025-01-27T12:00Z", from: now.Add(-time.Hour)},
		{filter: "recent=3h", from: now.Add(-3 * time.Hour)},
		{filter: "recent=30m;end=2h", from: jobStart.Add(90 * time.Minute), to: jobStart.Add(2 * time.Hour)},
		// recent never widens a start already later.
		{filter: "recent=20h;start=1h", from: jobStart.Add(time.Hour)},
	}
	for _, tc := range tests {
		f, err := parseLogFilter(tc.filter, la)
		if err != nil {
			t.Errorf("parseLogFilter(%q): %v", tc.filter, err)
			continue
		}
		from, to := f.window(jobStart, now)
		if !slices.Equal(f.levels, tc.levels) || f.text != tc.text || f.limit != tc.limit || f.debug != tc.debug ||
			!from.Equal(tc.from) || !to.Equal(tc.to) {
			t.Errorf("parseLogFilter(%q) = %+v, window %v – %v", tc.filter, f, from, to)
		}
	}
}

func TestParseLogFilterRefuses(t *testing.T) {
	t.Parallel()
	for _, filter := range []string{"bogus=1", "limit", "limit=0", "limit=x", "limit=-3", "text=", "text",
		"loglevel=", "loglevel=INFO|", "loglevel=LOUD", "debug=yes", "recent=0", "recent=h", "recent=1d", "recent=-2h",
		"start=tomorrow", "end=2025-13-01T00:00Z", "start=99999999999h", "start=2025-01-28T00:00Z;end=2025-01-27T00:00Z", "=3", "start=3h;end=1h", "start=90m;end=1",
		"start=2025-01-27 03:30"} {
		_, err := parseLogFilter(filter, time.UTC)
		var lfe *logFilterError
		if !errors.As(err, &lfe) || lfe.reason == "" {
			t.Errorf("parseLogFilter(%q) = %v, want a logFilterError", filter, err)
		}
	}
}

func TestLogFilterLevels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		filter string
		info   bool
	}{{"", true}, {"loglevel=INFO", true}, {"loglevel=ALL", true}, {"loglevel=WARN|INFO", true}, {"loglevel=WARN|ERROR", false}} {
		f, err := parseLogFilter(tc.filter, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.showsLevel("INFO"); got != tc.info {
			t.Errorf("%q shows INFO: %v, want %v", tc.filter, got, tc.info)
		}
	}
}
