package wfrun

import "github.com/gozie/gozie/oozieerr"

// Error is a command error with Oozie's error code (oozieerr's one coded error), e.g.
// E0604 for a job that does not exist or E0401 for a missing user.name; its text is
// "<code>: <message>".
type Error = oozieerr.Error
