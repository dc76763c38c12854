package oozieapi

// MissingDependencies is GET job/<coord id>?show=missing-dependencies.
type MissingDependencies struct {
	MissingDependencies []ActionMissingDependencies `json:"missingDependencies"`
}

// ActionMissingDependencies is one action's entry: its number, the first
// dependency it waits for, and the missing ones per data-in.
type ActionMissingDependencies struct {
	ID        int                   `json:"id"`
	BlockedOn string                `json:"blockedOn"`
	DataSets  []DataSetDependencies `json:"dataSets"`
}

// DataSetDependencies are the missing dependencies of one data-in.
type DataSetDependencies struct {
	DataSet             string   `json:"dataSet"`
	MissingDependencies []string `json:"missingDependencies"`
}

// AllRuns is GET job/<coord action id>?show=allruns: every workflow run of
// a coordinator action.
type AllRuns struct {
	Workflows []WorkflowRun `json:"workflows"`
}

// WorkflowRun is one workflow of AllRuns.
type WorkflowRun struct {
	ID        string `json:"id"`
	Status    string `json:"status"`
	StartTime Date   `json:"startTime"`
	EndTime   Date   `json:"endTime"`
}
