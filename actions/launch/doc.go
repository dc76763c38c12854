// Package launch is the executor of the shell and java actions: each run is
// one YARN application whose ApplicationMaster is `gozie launcher` (package
// yarn/launcher). One Executor runs one action type (Config.Type).
//
// Start, exactly once per run:
//
//	the RM knows an app tagged run.Tag ──yes──► report it (no second launch)
//	        │ no
//	result.json in the action dir ──yes──► report it (the RM forgot the app)
//	        │ no
//	stage: <launcher dir>/<sha256>/gozie (once per binary), the launch spec
//	       in the action dir, lib/ files, <file> and <archive> entries, each
//	       stat-ed for YARN's size and timestamp check
//	        ▼
//	new-application ─► submit (1 attempt, tags run.Tag + CommonTag, type GOZIE)
//
// Check reads the application report; once the application ended it reads
// result.json for the error code, message and captured output, and when the
// RM no longer knows the application it falls back to result.json alone
// (JA017 when that is missing too). CheckAll asks the RM once for every
// launcher that finished since the last call. Kill kills the launcher and
// every application carrying the run's child tag.
//
// Outcomes are Oozie's: final status SUCCEEDED is OK (external status
// SUCCEEDED); anything else is ERROR (external status FAILED/KILLED), with
// error code "1" for a failed shell command, the exit code of a java main
// class, JA018 for an exception or over-long captured output.
//
// Known limits: staging and the launcher act as the server's HDFS user and
// the submission carries no delegation tokens, so secure (Kerberos) clusters
// are not supported yet.
package launch
