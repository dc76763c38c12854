package clustertools

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// Tools are the names of the tools Main runs and Install wraps.
var Tools = []string{"beeline", "mapred", "hadoop", "hdfs", "yarn", "sqoop", "spark-submit", "pig"}

// Exit codes of the tools.
const (
	exitOK    = 0
	exitFail  = 1 // the command failed (a file that does not exist, a refused job)
	exitUsage = 2 // bad arguments; also Beeline's code for a failed statement
	// exitTerminated is the code of a tool stopped by SIGTERM (128+15).
	exitTerminated = 143
)

// Env is what a tool takes from its process.
type Env struct {
	// Stdout and Stderr receive the tool's output; nil discards it.
	Stdout, Stderr io.Writer
	// Getenv reads the environment (HADOOP_CONF_DIR, HADOOP_USER_NAME,
	// USER, the container's variables); nil reads nothing.
	Getenv func(string) string
	// Environ lists the environment for the processes a tool starts (the
	// streaming job's mapper and reducer).
	Environ func() []string
	// Dir is the working directory for relative local paths; empty means the
	// process's.
	Dir string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// HTTPClient calls job-end notification URLs; nil means a client with a
	// 10 s timeout.
	HTTPClient *http.Client
}

// OSEnv is the process's real environment.
func OSEnv() Env {
	return Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Environ: os.Environ}
}

