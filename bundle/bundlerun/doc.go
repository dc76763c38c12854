// Package bundlerun is the effectful half of gozie's bundles: it keeps bundle jobs in the
// store, kicks them off through triggers and commands them, applying the decisions of the
// pure core in package bundle (Resolve, Rollup, DecideChange, ...) and the job-status moves
// of store.JobStatus (WithPause, OnSuspend, ...). A bundle's coordinators are ordinary
// coordinator jobs of package coordrun, created with its two-phase Prepare/Insert and
// commanded with its transactional commands (SuspendTx, ResumeTx, KillTx, ChangeTx), so
// that a bundle and its coordinators always move together.
//
// # Triggers
//
//	bundle-kickoff  bundle  due at the kick-off time (at once without one, or after
//	                        -start): submits every enabled coordinator in one transaction
//	                        and moves the bundle to RUNNING; never found by a scan
//	bundle-status   bundle  the roll-up of the coordinators' statuses and the pause time,
//	                        woken in the transaction of every status change of one of its
//	                        coordinators (OnCoordinatorChange) and of every bundle command
//
// # Flow
//
//	Submit ──► bundle PREP + bundle-kickoff (due at the kick-off time)
//	bundle-kickoff ──► coordrun.Prepare each coordinator (reads its app, outside any
//	                   transaction) ──► one transaction: coordinators PREP + links
//	                   (<bundle id>_<name>) + bundle RUNNING + bundle-status
//	coordinator status change ──► OnCoordinatorChange ──► bundle-status ──► Rollup
//	Suspend | Resume | Kill | Change ──► bundle + its coordinators, one transaction
//	Rerun ──► coordrun.Runner.Rerun per coordinator in scope ──► bundle RUNNING
//
// The bundle statuses are those of package bundle, with Oozie's default of hiding the
// *WITHERROR statuses.
//
// # Crash safety
//
// A server killed at any point loses nothing and does nothing twice. The kick-off's
// coordinators, links and the bundle's move to RUNNING commit together with the trigger's
// release, by compare-and-set on the bundle's version from PREP: a kick-off interrupted
// before its commit runs again from the rows once its lease expires, and one that lost a
// race to a command (a suspend, a kill) decides again on the new status. Commands commit the
// bundle and every coordinator they reach in one transaction. Only a rerun spans
// transactions, one per coordinator, because each deletes the outputs it reruns first (as
// a coordinator rerun does); each coordinator's rerun is whole or nothing.
//
// # Locking
//
// A bundle command updates the bundle's row first (which locks it on PostgreSQL) and then
// takes each coordinator's lock through the coordinator engine; coordinator transactions
// never write a bundle's row, only schedule its bundle-status trigger, and the roll-up
// reads coordinators without locking them. A deadlock the database still breaks is
// retried like a compare-and-set conflict.
package bundlerun
