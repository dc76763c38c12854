package xmltree

import (
	"errors"

	"github.com/gozie/gozie/oozieerr"
)

// Code is Oozie's error code for an error of kind k, as its coordinator and
// bundle parsers report it: E0700 for a malformed document, E0701 for a
// schema violation.
func (k Kind) Code() string {
	if k == Malformed {
		return string(oozieerr.E0700)
	}
	return string(oozieerr.E0701)
}

// Coded turns an *Error in err's chain into a caller's coded error: wrap
// gets the kind's code (Kind.Code) and the *Error, and builds the caller's
// error with the same text. err is returned unchanged when it is not an
// *Error or already carries a code (hasCode(err) is not empty), so that a
// parser converts once, on the way out.
func Coded(err error, hasCode func(error) string, wrap func(code string, te *Error) error) error {
	var te *Error
	if hasCode(err) != "" || !errors.As(err, &te) {
		return err
	}
	return wrap(te.Kind.Code(), te)
}
