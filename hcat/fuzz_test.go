package hcat

import (
	"strings"
	"testing"
)

// FuzzParse: Parse never panics, and a URI it accepts is rebuilt by Format
// into one that parses to the same table and partitions.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"hcat://h:9083/db/t/ds=1;region=us", "hcat://h1:1,h2:2/db/t/a=1/", "hcat:///db/t/a=1",
		"hcat://h/db//a=1", "hcat://h/db/t/a=1=2", "hcat://h/db/t/%zz", "hcat://h/db/t/;;a=1;?x#y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Parse(s)
		if err != nil || len(u.Partitions) == 0 {
			return // an empty specification (";") parses, as in Oozie, but has no URI of its own
		}
		for _, p := range u.Partitions {
			if strings.ContainsAny(p.Key+p.Value, "/;=%?#") || strings.ContainsAny(u.DB+u.Table, "/%?#") {
				return // Format does not escape; such URIs only arise from escapes
			}
		}
		v, err := Parse(Format(u.Server, u.DB, u.Table, u.Partitions))
		if err != nil {
			t.Fatalf("Format of %q does not parse: %v", s, err)
		}
		if v.DB != u.DB || v.Table != u.Table || len(v.Partitions) != len(u.Partitions) {
			t.Fatalf("%q: %+v != %+v", s, v, u)
		}
		for i := range v.Partitions {
			if v.Partitions[i] != u.Partitions[i] {
				t.Fatalf("%q: %+v != %+v", s, v, u)
			}
		}
	})
}
