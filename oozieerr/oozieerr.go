// Package oozieerr is Oozie's error vocabulary, defined once: the error codes gozie sends
// (Code and its constants, named after Oozie's ErrorCode enum), the one coded error type the
// domain packages return (Error), and the error a bulk command returns for the job it
// stopped at (BulkError). It imports nothing of gozie, so every package, pure core or
// server, can use it; server.ErrorFor maps a Code to an HTTP status in one switch.
//
// No caller reads a code or a job id out of a message: CodeOf and errors.As find them in the
// error chain.
package oozieerr

import (
	"errors"
	"fmt"
	"strconv"
)

// Code is an Oozie error code, such as E0302, sent in the oozie-error-code header.
type Code string

// Error is an error with Oozie's error code. Its text is "<code>: <where>: <message>
// (line <line>)" (the where and line parts only when set), the form Oozie prints; Msg is the
// whole message, the cause's text included when the constructor folded it in (Wrap), and
// Err is kept for errors.Is and errors.As only.
type Error struct {
	// Code is Oozie's error code.
	Code Code
	// Where names the element, attribute, line or job the error concerns, in the text
	// ("coordinator-app/@start", "line 12 <coordinator>"); it may be empty.
	Where string
	// Node names the workflow node or sla:info element the error concerns for callers; it
	// is not in the text, whose message already names it as Oozie words it.
	Node string
	// Msg is the human-readable message.
	Msg string
	// Line is the line of the definition at fault, when known (workflow definitions); the
	// text ends with " (line <line>)".
	Line int
	// Err is the underlying cause, if any; its text is not added by Error.
	Err error
}

// New returns an *Error with a formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// At returns an *Error about the place where, with a formatted message.
func At(code Code, where, format string, args ...any) *Error {
	return &Error{Code: code, Where: where, Msg: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error around err whose message is the formatted text, ": " and err's
// text.
func Wrap(code Code, err error, format string, args ...any) *Error {
	return WrapAt(code, "", err, format, args...)
}

// WrapAt is Wrap about the place where.
func WrapAt(code Code, where string, err error, format string, args ...any) *Error {
	return &Error{Code: code, Where: where, Msg: fmt.Sprintf(format, args...) + ": " + err.Error(), Err: err}
}

// Error returns "<code>: " and Text.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Text() }

// Text is the error's text without the code: "<where>: <message> (line <line>)", without
// the parts that are not set. It is what a job or action row keeps as its error message
// next to the code.
func (e *Error) Text() string {
	s := e.Msg
	if e.Where != "" {
		s = e.Where + ": " + s
	}
	if e.Line > 0 {
		s += " (line " + strconv.Itoa(e.Line) + ")"
	}
	return s
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the code as a string; it makes *Error a Coder.
func (e *Error) ErrorCode() string { return string(e.Code) }

// Coder is implemented by errors that carry an Oozie code without being an *Error (a
// filesystem's scheme error, a filter parse error...).
type Coder interface {
	error
	ErrorCode() string
}

// CodeOf returns the code of the first error in err's chain that carries one (an *Error or
// a Coder), or "" when none does.
func CodeOf(err error) Code {
	var c Coder
	if errors.As(err, &c) {
		return Code(c.ErrorCode())
	}
	return ""
}

// BulkError is the error of a bulk command (kill, suspend or resume of every job a filter
// selects) that stopped at one job: JobID is that job, Err why its command failed. Callers
// take the job from JobID, never from the message.
type BulkError struct {
	// JobID is the job whose command failed.
	JobID string
	// Err is that command's error.
	Err error
}

// Error returns "job <id>: <cause>".
func (e *BulkError) Error() string { return "job " + e.JobID + ": " + e.Err.Error() }

// Unwrap returns the failed command's error.
func (e *BulkError) Unwrap() error { return e.Err }

// TextOf returns err's text without its leading code when err itself (not an error it wraps)
// is a coded error with a Text method, such as *Error; any other error's text is returned
// whole. Rows keep it next to the code, and messages embed it.
func TextOf(err error) string {
	if t, ok := err.(interface{ Text() string }); ok {
		return t.Text()
	}
	return err.Error()
}
