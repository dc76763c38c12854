package el

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// checkError asserts the invariants of every error of the package: an *Error about text with a
// position inside it.
func checkError(t *testing.T, text string, err error) {
	t.Helper()
	var elErr *Error
	if !errors.As(err, &elErr) {
		t.Fatalf("error for %q is %T (%v), want *Error", text, err, err)
	}
	if elErr.Text != text || elErr.Pos < 0 || elErr.Pos > len(text) || elErr.Msg == "" {
		t.Fatalf("error for %q has text %q, pos %d, msg %q", text, elErr.Text, elErr.Pos, elErr.Msg)
	}
}

// FuzzParse feeds whole texts (literal pieces and expressions) through Parse and evaluation.
// Seeds are in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add("hdfs://${nameNode}/user/${wf:user()}/${wf:id()}")
	env := testEnv()
	f.Fuzz(func(t *testing.T, text string) {
		tmpl, err := Parse(text)
		if err != nil {
			checkError(t, text, err)
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q) error %v does not wrap ErrSyntax", text, err)
			}
			if _, err2 := env.Eval(text); err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("Eval(%q) error %v differs from Parse error %v", text, err2, err)
			}
			return
		}
		if tmpl.String() != text {
			t.Fatalf("String() = %q, want %q", tmpl.String(), text)
		}
		if !Contains(text) {
			if !tmpl.IsLiteral() {
				t.Fatalf("%q has no ${ but is not literal", text)
			}
			if v, err := env.Eval(text); err != nil || v != text {
				t.Fatalf("Eval(%q) = %v, %v, want the text", text, v, err)
			}
			return
		}
		v, err := tmpl.Eval(env)
		if err != nil {
			checkError(t, text, err)
		}
		s, err2 := env.EvalString(text)
		if (err == nil) != (err2 == nil) || (err == nil && s != ToString(v)) {
			t.Fatalf("EvalString(%q) = %q, %v; Eval = %#v, %v", text, s, err2, v, err)
		}
		if _, err := env.EvalBool(text); err != nil {
			checkError(t, text, err)
		}
	})
}

// FuzzExpr fuzzes the inside of one ${...}, where the grammar is. Seeds are in
// testdata/fuzz/FuzzExpr.
func FuzzExpr(f *testing.F) {
	f.Add("a ? b : c")
	env := testEnv()
	f.Fuzz(func(t *testing.T, expr string) {
		text := "${" + expr + "}"
		v, err := env.Eval(text)
		if err != nil {
			checkError(t, text, err)
			return
		}
		// A value that prints can be printed again without failing.
		_ = ToString(v)
		_, _ = ToBool(v)
		_, _ = ToInt(v)
		_, _ = ToFloat(v)
	})
}

// FuzzQuote checks that Quote produces a literal that evaluates back to its input.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "it's", `a\b`, "${x}", "}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := (&Env{}).Eval("${" + Quote(s) + "}")
		if err != nil || got != s {
			t.Fatalf("Quote(%q) evaluates to %q, %v", s, got, err)
		}
	})
}

// FuzzJavaDouble checks that numbers printed the Java way parse back to the same value, in EL
// and with Java's Double.valueOf syntax.
func FuzzJavaDouble(f *testing.F) {
	for _, x := range []float64{0, 1, -1.5, 0.001, 1e7, 5e-324, math.MaxFloat64, 1e23} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		s := formatJavaDouble(x, 64)
		back, ok := parseJavaDouble(s)
		if !ok || !sameValue(back, x) || math.Signbit(back) != math.Signbit(x) {
			t.Fatalf("formatJavaDouble(%v) = %q parses back to %v, %v", x, s, back, ok)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		if !strings.ContainsAny(s, ".") {
			t.Fatalf("formatJavaDouble(%v) = %q has no fractional part", x, s)
		}
		lit := strings.TrimPrefix(s, "-")
		v, err := (&Env{}).Eval("${" + lit + "}")
		if err != nil || v != math.Abs(x) {
			t.Fatalf("EL literal %q = %v, %v, want %v", lit, v, err, math.Abs(x))
		}
	})
}
