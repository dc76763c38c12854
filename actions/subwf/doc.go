// Package subwf runs Oozie's sub-workflow action: each run is a child
// workflow job of the same server, submitted and started through the
// workflow runner in one transaction.
//
// The child's configuration is built as Oozie's SubWorkflowActionExecutor
// builds it: the parent's job configuration when the action has
// <propagate-configuration/>, then the action's <configuration>, then what
// gozie sets: oozie.wf.application.path (the action's app-path, made a full
// URI), user.name and group.name of the parent, oozie.wf.parent.id (the
// parent workflow's id), oozie.wf.superparent.id (the top of the chain) and
// oozie.action.subworkflow.depth (one more than the parent's; more than
// oozie.action.subworkflow.max.depth, 50 by default, ends the action in
// ERROR with SUBWF001).
//
// The child job's parent id is the parent workflow, as `oozie job -info`
// shows it, and its external id is the key of the parent action's run
// (Oozie's recovery id). That key makes Start exactly-once: before
// submitting, Start looks for a child of the parent with that external id,
// in the same transaction as the insert, so a crash between submitting and
// recording the launch, or a replayed start, finds the child instead of
// making a second one.
//
// The run's external id is the child's job id, its external status the
// child's status. The run ends when the child does: SUCCEEDED is OK; KILLED
// and FAILED are ERROR, carrying the child's error code and message. The
// runner schedules the parent action's check in the transaction in which
// the child ends (wfrun.ParentActionOf), so the parent moves on at once.
// Kill kills the child (and so its own running actions and children);
// suspending or resuming the parent suspends or resumes the child (in the
// runner, in the same transaction).
//
// Not done: rerunning a parent with oozie.wf.rerun.failnodes=true starts a
// new child instead of rerunning the old one (Oozie reruns it).
package subwf
