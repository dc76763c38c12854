package launch

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path"
	"strconv"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn/launcher"
)

// plan is one launch worked out from the run and its action XML, before any
// staging.
type plan struct {
	spec   *launcher.Spec
	hadoop *workflow.Hadoop
	java   *workflow.Java      // java actions only
	hive   *workflow.Hive      // hive actions only
	mr     *workflow.MapReduce // map-reduce actions only
	spark  *workflow.Spark     // spark actions only
	// sparkPlan is a spark run's spark-submit arguments, completed once
	// its cache is staged (sparkResources).
	sparkPlan *sparkPlan
	sqoop     *workflow.Sqoop  // sqoop actions only
	distcp    *workflow.Distcp // distcp actions only
	pig       *workflow.Pig    // pig actions only
	// files are localized like <file> entries, before them (a hive
	// action's script).
	files []string
	// userConf is the action's own configuration: job-xml files and
	// <configuration>, without what gozie adds.
	userConf map[string]string
	// appDir is the workflow application directory (a full URI).
	appDir string
	// root is the scheme and authority of the run's filesystem
	// (hdfs://nn:8020), for paths without one.
	root     string
	queue    string
	memoryMB int
	vcores   int
	// env is the launcher container's environment.
	env map[string]string
}

// Properties of the action configuration that size the launcher (Oozie's
// names); the <launcher> element wins over them.
const (
	propMemory     = "oozie.launcher.memory.mb"
	propVCores     = "oozie.launcher.vcores"
	propQueue      = "oozie.launcher.queue"
	propQueueMR    = "oozie.launcher.mapreduce.job.queuename"
	propEnv        = "oozie.launcher.env"
	propLauncherJO = "oozie.launcher.java.opts"
)

// makePlan reads the action XML and the job-xml files it names.
func (e *Executor) makePlan(ctx context.Context, run *actions.Attempt) (*plan, error) {
	body, err := workflow.ParseBody(run.Body)
	if err != nil {
		return nil, actions.Errorf(actions.ActionError, codeBadXML, "reading the action XML of %s: %w", run.ActionID, err)
	}
	root, err := fsRoot(run.NameNode, run.ActionDir)
	if err != nil {
		return nil, actions.Errorf(actions.NonTransient, codeIO, "action %s: %w", run.ActionID, err)
	}
	spec := &launcher.Spec{
		Version:       launcher.SpecVersion,
		Type:          e.cfg.Type,
		ActionID:      run.ActionID,
		User:          run.User,
		NameNode:      root,
		ActionDir:     strings.TrimSuffix(run.ActionDir, "/"),
		CallbackURL:   run.CallbackURL,
		Heartbeat:     launcher.Duration(e.cfg.Heartbeat),
		KillGrace:     launcher.Duration(e.cfg.KillGrace),
		MaxOutputData: e.cfg.MaxOutputData,
		ChildTag:      ChildTag(run.Tag),
	}
	p := &plan{spec: spec, root: root}
	switch b := body.(type) {
	case *workflow.Shell:
		if e.cfg.Type != launcher.TypeShell {
			return nil, wrongType(run, "shell", e.cfg.Type)
		}
		for _, kv := range b.EnvVars {
			// Oozie's check: a name, "=", and a value.
			if k, v, ok := strings.Cut(kv, "="); !ok || v == "" || k == "" {
				return nil, actions.Errorf(actions.ActionFailed, codeBadEnv, "Wrong ENV format [%s] in <env-var> , key=value format expected ", kv)
			}
		}
		p.hadoop = &b.Hadoop
		spec.CaptureOutput = b.CaptureOutput
		spec.Shell = &launcher.ShellSpec{Exec: strings.TrimSpace(b.Exec), Args: b.Arguments, EnvVars: b.EnvVars}
	case *workflow.Java:
		if e.cfg.Type != launcher.TypeJava {
			return nil, wrongType(run, "java", e.cfg.Type)
		}
		p.hadoop, p.java = &b.Hadoop, b
		spec.CaptureOutput = b.CaptureOutput
		spec.Java = &launcher.JavaSpec{MainClass: strings.TrimSpace(b.MainClass), Args: b.Args}
	case *workflow.Hive:
		if e.cfg.Type != launcher.TypeHive {
			return nil, wrongType(run, "hive", e.cfg.Type)
		}
		p.hadoop, p.hive = &b.Hadoop, b
	case *workflow.MapReduce:
		if e.cfg.Type != launcher.TypeMapReduce {
			return nil, wrongType(run, "map-reduce", e.cfg.Type)
		}
		if err := runnable(b); err != nil {
			return nil, err
		}
		p.hadoop, p.mr = &b.Hadoop, b
	case *workflow.Spark:
		if e.cfg.Type != launcher.TypeSpark {
			return nil, wrongType(run, "spark", e.cfg.Type)
		}
		p.hadoop, p.spark = &b.Hadoop, b
	case *workflow.Sqoop:
		if e.cfg.Type != launcher.TypeSqoop {
			return nil, wrongType(run, "sqoop", e.cfg.Type)
		}
		p.hadoop, p.sqoop = &b.Hadoop, b
	case *workflow.Distcp:
		if e.cfg.Type != launcher.TypeDistcp {
			return nil, wrongType(run, "distcp", e.cfg.Type)
		}
		p.hadoop, p.distcp = &b.Hadoop, b
	case *workflow.Pig:
		if e.cfg.Type != launcher.TypePig {
			return nil, wrongType(run, "pig", e.cfg.Type)
		}
		p.hadoop, p.pig = &b.Hadoop, b
	case *workflow.Git:
		if e.cfg.Type != launcher.TypeGit {
			return nil, wrongType(run, "git", e.cfg.Type)
		}
		p.hadoop = &b.Hadoop
		if err := e.planGit(run, p, b); err != nil {
			return nil, err
		}
	default:
		return nil, actions.Errorf(actions.ActionFailed, codeBadXML, "action %s is not a %s action", run.ActionID, e.cfg.Type)
	}
	if p.appDir, err = e.appDir(ctx, run, root); err != nil {
		return nil, err
	}
	props, err := e.actionConf(ctx, run, p)
	if err != nil {
		return nil, err
	}
	switch {
	case p.hive != nil:
		if err := e.planHive(run, p, props); err != nil {
			return nil, err
		}
	case p.mr != nil:
		if err := customMainRefusal(props); err != nil {
			return nil, err
		}
		planMapReduce(run, p, props)
	case p.spark != nil:
		if err := planSpark(p, props); err != nil {
			return nil, err
		}
	case p.sqoop != nil:
		if err := planSqoop(p, props); err != nil {
			return nil, err
		}
	case p.distcp != nil:
		planDistcp(p, props)
	case p.pig != nil:
		if err := planPig(run, p, props); err != nil {
			return nil, err
		}
	}
	spec.Conf = props
	if err := p.sizeLauncher(e.cfg, props); err != nil {
		return nil, err
	}
	if p.java != nil {
		spec.Java.Opts = javaOpts(p.hadoop, props, p.memoryMB, p.java)
	}
	if pr := p.hadoop.Prepare; pr != nil {
		spec.Prepare = &launcher.Prepare{Mkdir: pr.Mkdirs}
		for _, d := range pr.Deletes {
			spec.Prepare.Delete = append(spec.Prepare.Delete, d.Path)
		}
	}
	p.env = map[string]string{}
	for k, v := range e.cfg.Env {
		p.env[k] = v
	}
	if err := p.launcherEnv(props); err != nil {
		return nil, err
	}
	if spec.Java != nil {
		cp := []string{"{{PWD}}", "{{PWD}}/*"}
		p.env["CLASSPATH"] = strings.Join(append(cp, e.cfg.Classpath...), "<CPS>")
	}
	return p, nil
}

