package sqlstore

import (
	"testing"
	"time"
)

// FuzzPurgeCursors feeds arbitrary cursors to the two cursor parsers: they
// never panic, and what they accept encodes to a cursor that reads back as
// the same position.
func FuzzPurgeCursors(f *testing.F) {
	for _, s := range []string{"", "a|1767225600000|0000001-260101000000000-gozie-C", "r|0|B", "j|C1",
		"a|1767225600000|C1@3|C1", "a|x|y", "r||", "j|"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if k, err := parsePurgeKey(s); err == nil {
			if again, err := parsePurgeKey(k.String()); err != nil || again != k {
				t.Fatalf("job cursor %q: %+v encodes as %q, read back as %+v (%v)", s, k, k.String(), again, err)
			}
		}
		if c, err := parseActionCursor(s); err == nil {
			if again, err := parseActionCursor(c.String()); err != nil || again != c {
				t.Fatalf("action cursor %q: %+v encodes as %q, read back as %+v (%v)", s, c, c.String(), again, err)
			}
		}
	})
}

func TestPurgeCursorRoundTrip(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 123e6, time.UTC)
	keys := []purgeKey{{}, {lm: at, id: "W1"}, {lm: at, id: "C|odd", resume: true}}
	for _, k := range keys {
		got, err := parsePurgeKey(k.String())
		if err != nil || got != k {
			t.Errorf("%+v read back as %+v (%v)", k, got, err)
		}
	}
	cursors := []actionCursor{{}, {job: "C1"}, {job: "C|1", nominal: at, action: "C|1@2"}}
	for _, c := range cursors {
		got, err := parseActionCursor(c.String())
		if err != nil || got != c {
			t.Errorf("%+v read back as %+v (%v)", c, got, err)
		}
	}
}
