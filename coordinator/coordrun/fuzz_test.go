package coordrun

import (
	"slices"
	"strings"
	"testing"
)

// FuzzMissingDependencies checks the handling of Oozie's missing-dependency
// strings ("uri#uri!!${coord:latest(0)}"), which are read back from the
// store and may hold anything a URI template produced: pruning the
// available URIs keeps the others in order and the unresolved part as it
// was, and the waits index gets normalized, distinct URIs of the missing
// dependencies only.
func FuzzMissingDependencies(f *testing.F) {
	f.Add("hdfs://nn/a/_SUCCESS#hdfs://nn/b/_SUCCESS", "hdfs://nn/a/_SUCCESS")
	f.Add("file:///x/#file:///y!!${coord:latest(0)}#${coord:latest(-1)}", "file:///y")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, missing, available string) {
		deps := resolvedDependencies(missing)
		pruned := pruneAvailable(missing, map[string]bool{available: true})
		var want []string
		for _, d := range deps {
			if d != available {
				want = append(want, d)
			}
		}
		if got := resolvedDependencies(pruned); !slices.Equal(got, want) {
			t.Fatalf("pruning %q from %q: %q, want %q", available, missing, got, want)
		}
		_, un, has := strings.Cut(missing, unresolvedSeparator)
		_, gotUn, gotHas := strings.Cut(pruned, unresolvedSeparator)
		if has != gotHas || (has && gotUn != un) {
			t.Fatalf("pruning changed the unresolved part of %q: %q", missing, pruned)
		}
		norm := map[string]bool{}
		for _, d := range deps {
			norm[normalizeURI(d)] = true
		}
		seen := map[string]bool{}
		for _, u := range waitURIs(nil, missing) {
			if seen[u] || !norm[u] || u != normalizeURI(u) {
				t.Fatalf("wait URI %q of %q: duplicate, not a dependency, or not normalized", u, missing)
			}
			seen[u] = true
		}
	})
}
