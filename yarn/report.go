package yarn

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// AppReport is an application report (GET /ws/v1/cluster/apps/{id}, and each
// element of the list query). Decoding is lenient: unknown keys are ignored and
// numbers written as JSON strings are accepted. Times of zero milliseconds decode
// to the zero time.Time and encode back to 0.
type AppReport struct {
	// ID is the application id.
	ID ApplicationID
	// User submitted the application.
	User string
	// Name is the application name given at submission.
	Name string
	// Queue is the scheduler queue.
	Queue string
	// State is the YARN application state.
	State AppState
	// FinalStatus is UNDEFINED until the application ends.
	FinalStatus FinalStatus
	// Progress is 0–100.
	Progress float64
	// TrackingUI is UNASSIGNED, ApplicationMaster or History.
	TrackingUI string
	// TrackingURL is empty until the AM runs.
	TrackingURL string
	// Diagnostics explains failures; empty when there is nothing to say.
	Diagnostics string
	// ClusterID is the RM start timestamp (the middle part of application ids).
	ClusterID int64
	// ApplicationType is the type given at submission.
	ApplicationType string
	// Tags are the application tags, lower-cased by the RM (a comma-separated
	// string on the wire).
	Tags []string
	// Priority is the application priority.
	Priority int64
	// StartedTime is when the RM accepted the submission.
	StartedTime time.Time
	// LaunchTime is when the first AM container was launched (Hadoop 2.8+).
	LaunchTime time.Time
	// FinishedTime is zero until the application ends.
	FinishedTime time.Time
	// Elapsed is the running time so far, or the total once finished.
	Elapsed time.Duration
	// AMContainerLogs is the NodeManager URL of the AM container's logs.
	AMContainerLogs string
	// AMHostHTTPAddress is the AM's NodeManager web address.
	AMHostHTTPAddress string
	// AllocatedMB is the memory allocated to running containers (-1 when ended).
	AllocatedMB int64
	// AllocatedVCores is the vcores allocated to running containers.
	AllocatedVCores int64
	// RunningContainers counts the running containers.
	RunningContainers int64
	// MemorySeconds is the aggregated memory use in MB-seconds.
	MemorySeconds int64
	// VcoreSeconds is the aggregated vcore use in vcore-seconds.
	VcoreSeconds int64
	// UnmanagedApplication is true for unmanaged AMs.
	UnmanagedApplication bool
}

// Done reports whether the application reached a final state.
func (r AppReport) Done() bool { return r.State.Final() }

// Succeeded reports whether the application ended with final status SUCCEEDED.
func (r AppReport) Succeeded() bool { return r.State.Final() && r.FinalStatus == FinalSucceeded }

