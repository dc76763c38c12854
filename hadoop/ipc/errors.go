package ipc

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
)

// Java exception class names that clients (colinmarc/hdfs, Hadoop's own
// RPC client) interpret. Servers return them in a RemoteError.
// AuthorizationException, a subclass of AccessControlException, refuses a
// connection whose user may not use it (a proxy without a hadoop.proxyuser
// rule).
const (
	IOException                      = "java.io.IOException"
	FileNotFoundException            = "java.io.FileNotFoundException"
	UnsupportedOperationException    = "java.lang.UnsupportedOperationException"
	AccessControlException           = "org.apache.hadoop.security.AccessControlException"
	AuthorizationException           = "org.apache.hadoop.security.authorize.AuthorizationException"
	InvalidTokenException            = "org.apache.hadoop.security.token.SecretManager$InvalidToken"
	FileAlreadyExistsException       = "org.apache.hadoop.fs.FileAlreadyExistsException"
	PathIsNotEmptyDirectoryException = "org.apache.hadoop.fs.PathIsNotEmptyDirectoryException"
	ParentNotDirectoryException      = "org.apache.hadoop.fs.ParentNotDirectoryException"
	HadoopIllegalArgumentException   = "org.apache.hadoop.HadoopIllegalArgumentException"
	AlreadyBeingCreatedException     = "org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException"
	StandbyException                 = "org.apache.hadoop.ipc.StandbyException"
	RPCServerException               = "org.apache.hadoop.ipc.RpcServerException"
	NoSuchMethodException            = "org.apache.hadoop.ipc.RpcNoSuchMethodException"
	NoSuchProtocolException          = "org.apache.hadoop.ipc.RpcNoSuchProtocolException"
	// SaslException refuses a packet of a SASL-wrapping connection that
	// is not wrapped or fails the security layer's checks.
	SaslException = "javax.security.sasl.SaslException"

	// YARN's ApplicationMasterProtocol errors.
	YarnException                            = "org.apache.hadoop.yarn.exceptions.YarnException"
	ApplicationMasterNotRegisteredException  = "org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException"
	InvalidApplicationMasterRequestException = "org.apache.hadoop.yarn.exceptions.InvalidApplicationMasterRequestException"
	ApplicationAttemptNotFoundException      = "org.apache.hadoop.yarn.exceptions.ApplicationAttemptNotFoundException"
	InvalidResourceRequestException          = "org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException"
	ApplicationNotFoundException             = "org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException"
)

// ErrorCode is the detail code of a failed call.
type ErrorCode = commonpb.RpcResponseHeaderProto_RpcErrorCodeProto

// Error codes used by this package.
const (
	CodeApplication     = commonpb.RpcResponseHeaderProto_ERROR_APPLICATION
	CodeNoSuchMethod    = commonpb.RpcResponseHeaderProto_ERROR_NO_SUCH_METHOD
	CodeNoSuchProtocol  = commonpb.RpcResponseHeaderProto_ERROR_NO_SUCH_PROTOCOL
	CodeServer          = commonpb.RpcResponseHeaderProto_ERROR_RPC_SERVER
	CodeFatalUnknown    = commonpb.RpcResponseHeaderProto_FATAL_UNKNOWN
	CodeInvalidHeader   = commonpb.RpcResponseHeaderProto_FATAL_INVALID_RPC_HEADER
	CodeDeserializing   = commonpb.RpcResponseHeaderProto_FATAL_DESERIALIZING_REQUEST
	CodeVersionMismatch = commonpb.RpcResponseHeaderProto_FATAL_VERSION_MISMATCH
	CodeUnauthorized    = commonpb.RpcResponseHeaderProto_FATAL_UNAUTHORIZED
)

// RemoteError is a Hadoop RemoteException: the server's Java exception
// class and message. Handlers return one to choose the class a client
// sees; the client returns one for every failed call.
type RemoteError struct {
	// Class is the Java exception class name, e.g. FileNotFoundException.
	Class string
	// Message is the exception message.
	Message string
	// Code is the RPC error detail; zero means CodeApplication.
	Code ErrorCode
	// Fatal is set when the server closed the connection after the error.
	Fatal bool
	// Method is the method that failed (client side only).
	Method string
}

// Errorf returns a RemoteError of the given class with a formatted message.
func Errorf(class, format string, args ...any) *RemoteError {
	return &RemoteError{Class: class, Message: fmt.Sprintf(format, args...)}
}

// Error implements error.
func (e *RemoteError) Error() string {
	s := e.Class
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Method != "" {
		s = e.Method + ": " + s
	}
	return "ipc: remote " + s
}

// Is maps well-known exception classes onto the io/fs sentinels, so that
// errors.Is(err, fs.ErrNotExist) works on a FileNotFoundException.
func (e *RemoteError) Is(target error) bool {
	switch target {
	case fs.ErrNotExist:
		return e.Class == FileNotFoundException
	case fs.ErrPermission:
		return e.Class == AccessControlException || e.Class == AuthorizationException || e.Class == InvalidTokenException
	case fs.ErrExist:
		return e.Class == FileAlreadyExistsException || e.Class == AlreadyBeingCreatedException
	case fs.ErrInvalid:
		return e.Class == HadoopIllegalArgumentException
	case ErrStandby:
		return e.Class == StandbyException
	}
	return false
}

// ErrStandby matches (with errors.Is) a RemoteError from a standby server.
var ErrStandby = errors.New("ipc: server is in standby state")

// ErrClosed is returned by calls on a closed client or connection.
var ErrClosed = errors.New("ipc: connection closed")

// asRemote converts a handler error into a RemoteError: one found in the
// chain keeps its class, io/fs sentinels become the matching Java class,
// anything else is an IOException.
func asRemote(err error) *RemoteError {
	var re *RemoteError
	if errors.As(err, &re) {
		out := *re
		if out.Message == "" && err != re {
			out.Message = err.Error()
		}
		return &out
	}
	class := IOException
	switch {
	case errors.Is(err, fs.ErrNotExist):
		class = FileNotFoundException
	case errors.Is(err, fs.ErrPermission):
		class = AccessControlException
	case errors.Is(err, fs.ErrExist):
		class = FileAlreadyExistsException
	case errors.Is(err, fs.ErrInvalid):
		class = HadoopIllegalArgumentException
	}
	return &RemoteError{Class: class, Message: err.Error()}
}
