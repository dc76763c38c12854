package el

import (
	"sort"
	"strings"
)

// Func is an EL function; args are already evaluated values. A function that must stay
// unevaluated in some phase (Oozie's "echo" of ${coord:current(0)} at submission) returns the
// text of the call as a string, e.g. "${coord:current(0)}"; it then appears verbatim in the
// result, ready for a later evaluation.
type Func func(env *Env, args []any) (any, error)

// funcEntry is a registered function and its fixed argument count (-1 for any).
type funcEntry struct {
	fn    Func
	arity int
}

// Registry maps function names ("ns:name", or "name" for no prefix) to functions. Build it
// before use: Register is not safe to call concurrently with lookups, while any number of
// evaluations may read a registry at once.
type Registry struct {
	funcs map[string]funcEntry
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{funcs: make(map[string]funcEntry)}
}

// Register adds (or replaces) the function name; f checks its own argument count. It panics
// if name is not "identifier" or "identifier:identifier" with EL identifiers (letters, digits,
// "_" and "$", not starting with a digit, not a reserved word), or if f is nil: both are
// programmer errors.
func (r *Registry) Register(name string, f Func) { r.register(name, -1, f) }

// RegisterArity adds (or replaces) the function name taking exactly arity arguments. A call
// with another count fails with ErrArgCount before any argument is evaluated, as in Oozie. It
// panics on an invalid name, a nil f or a negative arity.
func (r *Registry) RegisterArity(name string, arity int, f Func) {
	if arity < 0 {
		panic("el: negative arity for function " + name)
	}
	r.register(name, arity, f)
}

func (r *Registry) register(name string, arity int, f Func) {
	if !validFuncName(name) {
		panic("el: invalid function name " + `"` + name + `"`)
	}
	if f == nil {
		panic("el: nil function " + name)
	}
	r.funcs[name] = funcEntry{fn: f, arity: arity}
}

// Lookup returns the function registered as name. A function registered with RegisterArity
// comes back wrapped so that it still checks its argument count when called directly.
func (r *Registry) Lookup(name string) (Func, bool) {
	e, ok := r.lookup(name)
	if !ok {
		return nil, false
	}
	if e.arity < 0 {
		return e.fn, true
	}
	return func(env *Env, args []any) (any, error) {
		if len(args) != e.arity {
			return nil, &argCountError{name: name, want: e.arity, got: len(args)}
		}
		return e.fn(env, args)
	}, true
}

func (r *Registry) lookup(name string) (funcEntry, bool) {
	if r == nil {
		return funcEntry{}, false
	}
	e, ok := r.funcs[name]
	return e, ok
}

// With returns a new registry holding r's functions plus other's; other wins on a name both
// define. Either may be nil.
func (r *Registry) With(other *Registry) *Registry {
	n := NewRegistry()
	for _, src := range []*Registry{r, other} {
		if src == nil {
			continue
		}
		for k, v := range src.funcs {
			n.funcs[k] = v
		}
	}
	return n
}

// Names returns the registered names, sorted.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	names := make([]string, 0, len(r.funcs))
	for k := range r.funcs {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// validFuncName reports whether name can be called from EL: an identifier, optionally
// preceded by a prefix identifier and ":".
func validFuncName(name string) bool {
	prefix, local, found := strings.Cut(name, ":")
	if !found {
		return isIdentifier(name)
	}
	return isIdentifier(prefix) && isIdentifier(local)
}

// isIdentifier reports whether s lexes as one EL identifier that is not a reserved word.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	if _, reserved := keywords[s]; reserved {
		return false
	}
	for i, r := range s {
		if i == 0 && r == '#' {
			continue
		}
		if !isLetter(r) && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
