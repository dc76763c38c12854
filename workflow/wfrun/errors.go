package wfrun

import "github.com/gozie/gozie/oozieerr"

// Error is a command error with Oozie's error code (oozieerr's one coded error), e.g.
// E0604 for a job that does not exist or E0401 for a missing user.name; its text is
// "<code>: <message>".
type Error = oozieerr.Error

// Oozie error codes the runner returns itself, named for what they mean here; the codes
// are defined once in oozieerr.
const (
	CodeMissingProperty = oozieerr.E0401 // Missing configuration property [x]
	CodeInvalidParam    = oozieerr.E0302 // Invalid parameter [x]
	CodeAppDirMissing   = oozieerr.E0504 // App directory [x] does not exist
	CodeAppDefMissing   = oozieerr.E0505 // App definition [x] does not exist
	CodeIO              = oozieerr.E0803 // IO error
	CodeJobNotFound     = oozieerr.E0604 // Job does not exist [x]
	CodeActionNotFound  = oozieerr.E0605 // Action does not exist [x]
	CodeConfig          = oozieerr.E0307 // runtime error reading configuration
	CodeInternal        = oozieerr.E0902 // Exception occurred: [x] (work the engine gave up on)
	CodeSchema          = oozieerr.E0701 // XML schema error, of a workflow definition read for a job
)
