// Package coordrun is the effectful half of gozie's coordinators: it keeps
// coordinator jobs and actions in the store and drives them with triggers,
// applying the decisions of the pure core in package coordinator
// (Materialize, CheckInputs, StartReady, RollupCoordinator, ApplyChange,
// WorkflowConf). It launches each ready action's workflow through the
// workflow runner, in the same transaction that moves the action.
//
// # Triggers
//
// Every piece of work is a trigger (see package engine); each handler decides
// on the rows it reads and writes its outcome in one transaction together
// with the trigger's release, by compare-and-set on row versions.
//
//	coord-materialize   job     due at the next materialization minus the look-ahead
//	                            (never found by a periodic scan); a throttled job has
//	                            none until an action leaves the queue (WAITING or
//	                            READY: throttle actions at most, catch-up included)
//	coord-input-check   action  a WAITING action's dependencies, with a delay growing
//	                            from 1s to 60s (never past its timeout deadline), at
//	                            once on Notify; handled in batches of many actions,
//	                            one write transaction each;
//	                            an action without dependencies is checked inside its
//	                            materialization instead (it needs no filesystem);
//	                            hcat:// dependencies are asked of their metastore
//	                            (Config.HCat, hcat.go), which notifies when the
//	                            partition is added
//	coord-timeout       job     due at the earliest timeout deadline of its WAITING
//	                            actions after a resume; it makes their input checks
//	                            run then
//	coord-start         job     the ready/start step: concurrency, FIFO/LIFO/LAST_ONLY/
//	                            NONE, workflows submitted; not scheduled while every
//	                            slot of a FIFO/LIFO job is taken
//	coord-status        job     the status roll-up and the pause time, woken by every
//	                            change it depends on
//	coord-workflow-cmd  action  kill, suspend, resume or rerun the action's workflow so
//	                            that it matches the action and its job
//	coord-kill          job     the unfinished actions of a KILLED job beyond the first
//	                            batch the kill itself killed, a batch per transaction
//
// # Flow
//
//	Submit ──► job PREP + coord-materialize
//	coord-materialize ──► actions WAITING + coord-input-check each
//	coord-input-check ──► READY ──► coord-start ──► SUBMITTED + workflow (same transaction)
//	                  └─► TIMEDOUT | SKIPPED | FAILED ──► coord-status
//	workflow changes ──► OnWorkflowChange ──► RUNNING | SUSPENDED | SUCCEEDED | FAILED | KILLED
//	                                         ──► coord-start (slot freed) + coord-status
//	Suspend | Resume | Kill | KillActions ──► coord-workflow-cmd per action with a workflow
//	Kill of a job with more than a batch of unfinished actions ──► coord-kill
//
// The action and job state machines are those of package coordinator (§1.7
// and §1.9 of the semantics reference), with Oozie's default of hiding the
// *WITHERROR job statuses.
//
// # Locking
//
// Every transaction of this package that writes more than one row locks its
// job's row first (store.Tx.LockCoordJob), and so does OnWorkflowChange
// inside the workflow runner's transactions; on PostgreSQL the transactions
// of one job therefore never wait on each other in a cycle, and a deadlock
// the database still breaks is retried like a compare-and-set conflict.
//
// # Crash safety
//
// A server killed at any point loses nothing and does nothing twice: a
// handler's writes and its trigger's release commit together or not at all,
// so an interrupted handler leaves its trigger leased until the lease
// expires, and then any server runs it again from the rows. Materialization
// moves the job row by compare-and-set on its version and inserts actions
// under UNIQUE(job_id, action_number); a stalled server whose trigger was
// taken over fails to commit (its lease is gone), so actions are never
// duplicated nor skipped. A workflow is inserted in the transaction that
// moves its action to SUBMITTED, so it exists exactly once.
package coordrun