func wrongType(run *actions.Attempt, got, want string) error {
	return actions.Errorf(actions.ActionFailed, codeBadXML, "action %s is a %s action, this executor runs %s actions", run.ActionID, got, want)
}

// fsRoot returns scheme://authority of the run's name node, or of its action
// directory when the run names no name node.
func fsRoot(nameNode, actionDir string) (string, error) {
	for _, u := range []string{nameNode, actionDir} {
		scheme, rest, ok := strings.Cut(u, "://")
		if !ok || scheme == "" {
			continue
		}
		authority, _, _ := strings.Cut(rest, "/")
		return scheme + "://" + authority, nil
	}
	return "", fmt.Errorf("neither the name node %q nor the action directory %q is a full URI", nameNode, actionDir)
}

// qualify makes p a full URI: as is when it has a scheme (read as Hadoop's
// Path reads it, so "file:/x" is a local file), on root when it is absolute,
// below base otherwise.
func qualify(p, root, base string) string {
	switch {
	case hadoop.Scheme(p) != "":
		return p
	case strings.HasPrefix(p, "/"):
		return root + p
	default:
		return strings.TrimSuffix(base, "/") + "/" + p
	}
}

// appFile resolves a path the action names (job-xml, file, archive, a hive
// script) against the workflow application directory as Oozie does
// (JavaActionExecutor.parseJobXmlAndConfiguration, addToCache): Hadoop's
// Path(appDir, path), so a full URI stays, an absolute path goes on the
// application's filesystem, a relative one ("./conf.xml", "conf/x.xml",
// "../shared/x.xml") below the directory, and dot segments are resolved
// (the NameNode refuses them). An empty path is Hadoop's
// IllegalArgumentException, which ends the action in ERROR.
func (p *plan) appFile(raw string) (string, error) {
	child, err := hadoop.ParsePath(strings.TrimSpace(raw))
	if err != nil {
		return "", actions.Errorf(actions.ActionError, codeIllegalArg, "%w", err)
	}
	base, err := hadoop.ParsePath(p.appDir)
	if err != nil {
		return "", actions.Errorf(actions.ActionError, codeIllegalArg, "application directory: %w", err)
	}
	return base.Resolve(child).String(), nil
}

