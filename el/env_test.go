package el

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEvalTypes(t *testing.T) {
	t.Parallel()
	env := testEnv()
	tests := []struct {
		text string
		want any
	}{
		{"no expression", "no expression"},
		{"", ""},
		{"${n}", int64(5)},
		{"${m}", map[string]string{"k": "v", "a.b": "dot"}},
		{"${l}", []string{"a", "b"}},
		{"${nul}", nil},
		{"${t}", true},
		{" ${n}", " 5"},
		{"${n}${n}", "55"},
		{"${m}!", "{a.b=dot, k=v}!"},
		{"${l} ${nul}|", "[a, b] |"},
	}
	for _, tc := range tests {
		got, err := env.Eval(tc.text)
		if err != nil || !sameValue(got, tc.want) {
			t.Errorf("Eval(%q) = %#v, %v, want %#v", tc.text, got, err, tc.want)
		}
	}
}

func TestEvalString(t *testing.T) {
	t.Parallel()
	env := testEnv()
	for text, want := range map[string]string{
		"${nul}":        "",
		"${n}":          "5",
		"${f * 2}":      "5.0",
		"${1 / 3}":      "0.3333333333333333",
		"${100 * 1000}": "100000",
		"${1e7 + 0}":    "1.0E7",
		"${t}":          "true",
		"${KB * 4}":     "4096",
	} {
		got, err := env.EvalString(text)
		if err != nil || got != want {
			t.Errorf("EvalString(%q) = %q, %v, want %q", text, got, err, want)
		}
	}
	if _, err := env.EvalString("${undefinedVariable}"); !errors.Is(err, ErrUnknownVariable) {
		t.Errorf("EvalString error = %v", err)
	}
}

func TestEvalBool(t *testing.T) {
	t.Parallel()
	env := testEnv()
	tests := []struct {
		text string
		want bool
		err  error
	}{
		{"${true}", true, nil},
		{"${n > 3}", true, nil},
		{"${n gt 7}", false, nil},
		{"${wf:actionData('a')['k'] eq 'v'}", true, nil},
		{"\n      ${n == 5}\n    ", true, nil},
		{"${'TRUE'}", true, nil},
		{"true", true, nil},
		{" false ", false, nil},
		{"yes", false, nil},
		{"${nul}", false, nil},
		{"", false, nil},
		{"${n}", false, ErrCoercion},
		{"${m}", false, ErrCoercion},
		{"${undefinedVariable}", false, ErrUnknownVariable},
		{"${1 +}", false, ErrSyntax},
	}
	for _, tc := range tests {
		got, err := env.EvalBool(tc.text)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("EvalBool(%q) error = %v, want %v", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("EvalBool(%q) = %v, %v, want %v", tc.text, got, err, tc.want)
		}
	}
}

// TestEchoFunction shows the coordinator's pattern: in an early phase a function returns the
// text of its own call, which a later evaluation resolves.
func TestEchoFunction(t *testing.T) {
	t.Parallel()
	submit := NewRegistry()
	submit.RegisterArity("coord:tzOffset", 0, func(*Env, []any) (any, error) { return int64(3), nil })
	submit.RegisterArity("coord:current", 1, func(_ *Env, args []any) (any, error) {
		n, err := ToInt(args[0])
		if err != nil {
			return nil, err
		}
		return fmt.Sprintf("${coord:current(%d)}", n), nil
	})
	submit.RegisterArity("coord:formatTime", 2, func(_ *Env, args []any) (any, error) {
		return "${coord:formatTime(" + Quote(ToString(args[0])) + ", " + Quote(ToString(args[1])) + ")}", nil
	})
	vars := MapVars(map[string]string{"date": "2009-09-08T23:59Z", "q": `it's \ here`})
	env := &Env{Funcs: submit, Vars: vars}
	got, err := env.EvalString("${coord:current(-coord:tzOffset())} ${coord:formatTime(date, 'yyyy')} ${coord:formatTime(q, q)}")
	want := `${coord:current(-3)} ${coord:formatTime('2009-09-08T23:59Z', 'yyyy')} ${coord:formatTime('it\'s \\ here', 'it\'s \\ here')}`
	if err != nil || got != want {
		t.Fatalf("submit phase = %q, %v\nwant %q", got, err, want)
	}

	create := NewRegistry()
	create.RegisterArity("coord:current", 1, func(env *Env, args []any) (any, error) {
		n, _ := ToInt(args[0])
		return fmt.Sprintf("%s/%d", env.Data, n), nil
	})
	create.RegisterArity("coord:formatTime", 2, func(_ *Env, args []any) (any, error) {
		return ToString(args[0])[:4] + "|" + ToString(args[1]), nil
	})
	later := &Env{Funcs: create, Data: "instance"}
	got, err = later.EvalString(got)
	if want := `instance/-3 2009|yyyy it's|it's \ here`; err != nil || got != want {
		t.Errorf("create phase = %q, %v, want %q", got, err, want)
	}
}

