package client

import (
	"context"
	"net/url"
	"strconv"

	"github.com/gozie/gozie/conf"
)

// Job types of proxy submissions (SubmitProxy), Oozie's values of POST jobs?jobtype=.
const (
	ProxyMapReduce = "mapreduce"
	ProxyHive      = "hive"
	ProxyPig       = "pig"
	ProxySqoop     = "sqoop"
)

// Configuration properties of proxy submissions, as Oozie's client names them.
const (
	// PropProxySubmission is set to "true" in every proxy submission.
	PropProxySubmission = "oozie.proxysubmission"
	// PropHiveScript and PropPigScript hold the script's text; the options and script
	// parameters are lists (see SetList).
	PropHiveScript       = "oozie.hive.script"
	PropHiveOptions      = "oozie.hive.options"
	PropHiveScriptParams = "oozie.hive.script.params"
	PropPigScript        = "oozie.pig.script"
	PropPigOptions       = "oozie.pig.options"
	PropPigScriptParams  = "oozie.pig.script.params"
	// PropSqoopCommand holds the sqoop command, one argument per line; PropSqoopOptions
	// is a list.
	PropSqoopCommand = "oozie.sqoop.command"
	PropSqoopOptions = "oozie.sqoop.options"
)

// SubmitProxy submits a job that has no workflow application (POST jobs?jobtype=jobType):
// the server generates a one-action workflow of that type from props, submits and starts
// it, and SubmitProxy returns the new job's id. props carries what the job type needs
// (for a hive job the script text in PropHiveScript); the server answers what is missing.
func (c *Client) SubmitProxy(ctx context.Context, jobType string, props *conf.Properties) (string, error) {
	return c.submit(ctx, props, url.Values{"jobtype": {jobType}})
}

// SetList writes values into props as the list proxy submissions read: key.size, then
// key.0, key.1, ... A nil values writes nothing; an empty one writes key.size = 0, as
// Oozie's client does.
func SetList(props *conf.Properties, key string, values []string) {
	if values == nil {
		return
	}
	props.Set(key+".size", strconv.Itoa(len(values)))
	for i, v := range values {
		props.Set(key+"."+strconv.Itoa(i), v)
	}
}
