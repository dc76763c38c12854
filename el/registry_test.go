package el

import (
	"errors"
	"reflect"
	"testing"
)

func constFunc(v any) Func {
	return func(*Env, []any) (any, error) { return v, nil }
}

func TestRegistryNames(t *testing.T) {
	t.Parallel()
	valid := []string{"f", "wf:id", "coord:dataIn", "$x", "_a1", "a:b1", "ns$:f_", "Ångström"}
	for _, name := range valid {
		r := NewRegistry()
		r.Register(name, constFunc(1))
		if _, ok := r.Lookup(name); !ok {
			t.Errorf("Lookup(%q) after Register failed", name)
		}
	}
	invalid := []string{"", ":", "a:", ":b", "a:b:c", "1a", "a-b", "a b", "wf:1", "not", "wf:empty", "eq:x", "a.b", "ns:f()"}
	for _, name := range invalid {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", name)
				}
			}()
			NewRegistry().Register(name, constFunc(1))
		}()
	}
	for name, reg := range map[string]func(){
		"nil func":       func() { NewRegistry().Register("f", nil) },
		"negative arity": func() { NewRegistry().RegisterArity("f", -1, constFunc(1)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			reg()
		}()
	}
}

func TestRegistryWith(t *testing.T) {
	t.Parallel()
	a := NewRegistry()
	a.Register("f", constFunc("a.f"))
	a.Register("g", constFunc("a.g"))
	b := NewRegistry()
	b.Register("g", constFunc("b.g"))
	b.Register("ns:h", constFunc("b.h"))
	c := a.With(b)
	if got := c.Names(); !reflect.DeepEqual(got, []string{"f", "g", "ns:h"}) {
		t.Errorf("Names() = %v", got)
	}
	env := &Env{Funcs: c}
	for expr, want := range map[string]string{"${f()}": "a.f", "${g()}": "b.g", "${ns:h()}": "b.h"} {
		if got, err := env.EvalString(expr); err != nil || got != want {
			t.Errorf("%s = %q, %v, want %q", expr, got, err, want)
		}
	}
	// With copies: later changes to the sources do not leak into c.
	a.Register("late", constFunc(1))
	if _, ok := c.Lookup("late"); ok {
		t.Error("With result sees functions registered later in its source")
	}
	if got := (*Registry)(nil).With(nil).Names(); len(got) != 0 {
		t.Errorf("nil.With(nil) = %v", got)
	}
	if _, ok := (*Registry)(nil).Lookup("f"); ok {
		t.Error("nil registry found a function")
	}
}

func TestRegistryLookupChecksArity(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	r.RegisterArity("two", 2, func(_ *Env, args []any) (any, error) { return len(args), nil })
	f, ok := r.Lookup("two")
	if !ok {
		t.Fatal("Lookup failed")
	}
	if _, err := f(nil, []any{1}); !errors.Is(err, ErrArgCount) {
		t.Errorf("direct call with 1 argument: error = %v, want ErrArgCount", err)
	}
	if v, err := f(nil, []any{1, 2}); err != nil || v != 2 {
		t.Errorf("direct call = %v, %v", v, err)
	}
	_, err := (&Env{Funcs: r}).Eval("${two(1, 2, 3)}")
	if !errors.Is(err, ErrArgCount) || err.(*Error).Msg != `function "two" takes 2 arguments, got 3` {
		t.Errorf("error = %v", err)
	}
}

func TestBasicIsFreshEachCall(t *testing.T) {
	t.Parallel()
	r := Basic()
	r.Register("concat", constFunc("replaced"))
	if got, err := (&Env{}).EvalString("${concat('a', 'b')}"); err != nil || got != "ab" {
		t.Errorf("default functions changed through a Basic() registry: %q, %v", got, err)
	}
	want := []string{"appendAll", "concat", "firstNotNull", "replaceAll", "timestamp", "toConfigurationStr",
		"toJsonStr", "toPropertiesStr", "trim", "urlEncode"}
	if got := Basic().Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Basic().Names() = %v, want %v", got, want)
	}
}
