package oozieapi

// ActionRetries is GET /v2/job/<workflow action id>?show=retries: the
// attempts of the action that its user-retry policy (retry-max) ran again,
// oldest first. The attempt that runs (or ended) last is the action itself
// and is not listed.
type ActionRetries struct {
	Retries []ActionRetry `json:"retries"`
}

// ActionRetry is one attempt. Oozie sends each value as a string (the
// attempt number too) and leaves out those it does not know, so the console
// URL and the child ids appear only when the attempt had them.
type ActionRetry struct {
	Attempt          int    `json:"attempt,string"` // 1-based
	StartTime        Date   `json:"startTime,omitzero"`
	EndTime          Date   `json:"endTime,omitzero"`
	ConsoleURL       string `json:"consoleUrl,omitempty"`
	ExternalChildIDs string `json:"externalChildIDs,omitempty"`
}
