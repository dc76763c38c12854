package oozieapi

// CoordinatorJob is a coordinator job as GET job/<id>?show=info returns it, and as the
// entries of a coordinator jobs listing (whose actions are empty).
type CoordinatorJob struct {
	AppPath              string              `json:"coordJobPath"`
	AppName              string              `json:"coordJobName"`
	ID                   string              `json:"coordJobId"`
	ExternalID           string              `json:"coordExternalId"`
	BundleID             string              `json:"bundleId"`
	Conf                 string              `json:"conf"`
	Status               string              `json:"status"`
	ExecutionPolicy      string              `json:"executionPolicy"`
	Frequency            string              `json:"frequency"` // minutes as text, or the cron expression
	TimeUnit             string              `json:"timeUnit"`
	TimeZone             string              `json:"timeZone"`
	Concurrency          int                 `json:"concurrency"`
	Timeout              int                 `json:"timeOut"` // minutes
	LastAction           Date                `json:"lastAction"`
	NextMaterializedTime Date                `json:"nextMaterializedTime"`
	CreatedTime          Date                `json:"createdTime"`
	StartTime            Date                `json:"startTime"`
	EndTime              Date                `json:"endTime"`
	PauseTime            Date                `json:"pauseTime"`
	User                 string              `json:"user"`
	Group                string              `json:"group"`
	ACL                  string              `json:"acl"`
	ConsoleURL           string              `json:"consoleUrl"`
	Throttle             int                 `json:"mat_throttling"`
	ErrorCode            string              `json:"errorCode,omitempty"`    // why gozie failed the job: not in
	ErrorMessage         string              `json:"errorMessage,omitempty"` // Oozie's document, only when set
	Actions              []CoordinatorAction `json:"actions"`                // never null: [] when there are none
	ToString             string              `json:"toString"`
	// Total is how many of the job's actions match the info request's filter.
	Total int `json:"total"`
}

// MarshalJSON writes the job with empty strings as null and actions as [] when none.
func (j CoordinatorJob) MarshalJSON() ([]byte, error) { return marshalDocument(j) }

func (j CoordinatorJob) form() (any, bool) {
	type plain CoordinatorJob
	if j.Actions == nil {
		j.Actions = []CoordinatorAction{}
	}
	return plain(j), true
}

// CoordinatorJobString is the toString member of a coordinator job,
// "Coordinator application id[<id>] status[<S>]".
func CoordinatorJobString(id, status string) string {
	return "Coordinator application id[" + id + "] status[" + status + "]"
}

// CoordinatorAction is one materialized action of a coordinator job.
type CoordinatorAction struct {
	ID                      string `json:"id"`
	JobID                   string `json:"coordJobId"`
	Type                    string `json:"type"`
	ActionNumber            int    `json:"actionNumber"`
	CreatedConf             string `json:"createdConf"`
	CreatedTime             Date   `json:"createdTime"`
	NominalTime             Date   `json:"nominalTime"`
	ExternalID              string `json:"externalId"` // the workflow job id
	Status                  string `json:"status"`
	RunConf                 string `json:"runConf"`
	LastModifiedTime        Date   `json:"lastModifiedTime"`
	MissingDependencies     string `json:"missingDependencies"`
	PushMissingDependencies string `json:"pushMissingDependencies"`
	ExternalStatus          string `json:"externalStatus"`
	TrackerURI              string `json:"trackerUri"`
	ConsoleURL              string `json:"consoleUrl"`
	ErrorCode               string `json:"errorCode"`
	ErrorMessage            string `json:"errorMessage"`
	ToString                string `json:"toString"`
}

// MarshalJSON writes the action with empty strings as null.
func (a CoordinatorAction) MarshalJSON() ([]byte, error) { return marshalDocument(a) }

func (a CoordinatorAction) form() (any, bool) {
	type plain CoordinatorAction
	return plain(a), true
}

// CoordinatorActionString is the toString member of a coordinator action,
// "CoordinatorAction name[<id>] status[<S>]".
func CoordinatorActionString(id, status string) string {
	return "CoordinatorAction name[" + id + "] status[" + status + "]"
}

// CoordinatorActions is the answer of the coordinator commands that act on actions (kill or
// ignore with a scope, coord-rerun): {"actions":[...]}.
type CoordinatorActions struct {
	Actions []CoordinatorAction `json:"actions"`
}

// MarshalJSON writes an empty list as [].
func (c CoordinatorActions) MarshalJSON() ([]byte, error) { return marshalDocument(c) }

func (c CoordinatorActions) form() (any, bool) {
	type plain CoordinatorActions
	if c.Actions == nil {
		c.Actions = []CoordinatorAction{}
	}
	return plain(c), true
}

// DatasetNotification is the answer of PUT v2/dataset?action=notify (gozie's addition to
// Oozie's API): how many waiting coordinator actions the notification woke.
type DatasetNotification struct {
	Notified int `json:"notified"`
}

// CoordinatorList is the answer of GET jobs?jobtype=coordinator: one page of jobs (without
// actions or configuration), the number of jobs matching the filter, and the page asked for
// (offset is 1-based).
type CoordinatorList struct {
	Jobs   []CoordinatorJob `json:"coordinatorjobs"`
	Total  int              `json:"total"`
	Offset int              `json:"offset"`
	Len    int              `json:"len"`
	// Refused lists the jobs a bulk command left alone because the caller may not
	// modify them (gozie's own field; Oozie's clients ignore it).
	Refused []Refusal `json:"refused,omitempty"`
}

// MarshalJSON writes the list with coordinatorjobs as [] when there are none.
func (l CoordinatorList) MarshalJSON() ([]byte, error) { return marshalDocument(l) }

func (l CoordinatorList) form() (any, bool) {
	type plain CoordinatorList
	if l.Jobs == nil {
		l.Jobs = []CoordinatorJob{}
	}
	return plain(l), false
}
