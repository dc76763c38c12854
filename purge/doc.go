// Package purge removes old finished jobs, as Oozie's PurgeService does, and
// is on by default (gozie.purge.enabled).
//
// What goes. A job is old when its status is terminal and it was last
// modified before the age of its kind (gozie.purge.*.older-than, Oozie's
// 30 days for workflows and 7 for coordinators and bundles). Jobs go whole:
//
//   - a workflow only without a parent (a sub-workflow goes with its parent
//     workflow, a coordinator's workflow with its coordinator action) and
//     only when all its sub-workflows, at any depth, are old too; a
//     workflow whose parent no longer exists counts as having none;
//   - a coordinator only when it is not in a bundle (it goes with the
//     bundle), all its actions are terminal and every workflow they ran is
//     old by the workflow age;
//   - a bundle only when all its coordinators are old by the coordinator
//     age and can go as above;
//   - with gozie.purge.old-coord-action (on in gozie, off in Oozie), the
//     finished actions of any coordinator, long-running ones included, go
//     with the workflows they ran once those are old by the workflow age.
//
// With a job go all its rows: workflow actions, coordinator actions and
// their dataset waits, bundle links, pending triggers, and SLA
// registrations with their summaries. The SLA event history of a purged job
// goes too: Oozie keeps no separate history for its SLA summaries, and
// events kept without their registration would grow without bound and name
// jobs that no longer exist; whoever needs them longer reads them from the
// SLA webhooks or /v2/sla before the purge age.
//
// How. Each kind is one pass over the store (store.Purger), in batches of
// gozie.purge.limit jobs; every batch is its own short transaction, so the
// engine's transactions run between batches and a large backlog never
// stalls it. The periodic purge is one trigger (kind "purge"), so only one
// server runs it at a time: a run does at most Config.RunBatches batches,
// then re-arms its trigger due at once with its position in the payload
// and yields to the triggers due before it; when the passes are done it
// re-arms itself for gozie.purge.interval later.
//
//	armed ──due──► run batches ──passes done──► armed (now + interval)
//	                   │  ▲
//	                   └──┘ batch budget spent: re-armed due now, position kept
//
// Purge serves PUT /oozie/v2/admin/purge: one purge to the end with the
// configured settings or those of the request, returning the counts.
package purge
