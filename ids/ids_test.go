package ids

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestGeneratorFormat(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 27, 9, 18, 57, 123_000_000, time.UTC)
	tests := []struct {
		name     string
		systemID string
		kind     byte
		want     string
	}{
		{"workflow", "oozie-oozie", Workflow, "0000000-250127091857123-oozie-oozi-W"},
		{"coordinator", "gozie", Coordinator, "0000000-250127091857123-gozie-C"},
		{"bundle", "x", Bundle, "0000000-250127091857123-x-B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := NewGenerator(tt.systemID, start)
			if got := g.Next(tt.kind); got != tt.want {
				t.Errorf("Next = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestGeneratorStartIsUTC(t *testing.T) {
	t.Parallel()
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Skipf("no tz database: %v", err)
	}
	start := time.Date(2025, 1, 27, 1, 18, 57, 5_000_000, la) // 09:18:57.005Z
	got := NewGenerator("s", start).Next(Workflow)
	if want := "0000000-250127091857005-s-W"; got != want {
		t.Errorf("Next = %q, want %q", got, want)
	}
}

func TestGeneratorSequenceGrows(t *testing.T) {
	t.Parallel()
	g := NewGenerator("s", time.Unix(0, 0))
	g.seq.Store(9_999_999)
	if got := g.Next(Workflow); !strings.HasPrefix(got, "9999999-") {
		t.Errorf("Next = %q, want prefix 9999999-", got)
	}
	if got := g.Next(Workflow); !strings.HasPrefix(got, "10000000-") {
		t.Errorf("Next = %q, want prefix 10000000-", got)
	}
}

func TestGeneratorConcurrentUnique(t *testing.T) {
	t.Parallel()
	g := NewGenerator("oozie-test", time.Now())
	const workers, each = 8, 500
	var mu sync.Mutex
	seen := make(map[string]bool, workers*each)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]string, 0, each)
			for i := 0; i < each; i++ {
				local = append(local, g.Next(Workflow))
			}
			mu.Lock()
			defer mu.Unlock()
			for _, id := range local {
				if seen[id] {
					t.Errorf("duplicate id %s", id)
				}
				seen[id] = true
			}
		}()
	}
	wg.Wait()
	if len(seen) != workers*each {
		t.Errorf("got %d ids, want %d", len(seen), workers*each)
	}
}

func TestParseRoundTrip(t *testing.T) {
	t.Parallel()
	start := time.Date(2009, 3, 6, 10, 0, 0, 999_000_000, time.UTC)
	g := NewGenerator("oozie-oozi", start)
	for _, kind := range []byte{Workflow, Coordinator, Bundle} {
		id := g.Next(kind)
		got, err := Parse(id)
		if err != nil {
			t.Fatalf("Parse(%q): %v", id, err)
		}
		if got.String() != id || got.Kind != kind || !got.Start.Equal(start) || got.SystemID != "oozie-oozi" {
			t.Errorf("Parse(%q) = %+v", id, got)
		}
		action := ActionID(id, "my-node")
		got, err = Parse(action)
		if err != nil {
			t.Fatalf("Parse(%q): %v", action, err)
		}
		if got.Child != "my-node" || got.JobID() != id || got.String() != action {
			t.Errorf("Parse(%q) = %+v", action, got)
		}
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		seq     int64
		system  string
		kind    byte
		child   string
		wantErr bool
	}{
		{in: "0000001-250127091857123-oozie-oozi-W", seq: 1, system: "oozie-oozi", kind: 'W'},
		{in: "0000001-250127091857123-oozie-oozi-C@12", seq: 1, system: "oozie-oozi", kind: 'C', child: "12"},
		{in: "12345678-250127091857123-a-B", seq: 12345678, system: "a", kind: 'B'},
		{in: "0000001-250127091857123-oozie-oozi-W@:start:", seq: 1, system: "oozie-oozi", kind: 'W', child: ":start:"},
		{in: "", wantErr: true},
		{in: "000001-250127091857123-oozie-W", wantErr: true},                                   // short sequence
		{in: "0000001-25012709185712-oozie-W", wantErr: true},                                   // short start
		{in: "0000001-251327091857123-oozie-W", wantErr: true},                                  // month 13
		{in: "0000001-250127091857123-oozie-X", wantErr: true},                                  // bad kind
		{in: "0000001-250127091857123-oozie-oozie-W", wantErr: true},                            // system id too long
		{in: "0000001-250127091857123-oozie-W@", wantErr: true},                                 // empty child
		{in: "0000001-250127091857123W", wantErr: true},                                         // no kind separator
		{in: "abcdefg-250127091857123-oozie-W", wantErr: true},                                  // non-digit sequence
		{in: "0000001-250127091857123-oozie-oozi-W@" + strings.Repeat("n", 250), wantErr: true}, // too long
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.in)
			if tt.wantErr {
				if !errors.Is(err, ErrInvalidID) {
					t.Fatalf("Parse(%q) error = %v, want ErrInvalidID", tt.in, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if got.Seq != tt.seq || got.SystemID != tt.system || got.Kind != tt.kind || got.Child != tt.child {
				t.Errorf("Parse(%q) = %+v", tt.in, got)
			}
			if got.String() != tt.in {
				t.Errorf("String() = %q, want %q", got.String(), tt.in)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add("0000001-250127091857123-oozie-oozi-W")
	f.Add("0000001-250127091857123-oozie-oozi-C@12")
	f.Add("0000001-250127091857123--B@x")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(id.String())
		if err != nil {
			t.Fatalf("Parse(%q) ok but re-parse of %q failed: %v", s, id.String(), err)
		}
		if again != id {
			t.Fatalf("round trip of %q: %+v != %+v", s, again, id)
		}
	})
}