// appDir is the workflow application directory: the run's app path, or its
// parent when the app path names the workflow.xml file itself.
func (e *Executor) appDir(ctx context.Context, run *actions.Attempt, root string) (string, error) {
	dir := qualify(strings.TrimSuffix(run.AppPath, "/"), root, root)
	fi, err := e.cfg.FS.Stat(ctx, dir)
	if err != nil {
		return "", fsError(err, "reading the application path %s", dir)
	}
	if !fi.IsDir {
		scheme, rest, _ := strings.Cut(dir, "://")
		authority, p, _ := strings.Cut(rest, "/")
		dir = scheme + "://" + authority + path.Dir("/"+p)
	}
	return dir, nil
}

// actionConf is the configuration the action's command sees: the job-xml
// files in order, then the inline configuration, then what gozie sets.
func (e *Executor) actionConf(ctx context.Context, run *actions.Attempt, p *plan) (map[string]string, error) {
	props := map[string]string{}
	for _, jx := range p.hadoop.JobXMLs {
		uri, err := p.appFile(jx)
		if err != nil {
			return nil, err
		}
		b, err := e.cfg.FS.ReadFile(ctx, uri)
		if err != nil {
			return nil, fsError(err, "reading job-xml %s", uri)
		}
		doc, err := conf.ReadConfigurationXML(bytes.NewReader(b), uri)
		if err != nil {
			return nil, actions.Errorf(actions.ActionError, codeBadXML, "reading job-xml %s: %w", uri, err)
		}
		for k, v := range doc.All() {
			props[k] = v
		}
	}
	for _, pr := range p.hadoop.Configuration {
		props[pr.Name] = pr.Value
	}
	p.userConf = maps.Clone(props)
	tag := p.spec.ChildTag
	for k, v := range map[string]string{
		"oozie.action.id":                run.ActionID,
		"oozie.job.id":                   run.JobID,
		"user.name":                      run.User,
		"mapreduce.job.user.name":        run.User,
		"fs.defaultFS":                   p.root,
		"oozie.child.mapreduce.job.tags": tag,
		"mapreduce.job.tags":             tag,
		"tez.application.tags":           tag,
	} {
		props[k] = v
	}
	if rm := strings.TrimSpace(run.ResourceManager); rm != "" {
		props["yarn.resourcemanager.address"] = rm
	}
	return props, nil
}

// sizeLauncher picks the queue, memory and vcores: <launcher>, then the
// oozie.launcher.* properties, then the executor's defaults. A value that is
// not a number fails the action as Oozie's NumberFormatException does.
func (p *plan) sizeLauncher(cfg Config, props map[string]string) error {
	l := p.hadoop.Launcher
	if l == nil {
		l = &workflow.Launcher{}
	}
	num := func(elem, prop string, def int) (int, error) {
		s := strings.TrimSpace(elem)
		if s == "" {
			s = strings.TrimSpace(props[prop])
		}
		if s == "" {
			return def, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return 0, actions.Errorf(actions.ActionError, codeBadNumber, "launcher setting %s: For input string: %q", prop, s)
		}
		return n, nil
	}
	var err error
	if p.memoryMB, err = num(l.MemoryMB, propMemory, cfg.MemoryMB); err != nil {
		return err
	}
	if p.vcores, err = num(l.VCores, propVCores, cfg.VCores); err != nil {
		return err
	}
	p.queue = cfg.Queue
	for _, q := range []string{l.Queue, props[propQueue], props[propQueueMR]} {
		if q = strings.TrimSpace(q); q != "" {
			p.queue = q
			break
		}
	}
	return nil
}

// launcherEnv adds the <launcher><env> (or oozie.launcher.env) entries,
// "NAME=VALUE" separated by commas, to the container's environment.
func (p *plan) launcherEnv(props map[string]string) error {
	s := props[propEnv]
	if l := p.hadoop.Launcher; l != nil && strings.TrimSpace(l.Env) != "" {
		s = l.Env
	}
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return actions.Errorf(actions.ActionFailed, codeBadEnv, "Wrong ENV format [%s] in <launcher><env> , key=value format expected ", kv)
		}
		p.env[strings.TrimSpace(k)] = v
	}
	return nil
}

// javaOpts are the JVM options of a java action: the launcher's, then
// <java-opts> (split on blanks) or the <java-opt> entries; with no -Xmx among
// them, a heap of three quarters of the container, so that the JVM's default
// (a quarter of the machine) cannot outgrow it.
func javaOpts(h *workflow.Hadoop, props map[string]string, memoryMB int, j *workflow.Java) []string {
	var opts []string
	if h.Launcher != nil && strings.TrimSpace(h.Launcher.JavaOpts) != "" {
		opts = append(opts, strings.Fields(h.Launcher.JavaOpts)...)
	} else {
		opts = append(opts, strings.Fields(props[propLauncherJO])...)
	}
	opts = append(opts, strings.Fields(j.JavaOpts)...)
	for _, o := range j.JavaOpt {
		if o = strings.TrimSpace(o); o != "" {
			opts = append(opts, o)
		}
	}
	for _, o := range opts {
		if strings.HasPrefix(o, "-Xmx") {
			return opts
		}
	}
	return append([]string{fmt.Sprintf("-Xmx%dm", memoryMB*3/4)}, opts...)
}
