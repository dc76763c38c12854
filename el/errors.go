package el

import (
	"errors"
	"strconv"
)

// Sentinel errors. Every error returned by parsing or evaluation is an *Error whose Err field
// wraps one of these (or, for a failing function, the function's own error), so callers can
// map them to Oozie error codes with errors.Is.
var (
	// ErrSyntax marks a malformed expression: a bad token, a missing "}", an unexpected token.
	ErrSyntax = errors.New("syntax error")
	// ErrUnknownVariable marks a variable the environment does not define. Oozie reports it as
	// "variable [x] cannot be resolved" (E1004 at coordinator submission).
	ErrUnknownVariable = errors.New("unknown variable")
	// ErrUnknownFunction marks a call to a function that is not in the registry.
	ErrUnknownFunction = errors.New("unknown function")
	// ErrArgCount marks a call with the wrong number of arguments.
	ErrArgCount = errors.New("wrong number of arguments")
	// ErrCoercion marks a value that cannot be converted to the type an operator or function
	// needs, e.g. "abc" in a number context or a map in a boolean context.
	ErrCoercion = errors.New("cannot coerce value")
	// ErrArithmetic marks an integer remainder by zero, the one arithmetic failure of EL
	// (division is always floating point and yields Infinity or NaN instead).
	ErrArithmetic = errors.New("arithmetic error")
)

// Error is every syntax or evaluation error: the whole text being evaluated, the byte offset
// (0-based) in it of the token or operation at fault, and what went wrong. Err is the cause:
// one of the sentinels above or the error a function returned.
type Error struct {
	Text string
	Pos  int
	Msg  string
	Err  error
}

// Error formats the error as `EL error at position 5 in "${a +}": unexpected end of expression`.
func (e *Error) Error() string {
	return "EL error at position " + strconv.Itoa(e.Pos) + " in " + strconv.Quote(e.Text) + ": " + e.Msg
}

// Unwrap returns the cause, so errors.Is(err, el.ErrUnknownVariable) works.
func (e *Error) Unwrap() error { return e.Err }

// coercionError is the error of a failed conversion; it matches ErrCoercion.
type coercionError struct{ msg string }

func (e *coercionError) Error() string { return e.msg }
func (e *coercionError) Unwrap() error { return ErrCoercion }

// arithmeticError is the error of an impossible integer operation; it matches ErrArithmetic.
type arithmeticError struct{ msg string }

func (e *arithmeticError) Error() string { return e.msg }
func (e *arithmeticError) Unwrap() error { return ErrArithmetic }

// argCountError reports a call with the wrong number of arguments; it matches ErrArgCount.
type argCountError struct {
	name      string
	want, got int
}

func (e *argCountError) Error() string {
	plural := "s"
	if e.want == 1 {
		plural = ""
	}
	return "function " + strconv.Quote(e.name) + " takes " + strconv.Itoa(e.want) + " argument" + plural +
		", got " + strconv.Itoa(e.got)
}
func (e *argCountError) Unwrap() error { return ErrArgCount }