// HasTag reports whether the report carries tag (compared in lower case).
func (r AppReport) HasTag(tag string) bool {
	tag = strings.ToLower(tag)
	for _, t := range r.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// wireAppReport is the JSON form of AppReport.
type wireAppReport struct {
	ID                   string    `json:"id"`
	User                 string    `json:"user"`
	Name                 string    `json:"name"`
	Queue                string    `json:"queue"`
	State                string    `json:"state"`
	FinalStatus          string    `json:"finalStatus"`
	Progress             jsonFloat `json:"progress"`
	TrackingUI           string    `json:"trackingUI"`
	TrackingURL          string    `json:"trackingUrl,omitempty"`
	Diagnostics          string    `json:"diagnostics"`
	ClusterID            jsonInt64 `json:"clusterId"`
	ApplicationType      string    `json:"applicationType"`
	ApplicationTags      string    `json:"applicationTags"`
	Priority             jsonInt64 `json:"priority"`
	StartedTime          jsonInt64 `json:"startedTime"`
	LaunchTime           jsonInt64 `json:"launchTime"`
	FinishedTime         jsonInt64 `json:"finishedTime"`
	ElapsedTime          jsonInt64 `json:"elapsedTime"`
	AMContainerLogs      string    `json:"amContainerLogs,omitempty"`
	AMHostHTTPAddress    string    `json:"amHostHttpAddress,omitempty"`
	AllocatedMB          jsonInt64 `json:"allocatedMB"`
	AllocatedVCores      jsonInt64 `json:"allocatedVCores"`
	RunningContainers    jsonInt64 `json:"runningContainers"`
	MemorySeconds        jsonInt64 `json:"memorySeconds"`
	VcoreSeconds         jsonInt64 `json:"vcoreSeconds"`
	UnmanagedApplication jsonBool  `json:"unmanagedApplication"`
}

// MarshalJSON implements json.Marshaler with the RM's keys.
func (r AppReport) MarshalJSON() ([]byte, error) {
	w := wireAppReport{
		ID: r.ID.String(), User: r.User, Name: r.Name, Queue: r.Queue,
		State: string(r.State), FinalStatus: string(r.FinalStatus), Progress: jsonFloat(r.Progress),
		TrackingUI: r.TrackingUI, TrackingURL: r.TrackingURL, Diagnostics: r.Diagnostics,
		ClusterID: jsonInt64(r.ClusterID), ApplicationType: r.ApplicationType,
		ApplicationTags: strings.Join(r.Tags, ","), Priority: jsonInt64(r.Priority),
		StartedTime: millis(r.StartedTime), LaunchTime: millis(r.LaunchTime),
		FinishedTime: millis(r.FinishedTime), ElapsedTime: jsonInt64(r.Elapsed.Milliseconds()),
		AMContainerLogs: r.AMContainerLogs, AMHostHTTPAddress: r.AMHostHTTPAddress,
		AllocatedMB: jsonInt64(r.AllocatedMB), AllocatedVCores: jsonInt64(r.AllocatedVCores),
		RunningContainers: jsonInt64(r.RunningContainers), MemorySeconds: jsonInt64(r.MemorySeconds),
		VcoreSeconds: jsonInt64(r.VcoreSeconds), UnmanagedApplication: jsonBool(r.UnmanagedApplication),
	}
	return json.Marshal(w)
}

// UnmarshalJSON implements json.Unmarshaler.
func (r *AppReport) UnmarshalJSON(b []byte) error {
	var w wireAppReport
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("decoding application report: %w", err)
	}
	var id ApplicationID
	if err := id.UnmarshalText([]byte(w.ID)); err != nil {
		return fmt.Errorf("decoding application report: %w", err)
	}
	*r = AppReport{
		ID: id, User: w.User, Name: w.Name, Queue: w.Queue,
		State: AppState(strings.ToUpper(w.State)), FinalStatus: FinalStatus(strings.ToUpper(w.FinalStatus)),
		Progress: float64(w.Progress), TrackingUI: w.TrackingUI, TrackingURL: w.TrackingURL,
		Diagnostics: w.Diagnostics, ClusterID: int64(w.ClusterID), ApplicationType: w.ApplicationType,
		Tags: splitTags(w.ApplicationTags), Priority: int64(w.Priority),
		StartedTime: fromMillis(w.StartedTime), LaunchTime: fromMillis(w.LaunchTime),
		FinishedTime: fromMillis(w.FinishedTime), Elapsed: time.Duration(w.ElapsedTime) * time.Millisecond,
		AMContainerLogs: w.AMContainerLogs, AMHostHTTPAddress: w.AMHostHTTPAddress,
		AllocatedMB: int64(w.AllocatedMB), AllocatedVCores: int64(w.AllocatedVCores),
		RunningContainers: int64(w.RunningContainers), MemorySeconds: int64(w.MemorySeconds),
		VcoreSeconds: int64(w.VcoreSeconds), UnmanagedApplication: bool(w.UnmanagedApplication),
	}
	return nil
}

func splitTags(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func millis(t time.Time) jsonInt64 {
	if t.IsZero() {
		return 0
	}
	return jsonInt64(t.UnixMilli())
}

func fromMillis(ms jsonInt64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(ms))
}

// AppReportEnvelope is the body of GET /ws/v1/cluster/apps/{id}: {"app":{…}}.
type AppReportEnvelope struct {
	// App is the report.
	App AppReport `json:"app"`
}

// AppListEnvelope is the body of GET /ws/v1/cluster/apps:
// {"apps":{"app":[…]}}; Apps is nil when the RM writes {"apps":null}.
type AppListEnvelope struct {
	// Apps wraps the list.
	Apps *AppList `json:"apps"`
}

// AppList is the inner object of [AppListEnvelope].
type AppList struct {
	// App lists the reports.
	App []AppReport `json:"app"`
}

// AppStateBody is the body of GET and PUT /ws/v1/cluster/apps/{id}/state.
type AppStateBody struct {
	// State is the application state.
	State AppState `json:"state"`
}

