package oozieapi

// BundleJob is a bundle job as GET job/<id>?show=info returns it, and as the entries of a
// bundle jobs listing (whose coordinators are empty).
type BundleJob struct {
	AppPath     string `json:"bundleJobPath"`
	AppName     string `json:"bundleJobName"`
	ID          string `json:"bundleJobId"`
	ExternalID  string `json:"bundleExternalId"`
	Conf        string `json:"conf"`
	Status      string `json:"status"`
	TimeUnit    string `json:"timeUnit"` // always NONE, as in Oozie
	Timeout     int    `json:"timeOut"`
	KickoffTime Date   `json:"kickoffTime"`
	StartTime   Date   `json:"startTime"`
	EndTime     Date   `json:"endTime"`
	PauseTime   Date   `json:"pauseTime"`
	CreatedTime Date   `json:"createdTime"`
	User        string `json:"user"`
	Group       string `json:"group"`
	ACL         string `json:"acl"`
	ConsoleURL  string `json:"consoleUrl"`
	// Coordinators are the bundle's coordinator jobs, without their actions.
	Coordinators []CoordinatorJob `json:"bundleCoordJobs"` // never null: [] when there are none
	ToString     string           `json:"toString"`
}

// BundleTimeUnit is the time unit Oozie reports for every bundle.
const BundleTimeUnit = "NONE"

// MarshalJSON writes the job with empty strings as null and the coordinators as [] when
// there are none.
func (j BundleJob) MarshalJSON() ([]byte, error) { return marshalDocument(j) }

func (j BundleJob) form() (any, bool) {
	type plain BundleJob
	if j.Coordinators == nil {
		j.Coordinators = []CoordinatorJob{}
	}
	return plain(j), true
}

// BundleJobString is the toString member of a bundle job, "Bundle id[<id>] status[<S>]".
func BundleJobString(id, status string) string {
	return "Bundle id[" + id + "] status[" + status + "]"
}

// BundleList is the answer of GET jobs?jobtype=bundle: one page of jobs (without
// coordinators or configuration), the number of jobs matching the filter, and the page
// asked for (offset is 1-based).
type BundleList struct {
	Jobs   []BundleJob `json:"bundlejobs"`
	Total  int         `json:"total"`
	Offset int         `json:"offset"`
	Len    int         `json:"len"`
	// Refused lists the jobs a bulk command left alone because the caller may not
	// modify them (gozie's own field; Oozie's clients ignore it).
	Refused []Refusal `json:"refused,omitempty"`
}

// MarshalJSON writes the list with bundlejobs as [] when there are none.
func (l BundleList) MarshalJSON() ([]byte, error) { return marshalDocument(l) }

func (l BundleList) form() (any, bool) {
	type plain BundleList
	if l.Jobs == nil {
		l.Jobs = []BundleJob{}
	}
	return plain(l), false
}
