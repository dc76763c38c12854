// Package hive2 runs Oozie hive2 actions (uri:oozie:hive2-action:0.1 to
// 1.0) directly on HiveServer2 with github.com/beltran/gohive, from the
// gozie server, with no launcher container.
//
// # What a run does
//
// The action's jdbc-url is parsed (ParseJDBCURL) into gohive's settings:
// hosts (tried in order), database, transportMode=binary|http, httpPath,
// auth=noSasl (else SASL PLAIN, or basic authentication over HTTP), ssl.
// ZooKeeper discovery, auth=delegationToken and sasl.qop other than auth
// are refused with CodeUnsupported for now. The session user is the
// workflow's user; the password is the action's password element (else
// the URL's).
//
// With principal=svc/_HOST@REALM (_HOST: the host connected to), the
// session authenticates as the server's principal (Config.Kerberos), with
// no cgo: over the binary transport the connection negotiates Thrift SASL
// GSSAPI (qop auth) with gokrb5 and gohive speaks Thrift over the framed
// connection; over HTTP gohive talks to an in-memory relay that sends each
// request on with a SPNEGO token and doAs=<user>. OpenSession carries
// hive.server2.proxy.user=<workflow user>, so HiveServer2 runs the session
// as the user if its hadoop.proxyuser rules allow gozie's principal. A
// jdbc-url without principal= whose action names a hive2 <credential>
// (Oozie's secure hive2 actions, whose beeline uses the credential's
// token) is reached the same way, at the credential's
// hive2.server.principal, when gozie has a Kerberos login.
//
// FetchDelegationToken implements the hive2 credential type of workflow
// <credentials>: a HIVE_DELEGATION_TOKEN for the job's user, for the
// launch's credentials (alias CredentialAlias).
//
// The statements come from the script (relative to the application
// directory) or the inline query, split like Beeline does
// (SplitStatements), with ${var} and ${hivevar:var} replaced from the
// URL's variables, the param elements and --hivevar/-d arguments, in that
// order of precedence, lowest first (Substitute). --hiveconf arguments set
// configuration; other Beeline arguments are logged and ignored.
//
// The session's configuration (sent in OpenSession as set:hiveconf:key, as
// the Hive JDBC driver does) is hive.execution.engine=tez, then the
// action's configuration (oozie.* properties excepted), the URL's
// configuration part and --hiveconf arguments; the run's YARN tag
// (Attempt.Tag) is added to tez.application.tags and mapreduce.job.tags, so
// the Tez and MapReduce applications HiveServer2 starts can be found and
// killed by tag. Application ids seen in the operation log ("Executing on
// YARN cluster with App id ...") are reported as ExternalChildIDs.
//
// Start opens the session and writes the run's record, then returns
// RUNNING; one goroutine per run executes the statements in order, each
// with an asynchronous ExecuteStatement and GetOperationStatus polls (the
// first after 5 ms, the pause doubling up to Config.PollInterval), fetching
// the operation log as it goes. Check reports the run. The first statement
// that fails ends the run in ERROR with Hive's error code and message
// (wf:errorCode, wf:errorMessage), e.g. 10001 for an unknown table. Kill sends CancelOperation and waits for
// HiveServer2 to confirm. The session and every socket it used are closed
// when the run ends, is killed, or the executor closes.
//
// # Files in the action directory
//
// StateFile (the record), StatementsFile (the statements as run) and
// LogFile (gozie's lines and HiveServer2's operation log, which
// `oozie job -log` shows; LogPath) live in Attempt.ActionDir, and KillFile
// when a kill was requested.
//
//	Start ─► record {owner, next=0} ─► for each statement i:
//	          record {next=i, inFlight} ─► ExecuteStatement ─► poll ─► record {next=i+1}
//	       ─► record {done, outcome}
//	heartbeats: every HeartbeatInterval the owner rewrites the record and
//	            looks for KillFile and for a takeover.
//
// # What "exactly once" means here
//
// HiveServer2 offers no idempotency key: a session, and in practice its
// running operations, die with the connection of the process that opened
// it, and a statement cannot be looked up afterwards. So the guarantee is
// per statement and rests on the record:
//
//   - A run's statements are never started twice in parallel: Start and
//     Check run nothing while the record's owner heartbeats
//     (Config.StaleAfter), locally or on another server.
//   - A statement recorded as finished is never run again for the run, and
//     the script is never restarted from the top. A run resumed after a
//     crash (by whichever executor Starts or Checks it once the owner's
//     heartbeat is stale) continues at the first statement not recorded as
//     finished, after replaying the session statements before it (SET,
//     USE, ADD JAR, temporary functions), whose effect died with the old
//     session.
//   - The statement that was running when the owner crashed or the
//     connection broke is in doubt: it may have committed. It is submitted
//     again only when that is safe by its form (reads, INSERT OVERWRITE,
//     LOAD ... OVERWRITE, DDL with IF [NOT] EXISTS, session statements);
//     otherwise (INSERT INTO, unguarded DDL) the run ends in ERROR with
//     CodeInDoubt and the message names the statement, for a person to
//     check before rerunning.
//   - A graceful shutdown (Close) cancels the running statement and waits
//     for HiveServer2 to confirm the cancellation, so that statement is
//     known not to have run; the record is released and the next executor
//     runs it again at once, whatever its form.
//
// The record lives on HDFS, which offers no compare-and-set: an owner that
// was only paused past StaleAfter (and then resumed) notices the takeover
// at its next heartbeat and cancels its statement, but the two may overlap
// for up to one heartbeat interval. Keep StaleAfter well above pauses the
// servers can suffer.
package hive2
