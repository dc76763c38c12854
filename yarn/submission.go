package yarn

// ApplicationSubmissionContext is the body of POST /ws/v1/cluster/apps (sent
// unwrapped). Field names follow the RM's kebab-case JSON keys. Optional fields
// left at their zero value are omitted, so the RM applies its own defaults.
type ApplicationSubmissionContext struct {
	// ApplicationID is the id reserved by [Client.NewApplication]. Required.
	ApplicationID ApplicationID `json:"application-id"`
	// ApplicationName is free text shown in the RM UI.
	ApplicationName string `json:"application-name,omitempty"`
	// Queue is the scheduler queue; the RM's default queue when empty.
	Queue string `json:"queue,omitempty"`
	// Priority is the application priority (Capacity Scheduler); nil leaves it undefined.
	Priority *int `json:"priority,omitempty"`
	// AMContainerSpec is the launch context of the ApplicationMaster container.
	AMContainerSpec ContainerLaunchContext `json:"am-container-spec"`
	// UnmanagedAM asks for an AM run by the client; not usable over REST.
	UnmanagedAM bool `json:"unmanaged-AM,omitempty"`
	// CancelTokensWhenComplete lets the RM cancel the delegation tokens when the
	// application ends; nil means the RM default (true).
	CancelTokensWhenComplete *bool `json:"cancel-tokens-when-complete,omitempty"`
	// MaxAppAttempts bounds the AM attempts; 0 means the cluster default
	// (yarn.resourcemanager.am.max-attempts, 2). Launchers whose work is not
	// idempotent should use 1.
	MaxAppAttempts int `json:"max-app-attempts,omitempty"`
	// Resource is the AM container's size.
	Resource *Resource `json:"resource,omitempty"`
	// ApplicationType is a free label, filterable with [AppsFilter.ApplicationTypes].
	ApplicationType string `json:"application-type,omitempty"`
	// KeepContainersAcrossApplicationAttempts keeps running containers when an AM
	// attempt fails.
	KeepContainersAcrossApplicationAttempts bool `json:"keep-containers-across-application-attempts,omitempty"`
	// ApplicationTags are lower-cased by the RM; see [ValidateTags] for the rules.
	ApplicationTags Tags `json:"application-tags,omitempty"`
	// AppNodeLabelExpression is the default node label of all the app's containers.
	AppNodeLabelExpression string `json:"app-node-label-expression,omitempty"`
	// AMContainerNodeLabelExpression is the node label of the AM container.
	AMContainerNodeLabelExpression string `json:"am-container-node-label-expression,omitempty"`
	// LogAggregationContext configures log aggregation.
	LogAggregationContext *LogAggregationContext `json:"log-aggregation-context,omitempty"`
	// AttemptFailuresValidityInterval, in milliseconds, counts only the attempt
	// failures inside that window; nil means the RM default (-1, count all).
	AttemptFailuresValidityInterval *int64 `json:"attempt-failures-validity-interval,omitempty"`
	// ReservationID places the app in a reservation (e.g. reservation_1454114874_1).
	ReservationID string `json:"reservation-id,omitempty"`
	// AMBlackListingRequests configures AM node blacklisting.
	AMBlackListingRequests *AMBlackListingRequests `json:"am-black-listing-requests,omitempty"`
}

// ContainerLaunchContext describes how a NodeManager starts a container.
type ContainerLaunchContext struct {
	// LocalResources are copied into the container's working directory before it
	// starts, each under a symlink named by its key.
	LocalResources EntryMap[LocalResource] `json:"local-resources,omitempty"`
	// Environment of the container process. Values may use {{VAR}}, <CPS> and
	// <LOG_DIR>, which the NodeManager expands.
	Environment EntryMap[string] `json:"environment,omitempty"`
	// Commands are joined with single spaces and run with bash.
	Commands Commands `json:"commands,omitempty"`
	// ServiceData carries base64url data for auxiliary services.
	ServiceData EntryMap[string] `json:"service-data,omitempty"`
	// Credentials holds tokens and secrets for the container.
	Credentials *Credentials `json:"credentials,omitempty"`
	// ApplicationACLs maps VIEW_APP / MODIFY_APP to "users groups" lists.
	ApplicationACLs EntryMap[string] `json:"application-acls,omitempty"`
}

