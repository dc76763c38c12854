// Package coordinator is the pure core of gozie's coordinators: it reads Oozie coordinator
// applications (uri:oozie:coordinator:0.1 to 0.5), resolves them for a submission, and decides
// materialization, input checks, starts and status roll-ups as functions of (definition,
// state, now). It performs no I/O: dataset existence is asked through an ExistsFunc, included
// dataset files through a reader, and the engine applies the returned rows through the store.
//
// # Flow
//
//	Parse(xml) ──► Submit(app, conf) ──► Job ──► Job.Row()/DefinitionXML() ─► store (PREP)
//	LoadJob(definition) ──► Materialize(job, row, now) ──► []NewAction + updated row
//	CheckInputs(action, exists, now) ──► READY / WAITING / TIMEDOUT / SKIPPED / FAILED
//	StartReady(ready actions, concurrency) ──► submit / skip ──► WorkflowConf(action)
//	RollupCoordinator(actions) ──► job status (a bundle's roll-up is in package bundle)
//
// Datetimes, time zones, calendar arithmetic and cron frequencies are Oozie's and Java's, and
// live in package oozietime (oozietime.Format, LoadZone, AddUnits, ParseCron); this package
// only applies them to coordinators. EL is evaluated with package el in the phases Oozie
// defines (Phase); the coord: functions of each phase are in Registry.
//
// # Coordinator action statuses
//
// The legal moves of an action are the table store.CoordActionMachine, drawn in its doc in
// package store (the one drawing; the property test TestDecisionsMoveAlongTheTables of
// coordrun checks the decisions against it).
//
// An action is materialized WAITING, or SKIPPED when LAST_ONLY or NONE would skip it at
// once (a job catching up). CheckInputs moves it to READY when its dependencies exist (or
// TIMEDOUT, SKIPPED, FAILED); StartReady moves READY actions to SUBMITTED within the job's
// concurrency, and the workflow's status then drives the action. WAITING and READY actions
// are queued (Queued): at most throttle of them exist at once. An action whose trigger the
// engine gave up on (it kept failing, or kept taking the server down) is FAILED with the
// cause as its error.
//
// # Coordinator job statuses
//
// The legal moves of a job are the table store.CoordJobMachine, drawn in its doc in package
// store. Suspend, resume, the pause time and rerun are store.JobStatus's OnSuspend,
// OnResume, WithPause and OnRerun, which bundles share.
//
// Materialize moves PREP to RUNNING; RollupCoordinator computes the rest from the actions,
// but never brings a FAILED or KILLED job back (a kill kills its actions in batches; a
// failed job's running actions go on). A job the engine failed keeps the error's code and
// message.
// Every RUNNING, SUSPENDED and PAUSED state has a *WITHERROR twin (some action failed, was
// killed or timed out), hidden by default as in Oozie (Settings.HideErrorStates).
package coordinator
