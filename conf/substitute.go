package conf

import (
	"fmt"
	"regexp"
)

// DefaultSubstituteDepth is Oozie's oozie.configuration.substitute.depth: the number of
// ${name} substitutions allowed in one value.
const DefaultSubstituteDepth = 20

// Bounds of what substitution may produce: a submitted configuration is at most 16 MiB
// (the REST API's body limit), so references multiplying one large value are stopped here
// instead of exhausting the server's memory.
const (
	// MaxSubstitutedValue is the largest value substitution may produce.
	MaxSubstitutedValue = 1 << 20
	// MaxSubstitutedTotal is the largest sum of all substituted values.
	MaxSubstitutedTotal = 16 << 20
)

// variablePattern is what Oozie and Hadoop take for a variable reference: "${", one or more
// characters other than '}', '$' and space, then "}".
var variablePattern = regexp.MustCompile(`\$\{[^}$ ]+\}`)

// Substitute returns a copy of props in which every value has had its ${name} references
// replaced by the raw values of the named properties, the way Oozie resolves a submitted job
// configuration:
//
//   - the leftmost reference is replaced by the raw value of the property it names, and the
//     result is scanned again from the start, so references inside substituted text are
//     resolved too;
//   - when the leftmost reference names a property that is not set, substitution of that value
//     stops there: the reference and everything after it are kept literally, even later
//     references that could be resolved;
//   - nothing else is resolved: no EL functions, no system properties, no environment;
//   - a value that reaches depth substitutions is an error wrapping ErrSubstitutionDepth and
//     naming the key. As in Oozie, the check comes right after the depth-th substitution, so
//     at most depth-1 substitutions succeed; a reference cycle always ends here;
//   - a value that grows past MaxSubstitutedValue, or values that together pass
//     MaxSubstitutedTotal, are an error wrapping ErrSubstitutionSize and naming the key
//     (Oozie has no such bound).
//
// A depth of zero or less means DefaultSubstituteDepth (Oozie's "-1 = unlimited" is not
// offered: with a cycle it never ends). Names, order and Final flags are kept.
func Substitute(props *Properties, depth int) (*Properties, error) {
	out := props.Clone()
	total := 0
	for i, e := range out.list {
		v, err := substituteValue(e.Value, depth, props.Get)
		if err != nil {
			return nil, &Error{Key: e.Name, Err: err}
		}
		if total += len(v); total > MaxSubstitutedTotal {
			return nil, &Error{Key: e.Name, Err: fmt.Errorf("%w: the values up to this one hold more than %d bytes",
				ErrSubstitutionSize, MaxSubstitutedTotal)}
		}
		out.list[i].Value = v
	}
	return out, nil
}

// substituteValue resolves the ${name} references of one value with lookup, following the
// rules documented on Substitute.
func substituteValue(value string, depth int, lookup func(string) (string, bool)) (string, error) {
	if depth <= 0 {
		depth = DefaultSubstituteDepth
	}
	eval := value
	for range depth {
		loc := variablePattern.FindStringIndex(eval)
		if loc == nil {
			return eval, nil
		}
		val, ok := lookup(eval[loc[0]+2 : loc[1]-1])
		if !ok {
			return eval, nil
		}
		if len(eval)-(loc[1]-loc[0])+len(val) > MaxSubstitutedValue {
			return "", fmt.Errorf("%w: more than %d bytes", ErrSubstitutionSize, MaxSubstitutedValue)
		}
		eval = eval[:loc[0]] + val + eval[loc[1]:]
	}
	return "", fmt.Errorf("%w: %d substitutions in %q", ErrSubstitutionDepth, depth, value)
}
