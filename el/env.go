package el

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Env is one evaluation environment. The zero value evaluates with the basic functions, no
// variables, the wall clock and UTC. An Env may be shared by concurrent evaluations as long as
// its fields are not changed meanwhile.
type Env struct {
	// Funcs resolves function calls; nil means Basic().
	Funcs *Registry
	// Vars resolves variables; nil means none. A variable it does not know is an error
	// (ErrUnknownVariable), as in Oozie.
	Vars func(name string) (any, bool)
	// Data is the caller's state for its functions (e.g. the coordinator action being
	// materialized); the evaluator never looks at it.
	Data any
	// Now is the clock of timestamp() and of functions that call Env.Time; nil means the wall
	// clock. Engines inject their clock here.
	Now func() time.Time
	// Location is Oozie's processing time zone (oozie.processing.timezone), used to format
	// timestamp(); nil means UTC.
	Location *time.Location
}

// Time returns the current time from e.Now, or the wall clock when e or e.Now is nil.
func (e *Env) Time() time.Time {
	if e == nil || e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

// Zone returns the processing time zone, UTC unless e.Location is set.
func (e *Env) Zone() *time.Location {
	if e == nil || e.Location == nil {
		return time.UTC
	}
	return e.Location
}

// Eval evaluates text containing ${...} expressions. If text is exactly one ${...} the value
// keeps its type (int64, float64, bool, string, nil, map[string]string, ... as produced by the
// expression); otherwise the result is the string concatenation of the literal pieces and the
// values converted with ToString. Text without "${" is returned unchanged. Parsed templates
// are cached, so evaluating the same text repeatedly parses it once.
func (e *Env) Eval(text string) (any, error) {
	if !Contains(text) {
		return text, nil
	}
	t, err := parseCached(text)
	if err != nil {
		return nil, err
	}
	return t.Eval(e)
}

// EvalString is Eval converted to a string as EL does (nil becomes "").
func (e *Env) EvalString(text string) (string, error) {
	v, err := e.Eval(text)
	if err != nil {
		return "", err
	}
	return ToString(v), nil
}

// EvalBool evaluates a predicate, such as the body of a decision node's case. The result is
// coerced to a boolean with EL's rules: a boolean is itself, null and "" are false, and a
// string — with surrounding blanks removed, since predicates usually sit on their own line in
// XML — is true when it equals "true" ignoring case. Numbers, maps and other values are an
// error wrapping ErrCoercion.
func (e *Env) EvalBool(text string) (bool, error) {
	v, err := e.Eval(text)
	if err != nil {
		return false, err
	}
	if s, ok := v.(string); ok {
		v = strings.Trim(s, " \t\r\n")
	}
	b, err := ToBool(v)
	if err != nil {
		return false, &Error{Text: text, Pos: 0, Msg: "predicate: " + err.Error(), Err: err}
	}
	return b, nil
}

// Eval evaluates the template in e (nil e behaves like a zero Env) exactly as Env.Eval does.
func (t *Template) Eval(e *Env) (any, error) {
	if e == nil {
		e = &Env{}
	}
	funcs := e.Funcs
	if funcs == nil {
		funcs = basic
	}
	c := evalCtx{env: e, funcs: funcs, text: t.text}
	switch len(t.parts) {
	case 0:
		return "", nil
	case 1:
		if t.parts[0].expr == nil {
			return t.parts[0].lit, nil
		}
		return t.parts[0].expr.eval(&c)
	}
	var b strings.Builder
	for _, p := range t.parts {
		if p.expr == nil {
			b.WriteString(p.lit)
			continue
		}
		v, err := p.expr.eval(&c)
		if err != nil {
			return nil, err
		}
		b.WriteString(ToString(v))
	}
	return b.String(), nil
}

// Contains reports whether text contains "${", the start of an expression. Text without it
// evaluates to itself; text with it must be evaluated (and fails to parse if the expression
// is malformed).
func Contains(text string) bool { return strings.Contains(text, "${") }

// Quote returns s as an EL string literal in single quotes, escaping \ and '. Functions that
// render a call back as text (a coordinator phase that leaves ${coord:current(0)} for later)
// use it to write string arguments.
func Quote(s string) string {
	if !strings.ContainsAny(s, `'\`) {
		return "'" + s + "'"
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('\'')
	return b.String()
}

// MapVars returns a variable lookup over m, for Env.Vars.
func MapVars[V any](m map[string]V) func(name string) (any, bool) {
	return func(name string) (any, bool) {
		v, ok := m[name]
		return v, ok
	}
}

// ChainVars returns a variable lookup that asks each lookup in turn and returns the first
// hit, e.g. ChainVars(MapVars(jobProperties), MapVars(Constants())).
func ChainVars(lookups ...func(name string) (any, bool)) func(name string) (any, bool) {
	return func(name string) (any, bool) {
		for _, f := range lookups {
			if f == nil {
				continue
			}
			if v, ok := f(name); ok {
				return v, true
			}
		}
		return nil, false
	}
}

// The template cache keeps parsed texts for Env.Eval. It is bounded by the number of texts
// and by their total size: when either limit is reached it is emptied and refilled, which
// keeps memory flat under a stream of distinct texts while repeated texts (the common case:
// the same workflow definition for every run) stay parsed. Texts longer than cacheMaxText are
// parsed every time.
const (
	cacheLimit    = 8192
	cacheMaxBytes = 4 << 20
	cacheMaxText  = 128 << 10 // above Oozie's 100 KB workflow definition limit
)

var (
	templateCache sync.Map // string -> *Template
	cacheCount    atomic.Int64
	cacheBytes    atomic.Int64
)

func parseCached(text string) (*Template, error) {
	if v, ok := templateCache.Load(text); ok {
		return v.(*Template), nil
	}
	t, err := Parse(text)
	if err != nil || len(text) > cacheMaxText {
		return t, err
	}
	if cacheCount.Add(1) > cacheLimit || cacheBytes.Add(int64(len(text))) > cacheMaxBytes {
		templateCache.Clear()
		cacheCount.Store(1)
		cacheBytes.Store(int64(len(text)))
	}
	templateCache.Store(text, t)
	return t, nil
}
