package store

import "slices"

// Machine is one state machine as data: the statuses a row of its kind is
// created in and, for each status, the statuses one update may move a row
// to. A move is what one write does, so a decision that passes through a
// status inside one transaction (a workflow started and ended by the same
// step) is one move from the first status to the last. Staying in a status
// is always allowed.
//
// The tables are in status.go, next to each status type, with the list of
// moves drawn in the type's doc; TestDiagramsMatchTables checks that the two
// agree, and the property tests of the decision cores (workflow, coordinator,
// bundle) check that every change those cores make is a move of the table.
type Machine[S ~string] struct {
	// All lists every status, in the order Into returns them.
	All []S
	// Initial lists the statuses a row is created in.
	Initial []S
	// Moves lists, for each status, the statuses it may move to.
	Moves map[S][]S
}

// Allows reports whether one update may move a row from one status to
// another.
func (m Machine[S]) Allows(from, to S) bool {
	return from == to || slices.Contains(m.Moves[from], to)
}

// Creates reports whether a row may be created in status s: an initial
// status, or one move from one (the decision that creates a row may move it
// on in the same write, as a workflow killed while its action is created).
func (m Machine[S]) Creates(s S) bool {
	for _, i := range m.Initial {
		if m.Allows(i, s) {
			return true
		}
	}
	return false
}

// Into lists the statuses a row may move to status to from (to itself
// included), in the order of All: the from list of a compare-and-set update
// that moves a row to to.
func (m Machine[S]) Into(to S) []S {
	var out []S
	for _, from := range m.All {
		if m.Allows(from, to) {
			out = append(out, from)
		}
	}
	return out
}

// Closure returns the machine whose moves are the paths of m: a row that
// copies the status of another row (a bundle's link to its coordinator)
// may see several of its moves at once.
func (m Machine[S]) Closure() Machine[S] {
	out := Machine[S]{All: m.All, Initial: m.Initial, Moves: make(map[S][]S, len(m.All))}
	for _, from := range m.All {
		seen := map[S]bool{from: true}
		queue := []S{from}
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			for _, to := range m.Moves[s] {
				if !seen[to] {
					seen[to] = true
					queue = append(queue, to)
				}
			}
		}
		for _, to := range m.All {
			if to != from && seen[to] {
				out.Moves[from] = append(out.Moves[from], to)
			}
		}
	}
	return out
}

// moves builds a move table from rows of (from, to...) lists.
func moves[S ~string](rows ...[]S) map[S][]S {
	out := make(map[S][]S, len(rows))
	for _, r := range rows {
		out[r[0]] = append(out[r[0]], r[1:]...)
	}
	return out
}
