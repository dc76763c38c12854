package store

import "time"

// Times in rows are UTC with millisecond precision; the zero time.Time means
// "not set" and is stored as NULL. Other times must lie between MinTime and
// MaxTime (see TimeInRange); a backend refuses to write any other.

// MinTime and MaxTime bound the times a row may hold: the years 1000 to 9999,
// which every backend stores (SQLite as Unix milliseconds, PostgreSQL as
// timestamptz), Oozie's four-digit masks print, and SQL's DATE and MySQL's
// DATETIME (Oozie's own columns) hold. The zero time (year 1, "not set") is
// outside, so that a user's 0001-01-01T00:00Z can never be mistaken for it.
var (
	MinTime = time.Date(1000, time.January, 1, 0, 0, 0, 0, time.UTC)
	MaxTime = time.Date(9999, time.December, 31, 23, 59, 59, 999_000_000, time.UTC)
)

// TimeInRange reports whether t is a time a row may hold: the zero time ("not
// set") or a time from MinTime to MaxTime. Times a user gives (a coordinator's
// start and end, a bundle's kick-off) are checked with it at submission.
func TimeInRange(t time.Time) bool {
	return t.IsZero() || (!t.Before(MinTime) && !t.After(MaxTime))
}

// StoredTime returns t as a row holds it: UTC, millisecond precision; the
// zero time stays zero.
func StoredTime(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.UTC().Truncate(time.Millisecond)
}

// AsStored returns j with its times as a row holds them (StoredTime): what
// reading j back returns once it is written.
func (j CoordJob) AsStored() CoordJob {
	for _, t := range []*time.Time{&j.StartTime, &j.EndTime, &j.PauseTime, &j.LastActionTime,
		&j.NextMaterializedTime, &j.SuspendedTime, &j.CreatedTime, &j.LastModified} {
		*t = StoredTime(*t)
	}
	return j
}

// Version is a row's optimistic-lock counter. Every update must name the
// version it read; the store increments it, so two writers that read the same
// row can never both apply a change.
type Version int64

// WorkflowJob is one workflow job (a run of a workflow app).
type WorkflowJob struct {
	ID           string
	AppName      string
	AppPath      string
	User         string
	Group        string
	ACL          string
	Status       WorkflowStatus
	Run          int    // 0, incremented by every rerun
	ParentID     string // coordinator action or parent workflow, if any
	ExternalID   string
	Conf         string // the job configuration as Hadoop configuration XML
	Definition   string // the workflow XML as submitted
	Instance     []byte // the DAG engine's persisted state (owned by package workflow)
	ErrorCode    string
	ErrorMessage string
	CreatedTime  time.Time
	StartTime    time.Time
	EndTime      time.Time
	LastModified time.Time
	Version      Version
}

// WorkflowAction is one node of a workflow job, control nodes included.
type WorkflowAction struct {
	ID                string // <jobID>@<name>
	JobID             string
	Name              string
	Type              string // shell, java, hive2, :START:, :END:, :KILL:, :FORK:, :JOIN:, switch, ...
	Status            ActionStatus
	Conf              string // the resolved action XML
	Transition        string // the node taken on leaving this one
	ExternalID        string // YARN application id, HiveServer2 operation, child workflow id
	ExternalStatus    string
	ExternalChildIDs  string
	TrackerURI        string
	ConsoleURL        string
	LaunchTag         string // YARN tag written before submission, for exactly-once launches
	ErrorCode         string
	ErrorMessage      string
	Data              string // capture-output / action data, Java properties text
	Stats             string
	Retries           int // transient retries so far
	UserRetryCount    int
	UserRetryMax      int
	UserRetryInterval int // minutes
	CreatedTime       time.Time
	StartTime         time.Time
	EndTime           time.Time
	LastCheckTime     time.Time
	LastModified      time.Time
	Version           Version
}

// CoordJob is one coordinator job.
type CoordJob struct {
	ID                   string
	AppName              string
	AppPath              string
	User                 string
	Group                string
	ACL                  string
	Status               JobStatus
	BundleID             string
	ExternalID           string
	Conf                 string // job configuration XML
	Definition           string // the coordinator XML with submit-time EL resolved
	OrigDefinition       string // the coordinator XML exactly as submitted (show=definition)
	Frequency            string // minutes as text, or the cron expression
	TimeUnit             string // MINUTE, HOUR, DAY, WEEK, MONTH, END_OF_DAY, END_OF_MONTH, CRON, ...
	TimeZone             string
	Concurrency          int
	Timeout              int // minutes
	Throttle             int // max queued (WAITING or READY) actions, see coordinator.Queued (mat_throttling)
	ExecutionOrder       string
	StartTime            time.Time
	EndTime              time.Time
	PauseTime            time.Time
	LastActionNumber     int
	LastActionTime       time.Time // nominal time after the last materialized action
	NextMaterializedTime time.Time
	DoneMaterialization  bool
	Pending              bool // some action has a command to its workflow in flight (kept by the roll-up)
	SuspendedTime        time.Time
	ErrorCode            string // why the engine FAILED the job (materialization, work given up on)
	ErrorMessage         string
	CreatedTime          time.Time
	LastModified         time.Time
	Version              Version
}