// LocalResource is one file or archive to localise.
type LocalResource struct {
	// Resource is the source URL, e.g. hdfs://nn:8020/user/alice/app/run.sh.
	Resource string `json:"resource"`
	// Type says whether the resource is a file, an archive to unpack, or a pattern.
	Type LocalResourceType `json:"type"`
	// Visibility says who may share the localised copy.
	Visibility LocalResourceVisibility `json:"visibility"`
	// Size is the file length in bytes (informational).
	Size int64 `json:"size"`
	// Timestamp must equal the source's modification time in milliseconds, or
	// localisation fails and so does the attempt.
	Timestamp int64 `json:"timestamp"`
	// Pattern selects what a PATTERN resource unpacks.
	Pattern string `json:"pattern,omitempty"`
}

// LocalResourceType is the type of a [LocalResource].
type LocalResourceType string

// The local resource types.
const (
	ResourceFile    LocalResourceType = "FILE"
	ResourceArchive LocalResourceType = "ARCHIVE"
	ResourcePattern LocalResourceType = "PATTERN"
)

// LocalResourceVisibility is the sharing scope of a [LocalResource].
type LocalResourceVisibility string

// The local resource visibilities.
const (
	VisibilityPublic      LocalResourceVisibility = "PUBLIC"
	VisibilityPrivate     LocalResourceVisibility = "PRIVATE"
	VisibilityApplication LocalResourceVisibility = "APPLICATION"
)

// Credentials are the tokens and secrets handed to a container. Token values are
// Hadoop token URL strings (URL-safe base64 without padding of the token's
// Writable form); secret values are URL-safe base64 without padding.
type Credentials struct {
	// Tokens maps an alias (usually the token's service) to a token URL string.
	Tokens EntryMap[string] `json:"tokens,omitempty"`
	// Secrets maps an alias to base64url secret bytes.
	Secrets EntryMap[string] `json:"secrets,omitempty"`
}

// Resource is a container size.
type Resource struct {
	// MemoryMB is the memory in megabytes.
	MemoryMB int64 `json:"memory"`
	// VCores is the number of virtual cores.
	VCores int64 `json:"vCores"`
}

// LogAggregationContext configures log aggregation of an application.
type LogAggregationContext struct {
	// LogIncludePattern selects the log files to aggregate.
	LogIncludePattern string `json:"log-include-pattern,omitempty"`
	// LogExcludePattern selects the log files not to aggregate.
	LogExcludePattern string `json:"log-exclude-pattern,omitempty"`
	// RolledLogIncludePattern selects rolled log files to aggregate while running.
	RolledLogIncludePattern string `json:"rolled-log-include-pattern,omitempty"`
	// RolledLogExcludePattern selects rolled log files not to aggregate.
	RolledLogExcludePattern string `json:"rolled-log-exclude-pattern,omitempty"`
	// LogAggregationPolicyClassName names the aggregation policy class.
	LogAggregationPolicyClassName string `json:"log-aggregation-policy-class-name,omitempty"`
	// LogAggregationPolicyParameters are the policy's parameters.
	LogAggregationPolicyParameters string `json:"log-aggregation-policy-parameters,omitempty"`
}

// AMBlackListingRequests configures blacklisting of nodes where AM attempts failed.
type AMBlackListingRequests struct {
	// Enabled turns AM blacklisting on.
	Enabled bool `json:"am-black-listing-enabled"`
	// DisableFailureThreshold is the fraction of failed nodes above which
	// blacklisting is turned off again.
	DisableFailureThreshold float64 `json:"disable-failure-threshold"`
}
