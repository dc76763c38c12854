package hive2

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
)

// DefaultEngine is the hive.execution.engine a session gets unless the
// action's configuration says otherwise.
const DefaultEngine = "tez"

// Error codes of the hive2 executor. Statement failures carry Hive's own
// code instead (e.g. "10001" for an unknown table, "40000" for a parse
// error, "2" for a failed Tez task).
const (
	// CodeBadURL: the jdbc-url cannot be parsed.
	CodeBadURL = "HIVE2_JDBC_URL"
	// CodeUnsupported: the jdbc-url asks for ZooKeeper discovery, Kerberos
	// or another authentication gozie does not support yet.
	CodeUnsupported = "HIVE2_UNSUPPORTED"
	// CodeBadAction: the action body is not a hive2 action.
	CodeBadAction = "HIVE2_ACTION"
	// CodeScriptMissing is Oozie's code for a missing file
	// (FileNotFoundException).
	CodeScriptMissing = "JA008"
	// CodeIO is Oozie's code for an I/O failure: HiveServer2 or HDFS could
	// not be reached, or the connection broke for longer than
	// Config.ReconnectFor.
	CodeIO = "JA009"
	// CodeInDoubt: after a crash or a broken connection, a statement that is
	// not safe to repeat (INSERT INTO, unguarded DDL) may or may not have
	// taken effect. The run ends in ERROR instead of repeating it.
	CodeInDoubt = "HIVE2_IN_DOUBT"
	// CodeCanceled: HiveServer2 cancelled or closed a statement that gozie
	// did not cancel (e.g. an administrator killed the query).
	CodeCanceled = "HIVE2_CANCELED"
	// CodeKilled: the run was killed.
	CodeKilled = "HIVE2_KILLED"
	// CodePrepare: a prepare step failed for good (a bad glob, no
	// permission); unreachable HDFS is a transient CodeIO instead.
	CodePrepare = "HIVE2_PREPARE"
	// CodeFailed: HiveServer2 reported a failed statement without an error
	// code.
	CodeFailed = "HIVE2_FAILED"
)

// job is what a run executes: connection settings, session configuration,
// variables and where the statements come from.
type job struct {
	url      *JDBCURL
	user     string
	password string
	conf     map[string]string // session configuration (hiveconf)
	vars     map[string]string // hivevars for substitution
	script   string            // URI of the script; empty when query is used
	query    string
	prepare  *workflow.Prepare
	ignored  []string // Beeline arguments without meaning here
}

// prepare reads the action body of a run and checks that the executor
// can make the connection it asks for.
func (e *Executor) prepare(run *actions.Attempt) (*job, error) {
	j, err := prepareJob(run)
	if err != nil {
		return nil, err
	}
	if j.url.Principal == "" && e.cfg.Kerberos != nil {
		if p := credentialPrincipal(run.Credentials); p != "" {
			j.url.Principal, j.url.Auth = p, "KERBEROS"
		}
	}
	if j.url.Principal != "" && e.cfg.Kerberos == nil {
		return nil, actions.Errorf(actions.ActionError, CodeUnsupported, "the jdbc-url names principal=%s, but gozie has "+
			"no Kerberos login (set gozie.kerberos.principal and gozie.kerberos.keytab)", j.url.Principal)
	}
	return j, nil
}

// credentialPrincipal is the hive2.server.principal of the first hive2
// <credential> among an action's (cred=), or "". Oozie's secure hive2
// actions give their jdbc-url no principal= and reach a Kerberized
// HiveServer2 with that credential's delegation token (beeline -a
// delegationToken in the launcher); gozie, which runs the action itself,
// reaches the server the credential names as its own principal acting for
// the workflow's user, the identity the token would have carried.
func credentialPrincipal(creds []actions.Credential) string {
	for _, c := range creds {
		if c.Type == CredentialType && c.Properties != nil {
			if p := strings.TrimSpace(c.Properties.Value(CredentialPrincipal)); p != "" {
				return p
			}
		}
	}
	return ""
}

// prepareJob reads the action body of a run.
func prepareJob(run *actions.Attempt) (*job, error) {
	body, err := workflow.ParseBody(run.Body)
	if err != nil {
		return nil, actions.Errorf(actions.ActionFailed, CodeBadAction, "reading the hive2 action: %v", err)
	}
	h, ok := body.(*workflow.Hive2)
	if !ok {
		return nil, actions.Errorf(actions.ActionFailed, CodeBadAction, "action body is not a hive2 action")
	}
	url, err := ParseJDBCURL(h.JDBCURL)
	switch {
	case errors.Is(err, errUnsupportedURL):
		return nil, actions.Errorf(actions.ActionError, CodeUnsupported, "%v", err)
	case err != nil:
		return nil, actions.Errorf(actions.ActionError, CodeBadURL, "%v", err)
	}
	j := &job{url: url, user: run.User, password: h.Password, query: h.Query, prepare: h.Prepare}
	if j.password == "" {
		j.password = url.Password
	}
	if strings.TrimSpace(h.Query) == "" {
		if strings.TrimSpace(h.Script) == "" {
			return nil, actions.Errorf(actions.ActionError, CodeBadAction, "the hive2 action has neither script nor query")
		}
		j.script = scriptURI(run.AppPath, strings.TrimSpace(h.Script))
	}

	argVars, argConf, ignored := parseArguments(h.Arguments)
	j.ignored = ignored
	j.vars = maps.Clone(url.HiveVars)
	for _, p := range h.Params {
		if k, v, ok := strings.Cut(p, "="); ok {
			j.vars[strings.TrimSpace(k)] = v
		}
	}
	maps.Copy(j.vars, argVars)

	j.conf = map[string]string{"hive.execution.engine": DefaultEngine}
	for _, p := range h.Configuration {
		if !strings.HasPrefix(p.Name, "oozie.") {
			j.conf[p.Name] = p.Value
		}
	}
	maps.Copy(j.conf, url.HiveConf)
	maps.Copy(j.conf, argConf)
	if run.Tag != "" {
		for _, k := range []string{"tez.application.tags", "mapreduce.job.tags"} {
			j.conf[k] = addTag(j.conf[k], run.Tag)
		}
	}
	return j, nil
}

