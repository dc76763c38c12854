// Package store is gozie's persistence seam: the Store and Tx interfaces, the
// rows and typed statuses every engine shares, and the errors every backend
// maps its own failures to. Backends live in store/sqlite (the embedded
// default) and store/postgres (for many servers); store/storetest is the one
// behavioural suite both run.
//
// All work the engine has to do is a row in the trigger table (see Trigger):
// writers schedule triggers in the same transaction as the state change that
// makes them due, and the engine claims due triggers with a lease. Every
// entity update is a compare-and-set on the row's Version and, where the
// caller names them, its allowed current statuses.
package store

import (
	"context"
	"errors"
	"time"
)

// Errors every backend maps its failures to.
var (
	// ErrNotFound: the row does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: a row with that key exists already, or a compare-and-set
	// found another version or status than the caller expected.
	ErrConflict = errors.New("store: conflict")
	// ErrLeaseLost: the trigger was claimed by someone else (or deleted)
	// since this holder claimed it; the holder's transaction is rolled back.
	ErrLeaseLost = errors.New("store: trigger lease lost")
)

// Store is one database holding gozie's state.
type Store interface {
	// Tx runs fn in one transaction, committing when fn returns nil and
	// rolling back otherwise. Wake-ups for triggers that fn made due are
	// delivered after the commit.
	Tx(ctx context.Context, fn func(Tx) error) error
	// View runs fn's reads without a transaction, which saves a read two
	// round trips (BEGIN and COMMIT): each statement sees what was committed
	// when it started, as each statement of a PostgreSQL transaction at
	// READ COMMITTED does (so two reads may see different commits). Writes
	// fail. fn must finish reading one result before it starts another
	// query, since SQLite has one connection.
	View(ctx context.Context, fn func(Tx) error) error
	// ClaimTriggers leases up to req.Limit due, unleased (or lease-expired)
	// triggers to req.Owner in one statement, oldest due first, and counts
	// the attempt: each claimed trigger's Attempts is one more than before,
	// so a claim whose holder died (a crash, an out-of-memory kill) is
	// counted too.
	ClaimTriggers(ctx context.Context, req ClaimRequest) ([]Trigger, error)
	// Wakeups delivers a value whenever a committed transaction scheduled a
	// trigger; on PostgreSQL also for transactions of other servers. The
	// channel has a buffer of one and never blocks a writer.
	Wakeups() <-chan struct{}
	// Backend names the backend: "sqlite" or "postgres".
	Backend() string
	// Close releases the database.
	Close() error
	Audits
}

// ClaimRequest describes one claim of due triggers.
type ClaimRequest struct {
	Owner      string    // the claiming engine's id
	Now        time.Time // triggers due at or before Now are claimed
	LeaseUntil time.Time // the lease's expiry
	Limit      int
	Kinds      []TriggerKind // only these kinds; empty = all
}

// Tx is the set of operations available inside one transaction.
type Tx interface {
	Triggers
	Workflows
	Coordinators
	Bundles
	SLAs
	Servers
	Purger
	Batches
	ActionAttempts
	StreamPositions
}

// StreamPositions records how far a follower of an outside stream has
// read, by stream name (the edit-stream watcher: the last transaction id
// of a NameNode's edit stream it has handled).
type StreamPositions interface {
	// GetStreamPosition returns the position recorded under name, or
	// ErrNotFound.
	GetStreamPosition(ctx context.Context, name string) (int64, error)
	// SetStreamPosition records pos under name.
	SetStreamPosition(ctx context.Context, name string, pos int64) error
}

