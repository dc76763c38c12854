package workflow

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
)

// Property names that a job configuration may not set (Oozie refuses them
// because they are EL constants): E0808.
var disallowedUserProps = []string{"DAYS", "HOURS", "MINUTES", "KB", "MB", "GB", "TB", "PB",
	"RECORDS", "MAP_IN", "MAP_OUT", "REDUCE_IN", "REDUCE_OUT", "GROUPS"}

// Property names that config-default.xml may not set: the above plus the
// user identity and Kerberos principals: E0804.
var disallowedDefaultProps = append([]string{"user.name", "hadoop.job.ugi",
	"mapreduce.jobtracker.kerberos.principal", "dfs.namenode.kerberos.principal"}, disallowedUserProps...)

// Job properties that change how the engine runs a workflow.
const (
	PropValidateForkJoin = "oozie.wf.validate.ForkJoin"
	PropSuspendOnNodes   = "oozie.suspend.on.nodes"
	PropRerunSkipNodes   = "oozie.wf.rerun.skip.nodes"
	PropRerunFailNodes   = "oozie.wf.rerun.failnodes"
)

// paramsVersion matches the namespace versions Oozie checks <parameters>
// for: exactly two numbers (so 0.4.5 is not checked).
var paramsVersion = regexp.MustCompile(`^\d+\.\d+$`)

// ResolveJobConf returns the configuration a workflow job runs with. The
// layers are, lowest first: the <parameters> defaults, config-default.xml of
// the app directory (defaults) and the submitted job configuration
// (jobConf). Reading those files is the caller's job. The result is a new
// set of plain properties; defaults and jobConf are only read.
//
// Errors: E0808 when jobConf sets an EL constant name, E0804 when defaults
// sets one or user.name, E0739 for a parameter without a name and E0738
// listing the required parameters that end up undefined. As in Oozie,
// parameters are only checked for namespace versions of the form x.y that are
// 0.4 or later.
func ResolveJobConf(app *App, defaults, jobConf *conf.Properties) (*conf.Properties, error) {
	for _, name := range disallowedUserProps {
		if _, ok := jobConf.Get(name); ok {
			return nil, errorf(oozieerr.E0808, "", "Disallowed user property [%s]", name)
		}
	}
	for _, name := range disallowedDefaultProps {
		if _, ok := defaults.Get(name); ok {
			return nil, errorf(oozieerr.E0804, "", "Disallowed default property [%s]", name)
		}
	}
	out := defaults.Plain()
	for k, v := range jobConf.All() {
		out.Set(k, v)
	}
	if !checksParameters(app) {
		return out, nil
	}
	var missing []string
	for _, p := range app.Parameters {
		name := strings.TrimSpace(p.Name)
		if name == "" {
			return nil, errorf(oozieerr.E0739, "", "Parameter name cannot be empty")
		}
		if _, ok := out.Get(name); ok {
			continue
		}
		if p.HasDefault {
			out.Set(name, p.Value)
			continue
		}
		missing = append(missing, name)
	}
	if len(missing) > 0 {
		return nil, errorf(oozieerr.E0738, "",
			"The following %d parameters are required but were not defined and no default values are available: %s",
			len(missing), strings.Join(missing, ", "))
	}
	return out, nil
}

// checksParameters reports whether Oozie checks <parameters> for app's
// namespace version.
func checksParameters(app *App) bool {
	if !paramsVersion.MatchString(app.Version) {
		return false
	}
	major, minor, _ := strings.Cut(app.Version, ".")
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(minor)
	return err1 == nil && err2 == nil && (ma > 0 || mi >= 4)
}

// OptionsForJob returns opts adjusted by the job properties that override
// server settings: oozie.wf.validate.ForkJoin=false skips the fork/join
// checks.
func OptionsForJob(opts Options, jobConf *conf.Properties) Options {
	if v, ok := jobConf.Get(PropValidateForkJoin); ok && strings.EqualFold(strings.TrimSpace(v), "false") {
		opts.SkipForkJoinValidation = true
	}
	return opts
}

// RerunOptions reads the rerun properties of a job configuration: the nodes
// to skip (oozie.wf.rerun.skip.nodes) or, with
// oozie.wf.rerun.failnodes=true, "every node that ended OK". Both set is
// E0404; neither means the whole workflow runs again.
func RerunOptions(jobConf *conf.Properties) (skip []string, failNodes bool, err error) {
	skipText, hasSkip := jobConf.Get(PropRerunSkipNodes)
	failText, hasFail := jobConf.Get(PropRerunFailNodes)
	if hasSkip && hasFail {
		return nil, false, errorf(oozieerr.E0404, "", "Only one of the properties are allowed [%s OR %s]",
			PropRerunSkipNodes, PropRerunFailNodes)
	}
	for _, s := range strings.Split(skipText, ",") {
		if s = strings.TrimSpace(s); s != "" {
			skip = append(skip, s)
		}
	}
	return skip, hasFail && strings.EqualFold(strings.TrimSpace(failText), "true"), nil
}

// isJavaIdentifier reports whether name can be an EL variable.
func isJavaIdentifier(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		switch {
		case r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// Files of a workflow application directory.
const (
	DefinitionFile    = "workflow.xml"
	ConfigDefaultFile = "config-default.xml"
)

// AppFiles splits a workflow application path into its directory and its
// definition: a path ending in ".xml" names the definition itself (its
// directory holds config-default.xml); any other path is the directory,
// whose workflow.xml is the definition.
func AppFiles(appPath string) (dir, definition string) {
	dir = strings.TrimSuffix(appPath, "/")
	if strings.HasSuffix(appPath, ".xml") {
		// Not path.Dir: it would fold the "//" of "hdfs://nn/...".
		return appPath[:max(strings.LastIndexByte(appPath, '/'), 0)], appPath
	}
	return dir, dir + "/" + DefinitionFile
}
