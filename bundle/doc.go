// Package bundle is the pure core of gozie's bundles: it reads Oozie bundle applications
// (uri:oozie:bundle:0.1 and 0.2), resolves them for a submission, and decides the bundle's
// status and its commands as functions of (definition, state, now). It performs no I/O;
// package bundlerun keeps bundles in the store, kicks them off and applies these decisions.
//
// # Flow
//
//	Parse(xml) ──► Resolve(app, conf) ──► Job ──► DefinitionXML ─► store (PREP)
//	kick-off time ──► LoadJob(definition) ──► Job.Enabled() ──► one coordinator each
//	Rollup(bundle, coordinator statuses) ──► bundle status;  JobStatus.WithPause(pause, now)
//	JobStatus.OnSuspend / OnResume, Killable / DecideChange / RerunAllowed ──► commands
//
// A bundle's EL knows the job configuration's properties as variables, bundle:conf(name)
// and Oozie's basic functions; every attribute and element value is evaluated once, at
// submission. A coordinator submitted by a bundle takes the bundle entry's name, and its
// configuration is the bundle's job configuration overridden by the entry's.
//
// # Bundle statuses
//
// The legal moves of a bundle are the table store.BundleJobMachine, and those of its link
// to a coordinator store.BundleActionMachine, drawn and explained in package store (the
// one drawing). Suspend, resume, the pause time and rerun are store.JobStatus's
// OnSuspend, OnResume, WithPause and OnRerun, which coordinators share.
//
// A bundle moves by its commands (suspend, resume, kill, change, rerun) and by Rollup,
// which follows its coordinators once they run. Every RUNNING, SUSPENDED and PAUSED state
// has a *WITHERROR twin (some coordinator failed, was killed or ended with errors), hidden
// by default as in Oozie. Bundles never become IGNORED; an IGNORED coordinator is left out
// of the roll-up.
//
// # Commands and their coordinators
//
// Each command of a bundle reaches its coordinators, as Oozie's do: suspend suspends the
// PREP, RUNNING and PAUSED ones (SuspendsCoordinator), resume resumes the suspended ones
// (store.JobStatus.Suspended), kill kills them all, a change of pause or end time changes every
// coordinator but the killed ones (ChangesCoordinator), and a rerun reruns the actions of
// the named coordinators in a date scope (RerunScope, RerunDateScope).
package bundle
