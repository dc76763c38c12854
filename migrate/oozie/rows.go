package oozie

import (
	"fmt"
	"time"
)

// FieldError is a value of Oozie's database that gozie cannot read: an
// unknown status string, an undecodable blob, an unparsable definition.
type FieldError struct {
	Table  string // Oozie's table, e.g. COORD_JOBS
	ID     string // the row's id
	Column string // the column at fault, e.g. status or job_xml
	Code   string // Oozie's error code (oozieerr)
	Err    error
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s: %s row %s column %s: %v", e.Code, e.Table, e.ID, e.Column, e.Err)
}

// Unwrap returns the cause.
func (e *FieldError) Unwrap() error { return e.Err }

// ErrorCode returns Oozie's error code, for oozieerr.CodeOf.
func (e *FieldError) ErrorCode() string { return e.Code }

// CoordJob is one COORD_JOBS row.
type CoordJob struct {
	ID, AppName, AppPath, User, Group, Status, BundleID, ExternalID string
	Conf, JobXML, OrigJobXML, SLAXML                                string
	Frequency, TimeUnit, TimeZone, Execution, AppNamespace          string
	Concurrency, Throttle, Timeout, LastActionNumber                int
	Start, End, Pause, Created, LastAction, NextMatd                time.Time
	LastModified, Suspended                                         time.Time
	Pending, DoneMaterialization                                    bool
	Err                                                             *FieldError
}

// CoordAction is one COORD_ACTIONS row.
type CoordAction struct {
	ID, JobID, Status, ExternalID, ExternalStatus, TrackerURI, ConsoleURL string
	ErrorCode, ErrorMessage, JobType                                      string
	CreatedConf, RunConf, ActionXML, MissingDeps, PushMissingDeps, SLAXML string
	ActionNumber, Timeout                                                 int
	Pending                                                               bool
	Nominal, Created, LastModified, Rerun                                 time.Time
	Err                                                                   *FieldError
}

// BundleJob is one BUNDLE_JOBS row.
type BundleJob struct {
	ID, AppName, AppPath, User, Group, Status, ExternalID, TimeUnit string
	Conf, JobXML, OrigJobXML                                        string
	Timeout                                                         int
	Kickoff, Start, End, Pause, Created, LastModified, Suspended    time.Time
	Pending                                                         bool
	Err                                                             *FieldError
}

// BundleAction is one BUNDLE_ACTIONS row.
type BundleAction struct {
	ID, BundleID, CoordName, CoordID, Status string
	Critical, Pending                        bool
	LastModified                             time.Time
	Err                                      *FieldError
}

// WorkflowJob is one WF_JOBS row; Definition is read from wf_instance.
type WorkflowJob struct {
	ID, AppName, AppPath, User, Group, Status, ParentID, ExternalID string
	Conf, Definition, SLAXML, LogToken                              string
	Run                                                             int
	Created, Start, End, LastModified                               time.Time
	Err                                                             *FieldError
}

// WorkflowAction is one WF_ACTIONS row.
type WorkflowAction struct {
	ID, JobID, Name, Type, Status, Conf, Transition, ExecutionPath    string
	ExternalID, ExternalStatus, ExternalChildIDs, TrackerURI, Console string
	ErrorCode, ErrorMessage, Data, Stats, SignalValue, Cred           string
	Retries, UserRetryCount, UserRetryMax, UserRetryInterval          int
	Pending                                                           bool
	Created, Start, End, LastCheck                                    time.Time
	Err                                                               *FieldError
}

// SLA is one SLA_REGISTRATION row joined with its SLA_SUMMARY row (absent
// summaries leave the summary fields zero).
type SLA struct {
	ID, ParentID, AppName, AppType, User, UpstreamApps, SLAConfig, NotificationMsg string
	Nominal, ExpectedStart, ExpectedEnd, Created                                   time.Time
	ExpectedDuration                                                               int64
	HasSummary                                                                     bool
	ActualStart, ActualEnd, LastModified                                           time.Time
	ActualDuration                                                                 int64
	JobStatus, SLAStatus, EventStatus                                              string
	EventProcessed                                                                 int
	Err                                                                            *FieldError
}
