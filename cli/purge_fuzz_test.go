package cli

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// FuzzPurgeOptions feeds arbitrary -purge values to the parser: it never
// panics, refuses with Oozie's INVALID_INPUT errors, and what it accepts
// reads back the same from its canonical spelling.
func FuzzPurgeOptions(f *testing.F) {
	for _, s := range []string{"wf=30;coord=7;bundle=7;limit=100;oldcoordaction=true", "WF=5;oldCoordAction=false;",
		"invalid=1", "wf=1;coord=", "wf=1;coord=-1", "wf=a", "=", ";;", "limit= 3 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := parsePurgeOptions(s)
		if err != nil {
			var pe *plainError
			if !errors.As(err, &pe) || !strings.HasPrefix(pe.msg, "INVALID_INPUT : ") {
				t.Fatalf("%q: error %v is not Oozie's INVALID_INPUT", s, err)
			}
			return
		}
		var parts []string
		for name, v := range map[string]*int{"wf": o.WorkflowDays, "coord": o.CoordDays, "bundle": o.BundleDays, "limit": o.Limit} {
			if v != nil {
				if *v < 0 {
					t.Fatalf("%q: negative %s accepted", s, name)
				}
				parts = append(parts, name+"="+strconv.Itoa(*v))
			}
		}
		if o.OldCoordAction != nil {
			parts = append(parts, "oldcoordaction="+strconv.FormatBool(*o.OldCoordAction))
		}
		again, err := parsePurgeOptions(strings.Join(parts, ";"))
		if err != nil {
			t.Fatalf("%q: canonical form %q refused: %v", s, strings.Join(parts, ";"), err)
		}
		for _, pair := range [][2]*int{{o.WorkflowDays, again.WorkflowDays}, {o.CoordDays, again.CoordDays},
			{o.BundleDays, again.BundleDays}, {o.Limit, again.Limit}} {
			if (pair[0] == nil) != (pair[1] == nil) || (pair[0] != nil && *pair[0] != *pair[1]) {
				t.Fatalf("%q: options changed on a round trip", s)
			}
		}
	})
}
