// Package sla is gozie's SLA service: registrations from sla:info blocks,
// the deadline calculator, the event history with lateness, and the
// delivery of events to metrics, webhooks and email.
//
// # Registration
//
// A workflow job's sla:info (job level and per action) is registered when
// the job is submitted, its EL resolved then with the job's configuration
// (WorkflowChanged, called by the workflow runner); a rerun registers it
// afresh. A coordinator action's registration is built by the coordinator
// engine at materialization (package coordinator) and stored in its
// transaction. Expected start and end are the nominal time plus
// should-start and should-end minutes; the expected duration is
// max-duration, or end minus start.
//
// Whoever stores a registration does it with Insert, which arms its first
// deadline (FirstDeadline) in the same transaction; the store only stores
// the row (store.SLAs.InsertSLA). A coordinator action's start and
// end are judged when its workflow changes (the action is the workflow's
// parent); an engine that ends an action without a workflow (timed out,
// killed while waiting) may call Track for an immediate judgment, which the
// next deadline makes otherwise.
//
// # The deadline calculator
//
// No periodic scan: every registration has one trigger (sla-deadline, see
// package engine) due at its next deadline. Judge, a pure function of the
// registration, the progress of its job and now, decides what is due; Track
// applies it in the caller's transaction and arms the next deadline there.
// Engines call Track (or WorkflowChanged) in the transaction of every change
// of a watched job or action, so a start or end is judged the moment it is
// written, and the trigger judges a deadline the moment it passes without
// it. A server restart loses nothing: the deadline is a row.
//
// Statuses of one registration:
//
//	NOT_STARTED ──start──► IN_PROCESS ──end on time──► MET
//	     │                     │
//	     │                     └──end late, failed, or should-end passed──► MISS
//	     └──should-end passed, or failed before starting──────────────────► MISS
//
// Events, each judged at most once (a registration's EventStatus lists them):
//
//	START_MET | START_MISS        at the start, or START_MISS once should-start passed
//	DURATION_MET | DURATION_MISS  at the end, or DURATION_MISS once max-duration is exceeded
//	END_MET | END_MISS            at the end, or END_MISS once should-end passed
//
// Each event is kept in the history with its lateness (actual minus
// expected, or now minus expected for a deadline that passed) and with the
// SLA status, job status and times as it was judged: when one pass judges
// START_MISS and END_MISS of a job that never started, the START_MISS keeps
// NOT_STARTED and the END_MISS has MISS, as Oozie queues each event with
// its own copy of the status. It is delivered once committed by the
// sla-event trigger, which reports it as judged: counted in Prometheus
// metrics, posted to webhooks, and emailed to alert-contact for the events
// of alert-events when the registration's alerts are enabled.
//
// Change and SetAlerts change a running job's expectations (sla-change)
// and alerts (sla-enable, sla-disable); the deadlines are armed again.
package sla
