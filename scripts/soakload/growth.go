package main

import (
	"fmt"
	"slices"
)

// A series is one quantity sampled at each interval of a soak, oldest first.
type series struct {
	name   string
	values []float64
	// floor is the least growth that counts: a rise by less is noise (a few
	// goroutines of requests in flight, a page of heap).
	floor float64
	// checked says whether the rule applies; a database grows with the jobs
	// it keeps until they are purged, and is only recorded.
	checked bool
}

// maxGrowth is how much more the last third of a series may reach than its
// first third, relative to the first third's maximum.
const maxGrowth = 0.20

// grows reports whether s grows without bound, and why: after the first
// sample (the server before the load), the series is cut in thirds, and it
// grows when the maximum of the last third exceeds the maximum of the first
// third by more than maxGrowth of it and by more than the series' floor. A
// quantity that rises while the load warms up and then stays level passes;
// one that is still climbing at the end fails. It needs at least three
// samples under load, and says so when it has fewer.
func (s series) grows() (bool, string) {
	if !s.checked {
		return false, "recorded only"
	}
	v := s.values
	if len(v) > 0 {
		v = v[1:]
	}
	if len(v) < 3 {
		return false, fmt.Sprintf("too few samples under load (%d) to judge", len(v))
	}
	third := len(v) / 3
	first, last := slices.Max(v[:third]), slices.Max(v[len(v)-third:])
	limit := max(first*(1+maxGrowth), first+s.floor)
	if last > limit {
		return true, fmt.Sprintf("last third reaches %.0f, above %.0f (first third's max %.0f + max(%.0f%%, %.0f))",
			last, limit, first, maxGrowth*100, s.floor)
	}
	return false, fmt.Sprintf("last third's max %.0f within %.0f (first third's max %.0f)", last, limit, first)
}
