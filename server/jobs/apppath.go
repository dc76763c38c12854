package jobs

import (
	"net/http"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
)

// appPathProps names the application path property of each job type.
var appPathProps = map[JobType]string{
	TypeWorkflow:    PropWorkflowPath,
	TypeCoordinator: PropCoordinatorPath,
	TypeBundle:      PropBundlePath,
}

// checkAppPath refuses, with 400 E1004 naming the variable, a submission whose application
// path still holds a ${name} reference once the job configuration is resolved: a job.properties
// without nameNode and an app path of ${nameNode}/user/..., the first thing a new user meets.
// Read as a path, such a value would only be reported as relative or missing. Substitution
// errors are left to the submission, which reports them with the property at fault.
func checkAppPath(props *conf.Properties, kind JobType, depth int) error {
	key := appPathProps[kind]
	resolved, err := conf.Substitute(props, depth)
	if err != nil {
		return nil
	}
	path, _ := resolved.Get(key)
	name, ok := conf.Unresolved(path)
	if !ok {
		return nil
	}
	return server.NewError(http.StatusBadRequest, oozieerr.E1004,
		"Expression language evaluation error, variable [%s] cannot be resolved in [%s] = [%s]", name, key, path)
}
