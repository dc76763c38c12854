package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/client"
)

// Properties Oozie's CLI checks before a proxy submission, old names and new.
const (
	propResourceManager = "yarn.resourcemanager.address"
	propJobTracker      = "mapred.job.tracker"
	propJobTracker2     = "mapreduce.jobtracker.address"
	propNameNode        = "fs.default.name"
	propNameNode2       = "fs.defaultFS"
	propLibPath         = "oozie.libpath"
)

// passThrough is the argument after which everything goes to the job's program.
const passThrough = "-X"

// proxyFlags are the flags of the proxy submission verbs (mapreduce, pig, hive, sqoop).
type proxyFlags struct {
	common
	config string
	defs   defines
	params defines // -P name=value: the script's parameters
	file   string  // -file: the local script
	query  string  // -e: an inline hive script (a gozie extension)
}

func (f *proxyFlags) register(fs *flag.FlagSet, script bool) {
	f.common.register(fs)
	fs.StringVar(&f.config, "config", "", "job configuration file, `FILE`.properties or FILE.xml")
	fs.Var(&f.defs, "D", "set a configuration property, `name=value` (repeatable; wins over -config)")
	if script {
		fs.StringVar(&f.file, "file", "", "the local script `FILE`")
		fs.Var(&f.params, "P", "set a script parameter, `name=value` (repeatable)")
	}
}

// runMapReduce is `gozie mapreduce`: it submits and starts a MapReduce job without a
// workflow app, the server generating a one-action workflow from the configuration
// (Oozie's proxy submission), and prints `job: <id>`. As Oozie's CLI, it first checks the
// configuration names a mapper, a reducer, input and output directories, the resource
// manager, the name node and oozie.libpath.
func runMapReduce(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet(client.ProxyMapReduce, env)
	var f proxyFlags
	f.register(fs, false)
	if err := parse(fs, splitDefines(args)); err != nil {
		return err
	}
	props, err := jobConfiguration(env, f.config, &f.defs)
	if err != nil {
		return err
	}
	for _, req := range []struct{ keys, what string }{
		{"mapred.mapper.class|mapreduce.map.class", "mapper"},
		{"mapred.reducer.class|mapreduce.reduce.class", "reducer"},
		{"mapred.input.dir", "input dir"},
		{"mapred.output.dir", "output dir"},
	} {
		if first(props, strings.Split(req.keys, "|")...) == "" {
			return &plainError{fmt.Sprintf("%s (%s) must be specified in conf", req.what, strings.ReplaceAll(req.keys, "|", " or "))}
		}
	}
	if err := checkProxyConf(props); err != nil {
		return err
	}
	return f.submit(ctx, env, client.ProxyMapReduce, props)
}

// runHive is `gozie hive -file script.q -config job.properties [-D k=v] [-P k=v] [-X
// options]`: it submits and starts the local Hive script without a workflow app (Oozie's
// proxy submission) and prints `job: <id>`. The script's text travels in the
// configuration; -P are its parameters; after -X, -Dname=value options go to the action's
// configuration and the others to the hive command. -e 'statements' instead of -file is a
// gozie extension.
func runHive(ctx context.Context, args []string, env Env) error {
	return runScript(ctx, args, env, client.ProxyHive)
}

// runPig is `gozie pig -file script.pig -config job.properties [-D k=v] [-P k=v] [-X
// options]`, the form of `hive` for Pig scripts: the server runs the script in a generated
// pig action.
func runPig(ctx context.Context, args []string, env Env) error {
	return runScript(ctx, args, env, client.ProxyPig)
}

// runScript runs the hive and pig verbs.
func runScript(ctx context.Context, args []string, env Env, jobType string) error {
	fs := newFlagSet(jobType, env)
	var f proxyFlags
	f.register(fs, true)
	if jobType == client.ProxyHive {
		fs.StringVar(&f.query, "e", "", "the hive script's `statements`, instead of -file (gozie only)")
	}
	opts, err := parseProxy(fs, args, nil)
	if err != nil {
		return err
	}
	switch {
	case f.file == "" && f.query == "":
		return &plainError{"Need to specify -file <scriptfile>"}
	case f.file != "" && f.query != "":
		return &plainError{"Give -file <scriptfile> or -e <statements>, not both"}
	case f.config == "":
		return &plainError{"Need to specify -config <configfile>"}
	}
	props, err := jobConfiguration(env, f.config, &f.defs)
	if err != nil {
		return err
	}
	if err := checkProxyConf(props); err != nil {
		return err
	}
	script := f.query
	if f.file != "" {
		if script, err = readScript(f.file); err != nil {
			return err
		}
	}
	scriptProp, optsProp, paramsProp := client.PropHiveScript, client.PropHiveOptions, client.PropHiveScriptParams
	if jobType == client.ProxyPig {
		scriptProp, optsProp, paramsProp = client.PropPigScript, client.PropPigOptions, client.PropPigScriptParams
	}
	props.Set(scriptProp, script)
	// Both lists are written even when empty (size 0), as Oozie's client writes them.
	client.SetList(props, optsProp, opts)
	params := []string{}
	for k, v := range f.params.props.All() {
		params = append(params, k+"="+v)
	}
	client.SetList(props, paramsProp, params)
	return f.submit(ctx, env, jobType, props)
}

