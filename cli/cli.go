// Package cli is gozie's command-line client: the verbs and flags of Oozie's
// `oozie` command (admin, version, job, jobs, validate, sla, info) with
// Oozie's output formats, so that scripts written against Oozie keep working.
// It talks to the server only through the REST API (package server/client).
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/user"
	"strconv"
	"time"

	"github.com/gozie/gozie/buildinfo"
	"github.com/gozie/gozie/server/client"
)

// DefaultURL is used when neither -oozie nor GOZIE_URL nor OOZIE_URL is set.
const DefaultURL = "http://localhost:11000/oozie"

// Env is what a command needs from its process.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	HTTPClient     *http.Client
	// User returns the name of the user running the command, which job configurations get
	// as user.name when they do not set it; nil means the operating-system user.
	User func() (string, error)
	// Local is the zone of -localtime; nil means time.Local.
	Local *time.Location

	// headers are the custom headers of -Dheader:NAME=VALUE, sent with every call.
	headers http.Header
	// backoff is the wait after the n-th failed try of a call whose connection could
	// not be made; nil means Oozie's 2^(n-1) seconds.
	backoff func(n int) time.Duration
}

// OSEnv is the process's real environment.
func OSEnv() Env {
	return Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, HTTPClient: &http.Client{Timeout: 60 * time.Second}}
}

// user returns the user running the command.
func (e Env) user() (string, error) {
	if e.User != nil {
		return e.User()
	}
	u, err := user.Current()
	if err != nil {
		return "", fmt.Errorf("finding the current user: %w", err)
	}
	return u.Username, nil
}

// Commands lists the client verbs Run accepts.
var Commands = map[string]string{
	"admin": "server administration: -status, -version, -systemmode MODE, -queuedump, -servers, -metrics, " +
		"-instrumentation, -configuration, -osenv, -javasysprops, -shareliblist, -sharelibupdate, " +
		"-purge 'wf=30;coord=7;bundle=7;limit=100;oldcoordaction=true'",
	"info":    "client-side information: -timezones",
	"version": "print the client's build version",
	"job": "job operations: -run, -submit, -dryrun, -start, -info, -kill, -suspend, -resume, -rerun, -change, " +
		"-ignore, -poll, -log, -errorlog, -definition, -missingdeps, -slaenable, -sladisable, -slachange",
	"jobs": "list jobs: [-jobtype wf] [-filter 'user=u;status=S'] [-offset N] [-len N]; " +
		"-kill, -suspend or -resume the jobs of a -filter; -bulk 'bundle=b;actionstatus=KILLED,FAILED' lists coordinator actions",
	"validate": "validate a workflow or coordinator XML file: validate FILE",
	"sla":      "SLA summaries: -filter 'app_name=a;event_status=END_MISS' [-len N] [-sortby K] [-order desc] [-json]",
	"mapreduce": "submit and start a MapReduce job without a workflow app " +
		"(the server generates it): -config job.properties [-D name=value]",
	"hive": "submit and start a Hive script without a workflow app: -file script.q (or -e 'statements') -config job.properties " +
		"[-D name=value] [-P name=value] [-X hive options]",
	"pig": "submit and start a Pig script without a workflow app: -file script.pig -config job.properties " +
		"[-D name=value] [-P name=value] [-X pig options]",
	"sqoop": "submit and start a Sqoop command without a workflow app: -command 'import ...' -config job.properties " +
		"[-D name=value] [-X -Dname=value]",
}

// Run runs the client verb args[0] with its flags and returns the exit code.
func Run(ctx context.Context, args []string, env Env) int {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, "missing command")
		return 2
	}
	rest, headers, err := splitHeaders(args[1:])
	if err != nil {
		fmt.Fprintf(env.Stderr, "Error: %v\n", err)
		return 255
	}
	args, env.headers = append(args[:1:1], rest...), headers
	switch args[0] {
	case "admin":
		err = runAdmin(ctx, args[1:], env)
	case "job":
		err = runJob(ctx, args[1:], env)
	case "jobs":
		err = runJobs(ctx, args[1:], env)
	case "validate":
		err = runValidate(ctx, args[1:], env)
	case "sla":
		err = runSLA(ctx, args[1:], env)
	case "info":
		err = runInfo(ctx, args[1:], env)
	case "mapreduce":
		err = runMapReduce(ctx, args[1:], env)
	case "hive":
		err = runHive(ctx, args[1:], env)
	case "pig":
		err = runPig(ctx, args[1:], env)
	case "sqoop":
		err = runSqoop(ctx, args[1:], env)
	case "version":
		fmt.Fprintf(env.Stdout, "Oozie client build version: %s\n", buildinfo.Get().Version)
	default:
		fmt.Fprintf(env.Stderr, "unknown command %q\n", args[0])
		return 2
	}
	return report(err, env)
}

// errUsage marks a command-line mistake; its message has been printed.
var errUsage = errors.New("usage")

// report prints err as Oozie's CLI does and returns the exit code. A server error prints
// "Error: <code> : <message>", the message being the server's own, which for Oozie's codes
// starts with the code again ("Error: E0604 : E0604: Job does not exist [...]"); without a
// code Oozie prints "HTTP error code: <status>" in its place.
func report(err error, env Env) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, errUsage) || errors.Is(err, flag.ErrHelp) {
		return 2
	}
	var ue userError
	if errors.As(err, &ue) {
		fmt.Fprintf(env.Stderr, "Error: %s\n", ue.userMessage())
		return 255
	}
	var plain *plainError
	if errors.As(err, &plain) {
		fmt.Fprintf(env.Stderr, "Error: %s\n", plain.msg)
		return 255
	}
	var ce *client.Error
	if errors.As(err, &ce) {
		code := ce.Code
		if code == "" {
			code = "HTTP error code: " + strconv.Itoa(ce.StatusCode)
		}
		fmt.Fprintf(env.Stderr, "Error: %s : %s\n", code, ce.Message)
		return 255
	}
	fmt.Fprintf(env.Stderr, "Error: %v\n", err)
	return 255
}

// plainError is printed as "Error: <message>", for failures Oozie's CLI reports by message
// only (those of validate, for instance).
type plainError struct{ msg string }

func (e *plainError) Error() string { return e.msg }

// common holds the flags every client verb shares.
type common struct {
	oozie string
	auth  authFlags // -auth, -doas (cli/auth.go)
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.oozie, "oozie", "", "gozie/Oozie URL (default $GOZIE_URL, then $OOZIE_URL, then "+DefaultURL+")")
	c.auth.register(fs)
}

// url resolves the server URL of the -oozie flag and the environment.
func (c *common) url(env Env) string { return ServerURL(c.oozie, env.Getenv) }

// ServerURL resolves the server's URL as Oozie's CLI does, with GOZIE_URL
// first: the -oozie flag's value, else $GOZIE_URL, else $OOZIE_URL, else
// DefaultURL.
func ServerURL(flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	for _, v := range []string{"GOZIE_URL", "OOZIE_URL"} {
		if u := getenv(v); u != "" {
			return u
		}
	}
	return DefaultURL
}

func (c *common) client(env Env) (*client.Client, error) {
	hc, err := c.auth.httpClient(env, c.url(env))
	if err != nil {
		return nil, err
	}
	return client.New(c.url(env), hc)
}

func newFlagSet(name string, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return errUsage
	}
	return nil
}

// parseInterspersed parses flags that may come before, between or after positional
// arguments (as Oozie's option parser allows: `validate FILE -oozie URL`) and returns the
// positional arguments. After a "--" the next argument is positional even if it looks
// like a flag.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, errUsage
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}