// Triggers schedules and releases engine work.
type Triggers interface {
	// Schedule makes (kind, entityID) due at due: it creates the trigger, or
	// moves an existing one earlier (never later). If the trigger is leased
	// right now, the request is kept and applied when the holder releases it,
	// so a wake-up that arrives while a handler runs is never lost.
	Schedule(ctx context.Context, kind TriggerKind, entityID string, due time.Time, payload string) error
	// Unschedule removes (kind, entityID). A leased trigger is marked
	// cancelled and removed on release. Missing triggers are not an error.
	Unschedule(ctx context.Context, kind TriggerKind, entityID string) error
	// Release ends the claim t (matched by ID and LeaseSeq). The trigger stays
	// due at the earlier of next and any Schedule made during the lease, or is
	// deleted when both are zero (or it was cancelled without a later
	// Schedule). Attempts and the last error are cleared.
	Release(ctx context.Context, t Trigger, next time.Time) error
	// Fail ends the claim t after a handler error: the error recorded, the
	// attempt (counted by the claim) kept, due again at retryAt (or earlier
	// if scheduled meanwhile).
	Fail(ctx context.Context, t Trigger, retryAt time.Time, reason string) error
	// RenewLease extends the claim t to until.
	RenewLease(ctx context.Context, t Trigger, until time.Time) error
	// GetTrigger returns the trigger (kind, entityID).
	GetTrigger(ctx context.Context, kind TriggerKind, entityID string) (Trigger, error)
	// NextDue returns the earliest due time among unleased triggers and the
	// earliest lease expiry, whichever is first; ok is false when none exist.
	NextDue(ctx context.Context) (due time.Time, ok bool, err error)
	// CountTriggers counts triggers, for tests and metrics.
	CountTriggers(ctx context.Context) (int, error)
	// ListTriggers returns up to limit triggers for the admin queue dump:
	// with leased, those being handled now by lease expiry; otherwise the
	// waiting ones by due time.
	ListTriggers(ctx context.Context, leased bool, limit int) ([]Trigger, error)
	// BusyTriggers reports whether an engine has work at now, in one look:
	// a leased trigger, or an unleased one due at or before now that is not
	// of the kinds in except (kinds nobody here handles). False means the
	// engines are idle at now; tests wait for it to settle an engine after
	// moving a fake clock. It stops at the first such trigger, so a look
	// costs little however much work is queued.
	BusyTriggers(ctx context.Context, now time.Time, except []TriggerKind) (bool, error)
	// FailedTriggers returns up to limit triggers whose last attempt
	// failed (LastError set), by due time.
	FailedTriggers(ctx context.Context, limit int) ([]Trigger, error)
	// LeaseOwners returns the distinct owners of the leases held now,
	// expired or not.
	LeaseOwners(ctx context.Context) ([]string, error)
	// EndLeases ends every lease of owner before now, so that a claim at
	// now takes its triggers over (counting the attempt, as after a lease
	// expiry); for an engine known to have exited. It returns how many
	// leases it ended.
	EndLeases(ctx context.Context, owner string, now time.Time) (int, error)
}

// JobFilter selects jobs for listings. Within one field values are ORed,
// across fields ANDed; empty fields do not filter.
type JobFilter struct {
	IDs         []string
	Users       []string
	Names       []string
	Groups      []string
	Statuses    []string
	ParentID    string
	BundleID    string // coordinators only
	Frequency   string // coordinators only: the stored frequency ("60", "1")
	TimeUnit    string // coordinators only: MINUTE, DAY, MONTH, ...
	Text        string // part of the app name or user, or the exact id
	ExternalID  string // the exact external id (workflows: oozie.wf.external.id)
	CreatedFrom time.Time
	CreatedTo   time.Time
	SortBy      string // "createdTime" (default, newest first) or "lastModifiedTime"
	Offset      int    // 0-based
	Limit       int    // 0 = no limit
	// OmitDocuments leaves Conf, Definition and OrigDefinition empty: their
	// columns (kilobytes a job) are not read, for listings, which carry none.
	OmitDocuments bool
}

// Workflows stores workflow jobs and their actions.
type Workflows interface {
	InsertWorkflowJob(ctx context.Context, j *WorkflowJob) error
	GetWorkflowJob(ctx context.Context, id string) (WorkflowJob, error)
	// UpdateWorkflowJob writes j if its Version is current and, when from
	// is given, its stored status is one of from; j.Version is advanced.
	UpdateWorkflowJob(ctx context.Context, j *WorkflowJob, from ...WorkflowStatus) error
	// ListWorkflowJobs returns one page and the total matching f.
	ListWorkflowJobs(ctx context.Context, f JobFilter) ([]WorkflowJob, int, error)
	// DeleteWorkflowJob removes the job and its actions.
	DeleteWorkflowJob(ctx context.Context, id string) error

	InsertWorkflowAction(ctx context.Context, a *WorkflowAction) error
	GetWorkflowAction(ctx context.Context, id string) (WorkflowAction, error)
	UpdateWorkflowAction(ctx context.Context, a *WorkflowAction, from ...ActionStatus) error
	// ListWorkflowActions returns the job's actions in creation order.
	ListWorkflowActions(ctx context.Context, jobID string) ([]WorkflowAction, error)
	// ListActionsByStatus returns up to limit actions of any job in one of
	// statuses (e.g. every RUNNING action, for the batched YARN poll).
	ListActionsByStatus(ctx context.Context, statuses []ActionStatus, limit int) ([]WorkflowAction, error)
	DeleteWorkflowAction(ctx context.Context, id string) error
}

