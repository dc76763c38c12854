package clustertools

import (
	"context"
	"strings"
	"testing"
)

// TestSubstituteParams: Pig's parameter precedence (%declare over -param
// over %default), both reference forms, field positions and comment lines
// left alone, and an undefined parameter refused.
func TestSubstituteParams(t *testing.T) {
	t.Parallel()
	src := "%default A 'def'\n%default B 'bdef'\n%declare C 'decl'\n-- $NOPE in a comment\nx = '$A ${B} $C' $0;\n"
	got, err := substituteParams(src, map[string]string{"A": "cli", "C": "cli"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "\n\n\n-- $NOPE in a comment\nx = 'cli bdef decl' $0;\n"; got != want {
		t.Errorf("substituted %q, want %q", got, want)
	}
	if _, err := substituteParams("A = LOAD '$MISSING';", nil); err == nil || !strings.Contains(err.Error(), "Undefined parameter : MISSING") {
		t.Errorf("error %v", err)
	}
}

// TestPigEvaluation: what FILTER and FOREACH compute over loaded tuples:
// casts to the schema (a bad value is null), null in comparisons and
// arithmetic, Java's integer division, MATCHES, IS NULL and the builtins.
func TestPigEvaluation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script string
		want         string
	}{
		{"filter and arithmetic", "B = FILTER A BY n > 1 AND s != 'c';\nC = FOREACH B GENERATE s, n * 2, n / 2, n % 2, n / 2.0;",
			"b\t4\t1\t0\t1.0\nd\t6\t1\t1\t1.5\n"},
		{"nulls", "C = FOREACH A GENERATE n IS NULL, n + 1, CONCAT(s, '!');", "false\t2\ta!\nfalse\t3\tb!\ntrue\t\tc!\nfalse\t4\td!\n"},
		{"matches and not", "B = FILTER A BY NOT (s MATCHES '[ab]');\nC = FOREACH B GENERATE UPPER(s), SIZE(raw);", "C\t1\nD\t1\n"},
		{"positional on bytearray", "B = FILTER A BY $2 == '3';\nC = FOREACH B GENERATE *;", "d\t3\t3\n"},
		{"bytearray compared with a number", "B = FILTER A BY raw >= 2;\nC = FOREACH B GENERATE s;", "b\nd\n"},
	}
	rows := []string{"a,1,1", "b,2,2", "c,x,x", "d,3,3"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stmts, err := parsePig("A = LOAD 'in' USING PigStorage(',') AS (s:chararray, n:int, raw);\n" + tt.script + "\nSTORE C INTO 'out';")
			if err != nil {
				t.Fatal(err)
			}
			plan, err := compilePig(stmts)
			if err != nil {
				t.Fatal(err)
			}
			run := &pigRun{ctx: context.Background(), memo: map[*pigRel][]pigTuple{}}
			store := plan.stores[0]
			load := store
			for load.in != nil {
				load = load.in
			}
			for _, r := range rows {
				run.memo[load] = append(run.memo[load], splitTuple(r, ",", load.schema))
			}
			got, err := run.eval(store)
			if err != nil {
				t.Fatal(err)
			}
			if s := string(formatTuples(got, "\t")); s != tt.want {
				t.Errorf("stored %q, want %q", s, tt.want)
			}
		})
	}
}