// NewApplication is the answer of POST /ws/v1/cluster/apps/new-application.
type NewApplication struct {
	// ApplicationID is the reserved id.
	ApplicationID ApplicationID `json:"application-id"`
	// MaximumResourceCapability is the largest container the scheduler grants.
	MaximumResourceCapability Resource `json:"maximum-resource-capability"`
}

// ClusterInfo is the body of GET /ws/v1/cluster/info (inside "clusterInfo").
type ClusterInfo struct {
	// ID is the cluster id (the RM start timestamp).
	ID int64 `json:"id"`
	// StartedOn is the RM start time in milliseconds.
	StartedOn int64 `json:"startedOn"`
	// State is the RM service state (NOTINITED, INITED, STARTED, STOPPED).
	State string `json:"state"`
	// HAState is INITIALIZING, ACTIVE, STANDBY or STOPPED.
	HAState string `json:"haState"`
	// RMStateStoreName names the RM state store class.
	RMStateStoreName string `json:"rmStateStoreName,omitempty"`
	// ResourceManagerVersion is the RM version.
	ResourceManagerVersion string `json:"resourceManagerVersion"`
	// ResourceManagerBuildVersion is the RM build string.
	ResourceManagerBuildVersion string `json:"resourceManagerBuildVersion,omitempty"`
	// ResourceManagerVersionBuiltOn is the RM build date.
	ResourceManagerVersionBuiltOn string `json:"resourceManagerVersionBuiltOn,omitempty"`
	// HadoopVersion is the Hadoop common version.
	HadoopVersion string `json:"hadoopVersion"`
	// HadoopBuildVersion is the Hadoop build string.
	HadoopBuildVersion string `json:"hadoopBuildVersion,omitempty"`
	// HadoopVersionBuiltOn is the Hadoop build date.
	HadoopVersionBuiltOn string `json:"hadoopVersionBuiltOn,omitempty"`
	// HAZooKeeperConnectionState describes the RM's ZooKeeper link.
	HAZooKeeperConnectionState string `json:"haZooKeeperConnectionState,omitempty"`
}

// HA states of [ClusterInfo.HAState].
const (
	HAActive       = "ACTIVE"
	HAStandby      = "STANDBY"
	HAInitializing = "INITIALIZING"
	HAStopped      = "STOPPED"
)

// ClusterInfoEnvelope is the body of GET /ws/v1/cluster/info.
type ClusterInfoEnvelope struct {
	// ClusterInfo is the information.
	ClusterInfo ClusterInfo `json:"clusterInfo"`
}

// AppAttempt is one element of GET /ws/v1/cluster/apps/{id}/appattempts.
type AppAttempt struct {
	// ID is the attempt number.
	ID int64 `json:"id"`
	// StartTime is the attempt's start in milliseconds.
	StartTime int64 `json:"startTime"`
	// FinishedTime is the attempt's end in milliseconds, 0 while it runs.
	FinishedTime int64 `json:"finishedTime"`
	// ContainerID is the AM container of the attempt.
	ContainerID string `json:"containerId"`
	// NodeHTTPAddress is the NodeManager web address of the AM container.
	NodeHTTPAddress string `json:"nodeHttpAddress"`
	// NodeID is the NodeManager id (host:port).
	NodeID string `json:"nodeId"`
	// LogsLink is the URL of the AM container's logs.
	LogsLink string `json:"logsLink"`
	// BlacklistedNodes lists nodes blacklisted for the attempt.
	BlacklistedNodes string `json:"blacklistedNodes"`
	// AppAttemptID is the attempt id in text form.
	AppAttemptID string `json:"appAttemptId"`
	// AppAttemptState is the attempt's state (Hadoop 3).
	AppAttemptState string `json:"appAttemptState,omitempty"`
	// Diagnostics explains a failed attempt.
	Diagnostics string `json:"diagnosticsInfo,omitempty"`
}

// AppAttemptsEnvelope is the body of GET /ws/v1/cluster/apps/{id}/appattempts.
type AppAttemptsEnvelope struct {
	// AppAttempts wraps the list.
	AppAttempts struct {
		// AppAttempt lists the attempts.
		AppAttempt []AppAttempt `json:"appAttempt"`
	} `json:"appAttempts"`
}
