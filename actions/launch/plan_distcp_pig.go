package launch

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/yarn/launcher"
)

// Properties Oozie's PigActionExecutor and PigMain put into a pig action's
// configuration: the script's name, the params and arguments as
// MapReduceMain.setStrings writes a list (<key>.size, then <key>.<i>), and
// the workflow as Pig's caller id.
const (
	propPigScript  = "oozie.pig.script"
	propPigParams  = "oozie.pig.params"
	propPigArgs    = "oozie.pig.args"
	propPigTraceID = "pig.log.trace.id"
)

// disallowedPigArgs are the pig options an <argument> may not carry,
// because the launcher sets them or they would bypass the script (Oozie's
// PigMain.DISALLOWED_PIG_OPTIONS).
var disallowedPigArgs = []string{"-4", "-log4jconf", "-e", "-execute", "-f", "-file", "-l", "-logfile",
	"-r", "-dryrun", "-P", "-propertyFile"}

// planDistcp fills a distcp action's spec: `hadoop distcp` with the
// <java-opts> and <arg> entries. Its job configuration is the action
// configuration, whose mapreduce.job.tags carries the child tag, as Oozie's
// DistcpMain sets it on the configuration it hands DistCp.
func planDistcp(p *plan, props map[string]string) {
	props[propJobTags] = p.spec.ChildTag
	p.spec.Distcp = &launcher.DistcpSpec{JavaOpts: strings.TrimSpace(p.distcp.JavaOpts), Args: trimAll(p.distcp.Args)}
}

// planPig fills a pig action's spec: the script localized from the
// application directory under its base name (Oozie's new
// Path(script).getName()), the params and arguments trimmed as Oozie reads
// them, and the configuration Pig gets: the action's own with the child
// tag on mapreduce.job.tags and tez.application.tags (PigMain's setYarnTag
// and TEZ_APPLICATION_TAGS) and Oozie's oozie.pig.* entries. An argument
// Oozie's PigMain refuses ends the action in ERROR.
func planPig(run *actions.Attempt, p *plan, props map[string]string) error {
	pg := p.pig
	script := strings.TrimSpace(pg.Script)
	src, link, _ := strings.Cut(script, "#")
	if link == "" {
		link = path.Base(src)
	}
	if err := checkLink(link); err != nil {
		return actions.Errorf(actions.ActionError, codeNotFound, "script [%s]: %w", script, err)
	}
	params := trimAll(pg.Params)
	for _, kv := range params {
		if k, _, ok := strings.Cut(kv, "="); !ok || strings.TrimSpace(k) == "" {
			return actions.Errorf(actions.ActionError, codeBadEnv, "Wrong param format [%s] in <param>, NAME=VALUE expected", kv)
		}
	}
	args := trimAll(pg.Arguments)
	for _, a := range args {
		if slices.Contains(disallowedPigArgs, a) {
			return actions.Errorf(actions.ActionError, launcher.CodeException, "Error: Pig argument %s is not supported", a)
		}
	}
	p.files = append(p.files, src+"#"+link)
	props[propJobTags] = p.spec.ChildTag
	props[propTezTags] = p.spec.ChildTag
	props[propPigScript] = link
	setStrings(props, propPigParams, params)
	setStrings(props, propPigArgs, args)
	props[propPigTraceID] = "oozie:" + run.JobID
	p.spec.Pig = &launcher.PigSpec{Script: link, Params: params, Args: args}
	return nil
}

// trimAll trims each entry, as Oozie reads <arg>, <param> and <argument>
// (getTextTrim), dropping none: an empty <arg/> stays an empty argument.
func trimAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = strings.TrimSpace(s)
	}
	return out
}

// setStrings writes a list into a configuration as Oozie's
// MapReduceMain.setStrings does: <key>.size, then <key>.0, <key>.1, ...
func setStrings(props map[string]string, key string, values []string) {
	props[key+".size"] = strconv.Itoa(len(values))
	for i, v := range values {
		props[key+"."+strconv.Itoa(i)] = v
	}
}