// CoordActionFilter selects one coordinator's actions.
type CoordActionFilter struct {
	JobID       string
	Statuses    []CoordActionStatus // IN
	NotStatuses []CoordActionStatus // NOT IN
	NominalFrom time.Time           // inclusive
	NominalTo   time.Time           // exclusive
	PendingOnly bool                // only actions with Pending set
	Desc        bool                // newest nominal time first
	Offset      int
	Limit       int // 0 = no limit
	// OmitActionXML leaves ActionXML empty: its column (1–2 KB an action) is not
	// read, for answers that do not include it (Oozie's JSON of an action has none).
	OmitActionXML bool
	// JobConf, when set, is the job's configuration, which its actions are created
	// with until the job is updated: a listing reads an action's created
	// configuration only where it differs (and its run configuration only where
	// that differs from the created one), so a page of actions carries the
	// configuration once, not twice per action.
	JobConf string
}

// Coordinators stores coordinator jobs and their actions.
type Coordinators interface {
	InsertCoordJob(ctx context.Context, j *CoordJob) error
	GetCoordJob(ctx context.Context, id string) (CoordJob, error)
	UpdateCoordJob(ctx context.Context, j *CoordJob, from ...JobStatus) error
	// LockCoordJob reads the job and locks its row until the transaction
	// ends (the read alone where the database serializes writers).
	// Coordinator transactions take it before anything else they write, so
	// that those of one job never wait on each other in a cycle.
	LockCoordJob(ctx context.Context, id string) (CoordJob, error)
	ListCoordJobs(ctx context.Context, f JobFilter) ([]CoordJob, int, error)
	DeleteCoordJob(ctx context.Context, id string) error

	InsertCoordAction(ctx context.Context, a *CoordAction) error
	// InsertCoordActions inserts actions in few statements (a
	// materialization creates hundreds at once); a duplicate fails them all
	// with ErrConflict.
	InsertCoordActions(ctx context.Context, as []*CoordAction) error
	GetCoordAction(ctx context.Context, id string) (CoordAction, error)
	UpdateCoordAction(ctx context.Context, a *CoordAction, from ...CoordActionStatus) error
	// ListCoordActions returns one page and the total matching f.
	ListCoordActions(ctx context.Context, f CoordActionFilter) ([]CoordAction, int, error)
	// CountCoordActions counts a job's actions by status.
	CountCoordActions(ctx context.Context, jobID string) (map[CoordActionStatus]int, error)
	// GetCoordJobCounting reads a job without its definitions (Definition
	// and OrigDefinition are empty) and counts its actions matching f (whose
	// JobID is taken to be id), in one statement: a job's info.
	GetCoordJobCounting(ctx context.Context, id string, f CoordActionFilter) (CoordJob, int, error)
	// ListCoordActionsPage is ListCoordActions without the total.
	ListCoordActionsPage(ctx context.Context, f CoordActionFilter) ([]CoordAction, error)
	// CountCoordActionsWhere counts the actions matching f (its order and
	// paging are ignored); with statuses given it reads only their part of
	// the (job, status) index, however many actions the job has.
	CountCoordActionsWhere(ctx context.Context, f CoordActionFilter) (int, error)
	// PresentCoordActionStatuses returns, in CoordActionStatuses order, the
	// statuses at least one of the job's actions has: one index probe per
	// status, for status roll-ups of jobs with very many actions.
	PresentCoordActionStatuses(ctx context.Context, jobID string) ([]CoordActionStatus, error)
	// DeleteCoordActions removes a job's terminal actions last modified
	// before olderThan, at most limit of them, and returns how many.
	DeleteCoordActions(ctx context.Context, jobID string, olderThan time.Time, limit int) (int, error)
	// DeleteCoordAction removes one action (a look-ahead action a change
	// of the end or pause time took back) and what it waits for.
	DeleteCoordAction(ctx context.Context, id string) error

	// SetCoordWaits replaces the dataset URIs a waiting action is blocked
	// on, so that a notification about one of them finds the action
	// without a scan; no URIs removes them all.
	SetCoordWaits(ctx context.Context, actionID string, uris []string) error
	// ListCoordWaiters returns the ids of the actions waiting on uri.
	ListCoordWaiters(ctx context.Context, uri string) ([]string, error)
	// ListWaitedURIs returns those of uris that some action waits on
	// (SetCoordWaits), each once, in no particular order.
	ListWaitedURIs(ctx context.Context, uris []string) ([]string, error)
}

