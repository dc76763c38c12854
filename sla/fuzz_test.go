package sla

import (
	"errors"
	"testing"
	"time"
)

// FuzzParseChange: any change value parses or fails with an E1015 *Error,
// never panics, and a parsed change holds no negative minutes.
func FuzzParseChange(f *testing.F) {
	f.Add("sla-should-start=10;sla-should-end=30")
	f.Add("sla-max-duration=${10 * MINUTES}")
	f.Fuzz(func(t *testing.T, v string) {
		c, err := ParseChange(v, parseUTC)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code != "E1015" {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		for _, d := range []*time.Duration{c.ShouldStart, c.ShouldEnd, c.MaxDuration} {
			if d != nil && *d < 0 {
				t.Fatalf("negative minutes from %q", v)
			}
		}
		// Applying it to a registration never panics.
		_ = c.Apply(reg(10))
	})
}
