package ssh

// Oozie's error codes of the ssh action (SshActionExecutor's ERR_*
// constants and the codes its start, check and kill raise), as
// wf:errorCode shows them.
const (
	// CodeSetupFailed: the run's directory or wrapper could not be made.
	CodeSetupFailed = "SETUP_FAILED"
	// CodeExecutionFailed: the command exited non-zero, or was killed.
	CodeExecutionFailed = "EXECUTION_FAILED"
	// CodeUnknownError: anything else that went wrong on the host.
	CodeUnknownError = "UNKNOWN_ERROR"
	// CodeCouldNotConnect: no connection to the host (transient).
	CodeCouldNotConnect = "COULD_NOT_CONNECT"
	// CodeHostResolution: the host name does not resolve (transient).
	CodeHostResolution = "COULD_NOT_RESOLVE_HOST"
	// CodeAuthFailed: the host's key or ours was refused.
	CodeAuthFailed = "AUTH_FAILED"
	// CodeUserMismatch: user@host names a user other than the job's.
	CodeUserMismatch = "ERR_USER_MISMATCH"
	// CodeOutputExceedsMax: captured output over the limit.
	CodeOutputExceedsMax = "ERR_OUTPUT_EXCEED_MAX_LEN"

	codeXMLParseFailed = "ERR_XML_PARSE_FAILED"
	codeFailedToKill   = "FAILED_TO_KILL"
)