func TestEnvDefaults(t *testing.T) {
	t.Parallel()
	var nilEnv *Env
	if nilEnv.Zone() != time.UTC {
		t.Error("nil Env zone is not UTC")
	}
	before := time.Now()
	if got := nilEnv.Time(); got.Before(before) {
		t.Errorf("nil Env time %v is before %v", got, before)
	}
	// A nil Env evaluates with the basic functions and no variables.
	if got, err := nilEnv.EvalString("${concat('a', 1)}"); err != nil || got != "a1" {
		t.Errorf("nil Env = %q, %v", got, err)
	}
	if _, err := nilEnv.Eval("${x}"); !errors.Is(err, ErrUnknownVariable) {
		t.Errorf("nil Env variable error = %v", err)
	}
	// An explicitly empty registry has no functions.
	if _, err := (&Env{Funcs: NewRegistry()}).Eval("${trim('a')}"); !errors.Is(err, ErrUnknownFunction) {
		t.Errorf("empty registry error = %v", err)
	}
}

func TestChainVars(t *testing.T) {
	t.Parallel()
	lookup := ChainVars(nil, MapVars(map[string]string{"a": "job"}), MapVars(map[string]any{"a": "default", "b": int64(2)}))
	for name, want := range map[string]any{"a": "job", "b": int64(2)} {
		if v, ok := lookup(name); !ok || v != want {
			t.Errorf("lookup(%q) = %v, %v, want %v", name, v, ok, want)
		}
	}
	if _, ok := lookup("c"); ok {
		t.Error("lookup(c) found a value")
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", "it's", `back\slash`, `'\'`, "${x}", "multi\nline"} {
		q := Quote(s)
		got, err := (&Env{}).Eval("${" + q + "}")
		if err != nil || got != s {
			t.Errorf("Quote(%q) = %s evaluates to %q, %v", s, q, got, err)
		}
	}
}

// TestConcurrentEvaluation runs one template and the common cache from many goroutines; run
// with -race.
func TestConcurrentEvaluation(t *testing.T) {
	t.Parallel()
	tmpl, err := Parse("${wf:actionData('a')['n'] + i} ${concat(s, i)}")
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				e := *env
				base := e.Vars
				e.Vars = ChainVars(MapVars(map[string]any{"i": int64(i)}), base)
				want := fmt.Sprintf("%d abc%d", 3+i, i)
				got, err := tmpl.Eval(&e)
				if err != nil || got != want {
					errs <- fmt.Errorf("goroutine %d: Eval = %v, %v, want %q", g, got, err, want)
					return
				}
				text := fmt.Sprintf("${%d + %d}", g, i%50)
				v, err := e.Eval(text)
				if err != nil || v != int64(g+i%50) {
					errs <- fmt.Errorf("goroutine %d: Eval(%q) = %v, %v", g, text, v, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestParseCacheBounded fills the template cache past its limit and checks that evaluation
// stays correct and the cache does not grow without bound.
func TestParseCacheBounded(t *testing.T) {
	env := &Env{}
	for i := range cacheLimit + 100 {
		text := fmt.Sprintf("${%d}", i)
		v, err := env.Eval(text)
		if err != nil || v != int64(i) {
			t.Fatalf("Eval(%q) = %v, %v", text, v, err)
		}
	}
	if n := cacheCount.Load(); n > cacheLimit {
		t.Errorf("cache holds %d templates, limit %d", n, cacheLimit)
	}
	// Large texts fill the byte budget long before the count limit.
	large := strings.Repeat("y", cacheMaxText-10)
	for i := range 2 * cacheMaxBytes / cacheMaxText {
		text := fmt.Sprintf("${%d}%s", i, large)
		if s, err := env.EvalString(text); err != nil || s != fmt.Sprint(i)+large {
			t.Fatalf("EvalString(large text %d) failed: %v", i, err)
		}
	}
	if n := cacheBytes.Load(); n > cacheMaxBytes {
		t.Errorf("cache holds %d bytes of text, limit %d", n, cacheMaxBytes)
	}
	long := "${1}" + strings.Repeat("x", cacheMaxText)
	if _, err := env.Eval(long); err != nil {
		t.Fatal(err)
	}
	if _, cached := templateCache.Load(long); cached {
		t.Error("a text longer than cacheMaxText was cached")
	}
}
