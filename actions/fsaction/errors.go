package fsaction

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strings"
	"syscall"

	"github.com/gozie/gozie/actions"
)

// Oozie's error codes of the fs action (FsActionExecutor). All of them end
// the action in ERROR.
const (
	codeMissingScheme = "FS001" // a path without a scheme
	codeMkdir         = "FS004" // mkdir failed
	codeDelete        = "FS005" // delete (or the move to trash) failed
	codeNoSource      = "FS006" // move: the source does not exist
	codeOtherNN       = "FS007" // move: the target is on another filesystem
	codeMove          = "FS008" // move: the rename failed
	codeNoPath        = "FS009" // chmod, chgrp: nothing matches the path
	codeBadMask       = "FS010" // chmod: invalid permissions mask
	codeRelative      = "FS011" // a relative path
	codeManySources   = "FS012" // move: several sources, one target name
	codeTooMany       = "FS013" // a glob matched more than the limit
	codeAccess        = "FS014" // AccessControlException
	// Codes Oozie derives from the Java exception's class name.
	codeException   = "Exception"
	codeNotFound    = "FileNotFoundException"
	codeBadNumber   = "NumberFormatException"
	codeUnsupported = "UnsupportedOperationException"
	codeIOException = "IOException"
	// codeIO marks a filesystem that cannot be reached (Oozie leaves this
	// unclassified): the action is retried, as the design asks of unreachable
	// peers.
	codeIO = "JA009"
)

// opError classifies a filesystem failure of one operation: a refused access
// is FS014, a path that vanished FileNotFoundException, a failure to reach
// the filesystem is transient (JA009), anything else an IOException, the code
// Oozie gives an unregistered IOException.
func opError(err error, format string, args ...any) error {
	return opFailed(err, codeIOException, format, args...)
}

// opFailed is opError with the operation's own code (FS004 for mkdir, FS005
// for delete) for failures that are neither refusals nor transient.
func opFailed(err error, code, format string, args ...any) error {
	var ee *actions.ExecError
	if errors.As(err, &ee) {
		return err
	}
	if refused := actions.SchemeRefused(err); refused != nil {
		return refused // E0904, as the path checks answer it
	}
	msg := fmt.Sprintf(format, args...)
	switch {
	case errors.Is(err, fs.ErrPermission):
		return actions.Errorf(actions.ActionError, codeAccess, "%s: %w", msg, err)
	case transient(err):
		return actions.Errorf(actions.Transient, codeIO, "%s: %w", msg, err)
	case errors.Is(err, fs.ErrNotExist) && code == codeIOException:
		return actions.Errorf(actions.ActionError, codeNotFound, "%s: %w", msg, err)
	default:
		return actions.Errorf(actions.ActionError, code, "%s: %w", msg, err)
	}
}

// transient reports failures to reach the filesystem at all. colinmarc's
// client flattens its connection errors into text ("no available
// namenodes: dial tcp …: connection refused"), hence the text checks.
func transient(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"no available namenodes", "connection refused", "connection reset", "broken pipe", "i/o timeout", "StandbyException"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
