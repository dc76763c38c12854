// Package ssh runs Oozie ssh actions (uri:oozie:ssh-action:0.1 and 0.2, and
// the ssh element of uri:oozie:workflow:0.1) from the gozie server, as
// Oozie's SshActionExecutor does: over SSH (golang.org/x/crypto/ssh) to the
// action's host, as the job's user, the command started in the background
// on the host and its end polled.
//
// # Who connects where
//
// The host element is host or user@host. The remote user is the job's
// user: a user@host naming anyone else is refused with ERR_USER_MISMATCH
// unless Config.AllowUserAtHost (Oozie's
// oozie.action.ssh.allow.user.at.host), which lets user@host name any user
// and still puts the job's user in front of a bare host. The port is
// Config.Port (22; an ssh_config's Port for every host).
//
// The server authenticates with its own private keys (Config.KeyFiles,
// OpenSSH's default identities when none are set) and checks the host's
// key against Config.KnownHostsFile (~/.ssh/known_hosts by default): a
// host whose key is not there, or differs from the one there, is refused
// with AUTH_FAILED, never accepted silently (Oozie's ssh runs with
// StrictHostKeyChecking=no; gozie does not).
//
// # The run on the remote host
//
// Each run has its own directory below the remote user's home,
// gozie-ssh/<job id>/<node>--ssh/<run>.<attempt> (Dir), holding:
//
//	run.sh   the wrapper: runs the command, records its exit status, calls back
//	pid      the wrapper's process id (its process group, started with setsid)
//	stdout   the command's standard output (capture-output reads it)
//	stderr   the command's standard error (the end of it explains an ERROR)
//	exit     the command's exit status, written when it ends
//	killed   present once the run was killed
//
// Start creates the directory with mkdir, which succeeds for one caller
// only: that caller writes the wrapper, starts it detached and records its
// pid. Any later Start for the same run (a restart of gozie, a second
// server, a retried trigger) finds the directory, reads the pid and
// reports the run as it is, so a command is never started twice for one
// run. Check reads the exit file, else whether the pid is alive. Kill
// kills the wrapper's process group (the command with it) and marks the
// run killed.
//
// Arguments follow Oozie: <args> are joined with spaces after the command
// and the line is split again on the host (one <args> may hold several
// arguments, quotes are the shell's); each <arg> (0.2) is one argument,
// its spaces kept. The command line is the remote shell's, as under
// Oozie's ssh: variables and quotes are the remote shell's to expand.
//
// The wrapper calls the action's callback URL with curl when the command
// ends (OK or ERROR), where the host has curl and reaches the server;
// without it the end is seen at the next check.
//
// # Outcomes and error codes (Oozie's SshActionExecutor)
//
//	exit status 0                     OK; with capture-output, stdout as the action's data
//	                                  (Java properties, at most Config.MaxOutputData bytes,
//	                                  else ERROR ERR_OUTPUT_EXCEED_MAX_LEN)
//	exit status n ≠ 0                 ERROR, EXECUTION_FAILED, with the status and the end of stderr
//	killed (Kill)                     ERROR, EXECUTION_FAILED, "was killed"
//	the wrapper died without a status ERROR, UNKNOWN_ERROR
//	user@host of another user         ERROR, ERR_USER_MISMATCH
//	host name does not resolve        transient, COULD_NOT_RESOLVE_HOST
//	no connection                     transient, COULD_NOT_CONNECT
//	host key unknown or changed,      non-transient (the job is suspended), AUTH_FAILED
//	  or the host refused our keys
//	the run's directory or wrapper    ERROR, SETUP_FAILED
//	  could not be written
//
// Left out: Oozie's oozie.action.ssh.delete.remote.tmp.dir (the run's
// directory stays on the host, as Oozie's default keeps it), its POST of
// stdout with the callback (gozie reads the data itself), and passphrase-
// protected keys. A pid that the host reuses for another of the user's
// processes after a reboot looks alive: such a run stays RUNNING until it
// is killed.
package ssh
