package conf

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testapps"
)

func TestSubstitute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    []string
		depth int
		want  []string
	}{
		{"simple", []string{"nn", "hdfs://nn", "p", "${nn}/x"}, 0, []string{"nn", "hdfs://nn", "p", "hdfs://nn/x"}},
		{"chained", []string{"a", "${b}", "b", "${c}", "c", "v"}, 0, []string{"a", "v", "b", "v", "c", "v"}},
		{"reference built by substitution", []string{"x", "${a${b}}", "b", "c", "ac", "done"}, 0, []string{"x", "done", "b", "c", "ac", "done"}},
		{"unbound stops there", []string{"p", "${a}/${missing}/${a}", "a", "1"}, 0, []string{"p", "1/${missing}/${a}", "a", "1"}},
		{"unbound first keeps the rest", []string{"p", "${missing}${a}", "a", "1"}, 0, []string{"p", "${missing}${a}", "a", "1"}},
		{"blank in name is no reference", []string{"p", "${a b}${a}", "a", "1", "a b", "no"}, 0, []string{"p", "${a b}1", "a", "1", "a b", "no"}},
		{"tab in name is a reference", []string{"p", "${a\tb}", "a\tb", "t"}, 0, []string{"p", "t", "a\tb", "t"}},
		{"empty reference kept", []string{"p", "${}x"}, 0, []string{"p", "${}x"}},
		{"dollar before reference", []string{"p", "$${a}", "a", "1"}, 0, []string{"p", "$1", "a", "1"}},
		{"no EL functions", []string{"p", "${wf:id()}", "wf:id()", "nope"}, 0, []string{"p", "nope", "wf:id()", "nope"}},
		{"el function unbound", []string{"p", "${coord:current(0)}"}, 0, []string{"p", "${coord:current(0)}"}},
		{"substituted value used raw", []string{"a", "${b}", "b", "${c}", "c", "${d}"}, 0, []string{"a", "${d}", "b", "${d}", "c", "${d}"}},
		{"within custom depth", []string{"p", "${x}${x}", "x", "1"}, 3, []string{"p", "11", "x", "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Substitute(NewProperties(tt.in...), tt.depth)
			if err != nil {
				t.Fatal(err)
			}
			if g := pairs(got); !reflect.DeepEqual(g, tt.want) {
				t.Errorf("Substitute = %q, want %q", g, tt.want)
			}
		})
	}
}

func TestSubstituteDepth(t *testing.T) {
	t.Parallel()
	refs := func(n int) string { return strings.Repeat("${x}", n) }
	tests := []struct {
		name    string
		value   string
		depth   int
		wantErr bool
	}{
		{"19 substitutions pass the default", refs(19), 0, false},
		{"20 substitutions fail the default", refs(20), 0, true},
		{"2 pass depth 3", refs(2), 3, false},
		{"3 fail depth 3", refs(3), 3, true},
		{"negative depth means default", refs(19), -1, false},
		{"cycle", "${p}", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Substitute(NewProperties("x", "1", "p", tt.value), tt.depth)
			if tt.wantErr {
				var ce *Error
				if !errors.Is(err, ErrSubstitutionDepth) || !errors.As(err, &ce) || ce.Key != "p" {
					t.Fatalf("error = %v, want ErrSubstitutionDepth naming key p", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v := got.Value("p"); v != strings.Repeat("1", strings.Count(tt.value, "${x}")) {
				t.Errorf("p = %q", v)
			}
		})
	}
}

func TestSubstituteKeepsInputAndFlags(t *testing.T) {
	t.Parallel()
	in := NewProperties("a", "${b}", "b", "1")
	in.Put(Property{Name: "f", Value: "${a}", Final: true, Line: 7})
	out, err := Substitute(in, 0)
	if err != nil {
		t.Fatal(err)
	}
	if in.Value("a") != "${b}" {
		t.Error("Substitute modified its input")
	}
	if e, _ := out.Lookup("f"); e.Value != "1" || !e.Final || e.Line != 7 {
		t.Errorf("f = %+v", e)
	}
}

// TestSubstituteExample resolves the aggregator example's job.properties, whose application
// path is built from other properties and user.name.
func TestSubstituteExample(t *testing.T) {
	t.Parallel()
	testapps.Each(t, substituteExample)
}

func substituteExample(t *testing.T, apps string) {
	f := filepath.Join(apps, "aggregator", "job.properties")
	data, err := readFile(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadProperties(strings.NewReader(data), "job.properties")
	if err != nil {
		t.Fatal(err)
	}
	p.Set("user.name", "joe")
	got, err := Substitute(p.Trimmed(), DefaultSubstituteDepth)
	if err != nil {
		t.Fatal(err)
	}
	path := got.Value("oozie.coord.application.path")
	want := p.Value("nameNode") + "/user/joe/" + p.Value("examplesRoot") + "/apps/aggregator/coordinator.xml"
	if path != want || strings.Contains(path, "${") {
		t.Errorf("application path = %q, want %q", path, want)
	}
}

// TestSubstituteBounded: references that multiply a large value stop at the bounds with an
// error naming the property, before building the result.
func TestSubstituteBounded(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 512<<10)
	// 19 references to 512 KiB: one value of 9.5 MiB.
	p := NewProperties("big", big, "many", strings.Repeat("${big}", 19))
	_, err := Substitute(p, 0)
	var ce *Error
	if !errors.Is(err, ErrSubstitutionSize) || !errors.As(err, &ce) || ce.Key != "many" {
		t.Fatalf("19 x 512 KiB: %v, want ErrSubstitutionSize naming many", err)
	}
	// 40 values of one 512 KiB reference each pass the per-value bound and not the total.
	pairs := []string{"big", big}
	for i := range 40 {
		pairs = append(pairs, fmt.Sprintf("p%02d", i), "${big}")
	}
	_, err = Substitute(NewProperties(pairs...), 0)
	if !errors.Is(err, ErrSubstitutionSize) || !errors.As(err, &ce) || !strings.HasPrefix(ce.Key, "p") {
		t.Fatalf("40 x 512 KiB: %v, want ErrSubstitutionSize naming a p property", err)
	}
	// At the bound itself all is well.
	exact := NewProperties("half", strings.Repeat("y", MaxSubstitutedValue/2), "whole", "${half}${half}")
	if out, err := Substitute(exact, 0); err != nil || len(out.Value("whole")) != MaxSubstitutedValue {
		t.Fatalf("a value of exactly MaxSubstitutedValue: %v", err)
	}
}
