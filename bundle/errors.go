package bundle

import "github.com/gozie/gozie/oozieerr"

// Error is Oozie's coded error, defined once in oozieerr: the code, the element, attribute
// or line at fault in Where ("coordinator[load]/app-path", "line 12 <coordinator>"), and the
// message, formatted "E1304: where: message".
type Error = oozieerr.Error

// ErrorCode returns the Oozie error code of the first coded error in err's chain, or "" if
// there is none.
func ErrorCode(err error) oozieerr.Code { return oozieerr.CodeOf(err) }
