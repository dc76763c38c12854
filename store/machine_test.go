package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// drawn is a machine as its doc draws it: the initial statuses ("(new)")
// and the moves, by status name.
type drawn struct {
	initial []string
	moves   map[string][]string
}

// asDrawn renders a machine as its doc should draw it.
func asDrawn[S ~string](m Machine[S]) drawn {
	d := drawn{moves: map[string][]string{}}
	for _, s := range m.Initial {
		d.initial = append(d.initial, string(s))
	}
	for from, tos := range m.Moves {
		for _, to := range tos {
			d.moves[string(from)] = append(d.moves[string(from)], string(to))
		}
	}
	return d
}

// diagrams reads the move lists drawn in the docs of status.go's
// variables: lines "FROM ──► TO | TO ..." in a doc comment.
func diagrams(t *testing.T) map[string]drawn {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "status.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]drawn{}
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR || g.Doc == nil {
			continue
		}
		d := drawn{moves: map[string][]string{}}
		arrows := 0
		for _, line := range strings.Split(g.Doc.Text(), "\n") {
			from, to, ok := strings.Cut(line, "──►")
			if !ok {
				continue
			}
			arrows++
			from = strings.TrimSpace(from)
			for _, s := range strings.Split(to, "|") {
				s = strings.TrimSpace(s)
				if from == "(new)" {
					d.initial = append(d.initial, s)
				} else {
					d.moves[from] = append(d.moves[from], s)
				}
			}
		}
		if arrows > 0 {
			out[g.Specs[0].(*ast.ValueSpec).Names[0].Name] = d
		}
	}
	return out
}

// sameSet reports whether two lists hold the same names.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestDiagramsMatchTables checks every arrow drawn in status.go against
// the machine it documents, both ways, and that every machine but the
// derived BundleActionMachine is drawn.
func TestDiagramsMatchTables(t *testing.T) {
	tables := map[string]drawn{
		"WorkflowMachine":    asDrawn(WorkflowMachine),
		"ActionMachine":      asDrawn(ActionMachine),
		"CoordJobMachine":    asDrawn(CoordJobMachine),
		"BundleJobMachine":   asDrawn(BundleJobMachine),
		"CoordActionMachine": asDrawn(CoordActionMachine),
	}
	docs := diagrams(t)
	for name, table := range tables {
		doc, ok := docs[name]
		if !ok {
			t.Errorf("%s: no move list in its doc", name)
			continue
		}
		if !sameSet(doc.initial, table.initial) {
			t.Errorf("%s: doc draws (new) ──► %v, table has %v", name, doc.initial, table.initial)
		}
		for from := range mergeKeys(doc.moves, table.moves) {
			if !sameSet(doc.moves[from], table.moves[from]) {
				t.Errorf("%s: doc draws %s ──► %v, table has %v", name, from, doc.moves[from], table.moves[from])
			}
		}
	}
	for name := range docs {
		if _, ok := tables[name]; !ok {
			t.Errorf("status.go draws moves for %s, which this test does not check", name)
		}
	}
}

// mergeKeys returns the keys of both maps.
func mergeKeys(a, b map[string][]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// TestMachines checks the tables' shape: every status has a row or is
// terminal for good, no move leads to an unknown status, and the bundle
// link's table holds the coordinator's.
func TestMachines(t *testing.T) {
	for from, tos := range BundleActionMachine.Moves {
		for _, to := range tos {
			if !slices.Contains(JobStatuses, to) || !slices.Contains(JobStatuses, from) {
				t.Errorf("BundleActionMachine: unknown move %s -> %s", from, to)
			}
		}
	}
	for from, tos := range CoordJobMachine.Moves {
		for _, to := range tos {
			if !BundleActionMachine.Allows(from, to) {
				t.Errorf("BundleActionMachine lacks the coordinator's move %s -> %s", from, to)
			}
		}
	}
	if !BundleActionMachine.Allows(JobPrep, JobSucceeded) || BundleActionMachine.Allows(JobKilled, JobPrep) {
		t.Error("BundleActionMachine is not the closure of CoordJobMachine")
	}
	if got := WorkflowMachine.Into(WorkflowPrep); !slices.Equal(got, []WorkflowStatus{WorkflowPrep, WorkflowSucceeded,
		WorkflowKilled, WorkflowFailed}) {
		t.Errorf("WorkflowMachine.Into(PREP) = %v", got)
	}
	// A row is created in an initial status or one move from one (KILLED:
	// created PREP and killed by the same decision); never END_RETRY.
	if !ActionMachine.Creates(ActionKilled) || ActionMachine.Creates(ActionEndRetry) {
		t.Error("ActionMachine.Creates disagrees with its initial statuses and moves")
	}
}
