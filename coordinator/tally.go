package coordinator

// Tally counts the statuses of a job's children for a status roll-up
// (RollupCoordinator over actions, bundle.Rollup over coordinators), with
// one status left out of every count (IGNORED).
type Tally[S comparable] struct {
	counts map[S]int
	total  int
}

// NewTally counts statuses, leaving out every one equal to ignored.
func NewTally[S comparable](statuses []S, ignored S) Tally[S] {
	t := Tally[S]{counts: map[S]int{}}
	for _, s := range statuses {
		if s != ignored {
			t.counts[s]++
			t.total++
		}
	}
	return t
}

// Total is the number of statuses counted.
func (t Tally[S]) Total() int { return t.total }

// N is the number of statuses counted that are one of ss.
func (t Tally[S]) N(ss ...S) int {
	sum := 0
	for _, s := range ss {
		sum += t.counts[s]
	}
	return sum
}

// Has reports whether status s was counted at least once.
func (t Tally[S]) Has(s S) bool { return t.counts[s] > 0 }

// Only reports whether every status counted is one of ss (true when none
// was counted).
func (t Tally[S]) Only(ss ...S) bool { return t.total == t.N(ss...) }

// Pick returns a if cond, else b.
func Pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}