// addTag appends tag to a comma-separated tag list unless it is there.
func addTag(list, tag string) string {
	var tags []string
	for _, t := range strings.Split(list, ",") {
		if t = strings.TrimSpace(t); t != "" {
			if strings.EqualFold(t, tag) {
				return list
			}
			tags = append(tags, t)
		}
	}
	return strings.Join(append(tags, tag), ",")
}

// scriptURI resolves the script element against the application directory:
// full URIs (a scheme, as Hadoop's Path reads it) stay, absolute paths go on
// the application's filesystem, and relative paths are relative to the
// application directory.
func scriptURI(appPath, script string) string {
	switch {
	case hadoop.Scheme(script) != "":
		return script
	case strings.HasPrefix(script, "/"):
		if i := strings.Index(appPath, "://"); i >= 0 {
			rest := appPath[i+3:]
			if j := strings.IndexByte(rest, '/'); j >= 0 {
				return appPath[:i+3] + rest[:j] + script
			}
			return appPath + script
		}
		return script
	}
	return strings.TrimSuffix(appPath, "/") + "/" + script
}

// parseArguments reads the Beeline arguments that matter here:
// --hivevar k=v, -d/--define k=v and --hiveconf k=v (also in the --opt=k=v
// form). Display options (--silent, --showHeader, --outputformat, ...) and
// connection options (-u, -n, -p, which gozie sets itself) are returned as
// ignored.
func parseArguments(args []string) (vars, conf map[string]string, ignored []string) {
	vars, conf = map[string]string{}, map[string]string{}
	withValue := map[string]bool{"-u": true, "-n": true, "-p": true, "-e": true, "-f": true, "-i": true, "-w": true,
		"--property-file": true, "--passwordfile": true}
	put := func(m map[string]string, kv string) bool {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.TrimSpace(k) != "" {
			m[strings.TrimSpace(k)] = v
		}
		return ok
	}
	for i := 0; i < len(args); i++ {
		a := strings.TrimSpace(args[i])
		name, inline, hasInline := strings.Cut(a, "=")
		var target map[string]string
		switch name {
		case "--hivevar", "-d", "--define":
			target = vars
		case "--hiveconf":
			target = conf
		}
		switch {
		case target != nil && hasInline:
			put(target, inline)
		case target != nil && i+1 < len(args):
			i++
			if !put(target, args[i]) {
				ignored = append(ignored, a+" "+args[i])
			}
		case withValue[a] && i+1 < len(args):
			ignored = append(ignored, a+" "+args[i+1])
			i++
		default:
			ignored = append(ignored, a)
		}
	}
	return vars, conf, ignored
}

// statements loads the script (or query), splits it and substitutes the
// variables.
func (e *Executor) statements(ctx context.Context, j *job) ([]string, error) {
	text := j.query
	if j.script != "" {
		b, err := e.cfg.FS.ReadFile(ctx, j.script)
		if refused := actions.SchemeRefused(err); refused != nil {
			return nil, refused
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, actions.Errorf(actions.ActionError, CodeScriptMissing, "script [%s] does not exist", j.script)
		case err != nil:
			return nil, actions.Errorf(actions.Transient, CodeIO, "reading script [%s]: %v", j.script, err)
		}
		text = string(b)
	}
	stmts := SplitStatements(text)
	for i, s := range stmts {
		stmts[i] = Substitute(s, j.vars, j.conf)
	}
	return stmts, nil
}

// runPrepare executes the prepare block: deletes (globs allowed), then
// mkdirs, on the cluster's filesystem.
func (e *Executor) runPrepare(ctx context.Context, p *workflow.Prepare) error {
	if p == nil {
		return nil
	}
	fail := func(op, path string, err error) error {
		if refused := actions.SchemeRefused(err); refused != nil {
			return refused
		}
		if errors.Is(err, hadoop.ErrBadPattern) || errors.Is(err, fs.ErrPermission) {
			return actions.Errorf(actions.ActionError, CodePrepare, "prepare %s [%s]: %v", op, path, err)
		}
		return actions.Errorf(actions.Transient, CodeIO, "prepare %s [%s]: %v", op, path, err)
	}
	for _, d := range p.Deletes {
		matches, err := e.cfg.FS.Glob(ctx, d.Path)
		if err != nil {
			return fail("delete", d.Path, err)
		}
		for _, m := range matches {
			if err := e.cfg.FS.RemoveAll(ctx, m); err != nil {
				return fail("delete", m, err)
			}
		}
	}
	for _, m := range p.Mkdirs {
		if err := e.cfg.FS.MkdirAll(ctx, m, 0o755); err != nil {
			return fail("mkdir", m, err)
		}
	}
	return nil
}

// sessionConfiguration is what OpenSession sends, in the Hive JDBC
// driver's spelling: set:hiveconf:<key> for configuration and use:database
// for the database.
func (j *job) sessionConfiguration() map[string]string {
	m := make(map[string]string, len(j.conf)+1)
	for k, v := range j.conf {
		m["set:hiveconf:"+k] = v
	}
	m["use:database"] = j.url.Database
	if j.url.Principal != "" {
		m[ProxyUserKey] = j.user
	}
	return m
}

// String names the servers and the user, for log lines.
func (j *job) String() string {
	return fmt.Sprintf("%s as %s", strings.Join(j.url.Hosts, ","), j.user)
}
