package clustertools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
)

// Pig's names in the job configuration and its exit codes
// (PigRunner.ReturnCode).
const (
	// pigMapper is the mapper class of a map-only Pig job; the stand-in AM
	// runs it as pigJob.
	pigMapper = "org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigMapOnly$Map"
	// keyPigScript holds the script, base64, as Pig's ScriptState puts it.
	keyPigScript = "pig.script"

	exitPigFailure     = 2
	exitPigIllegalArgs = 4
	exitPigIO          = 5
	exitPigException   = 6
	exitPigParse       = 7
)

// pigVersion is what pig -version prints.
const pigVersion = "Apache Pig version 0.17.0 (gozie stand-in)"

// pigOptions are a pig run's options.
type pigOptions struct {
	script, inline         string
	params                 map[string]string
	paramFiles, propFiles  []string
	check, dryrun, version bool
}

// pigNoArg and pigWithArg are the options Pig's Main takes that do not
// change what a script computes (logging, warnings, multi-query) and are
// accepted as they are.
var (
	pigNoArg   = []string{"-v", "-verbose", "-w", "-warning", "-M", "-no_multiquery", "-F", "-stop_on_failure", "-b", "-brief", "-h", "-help"}
	pigWithArg = []string{"-l", "-logfile", "-4", "-log4jconf", "-d", "-debug"}
)

// parsePigArgs parses Pig's command line (after Hadoop's generic options).
func parsePigArgs(args []string) (*pigOptions, error) {
	o := &pigOptions{params: map[string]string{}}
	val := func(i int) (string, error) {
		if i+1 >= len(args) {
			return "", toolErr("Found no value for option (%s) at position %d", args[i], i)
		}
		return args[i+1], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-version" || a == "-i":
			o.version = true
		case a == "-c" || a == "-check":
			o.check = true
		case a == "-r" || a == "-dryrun":
			o.dryrun = true
		case slices.Contains(pigNoArg, a):
		case slices.Contains(pigWithArg, a):
			i++
		case a == "-x" || a == "-exectype":
			v, err := val(i)
			if err != nil {
				return nil, err
			}
			if !strings.EqualFold(v, "mapreduce") {
				return nil, fmt.Errorf("exectype %s is not implemented by gozie's pig stand-in (it runs mapreduce)", v)
			}
			i++
		case a == "-f" || a == "-file" || a == "-e" || a == "-execute" || a == "-p" || a == "-param" ||
			a == "-m" || a == "-param_file" || a == "-P" || a == "-propertyFile":
			v, err := val(i)
			if err != nil {
				return nil, err
			}
			i++
			if err := o.set(a, v); err != nil {
				return nil, err
			}
		case strings.HasPrefix(a, "-"):
			return nil, toolErr("Found unknown option (%s) at position %d", a, i+1)
		case o.script == "" && o.inline == "":
			o.script = a
		default:
			return nil, toolErr("Encountered unexpected arguments on command line - please check the command line")
		}
	}
	return o, nil
}

func (o *pigOptions) set(opt, v string) error {
	switch opt {
	case "-f", "-file":
		o.script = v
	case "-e", "-execute":
		o.inline = v
	case "-p", "-param":
		k, val, ok := strings.Cut(v, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return toolErr("Invalid parameter: %s (want NAME=VALUE)", v)
		}
		o.params[strings.TrimSpace(k)] = val
	case "-m", "-param_file":
		o.paramFiles = append(o.paramFiles, v)
	case "-P", "-propertyFile":
		o.propFiles = append(o.propFiles, v)
	}
	return nil
}

