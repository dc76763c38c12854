package oozieapi

// WorkflowJob is a workflow job as GET job/<id>?show=info returns it, and as the entries of
// a jobs listing (whose actions are empty and conf null).
type WorkflowJob struct {
	AppPath     string           `json:"appPath"`
	AppName     string           `json:"appName"`
	ID          string           `json:"id"`
	ExternalID  string           `json:"externalId"`
	ParentID    string           `json:"parentId"`
	Conf        string           `json:"conf"` // the job configuration, Hadoop configuration XML
	Status      string           `json:"status"`
	LastModTime Date             `json:"lastModTime"`
	CreatedTime Date             `json:"createdTime"`
	StartTime   Date             `json:"startTime"`
	EndTime     Date             `json:"endTime"`
	User        string           `json:"user"`
	Group       string           `json:"group"`
	ACL         string           `json:"acl"`
	Run         int              `json:"run"`
	ConsoleURL  string           `json:"consoleUrl"`
	Actions     []WorkflowAction `json:"actions"` // never null: [] when there are none
	ToString    string           `json:"toString"`
}

// MarshalJSON writes the job with empty strings as null and actions as [] when none.
func (j WorkflowJob) MarshalJSON() ([]byte, error) { return marshalDocument(j) }

func (j WorkflowJob) form() (any, bool) {
	type plain WorkflowJob
	if j.Actions == nil {
		j.Actions = []WorkflowAction{}
	}
	return plain(j), true
}

// WorkflowJobString is the toString member of a workflow job, "Workflow id[<id>] status[<S>]".
func WorkflowJobString(id, status string) string {
	return "Workflow id[" + id + "] status[" + status + "]"
}

// WorkflowAction is one node of a workflow job, control nodes included.
type WorkflowAction struct {
	ID                string `json:"id"`
	Name              string `json:"name"`
	Cred              string `json:"cred"`
	Type              string `json:"type"`
	Conf              string `json:"conf"` // the resolved action XML
	Status            string `json:"status"`
	Retries           int    `json:"retries"`
	StartTime         Date   `json:"startTime"`
	EndTime           Date   `json:"endTime"`
	Transition        string `json:"transition"`
	Data              string `json:"data"`
	Stats             string `json:"stats"`
	ExternalChildIDs  string `json:"externalChildIDs"`
	ExternalID        string `json:"externalId"`
	ExternalStatus    string `json:"externalStatus"`
	TrackerURI        string `json:"trackerUri"`
	ConsoleURL        string `json:"consoleUrl"`
	ErrorCode         string `json:"errorCode"`
	ErrorMessage      string `json:"errorMessage"`
	ToString          string `json:"toString"`
	UserRetryInterval int    `json:"userRetryInterval"`
	UserRetryCount    int    `json:"userRetryCount"`
	UserRetryMax      int    `json:"userRetryMax"`
}

// MarshalJSON writes the action with empty strings as null.
func (a WorkflowAction) MarshalJSON() ([]byte, error) { return marshalDocument(a) }

func (a WorkflowAction) form() (any, bool) {
	type plain WorkflowAction
	return plain(a), true
}

// WorkflowActionString is the toString member of a workflow action,
// "Action name[<name>] status[<S>]".
func WorkflowActionString(name, status string) string {
	return "Action name[" + name + "] status[" + status + "]"
}

// WorkflowList is the answer of GET jobs?jobtype=wf: one page of jobs, the number of jobs
// matching the filter, and the page asked for (offset is 1-based).
type WorkflowList struct {
	Workflows []WorkflowJob `json:"workflows"`
	Total     int           `json:"total"`
	Offset    int           `json:"offset"`
	Len       int           `json:"len"`
	// Refused lists the jobs a bulk command left alone because the caller may not
	// modify them (gozie's own field; Oozie's clients ignore it).
	Refused []Refusal `json:"refused,omitempty"`
}

// MarshalJSON writes the list with workflows as [] when there are none.
func (l WorkflowList) MarshalJSON() ([]byte, error) { return marshalDocument(l) }

func (l WorkflowList) form() (any, bool) {
	type plain WorkflowList
	if l.Workflows == nil {
		l.Workflows = []WorkflowJob{}
	}
	return plain(l), false
}

// JobID is the answer of POST jobs: the new job's id, or "OK" for a workflow dry run.
type JobID struct {
	ID string `json:"id"`
}

// JobStatus is the answer of GET job/<id>?show=status.
type JobStatus struct {
	Status string `json:"status"`
}

// Validation is the answer of POST v2/validate.
type Validation struct {
	Validate string `json:"validate"`
}

// ValidMessage is what POST v2/validate answers for a valid document of any kind (workflow,
// coordinator, bundle), as Oozie does.
const ValidMessage = "Valid workflow-app"

// Refusal is one job a bulk command did not act on, with the refusal's Oozie error code
// and message.
type Refusal struct {
	ID           string `json:"id"`
	ErrorCode    string `json:"errorCode"`
	ErrorMessage string `json:"errorMessage"`
}