// Bundles stores bundle jobs and their coordinator links.
type Bundles interface {
	InsertBundleJob(ctx context.Context, j *BundleJob) error
	GetBundleJob(ctx context.Context, id string) (BundleJob, error)
	UpdateBundleJob(ctx context.Context, j *BundleJob, from ...JobStatus) error
	ListBundleJobs(ctx context.Context, f JobFilter) ([]BundleJob, int, error)
	DeleteBundleJob(ctx context.Context, id string) error

	InsertBundleAction(ctx context.Context, a *BundleAction) error
	UpdateBundleAction(ctx context.Context, a *BundleAction) error
	ListBundleActions(ctx context.Context, bundleID string) ([]BundleAction, error)
}

// SLAFilter selects SLA registrations, as the filter of GET /v2/sla does.
// Within one field values are ORed, across fields ANDed; empty fields do not
// filter. Time bounds are inclusive.
type SLAFilter struct {
	IDs       []string
	ParentIDs []string
	// BundleID is a bundle id or name: registrations whose BundleID is it, or
	// whose parent is one of the bundle's coordinators.
	BundleID    string
	AppNames    []string
	AppTypes    []AppType
	Users       []string
	JobStatuses []string // SQL LIKE patterns: % and _ are wildcards
	SLAStatuses []SLAStatus
	// EventStatuses selects summaries whose EventStatus lists any of these.
	EventStatuses []SLAEventStatus
	// EventsExist selects registrations with any of these events in their
	// history.
	EventsExist []SLAEventStatus

	NominalFrom, NominalTo             time.Time
	CreatedFrom, CreatedTo             time.Time
	ExpectedStartFrom, ExpectedStartTo time.Time
	ExpectedEndFrom, ExpectedEndTo     time.Time
	ActualStartFrom, ActualStartTo     time.Time
	ActualEndFrom, ActualEndTo         time.Time
	// Duration bounds in milliseconds; nil does not filter.
	ActualDurationMin, ActualDurationMax     *int64
	ExpectedDurationMin, ExpectedDurationMax *int64

	// SortBy is one of SLASortKeys (Oozie's names); empty means
	// nominalTimeTS. Ties are broken by id.
	SortBy string
	Desc   bool
	Offset int // 0-based
	Limit  int // 0 = no limit
}

// SLASortKeys are the sort keys of SLA listings, as Oozie's sortby parameter
// names them.
var SLASortKeys = []string{"actualDuration", "actualEndTS", "actualStartTS", "appName", "appType",
	"createdTimeTS", "eventProcessed", "eventStatus", "expectedDuration", "expectedEndTS", "expectedStartTS",
	"jobId", "jobStatus", "lastModifiedTS", "nominalTimeTS", "parentId", "slaStatus", "user"}

// SLAEventFilter selects events of the SLA history. Empty fields do not
// filter; time bounds are inclusive.
type SLAEventFilter struct {
	SLAIDs   []string
	AppNames []string
	Statuses []SLAEventStatus
	From, To time.Time // event time
	AfterSeq int64     // only events with a larger Seq
	Desc     bool      // newest first (by Seq)
	Limit    int       // 0 = no limit
}

// KindSLADeadline is the trigger kind of SLA deadlines (entity: the
// registration's id). The SLA service arms and handles it (sla.KindDeadline);
// the store names it only to remove a deleted registration's deadline.
const KindSLADeadline TriggerKind = "sla-deadline"