// pig is the stand-in of the cluster's `pig`: it reads the script, sets
// its parameters, parses and checks it, and runs its STOREs as one
// map-only MapReduce job tagged with mapreduce.job.tags from the
// properties, waiting for it. Statements it does not implement are refused
// before any job starts (ERROR 1200 naming them).
func (t *tool) pig(ctx context.Context, args []string) int {
	props, rest, err := t.genericOptions(args)
	if err != nil {
		return t.pigFail(exitPigIllegalArgs, &pigError{code: pigErrParam, msg: err.Error()})
	}
	o, err := parsePigArgs(rest)
	if err != nil {
		return t.pigFail(exitPigIllegalArgs, &pigError{code: pigErrParam, msg: "Unexpected internal error. " + err.Error()})
	}
	if o.version {
		fmt.Fprintln(t.env.Stdout, pigVersion)
		return exitOK
	}
	src, name, err := t.pigScript(o)
	if err != nil {
		return t.pigFail(exitPigIO, &pigError{code: 101, msg: err.Error()})
	}
	params, err := t.pigParams(o)
	if err != nil {
		return t.pigFail(exitPigIO, &pigError{code: pigErrParam, msg: err.Error()})
	}
	script, err := substituteParams(src, params)
	if err != nil {
		return t.pigFail(exitPigException, err)
	}
	if o.dryrun {
		fmt.Fprint(t.env.Stdout, script)
		return exitOK
	}
	stmts, err := parsePig(script)
	if err == nil && !o.check {
		err = t.pigProperties(props, o)
	}
	var plan *pigPlan
	if err == nil {
		plan, err = compilePig(stmts)
	}
	if err != nil {
		return t.pigFail(exitPigParse, err)
	}
	if o.check {
		fmt.Fprintf(t.env.Stdout, "%s syntax OK\n", name)
		return exitOK
	}
	for k, v := range plan.sets {
		props[k] = v
	}
	return t.runPig(ctx, name, script, plan, props)
}

// pigFail prints a Pig error as Grunt does and returns code.
func (t *tool) pigFail(code int, err error) int {
	fmt.Fprintf(t.env.Stderr, "ERROR org.apache.pig.tools.grunt.Grunt - %v\n", err)
	return code
}

// pigScript reads the script (a local file, as the action localizes it)
// or the -e statements, and names it.
func (t *tool) pigScript(o *pigOptions) (src, name string, err error) {
	switch {
	case o.inline != "":
		return o.inline, "inline", nil
	case o.script == "":
		return "", "", errors.New("no script: give -file <script> or -e <statements> (grunt, the interactive shell, is not implemented by the stand-in)")
	}
	b, err := os.ReadFile(t.localPath(o.script))
	if err != nil {
		return "", "", toolErr("Can not find script file %s", o.script)
	}
	return string(b), path.Base(o.script), nil
}

// pigParams are the parameters: -param_file files in order, then -param
// (which win over them), as Pig's ParameterSubstitutionPreprocessor orders
// them.
func (t *tool) pigParams(o *pigOptions) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range o.paramFiles {
		b, err := os.ReadFile(t.localPath(f))
		if err != nil {
			return nil, toolErr("Unable to open parameter file %s", f)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				k, v, ok = strings.Cut(line, " ")
			}
			if !ok || strings.TrimSpace(k) == "" {
				return nil, toolErr("Unable to parse line %q of parameter file %s", line, f)
			}
			out[strings.TrimSpace(k)] = unquote(strings.TrimSpace(v))
		}
	}
	for k, v := range o.params {
		out[k] = v
	}
	return out, nil
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// pigProperties adds the -propertyFile files (Java properties) under the
// generic options' configuration.
func (t *tool) pigProperties(props map[string]string, o *pigOptions) error {
	for _, f := range o.propFiles {
		b, err := os.ReadFile(t.localPath(f))
		if err != nil {
			return &pigError{code: pigErrParam, msg: "Unable to read property file " + f}
		}
		p, err := conf.ReadProperties(bytes.NewReader(b), f)
		if err != nil {
			return &pigError{code: pigErrParam, msg: err.Error()}
		}
		for k, v := range p.All() {
			if _, set := props[k]; !set {
				props[k] = v
			}
		}
	}
	return nil
}

var (
	pigParamRef  = regexp.MustCompile(`\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)`)
	pigDirective = regexp.MustCompile(`^\s*%(default|declare)\s+([A-Za-z_][A-Za-z0-9_]*)\s+(.*?)\s*;?\s*$`)
)

// substituteParams is Pig's parameter substitution: %declare (which wins)
// and %default (which does not) lines, then $NAME and ${NAME} replaced
// everywhere but in comment lines; a reference to an undefined parameter
// is an error. $0, $1 are field positions, not parameters.
func substituteParams(src string, params map[string]string) (string, error) {
	vals := map[string]string{}
	for k, v := range params {
		vals[k] = v
	}
	lines := strings.Split(src, "\n")
	for i, line := range lines {
		m := pigDirective.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if _, set := vals[m[2]]; m[1] == "declare" || !set {
			vals[m[2]] = unquote(m[3])
		}
		lines[i] = "" // keep the line numbers
	}
	var undefined string
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "--") {
			continue
		}
		lines[i] = pigParamRef.ReplaceAllStringFunc(line, func(ref string) string {
			name := strings.Trim(ref[1:], "{}")
			v, ok := vals[name]
			if !ok && undefined == "" {
				undefined = name
			}
			return v
		})
	}
	if undefined != "" {
		return "", &pigError{code: pigErrParam, msg: "Unexpected internal error. Undefined parameter : " + undefined}
	}
	return strings.Join(lines, "\n"), nil
}