// CoordAction is one materialized coordinator action.
type CoordAction struct {
	ID                      string // <coordJobID>@<actionNumber>
	JobID                   string
	ActionNumber            int
	Status                  CoordActionStatus
	NominalTime             time.Time
	ExternalID              string // the workflow job id
	ExternalStatus          string
	TrackerURI              string
	ConsoleURL              string
	ErrorCode               string
	ErrorMessage            string
	CreatedConf             string
	RunConf                 string
	ActionXML               string // the materialized action, EL of the create phase resolved
	MissingDependencies     string
	PushMissingDependencies string
	Timeout                 int  // minutes to wait for inputs, copied from the job; negative: never
	Pending                 bool // a command to the action's workflow (kill, suspend, ...) is in flight
	CreatedTime             time.Time
	LastModified            time.Time
	Version                 Version
}

// BundleJob is one bundle job.
type BundleJob struct {
	ID         string
	AppName    string
	AppPath    string
	User       string
	Group      string
	ACL        string
	Status     JobStatus
	ExternalID string
	Conf       string
	Definition string // the bundle XML with submit-time EL resolved (what kick-off reads)
	// OrigDefinition is the bundle XML exactly as submitted (show=definition).
	OrigDefinition string
	KickoffTime    time.Time
	StartTime      time.Time
	EndTime        time.Time
	PauseTime      time.Time
	SuspendedTime  time.Time
	TimeOut        int
	CreatedTime    time.Time
	LastModified   time.Time
	Version        Version
}

// BundleAction links a bundle to one of its coordinators.
type BundleAction struct {
	ID           string // <bundleID>_<coordName>
	BundleID     string
	CoordName    string
	CoordID      string
	Status       JobStatus
	Critical     bool
	LastModified time.Time
	Version      Version
}

// SLA is one SLA registration together with its running summary.
type SLA struct {
	ID               string // job or action id
	ParentID         string
	BundleID         string
	AppName          string
	AppType          AppType
	User             string
	NominalTime      time.Time
	ExpectedStart    time.Time
	ExpectedEnd      time.Time
	ExpectedDuration int64 // ms, -1 when not tracked
	ActualStart      time.Time
	ActualEnd        time.Time
	ActualDuration   int64 // ms, -1 when not started
	JobStatus        string
	SLAStatus        SLAStatus
	EventStatus      string // comma-joined SLAEventStatus values judged so far
	AlertEvents      string
	AlertContact     string
	NotificationMsg  string
	UpstreamApps     string
	AlertsEnabled    bool
	CreatedTime      time.Time
	LastModified     time.Time
	Version          Version
}

// SLAEvent is one judged SLA event, kept for reports. Besides the event it
// keeps the registration's figures as they were when it was judged (as
// Oozie's SLA event message carries them), so that a notification delivered
// later, or a listing of the history, reports the event as judged: a
// START_MISS judged in the same pass as END_MISS keeps SLA status
// NOT_STARTED although the registration is MISS after the pass.
type SLAEvent struct {
	Seq         int64 // assigned by the store
	SLAID       string
	AppName     string
	EventStatus SLAEventStatus
	Lateness    time.Duration // actual minus expected; negative is early
	EventTime   time.Time
	// SLAStatus is the registration's SLA status as the event was judged.
	SLAStatus SLAStatus
	// JobStatus is the status of the job or action then.
	JobStatus string
	// The expected and actual times then (zero when unset); durations in
	// ms, -1 when not tracked or not known.
	ExpectedStart    time.Time
	ExpectedEnd      time.Time
	ExpectedDuration int64
	ActualStart      time.Time
	ActualEnd        time.Time
	ActualDuration   int64
}

// Trigger is one pending piece of engine work: run the handler of Kind for
// EntityID at DueAt. A (Kind, EntityID) pair has at most one trigger.
type Trigger struct {
	ID           int64
	Kind         TriggerKind
	EntityID     string
	Payload      string
	DueAt        time.Time
	Attempts     int // claims since the last Release, this one included (failed, or whose holder died)
	LastError    string
	LeaseOwner   string
	LeaseExpires time.Time
	LeaseSeq     int64 // incremented by every claim; a release must name it
	CreatedTime  time.Time
}

// ServerInstance is one running gozie server, kept fresh by heartbeats.
type ServerInstance struct {
	ID        string
	Host      string
	Version   string
	StartedAt time.Time
	Heartbeat time.Time
}