// SLAs stores SLA registrations, their summaries and events.
type SLAs interface {
	// InsertSLA stores a registration as given. Its deadlines are the SLA
	// service's: writers call sla.Insert, which arms the first one in the
	// same transaction.
	InsertSLA(ctx context.Context, s *SLA) error
	GetSLA(ctx context.Context, id string) (SLA, error)
	// UpdateSLA writes s if its Version is current.
	UpdateSLA(ctx context.Context, s *SLA) error
	// DeleteSLA removes a registration, its events and its deadline.
	DeleteSLA(ctx context.Context, id string) error
	// ListSLAs returns one page of the registrations matching f.
	ListSLAs(ctx context.Context, f SLAFilter) ([]SLA, error)
	InsertSLAEvent(ctx context.Context, e *SLAEvent) error
	// GetSLAEvent returns the event with sequence number seq.
	GetSLAEvent(ctx context.Context, seq int64) (SLAEvent, error)
	// ListSLAEvents returns one registration's events, oldest first.
	ListSLAEvents(ctx context.Context, slaID string) ([]SLAEvent, error)
	// QuerySLAEvents returns the events of the history matching f, by Seq.
	QuerySLAEvents(ctx context.Context, f SLAEventFilter) ([]SLAEvent, error)
}

// Servers records live server instances and leader leases.
type Servers interface {
	// Heartbeat inserts or refreshes the instance row.
	Heartbeat(ctx context.Context, s ServerInstance) error
	ListServers(ctx context.Context, aliveSince time.Time) ([]ServerInstance, error)
	// AcquireLease takes or renews the named lease for owner until expiry;
	// it reports whether owner holds it.
	AcquireLease(ctx context.Context, name, owner string, now, until time.Time) (bool, error)
}

// ---- Purger: removal of old finished jobs (package purge drives it) ----

// PurgeCutoffs says which finished jobs are old. A job is old when its
// status is terminal and it was last modified before the cutoff of its kind.
// A finished job is last modified when it ends, so for workflows this is
// Oozie's end-time rule, and for coordinators and bundles it is Oozie's own
// last-modified rule; a job changed after its end waits the full age again.
type PurgeCutoffs struct {
	// Workflow applies to workflows and to the coordinator actions purged
	// with their workflows.
	Workflow time.Time
	Coord    time.Time
	Bundle   time.Time
}

// PurgeBatch is one batch of a purge pass.
type PurgeBatch struct {
	Cutoffs PurgeCutoffs
	// Limit bounds the batch: at most Limit candidates are looked at, and a
	// coordinator or bundle is drained by at most Limit coordinator actions
	// per batch. It must be positive.
	Limit int
	// After is the cursor the previous batch of the same pass returned;
	// empty starts the pass.
	After string
}

// PurgeResult counts what one batch removed.
type PurgeResult struct {
	Workflows    int // workflow jobs, sub-workflows and coordinators' workflows included
	CoordActions int
	Coordinators int
	Bundles      int
	// Next is the cursor for the next batch of the pass; empty when the pass
	// is over.
	Next string
}

// Purger removes old finished jobs with everything that belongs to them:
// their actions, coordinator waits, triggers, and SLA registrations with
// their events. Each method is one batch of one pass and runs in the
// caller's transaction; callers run one short transaction per batch and
// follow PurgeResult.Next until it is empty. Nothing that is not old goes:
//
//   - PurgeWorkflows: workflows without a parent (or whose parent no longer
//     exists), each with all its sub-workflows, when all of them are old.
//     Each batch also removes up to Limit audit records of no job older
//     than the workflow cutoff (the records of jobs go with their jobs).
//   - PurgeCoordActions: terminal coordinator actions last modified before
//     the workflow cutoff, of any coordinator, when all the workflows they
//     ran are old (the old actions of long-running coordinators).
//   - PurgeCoordJobs: old coordinators that are not in a bundle (or whose
//     bundle no longer exists), when all their actions are terminal and all
//     the workflows those ran are old by the workflow cutoff.
//   - PurgeBundleJobs: old bundles whose coordinators are all old by the
//     coordinator cutoff and purgeable as above.
//
// A coordinator or bundle with more actions than Limit is removed over
// several batches, its actions first and its own row last, so that a
// partly removed job is still found, and finished, by the next pass.
type Purger interface {
	PurgeWorkflows(ctx context.Context, b PurgeBatch) (PurgeResult, error)
	PurgeCoordActions(ctx context.Context, b PurgeBatch) (PurgeResult, error)
	PurgeCoordJobs(ctx context.Context, b PurgeBatch) (PurgeResult, error)
	PurgeBundleJobs(ctx context.Context, b PurgeBatch) (PurgeResult, error)
}