// runSqoop is `gozie sqoop -command 'import ...' -config job.properties [-D k=v] [-X
// -Dname=value...]`: the arguments after -command, up to the next option, are the sqoop
// command, sent one argument per line (oozie.sqoop.command); the server runs it in a
// generated sqoop action, the -D options of -X going to its configuration.
func runSqoop(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet(client.ProxySqoop, env)
	var f proxyFlags
	f.register(fs, false)
	var command []string
	opts, err := parseProxy(fs, args, &command)
	if err != nil {
		return err
	}
	switch {
	case len(command) == 0:
		return &plainError{"Need to specify -command"}
	case f.config == "":
		return &plainError{"Need to specify -config <configfile>"}
	}
	props, err := jobConfiguration(env, f.config, &f.defs)
	if err != nil {
		return err
	}
	if err := checkProxyConf(props); err != nil {
		return err
	}
	props.Set(client.PropSqoopCommand, strings.Join(command, "\n")+"\n")
	client.SetList(props, client.PropSqoopOptions, opts)
	return f.submit(ctx, env, client.ProxySqoop, props)
}

// submit sends a checked proxy submission, marked as one, and prints the job id.
func (f *proxyFlags) submit(ctx context.Context, env Env, jobType string, props *conf.Properties) error {
	props.Set(client.PropProxySubmission, "true")
	cl, err := f.client(env)
	if err != nil {
		return err
	}
	id, err := cl.SubmitProxy(ctx, jobType, props)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "job: %s\n", id)
	return nil
}

// checkProxyConf makes Oozie's client-side checks of a proxy submission: a resource
// manager, a name node and an absolute oozie.libpath, which is qualified with the name
// node when it is a bare path.
func checkProxyConf(props *conf.Properties) error {
	if first(props, propResourceManager, propJobTracker, propJobTracker2) == "" {
		return &plainError{"Resource manager is not specified in conf"}
	}
	nn := first(props, propNameNode, propNameNode2)
	if nn == "" {
		return &plainError{"namenode is not specified in conf"}
	}
	lib := props.Value(propLibPath)
	if lib == "" {
		return &plainError{"libpath is not specified in conf"}
	}
	if !strings.Contains(lib, ":/") {
		if !strings.HasPrefix(lib, "/") {
			return &plainError{"libpath should be absolute"}
		}
		props.Set(propLibPath, strings.TrimSuffix(nn, "/")+lib)
	}
	return nil
}

// first returns the first non-empty value of keys.
func first(props *conf.Properties, keys ...string) string {
	for _, k := range keys {
		if v := props.Value(k); v != "" {
			return v
		}
	}
	return ""
}

// readScript reads a local script as Oozie's client does: line by line, each line ended
// by a newline.
func readScript(file string) (string, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return "", &plainError{fmt.Sprintf("script file [%s] does not exist", file)}
	}
	if err != nil {
		return "", fmt.Errorf("reading script file [%s]: %w", file, err)
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text, nil
}

// parseProxy parses the flags of the pig, hive and sqoop verbs and returns the arguments
// after -X, which pass through to the job. Before -X, "-Dname=value" and "-Pname=value"
// are accepted in Java's joined form; a positional argument is refused as Oozie's CLI
// refuses it. With command set (sqoop), the arguments after -command, up to the next
// option of fs, are taken as the command.
func parseProxy(fs *flag.FlagSet, args []string, command *[]string) ([]string, error) {
	var pass []string
	for i, a := range args {
		if a == passThrough {
			args, pass = args[:i:i], args[i+1:]
			break
		}
	}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if command != nil && (a == "-command" || a == "--command") {
			for i+1 < len(args) && !isOption(fs, args[i+1]) {
				i++
				*command = append(*command, args[i])
			}
			continue
		}
		if p, ok := strings.CutPrefix(a, "-P"); ok && p != "" && fs.Lookup("P") != nil {
			rest = append(rest, "-P", p)
			continue
		}
		rest = append(rest, a)
	}
	if err := fs.Parse(splitDefines(rest)); err != nil {
		return nil, errUsage
	}
	if fs.NArg() > 0 {
		return nil, &plainError{fmt.Sprintf("Unrecognized option: %s Expecting %s", fs.Arg(0), passThrough)}
	}
	if pass == nil {
		pass = []string{}
	}
	return pass, nil
}

// isOption reports whether a is a flag of fs ("-name", "--name", "-name=value", or Java's
// "-Dname=value" and "-Pname=value").
func isOption(fs *flag.FlagSet, a string) bool {
	if a == passThrough {
		return true
	}
	name, ok := strings.CutPrefix(a, "-")
	if !ok || name == "" {
		return false
	}
	name = strings.TrimPrefix(name, "-")
	name, _, _ = strings.Cut(name, "=")
	if fs.Lookup(name) != nil {
		return true
	}
	return len(name) > 1 && (name[0] == 'D' || name[0] == 'P') && fs.Lookup(name[:1]) != nil
}