// runPig checks the plan's inputs and outputs as Pig does before it
// launches (inputs must exist, outputs must not), submits the job and
// waits for it.
func (t *tool) runPig(ctx context.Context, name, script string, plan *pigPlan, props map[string]string) int {
	if len(plan.stores) == 0 {
		fmt.Fprintln(t.env.Stderr, "INFO org.apache.pig.Main - the script stores nothing: no job to run")
		return exitOK
	}
	c, err := t.cluster()
	if err != nil {
		return t.pigFail(exitPigIO, err)
	}
	fsys, err := t.filesystem(c)
	if err != nil {
		return t.pigFail(exitPigIO, err)
	}
	defer fsys.Close()
	if code := t.checkPigPaths(ctx, c, fsys, plan); code != exitOK {
		return code
	}
	job := maps.Clone(props)
	job["mapreduce.job.name"] = "PigLatin:" + name
	job["mapreduce.job.map.class"] = pigMapper
	job["mapreduce.job.reduces"] = "0"
	job[keyPigScript] = base64.StdEncoding.EncodeToString([]byte(script))
	for _, k := range append(append([]string{}, keysInput...), keysOutput...) {
		delete(job, k)
	}
	appID, ok := t.submit(ctx, job)
	if !ok {
		return t.pigFail(exitPigFailure, &pigError{code: pigErrBackendFail, msg: "the job could not be submitted"})
	}
	jobID := jobIDOf(appID)
	fmt.Fprintf(t.env.Stderr, "INFO org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.MapReduceLauncher - HadoopJobId: %s\n", jobID)
	rep, err := t.awaitJob(ctx, c, appID, job)
	if err != nil {
		return t.pigFail(exitPigFailure, err)
	}
	if jobState(rep) != "SUCCEEDED" {
		diag := strings.TrimSpace(rep.Diagnostics)
		fmt.Fprintf(t.env.Stderr, "ERROR org.apache.pig.tools.pigstats.mapreduce.MRPigStatsUtil - 1 map reduce job(s) failed!\n"+
			"Failed Jobs:\nJobId\tMessage\n%s\t%s\nFailed!\n", jobID, diag)
		return t.pigFail(exitPigFailure, &pigError{code: pigErrBackendFail, msg: fmt.Sprintf("Job %s failed: %s", jobID, firstLine(diag))})
	}
	fmt.Fprintf(t.env.Stdout, "Success!\n\nJob Stats:\nJobId\tFeature\tOutputs\n%s\tMAP_ONLY\t%s\n\nOutput(s):\n", jobID, storePaths(plan, func(p string) string { return t.qualify(c, p) }))
	for _, s := range plan.stores {
		fmt.Fprintf(t.env.Stdout, "Successfully stored records in: %q\n", t.qualify(c, s.stmt.path))
	}
	return exitOK
}

// checkPigPaths refuses a script whose LOAD paths do not exist (ERROR
// 2118) or whose STORE paths do (ERROR 6000), before any job starts.
func (t *tool) checkPigPaths(ctx context.Context, c *cluster, fsys hadoop.FileSystem, plan *pigPlan) int {
	for _, s := range plan.loads {
		uri := t.qualify(c, s.path)
		if _, err := visibleFiles(ctx, fsys, uri); err != nil {
			return t.pigFail(exitPigFailure, err)
		}
	}
	for _, r := range plan.stores {
		uri := t.qualify(c, r.stmt.path)
		_, err := fsys.Stat(ctx, uri)
		if err == nil {
			return t.pigFail(exitPigException, &pigError{code: pigErrOutput, line: r.stmt.line, col: r.stmt.col,
				msg: fmt.Sprintf("Output Location Validation Failed for: '%s More info to follow:\nOutput directory %s already exists", uri, uri)})
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return t.pigFail(exitPigIO, err)
		}
	}
	return exitOK
}

func storePaths(plan *pigPlan, q func(string) string) string {
	var out []string
	for _, s := range plan.stores {
		out = append(out, q(s.stmt.path))
	}
	return strings.Join(out, ",")
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
