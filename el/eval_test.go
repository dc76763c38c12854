package el

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

// testEnv returns an environment with a few variables of every kind and two functions
// shaped like the workflow package's (wf:actionData returns a map, hadoop:counters a map of
// maps), registered on top of the basic functions.
func testEnv() *Env {
	vars := map[string]any{
		"s":     "abc",
		"num":   "10",
		"fnum":  "1.5",
		"n":     int64(5),
		"i32":   int32(7),
		"f":     2.5,
		"t":     true,
		"nul":   nil,
		"empty": "",
		"m":     map[string]string{"k": "v", "a.b": "dot"},
		"mi":    map[string]any{"x": int64(1), "nested": map[string]string{"y": "z"}},
		"em":    map[string]string{},
		"l":     []string{"a", "b"},
		"ints":  []int64{10, 20},
		// Oozie's counter-name constants are plain strings.
		"RECORDS":    "org.apache.hadoop.mapred.Task$Counter",
		"REDUCE_OUT": "REDUCE_OUTPUT_RECORDS",
	}
	r := NewRegistry()
	r.RegisterArity("wf:actionData", 1, func(_ *Env, args []any) (any, error) {
		if ToString(args[0]) == "a" {
			return map[string]string{"k": "v", "n": "3"}, nil
		}
		return map[string]string{}, nil
	})
	r.RegisterArity("hadoop:counters", 1, func(_ *Env, args []any) (any, error) {
		return map[string]map[string]int64{
			"org.apache.hadoop.mapred.Task$Counter": {"REDUCE_OUTPUT_RECORDS": 42},
		}, nil
	})
	r.Register("wf:fail", func(_ *Env, args []any) (any, error) {
		return nil, errors.New("boom")
	})
	r.RegisterArity("echo", 1, func(_ *Env, args []any) (any, error) { return args[0], nil })
	return &Env{Funcs: Basic().With(r), Vars: ChainVars(MapVars(vars), MapVars(Constants()))}
}

func TestEvalValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		want any
	}{
		// Literals.
		{"${1}", int64(1)},
		{"${007}", int64(7)},
		{"${1.5}", 1.5},
		{"${.5}", 0.5},
		{"${1.}", 1.0},
		{"${1e3}", 1000.0},
		{"${1.5E-1}", 0.15},
		{"${'a'}", "a"},
		{`${"a"}`, "a"},
		{`${'it\'s'}`, "it's"},
		{`${"say \"hi\""}`, `say "hi"`},
		{`${'back\\slash'}`, `back\slash`},
		{`${"a'b"}`, "a'b"},
		{`${'a"b'}`, `a"b`},
		{`${'}'}`, "}"},
		{"${true}", true},
		{"${false}", false},
		{"${null}", nil},
		{"${9223372036854775807}", int64(math.MaxInt64)},

		// Arithmetic: numeric only, integer unless a float or a float-looking string is involved.
		{"${1 + 2}", int64(3)},
		{"${'1' + '2'}", int64(3)},
		{"${num + 1}", int64(11)},
		{"${fnum + 1}", 2.5},
		{"${'1e2' + 0}", 100.0},
		{"${1 + 2.0}", 3.0},
		{"${n - 7}", int64(-2)},
		{"${n * f}", 12.5},
		{"${i32 + 1}", int64(8)},
		{"${null + null}", int64(0)},
		{"${null + 1}", int64(1)},
		{"${'' + 1}", int64(1)},
		{"${nul * 3}", int64(0)},
		{"${9223372036854775807 + 1}", int64(math.MinInt64)},
		{"${1 - 2 - 3}", int64(-4)},
		{"${2 + 3 * 4}", int64(14)},
		{"${(2 + 3) * 4}", int64(20)},

		// Division is always floating point.
		{"${1 / 2}", 0.5},
		{"${4 / 2}", 2.0},
		{"${4 div 2}", 2.0},
		{"${1 / 0}", math.Inf(1)},
		{"${-1 / 0}", math.Inf(-1)},
		{"${null / null}", int64(0)},
		{"${'6' / '4'}", 1.5},

		// Remainder.
		{"${10 % 3}", int64(1)},
		{"${10 mod 3}", int64(1)},
		{"${-7 % 3}", int64(-1)},
		{"${10.5 % 3}", 1.5},
		{"${'10.5' mod 3}", 1.5},
		{"${null % null}", int64(0)},

		// Unary operators.
		{"${-5}", int64(-5)},
		{"${- -5}", int64(5)},
		{"${-f}", -2.5},
		{"${-'5'}", int64(-5)},
		{"${-'5.5'}", -5.5},
		{"${-null}", int64(0)},
		{"${-i32}", int32(-7)},
		{"${!true}", false},
		{"${not false}", true},
		{"${!'TRUE'}", false},
		{"${!'yes'}", true},
		{"${!null}", true},
		{"${not not t}", true},

		// empty.
		{"${empty null}", true},
		{"${empty ''}", true},
		{"${empty nul}", true},
		{"${empty s}", false},
		{"${empty em}", true},
		{"${empty m}", false},
		{"${empty l}", false},
		{"${empty 0}", false},
		{"${empty m['missing']}", true},
		{"${not empty s}", true},
		{"${!empty wf:actionData('b')}", false},

		// Relational operators.
		{"${1 < 2}", true},
		{"${2 lt 1}", false},
		{"${2 > 1}", true},
		{"${2 gt 1}", true},
		{"${2 <= 2}", true},
		{"${3 le 2}", false},
		{"${2 >= 3}", false},
		{"${3 ge 3}", true},
		{"${1.5 < 2}", true},
		{"${num > 9}", true}, // "10" parsed because 9 is a number
		{"${'10' < '9'}", true},
		{"${'a' < 'b'}", true},
		{"${'b' lt 'a'}", false},
		{"${'abc' < 'abd'}", true},
		{"${'ab' < 'abc'}", true},
		{"${false < true}", true},
		{"${null < 1}", false},
		{"${null <= null}", true},
		{"${null >= null}", true},
		{"${null < null}", false},
		{"${t > 'a'}", true}, // boolean against string compares "true" with "a"

		// Equality.
		{"${1 == 1}", true},
		{"${1 eq 1.0}", true},
		{"${1 == '1'}", true},
		{"${'1' == 1.0}", true},
		{"${1 != 2}", true},
		{"${1 ne 1}", false},
		{"${'a' == 'a'}", true},
		{"${'a' ne 'b'}", true},
		{"${true == 'TRUE'}", true},
		{"${true == 'yes'}", false},
		{"${null == null}", true},
		{"${null == ''}", false},
		{"${null != 0}", true},
		{"${nul eq null}", true},
		{"${m == m}", true},
		{"${m == em}", false},
		{"${n == 5}", true},
		{"${i32 == 7}", true},

		// Logical operators, short-circuit.
		{"${true && false}", false},
		{"${true and true}", true},
		{"${false || true}", true},
		{"${false or false}", false},
		{"${'true' and 'TRUE'}", true},
		{"${null or ''}", false},
		{"${false && wf:fail()}", false},
		{"${true || wf:fail()}", true},
		{"${false && undefinedVariable}", false},
		{"${1 < 2 && 2 < 3 || false}", true},

		// Conditional.
		{"${true ? 1 : 2}", int64(1)},
		{"${false ? 1 : 2}", int64(2)},
		{"${'' ? 1 : 2}", int64(2)},
		{"${'TRUE' ? 'y' : 'n'}", "y"},
		{"${n > 3 ? 'big' : 'small'}", "big"},
		{"${false ? 1 : true ? 2 : 3}", int64(2)},
		{"${t ? s : n}", "abc"},
		{"${t ? m.k : wf:fail()}", "v"},
		{"${1 + (t ? 1 : 2)}", int64(2)},

		// Indexing.
		{"${m.k}", "v"},
		{"${m['k']}", "v"},
		{`${m["a.b"]}`, "dot"},
		{"${m.missing}", nil},
		{"${m[1]}", nil},
		{"${m[null]}", nil},
		{"${nul.anything}", nil},
		{"${nul[undefinedVariable]}", nil},
		{"${mi.x}", int64(1)},
		{"${mi.nested.y}", "z"},
		{"${mi['nested']['y']}", "z"},
		{"${l[0]}", "a"},
		{"${l['1']}", "b"},
		{"${l[1.9]}", "b"},
		{"${l[2]}", nil},
		{"${l[-1]}", nil},
		{"${ints[1]}", int64(20)},
		{"${wf:actionData('a')['k']}", "v"},
		{"${wf:actionData('a').n + 1}", int64(4)},
		{"${wf:actionData('x')['k']}", nil},
		{"${hadoop:counters('mr')[RECORDS][REDUCE_OUT]}", int64(42)},
		{"${hadoop:counters('mr')[RECORDS]['nope']}", nil},

		// Functions and constants.
		{"${concat('a', 'b')}", "ab"},
		{"${concat(s, n)}", "abc5"},
		{"${firstNotNull(null, 'x')}", "x"},
		{"${firstNotNull(nul, n)}", int64(5)},
		{"${KB}", int64(1024)},
		{"${2 * GB}", int64(2 << 30)},
		{"${PB}", int64(1) << 50},
		{"${echo(echo(1) + 1)}", int64(2)},
		{"${ echo ( 'spaced' ) }", "spaced"},
		{"${\n\ttrim(' x ')\r\n}", "x"},
	}
	env := testEnv()
	for _, tc := range tests {
		got, err := env.Eval(tc.expr)
		if err != nil {
			t.Errorf("Eval(%q): %v", tc.expr, err)
			continue
		}
		if !sameValue(got, tc.want) {
			t.Errorf("Eval(%q) = %#v (%T), want %#v (%T)", tc.expr, got, got, tc.want, tc.want)
		}
	}
}

