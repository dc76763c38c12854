package hadoop

import "github.com/gozie/gozie/oozieerr"

// NoFileSystemError reports a URI whose scheme no FileSystem of gozie
// implements (the Resolver has hdfs and file). It is a filesystem failure,
// met where the URI is used, and not a refusal: which schemes users may name
// is the SchemePolicy's to say (*SchemeError, E0904), and a policy may allow a
// scheme gozie cannot reach (gozie.filesystems.supported=*), as Oozie's may.
// Hadoop fails the same way there: FileSystem.getFileSystemClass throws
// UnsupportedFileSystemException when no fs.<scheme>.impl and no service
// names a class for the scheme, whose message Error returns. It does not
// match ErrUnsupportedScheme: callers that turn a refused scheme into a
// failure at once (E0904) keep waiting or retrying for this one as for any
// other filesystem failure.
type NoFileSystemError struct {
	// Scheme is the URI's scheme in lower case.
	Scheme string
	// URI is the URI as it was given.
	URI string
}

// Error returns Hadoop 3's message, `No FileSystem for scheme "foo"`.
func (e *NoFileSystemError) Error() string {
	return `No FileSystem for scheme "` + e.Scheme + `"`
}

// ErrorCode returns Oozie's code for the failure, E0902: the error Oozie's
// HadoopAccessorService makes of Hadoop's UnsupportedFileSystemException.
func (e *NoFileSystemError) ErrorCode() string { return oozieerr.E0902 }

// Message is the error as Oozie reports E0902: `Exception occurred: [No
// FileSystem for scheme "foo"]`.
func (e *NoFileSystemError) Message() string { return "Exception occurred: [" + e.Error() + "]" }
