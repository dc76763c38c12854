package xmltree

// Kind classifies an *Error.
type Kind int

// The kinds of error.
const (
	// Malformed is a document that is not well-formed XML, or that this package refuses to
	// read at all: a DOCTYPE, nesting deeper than the limit, an unknown encoding, no root or
	// more than one.
	Malformed Kind = iota + 1
	// Invalid is a well-formed document that breaks a schema rule checked by a Node method.
	Invalid
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Malformed:
		return "malformed"
	case Invalid:
		return "invalid"
	}
	return "unknown"
}

// Error is a failure to read or check a document.
type Error struct {
	// Kind tells a malformed document from a schema violation.
	Kind Kind
	// Where names the element or line at fault ("line 12 <dataset>", "line 3"); it is
	// empty when the decoder's own error (in Err) says where.
	Where string
	// Msg is the human-readable message.
	Msg string
	// Err is the underlying cause, such as an *xml.SyntaxError; its text ends the message.
	Err error
}

// Error formats the error as "where: message: cause", leaving out the empty parts.
func (e *Error) Error() string {
	s := e.Msg
	if e.Where != "" {
		s = e.Where + ": " + s
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }
