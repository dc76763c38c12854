package conf

import (
	"errors"
	"strconv"
	"strings"
)

// ErrSubstitutionDepth is wrapped by Substitute when a value needs too many substitutions,
// which is what a reference cycle such as a=${b}, b=${a} leads to.
var ErrSubstitutionDepth = errors.New("variable substitution depth too large")

// ErrSubstitutionSize is wrapped by Substitute when substitution makes a value, or all
// values together, larger than their bound: references that multiply one large value.
var ErrSubstitutionSize = errors.New("variable substitution result too large")

// Error is a configuration error located in its source. Source names where the offending
// text came from: a file name such as "job.properties" or "gozie-site.xml", "env GOZIE_X"
// for an environment variable, "flag -x" for a command-line flag. Line is 1-based and zero
// when unknown; Key is the offending property, empty when the error is not about one.
type Error struct {
	// Source is the file name, "env NAME" or "flag -name" the text came from.
	Source string
	// Line is the 1-based line in Source, zero when unknown.
	Line int
	// Key is the offending property, empty when the error is not about one.
	Key string
	// Err is the reason.
	Err error
}

// Error formats the error as "source:line: key: reason", leaving out the parts that are
// unknown, e.g. `gozie-site.xml: gozie.engine.lease: invalid duration "x"`.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Source != "" {
		b.WriteString(e.Source)
		if e.Line > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Line))
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("invalid configuration")
	}
	return b.String()
}

// Unwrap returns the underlying reason, so errors.Is and errors.As see through Error.
func (e *Error) Unwrap() error { return e.Err }