// sameValue compares EL values, treating NaN as equal to NaN.
func sameValue(a, b any) bool {
	fa, aok := a.(float64)
	fb, bok := b.(float64)
	if aok && bok && math.IsNaN(fa) && math.IsNaN(fb) {
		return true
	}
	return reflect.DeepEqual(a, b)
}

func TestEvalErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		want error
		pos  int
	}{
		{"${undefinedVariable}", ErrUnknownVariable, 2},
		{"x ${ 1 + y }", ErrUnknownVariable, 9},
		{"${nope()}", ErrUnknownFunction, 2},
		{"${wf:nope(1)}", ErrUnknownFunction, 2},
		{"${KB:nope(1)}", ErrUnknownFunction, 2},
		{"${concat('a')}", ErrArgCount, 2},
		{"${timestamp(1)}", ErrArgCount, 2},
		{"${concat(undefinedVariable)}", ErrArgCount, 2}, // the count is checked first
		{"${concat(undefinedVariable, 1)}", ErrUnknownVariable, 9},
		{"${'a' + 1}", ErrCoercion, 6},
		{"${'true' + 1}", ErrCoercion, 9},
		{"${' 1' + 1}", ErrCoercion, 7},
		{"${true + 1}", ErrCoercion, 7},
		{"${m + 1}", ErrCoercion, 4},
		{"${1 / 'x'}", ErrCoercion, 4},
		{"${1 == 'a'}", ErrCoercion, 4},
		{"${1.0 == 'a'}", ErrCoercion, 6},
		{"${true == 1}", ErrCoercion, 7},
		{"${true == m}", ErrCoercion, 7},
		{"${'abc' < 9}", ErrCoercion, 8},
		{"${fnum < 2}", ErrCoercion, 7}, // "1.5" is not a long, and 2 is an integer
		{"${m < m}", ErrCoercion, 4},
		{"${true < 1}", ErrCoercion, 7},
		{"${1 % 0}", ErrArithmetic, 4},
		{"${n mod null}", ErrArithmetic, 4},
		{"${!1}", ErrCoercion, 2},
		{"${not m}", ErrCoercion, 2},
		{"${-true}", ErrCoercion, 2},
		{"${-m}", ErrCoercion, 2},
		{"${1 && true}", ErrCoercion, 4},
		{"${true || 1 || 2}", nil, 0}, // short-circuit never looks at 1
		{"${false || 1}", ErrCoercion, 8},
		{"${1 ? 2 : 3}", ErrCoercion, 4},
		{"${s.length}", ErrCoercion, 3},
		{"${n[0]}", ErrCoercion, 3},
		{"${l['x']}", ErrCoercion, 3},
		{"${l[t]}", nil, 0}, // a boolean index is 1, like commons-el
		{"${l[m]}", ErrCoercion, 3},
		{"${replaceAll('a', '(', 'b')}", nil, -1},
		{"${toJsonStr('not a map')}", nil, -1},
	}
	env := testEnv()
	for _, tc := range tests {
		_, err := env.Eval(tc.expr)
		if tc.pos == 0 && tc.want == nil {
			if err != nil {
				t.Errorf("Eval(%q): unexpected error %v", tc.expr, err)
			}
			continue
		}
		var elErr *Error
		if !errors.As(err, &elErr) {
			t.Errorf("Eval(%q) error = %v, want an *Error", tc.expr, err)
			continue
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("Eval(%q) error = %v, want %v", tc.expr, err, tc.want)
		}
		if tc.pos >= 0 && elErr.Pos != tc.pos {
			t.Errorf("Eval(%q) error position = %d, want %d (%v)", tc.expr, elErr.Pos, tc.pos, err)
		}
		if elErr.Text != tc.expr {
			t.Errorf("Eval(%q) error text = %q", tc.expr, elErr.Text)
		}
	}
}