func (e *Env) setDefaults() {
	if e.Stdout == nil {
		e.Stdout = io.Discard
	}
	if e.Stderr == nil {
		e.Stderr = io.Discard
	}
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	if e.Environ == nil {
		e.Environ = func() []string { return nil }
	}
	if e.Dir == "" {
		e.Dir, _ = os.Getwd()
	}
	if e.Now == nil {
		e.Now = time.Now
	}
	if e.HTTPClient == nil {
		e.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
}

// Main runs the tool args[0] with the arguments args[1:] and returns its
// exit code. ctx ends on SIGTERM: a tool then stops what it started (a
// running statement, a streaming job's processes) and returns 143.
func Main(ctx context.Context, args []string, env Env) int {
	env.setDefaults()
	if len(args) == 0 {
		fmt.Fprintf(env.Stderr, "usage: gozie tool <%s> [args]\n", strings.Join(Tools, "|"))
		return exitUsage
	}
	t := &tool{name: args[0], env: env}
	var code int
	switch args[0] {
	case "beeline":
		code = t.beeline(ctx, args[1:])
	case "mapred":
		code = t.mapred(ctx, args[1:])
	case "hadoop":
		code = t.hadoop(ctx, args[1:])
	case "hdfs":
		code = t.hdfs(ctx, args[1:])
	case "yarn":
		code = t.yarn(ctx, args[1:])
	case "spark-submit":
		code = t.sparkSubmitMain(ctx, args[1:])
	case "sqoop":
		code = t.sqoop(ctx, args[1:])
	case "pig":
		code = t.pig(ctx, args[1:])
	default:
		fmt.Fprintf(env.Stderr, "gozie tool: unknown tool %q (known: %s)\n", args[0], strings.Join(Tools, ", "))
		return exitUsage
	}
	if ctx.Err() != nil && code != exitOK {
		return exitTerminated
	}
	return code
}

// Install writes a wrapper script for every tool into dir, each running
// `binary tool <name> "$@"`, so that dir on PATH provides the tools.
func Install(dir, binary string) error {
	if !filepath.IsAbs(binary) {
		return fmt.Errorf("clustertools: the gozie binary %q must be an absolute path", binary)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("clustertools: %w", err)
	}
	for _, name := range Tools {
		script := fmt.Sprintf("#!/bin/sh\n# Stand-in of the cluster's %s, served by gozie.\nexec %s tool %s \"$@\"\n",
			name, shellQuote(binary), name)
		p := filepath.Join(dir, name)
		tmp := p + ".tmp"
		if err := os.WriteFile(tmp, []byte(script), 0o755); err != nil {
			return fmt.Errorf("clustertools: %w", err)
		}
		if err := os.Rename(tmp, p); err != nil {
			return fmt.Errorf("clustertools: %w", err)
		}
	}
	return nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'" }

// tool is one run of a tool.
type tool struct {
	name string
	env  Env
}

func (t *tool) errorf(format string, args ...any) {
	fmt.Fprintf(t.env.Stderr, t.name+": "+format+"\n", args...)
}

// user is who the tool acts as: $HADOOP_USER_NAME, $USER, or the OS user.
func (t *tool) user() string {
	for _, k := range []string{"HADOOP_USER_NAME", "USER"} {
		if v := t.env.Getenv(k); v != "" {
			return v
		}
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "gozie"
}

// cluster is the Hadoop client configuration of $HADOOP_CONF_DIR.
type cluster struct {
	defaultFS string
	rmWeb     []string
	conf      *conf.Hadoop
}

func (t *tool) cluster() (*cluster, error) {
	dir := t.env.Getenv("HADOOP_CONF_DIR")
	if dir == "" {
		return nil, fmt.Errorf("HADOOP_CONF_DIR is not set: the tool does not know the cluster")
	}
	h, err := conf.LoadHadoop(dir)
	if err != nil {
		return nil, err
	}
	return &cluster{defaultFS: h.DefaultFS(), rmWeb: h.ResourceManagerWebAppURLs(), conf: h}, nil
}

// filesystem opens the cluster's default filesystem as the tool's user.
func (t *tool) filesystem(c *cluster) (*hadoop.Resolver, error) {
	// The configuration maps an HA nameservice to its NameNodes and
	// carries hadoop.rpc.protection; the container's delegation tokens
	// (HADOOP_TOKEN_FILE_LOCATION) authenticate to a secure cluster, as
	// Hadoop's own tools find them.
	tokens, err := hadoop.TokensFromEnv(t.env.Getenv)
	if err != nil {
		return nil, err
	}
	return hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: c.defaultFS, Conf: c.conf.Map(), User: t.user(), Tokens: tokens, Now: t.env.Now})
}

// yarnClient reaches the cluster's ResourceManager as the tool's user: with
// the container's RM delegation token when it holds one (a secure
// cluster's job, which has no Kerberos ticket), else by pseudo
// authentication.
func (t *tool) yarnClient(c *cluster) (*yarn.Client, error) {
	if len(c.rmWeb) == 0 {
		return nil, fmt.Errorf("no ResourceManager in %s", c.conf.Dir)
	}
	tokens, err := hadoop.TokensFromEnv(t.env.Getenv)
	if err != nil {
		return nil, err
	}
	var auth yarn.Authenticator = yarn.PseudoAuth{User: t.user()}
	for _, tok := range tokens {
		if tok.Kind == hadoop.KindRMDelegationToken {
			auth = yarn.TokenAuth{Token: tok}
		}
	}
	return yarn.NewClient(yarn.Config{Addresses: c.rmWeb, Auth: auth})
}

// jobCredentials are the container's delegation tokens a job it submits
// carries, as MapReduce's JobSubmitter passes the submitter's credentials
// on: the job's containers localize and reach HDFS with them. Nil without
// tokens.
func (t *tool) jobCredentials() (*yarn.Credentials, error) {
	tokens, err := hadoop.TokensFromEnv(t.env.Getenv)
	if err != nil || len(tokens) == 0 {
		return nil, err
	}
	var keep []hadoop.Token
	for _, tok := range tokens {
		if tok.Kind != hadoop.KindAMRMToken {
			keep = append(keep, tok)
		}
	}
	if len(keep) == 0 {
		return nil, nil
	}
	return yarn.TokenCredentials(keep), nil
}

// qualify makes p a full URI on the default filesystem: absolute paths go
// on it, relative ones below the user's home directory, /user/<user>.
func (t *tool) qualify(c *cluster, p string) string {
	if strings.Contains(p, "://") {
		return p
	}
	root := strings.TrimSuffix(c.defaultFS, "/")
	if !strings.HasPrefix(p, "/") {
		p = "/user/" + t.user() + "/" + p
	}
	return root + p
}

// localPath resolves a local file name against the working directory.
func (t *tool) localPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(t.env.Dir, p)
}

// splitComma splits a comma-separated list, dropping blanks.
func splitComma(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}
