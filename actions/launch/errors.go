package launch

import (
	"errors"
	"io/fs"
	"net/http"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/yarn"
)

// Oozie's error codes of the launcher-based executors (JavaActionExecutor).
const (
	codeAccess     = "JA002" // AccessControlException
	codeBadXML     = "JA007" // the action XML cannot be read
	codeNotFound   = "JA008" // FileNotFoundException
	codeIO         = "JA009" // IOException, transient
	codeBadEnv     = "JA010" // <env-var> not NAME=VALUE
	codeUnknownJob = "JA017" // the RM and the action directory both forgot the run
	codeBadNumber  = "NumberFormatException"
	// codeIllegalArg: a path Hadoop's client refuses (an empty one, or one
	// that is no valid HDFS name); Oozie names an exception it has no code
	// for by its class.
	codeIllegalArg = "IllegalArgumentException"
	// codeHiveServer: a hive action names no HiveServer2 and the server
	// has no default.
	codeHiveServer = "HIVE_JDBC_URL"
	// codeUnsupported: a map-reduce action asks for what gozie cannot run
	// without a JVM (a config-class, pipes).
	codeUnsupported = "MR_UNSUPPORTED"
	unknownJobText  = "Unknown hadoop job [%s] associated with action [%s] and couldn't determine status from action data.  Failing this action!"
	externalRunning = "RUNNING"
	// Oozie's external statuses of an ended launcher.
	externalSucceeded = "SUCCEEDED"
	externalFailed    = "FAILED/KILLED"
)

// invalidPathException is the NameNode's refusal of a path that is no valid
// HDFS name ("." or ".." components, a ':'), which Hadoop's own client
// refuses before sending (DistributedFileSystem.getPathName,
// IllegalArgumentException "... is not a valid DFS filename.").
const invalidPathException = "org.apache.hadoop.fs.InvalidPathException"

// fsError classifies a filesystem failure during op as Oozie does: a
// refused filesystem (a job-xml, file or archive on the server's own disk)
// ends the action in ERROR (E0904), as do a missing file (JA008) and a path
// that is no valid HDFS name (IllegalArgumentException); a refused access
// needs a person (JA002), anything else is retried (JA009).
func fsError(err error, format string, args ...any) error {
	if refused := actions.SchemeRefused(err); refused != nil {
		return refused
	}
	args = append(args, err)
	switch {
	case remoteClass(err) == invalidPathException:
		return actions.Errorf(actions.ActionError, codeIllegalArg, format+": %w", args...)
	case errors.Is(err, fs.ErrNotExist):
		return actions.Errorf(actions.ActionError, codeNotFound, format+": %w", args...)
	case errors.Is(err, fs.ErrPermission):
		return actions.Errorf(actions.NonTransient, codeAccess, format+": %w", args...)
	default:
		return actions.Errorf(actions.Transient, codeIO, format+": %w", args...)
	}
}

// yarnError classifies a ResourceManager failure: an RM that refuses the
// request itself (a bad submission) ends the action in ERROR, a refused user
// needs a person, everything else (unreachable RM, standby, 5xx) is retried.
func yarnError(err error, format string, args ...any) error {
	args = append(args, err)
	var re *yarn.RemoteError
	if errors.As(err, &re) && !re.Retryable() {
		switch re.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			return actions.Errorf(actions.NonTransient, codeAccess, format+": %w", args...)
		case http.StatusBadRequest:
			return actions.Errorf(actions.ActionError, codeIO, format+": %w", args...)
		}
	}
	return actions.Errorf(actions.Transient, codeIO, format+": %w", args...)
}

// remoteClass returns the Java exception class of a NameNode's answer in
// err (the HDFS client's errors name it), or "".
func remoteClass(err error) string {
	var remote interface{ Exception() string }
	if errors.As(err, &remote) {
		return remote.Exception()
	}
	return ""
}
