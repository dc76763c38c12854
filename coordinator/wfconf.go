package coordinator

import (
	"strconv"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
)

// Configuration keys of the workflow a coordinator action starts.
const (
	// KeyWorkflowAppPath is the workflow application path.
	KeyWorkflowAppPath = "oozie.wf.application.path"
	// KeyNominalTime is the action's nominal time in epoch milliseconds.
	KeyNominalTime = "oozie.coord.action.nominal_time"
	// KeyUserName is the job's user.
	KeyUserName = "user.name"
	// keyMRUserName is the other property that may not name another user.
	keyMRUserName = "mapreduce.job.user.name"
	// keyRerunConf holds a rerun's configuration inside a run configuration; it is never
	// passed on.
	keyRerunConf = "rerunConf"
)

// WorkflowConf returns the configuration a READY action's workflow is submitted with (§1.7):
// the action's run configuration (the whole job configuration), overridden by the action's
// evaluated <configuration> properties, then oozie.wf.application.path, then the rerun
// configuration of a coordinator rerun, and oozie.coord.action.nominal_time in epoch
// milliseconds. user.name and mapreduce.job.user.name may not name another user than the
// job's (E1003).
func WorkflowConf(doc *ActionDoc, runConf, rerunConf *conf.Properties) (*conf.Properties, error) {
	out := &conf.Properties{}
	for k, v := range runConf.All() {
		if k != keyRerunConf {
			out.Set(k, v)
		}
	}
	for _, p := range doc.Job.Configuration {
		out.Set(p.Name, p.Value)
	}
	out.Set(KeyWorkflowAppPath, doc.Job.AppPath)
	for k, v := range rerunConf.All() {
		out.Set(k, v)
	}
	user := doc.Job.User
	for _, k := range []string{KeyUserName, keyMRUserName} {
		if v, ok := out.Get(k); ok && v != user {
			return nil, oozieerr.At(oozieerr.E1003, k, "%s=%s", k, v)
		}
	}
	out.Set(KeyNominalTime, strconv.FormatInt(doc.NominalTime.UnixMilli(), 10))
	return out, nil
}
