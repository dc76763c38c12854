package launch

import (
	"fmt"
	"path"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn/launcher"
)

// Properties of the hive and map-reduce actions' configuration.
const (
	// PropHiveJDBCURL names the HiveServer2 a hive action's beeline runs
	// against, as Oozie's Hive2 credentials name it.
	PropHiveJDBCURL = "oozie.hive2.jdbc.url"
	// propHiveEngine is the execution engine; gozie's hive actions run on
	// Tez unless the configuration says otherwise.
	propHiveEngine = "hive.execution.engine"
	defaultEngine  = "tez"
	// The MapReduce job's tags, name and job-end notification (the current
	// names, and the old one Oozie sets).
	propJobTags      = "mapreduce.job.tags"
	propTezTags      = "tez.application.tags"
	propJobName      = "mapreduce.job.name"
	propNotifyURL    = "mapreduce.job.end-notification.url"
	propNotifyURLOld = "job.end.notification.url"
)

// runnable refuses the map-reduce variants that need a JVM in the launcher:
// a config-class (an OozieActionConfigurator that edits the job) and pipes.
// Both parse; neither can run here.
func runnable(mr *workflow.MapReduce) error {
	switch {
	case strings.TrimSpace(mr.ConfigClass) != "":
		return actions.Errorf(actions.ActionError, codeUnsupported,
			"config-class [%s] needs a JVM in the launcher, which gozie's launcher does not run; set the job's properties in <configuration> instead",
			strings.TrimSpace(mr.ConfigClass))
	case mr.Pipes != nil:
		return pipesRefusal(mr.Pipes)
	}
	return nil
}

// planHive fills a hive action's spec: the HiveServer2 (the configuration's
// oozie.hive2.jdbc.url, else the executor's default), the script localized
// from the application or the inline query, the params, the arguments, and
// the session configuration: the action's own (job-xml and
// <configuration>), Tez unless it says otherwise, and the child tag on the
// Tez and MapReduce applications the queries start.
func (e *Executor) planHive(run *actions.Attempt, p *plan, props map[string]string) error {
	h := p.hive
	url := strings.TrimSpace(props[PropHiveJDBCURL])
	if url == "" {
		url = e.cfg.HiveJDBCURL
	}
	if url == "" {
		return actions.Errorf(actions.ActionError, codeHiveServer,
			"action %s names no HiveServer2: set %s in its configuration, or the server's gozie.actions.default.hive2.jdbc.url",
			run.ActionID, PropHiveJDBCURL)
	}
	conf := map[string]string{propHiveEngine: defaultEngine}
	for k, v := range p.userConf {
		conf[k] = v
	}
	delete(conf, PropHiveJDBCURL)
	conf[propTezTags] = p.spec.ChildTag
	conf[propJobTags] = p.spec.ChildTag
	spec := &launcher.HiveSpec{JDBCURL: url, Query: h.Query, Params: h.Params, Args: h.Arguments, HiveConf: conf}
	if script := strings.TrimSpace(h.Script); script != "" && strings.TrimSpace(h.Query) == "" {
		src, link, _ := strings.Cut(script, "#")
		if link == "" {
			link = path.Base(src)
		}
		if err := checkLink(link); err != nil {
			return actions.Errorf(actions.ActionError, codeNotFound, "script [%s]: %w", script, err)
		}
		p.files = append(p.files, src+"#"+link)
		spec.Script = link
	}
	for _, kv := range h.Params {
		if k, _, ok := strings.Cut(kv, "="); !ok || strings.TrimSpace(k) == "" {
			return actions.Errorf(actions.ActionError, codeBadEnv, "Wrong param format [%s] in <param>, NAME=VALUE expected", kv)
		}
	}
	p.spec.Hive = spec
	return nil
}

// planMapReduce completes a map-reduce action's job configuration, which
// the launcher submits as the job file: the streaming settings as Oozie's
// StreamingMain sets them, the job's tags (the child tag, so a kill finds
// it, and ChildCommonTag, so CheckAll does), a name, and the job-end
// notification pointed at the run's callback with $jobStatus.
func planMapReduce(run *actions.Attempt, p *plan, props map[string]string) {
	if s := p.mr.Streaming; s != nil {
		set := func(key, value string) {
			if v := strings.TrimSpace(value); v != "" {
				props[key] = v
			}
		}
		set("oozie.streaming.mapper", s.Mapper)
		set("oozie.streaming.reducer", s.Reducer)
		set("oozie.streaming.record-reader", s.RecordReader)
		set("stream.map.streamprocessor", s.Mapper)
		set("stream.reduce.streamprocessor", s.Reducer)
		set("stream.recordreader.class", s.RecordReader)
		var env []string
		for _, kv := range s.Env {
			if kv = strings.TrimSpace(kv); kv != "" {
				env = append(env, kv)
			}
		}
		set("stream.addenvironment", strings.Join(env, " "))
		set("oozie.streaming.env", strings.Join(env, "\n"))
	}
	props[propJobTags] = p.spec.ChildTag + "," + ChildCommonTag
	if strings.TrimSpace(props[propJobName]) == "" && strings.TrimSpace(props["mapred.job.name"]) == "" {
		props[propJobName] = fmt.Sprintf("gozie:action:T=map-reduce:A=%s:ID=%s", run.Node, run.JobID)
	}
	if run.CallbackURL != "" {
		props[propNotifyURL] = run.CallbackURL + "$jobStatus"
		props[propNotifyURLOld] = run.CallbackURL + "$jobStatus"
	}
	p.spec.MapReduce = &launcher.MapReduceSpec{}
}