// ---- Batch operations (coordinator materialization throughput) ----
//
// The multi-row forms of a few Triggers and Coordinators operations, for
// handlers that finish many triggers of one kind in one transaction (see
// engine.FinishBatch): a handful of statements for a whole batch instead of
// a handful for each of its triggers.

// TriggerRelease is one claim to end with Release: the claimed trigger and
// when it is due next (zero: deleted, unless scheduled meanwhile).
type TriggerRelease struct {
	Trigger Trigger
	Next    time.Time
}

// ScheduleRequest is the arguments of one Schedule.
type ScheduleRequest struct {
	Kind     TriggerKind
	EntityID string
	Due      time.Time
	Payload  string
}

// CoordActionState is a coordinator action's status and version.
type CoordActionState struct {
	Status  CoordActionStatus
	Version Version
}

// Batches holds the multi-row operations.
type Batches interface {
	// ReleaseTriggers is Release for several claims. It first checks that
	// every claim still holds its lease; if one does not, it changes
	// nothing and returns an error wrapping ErrLeaseLost that names the
	// triggers lost.
	ReleaseTriggers(ctx context.Context, rs []TriggerRelease) error
	// ScheduleTriggers is Schedule for several triggers. A trigger named
	// twice is scheduled once, at the earlier due time, with the last
	// non-empty payload.
	ScheduleTriggers(ctx context.Context, rs []ScheduleRequest) error
	// GetCoordJobs returns the jobs with the given ids that exist, in id
	// order, without locking them.
	GetCoordJobs(ctx context.Context, ids []string) ([]CoordJob, error)
	// GetCoordActions returns the coordinator actions with the given ids
	// that exist, in id order, without locking their jobs.
	GetCoordActions(ctx context.Context, ids []string) ([]CoordAction, error)
	// GetCoordActionStates returns the status and version of each of the
	// coordinator actions with the given ids that exist, reading nothing
	// else: enough to tell whether a copy read before is still current.
	GetCoordActionStates(ctx context.Context, ids []string) (map[string]CoordActionState, error)
	// LockCoordJobVersions is LockCoordJob for several jobs, returning only
	// their versions: the rows are locked in id order, so that two
	// transactions locking overlapping sets never wait on each other in a
	// cycle, and jobs that do not exist are absent. A caller holding copies
	// read before can tell which are still current (every write of a job
	// advances its version) and read again only the others.
	LockCoordJobVersions(ctx context.Context, ids []string) (map[string]Version, error)
	// GetCoordJobVersions is LockCoordJobVersions without the lock: the
	// versions the jobs have now, for a caller that holds copies read
	// before and reads again only those that changed.
	GetCoordJobVersions(ctx context.Context, ids []string) (map[string]Version, error)
	// CountCoordActionsByJob counts, for each of the jobs, its actions in
	// one of statuses (all statuses when none are given). Jobs without such
	// actions are absent from the map.
	CountCoordActionsByJob(ctx context.Context, jobIDs []string, statuses []CoordActionStatus) (map[string]int, error)
	// SetCoordWaitsMany is SetCoordWaits for several actions: waits maps an
	// action id to the URIs it is now blocked on (none: it waits on
	// nothing).
	SetCoordWaitsMany(ctx context.Context, waits map[string][]string) error
	// UpdateCoordJobsProgress writes, for several distinct jobs, the
	// columns a materialization moves (status, last action number and
	// time, next materialized time, done flag, last modified), each by
	// compare-and-set on its Version, which matches only the row as the
	// caller read it (status included); the versions are advanced. If any
	// job does not match (or is gone), it returns ErrConflict and the
	// caller must roll back.
	UpdateCoordJobsProgress(ctx context.Context, jobs []*CoordJob) error
	// UpdateCheckedCoordActions writes, for several distinct actions, the
	// columns an input check moves (status, missing dependencies, action
	// XML, error code and message, last modified), each by compare-and-set
	// on its Version and on its stored status being from; the versions are
	// advanced. If any action does not match (or is gone), it returns
	// ErrConflict and the caller must roll back.
	UpdateCheckedCoordActions(ctx context.Context, actions []*CoordAction, from CoordActionStatus) error
}