func TestEvalFunctionErrorWrapped(t *testing.T) {
	t.Parallel()
	_, err := testEnv().Eval("a ${wf:fail()}")
	var elErr *Error
	if !errors.As(err, &elErr) || elErr.Pos != 4 || elErr.Msg != "wf:fail: boom" {
		t.Fatalf("error = %#v", err)
	}
	if got, want := err.Error(), `EL error at position 4 in "a ${wf:fail()}": wf:fail: boom`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestEvalUnknownVariableMessage(t *testing.T) {
	t.Parallel()
	_, err := (&Env{}).Eval("${nameNode}/x")
	if got, want := err.Error(), `EL error at position 2 in "${nameNode}/x": variable [nameNode] cannot be resolved`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestEvalGoTypes covers Go values that functions and variables may hand to the evaluator
// besides the canonical int64, float64, string and map[string]string.
func TestEvalGoTypes(t *testing.T) {
	t.Parallel()
	type queue string
	vars := map[string]any{
		"i": 3, "i16": int16(-4), "i8": int8(5), "u": uint(6), "u8": uint8(7), "f32": float32(1.5),
		"named":   map[queue]int64{"default": 10},
		"intKeys": map[int64]string{1: "one"},
		"arr":     [2]string{"x", "y"},
		"noInts":  []int64{},
		"noArr":   [0]int{},
		"anyMap":  map[any]any{"k": "v"},
		"nested":  map[string][]map[string]int{"a": {{"b": 2}}},
	}
	tests := []struct {
		expr string
		want any
	}{
		{"${-i}", -3},
		{"${-i16}", int16(4)},
		{"${-i8}", int8(-5)},
		{"${-u}", int64(-6)},
		{"${-f32}", float32(-1.5)},
		{"${i + u8 + i8}", int64(15)},
		{"${f32 * 2}", 3.0},
		{"${u8 == 7}", true},
		{"${i < u}", true},
		{"${named['default']}", int64(10)},
		{"${named.default}", int64(10)},
		{"${named.other}", nil},
		{"${named[1]}", nil},
		{"${intKeys[1]}", "one"},
		{"${intKeys['1']}", nil}, // like Java, a string key does not find a Long key
		{"${arr[1]}", "y"},
		{"${arr[5]}", nil},
		{"${empty noInts}", true},
		{"${empty noArr}", true},
		{"${empty arr}", false},
		{"${empty i}", false},
		{"${anyMap.k}", "v"},
		{"${anyMap[m]}", nil}, // an unhashable key finds nothing instead of panicking
		{"${nested.a[0].b * 2}", int64(4)},
		{"${l[4294967296]}", "a"}, // Java coerces the index to an int, keeping the low 32 bits
		{"${l[1e10]}", nil},
	}
	base := testEnv()
	env := &Env{Funcs: base.Funcs, Vars: ChainVars(MapVars(vars), base.Vars)}
	for _, tc := range tests {
		got, err := env.Eval(tc.expr)
		if err != nil || !sameValue(got, tc.want) {
			t.Errorf("Eval(%q) = %#v (%T), %v, want %#v (%T)", tc.expr, got, got, err, tc.want, tc.want)
		}
	}
}
