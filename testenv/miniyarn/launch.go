package miniyarn

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/gozie/gozie/hadoop"
)

// Names of files in a container's working and log directories.
const (
	launchScriptName = "launch_container.sh"
	tokenFileName    = "container_tokens"
	prelaunchOut     = "prelaunch.out"
	prelaunchErr     = "prelaunch.err"
)

// passThroughEnv is the NodeManager's default env whitelist
// (yarn.nodemanager.env-whitelist): copied from the NM's own environment when
// the application does not set them. HADOOP_CONF_DIR is not among them: the
// NM forces its own (see containerEnv).
var passThroughEnv = []string{
	"JAVA_HOME", "HADOOP_COMMON_HOME", "HADOOP_HDFS_HOME",
	"CLASSPATH_PREPEND_DISTCACHE", "HADOOP_YARN_HOME", "HADOOP_HOME", "HADOOP_MAPRED_HOME",
	"PATH", "LANG", "TZ", "MALLOC_ARENA_MAX",
}

// prepareContainer lays out the container's directories, localises its
// resources, writes its token file and launch script, and returns the command
// that runs the script (not yet started).
func (rm *RM) prepareContainer(ctx context.Context, a *app, at *attempt) (*exec.Cmd, error) {
	rm.mu.Lock()
	user := a.user
	rm.mu.Unlock()
	appDir := filepath.Join(rm.localDir, "usercache", user, "appcache", a.id.String())
	workDir := filepath.Join(appDir, at.container.String())
	logDir := filepath.Join(rm.logRoot, a.id.String(), at.container.String())
	for _, d := range []string{workDir, logDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("creating container directory: %w", err)
		}
	}
	rm.mu.Lock()
	at.workDir, at.logDir = workDir, logDir
	rm.mu.Unlock()

	links, err := rm.localize(ctx, a, at, appDir)
	if err != nil {
		return nil, err
	}
	tokenFile := filepath.Join(workDir, tokenFileName)
	if err := rm.writeContainerTokens(a, at, tokenFile); err != nil {
		return nil, err
	}
	env := rm.containerEnv(a, at, appDir, workDir, logDir, tokenFile)
	command := expandVars(strings.Join(a.sc.AMContainerSpec.Commands, " "), logDir)
	script := launchScript(env, links, command)
	scriptPath := filepath.Join(workDir, launchScriptName)
	if err := os.WriteFile(scriptPath, []byte(script), 0o700); err != nil {
		return nil, fmt.Errorf("writing launch script: %w", err)
	}

	stdout, err := os.OpenFile(filepath.Join(logDir, prelaunchOut), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening container log: %w", err)
	}
	stderr, err := os.OpenFile(filepath.Join(logDir, prelaunchErr), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		stdout.Close()
		return nil, fmt.Errorf("opening container log: %w", err)
	}
	cmd := exec.Command("/bin/bash", scriptPath)
	cmd.Dir = workDir
	cmd.Env = []string{"PATH=" + envOr("PATH", "/usr/local/bin:/usr/bin:/bin")}
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, nil
}

func envOr(key, def string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return def
}

// envVar is one exported variable of the launch script, in order.
type envVar struct{ key, value string }

// containerEnv builds the container environment in the NodeManager's order:
// the application's variables, then [Options.Env] and the whitelisted NM
// variables where the application set none, then the variables the NM always
// sets itself, among them HADOOP_CONF_DIR: the NM's own configuration
// directory (generated, or Options.Env's), never the test process's.
func (rm *RM) containerEnv(a *app, at *attempt, appDir, workDir, logDir, tokenFile string) []envVar {
	rm.mu.Lock()
	userEnv := a.sc.AMContainerSpec.Environment
	user := a.user
	submitted := a.started.UnixMilli()
	rm.mu.Unlock()

	set := map[string]int{}
	var env []envVar
	put := func(k, v string, override bool) {
		if i, ok := set[k]; ok {
			if override {
				env[i].value = v
			}
			return
		}
		set[k] = len(env)
		env = append(env, envVar{k, v})
	}
	keys := make([]string, 0, len(userEnv))
	for k := range userEnv {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		put(k, expandVars(userEnv[k], logDir), true)
	}
	extra := make([]string, 0, len(rm.opts.Env))
	for k := range rm.opts.Env {
		extra = append(extra, k)
	}
	slices.Sort(extra)
	for _, k := range extra {
		put(k, rm.opts.Env[k], false)
	}
	for _, k := range passThroughEnv {
		if v, ok := os.LookupEnv(k); ok {
			put(k, v, false)
		}
	}
	confDir := rm.confDir
	if v, ok := rm.opts.Env["HADOOP_CONF_DIR"]; ok && v != "" {
		confDir = v
	}
	_, nmPort, _ := strings.Cut(rm.nmAddr, ":")
	nmHost := strings.TrimSuffix(rm.nmAddr, ":"+nmPort)
	forced := []envVar{
		{"CONTAINER_ID", at.container.String()},
		{"NM_HOST", nmHost},
		{"NM_PORT", nmPort},
		{"NM_HTTP_PORT", nmPort},
		{"LOCAL_DIRS", appDir},
		{"LOG_DIRS", logDir},
		{"USER", user},
		{"LOGNAME", user},
		{"HOME", rm.opts.UserHomeDir},
		{"PWD", workDir},
		{"APP_SUBMIT_TIME_ENV", strconv.FormatInt(submitted, 10)},
		{"APPLICATION_WEB_PROXY_BASE", "/proxy/" + a.id.String()},
		{"HADOOP_TOKEN_FILE_LOCATION", tokenFile},
		{"HADOOP_CONF_DIR", confDir},
	}
	for _, e := range forced {
		put(e.key, e.value, true)
	}
	return orderByDependencies(env)
}

var varRef = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`)

// orderByDependencies puts every variable after the ones its value refers
// to, keeping the order otherwise, as ContainerLaunch.orderEnvByDependencies
// does: CLASSPATH="$PWD:$HADOOP_CONF_DIR/..." of an application is exported
// after the NodeManager's PWD and HADOOP_CONF_DIR, so it sees them. A cycle
// keeps its members in their order.
func orderByDependencies(env []envVar) []envVar {
	index := map[string]int{}
	for i, e := range env {
		index[e.key] = i
	}
	out := make([]envVar, 0, len(env))
	state := make([]int, len(env)) // 0 new, 1 visiting, 2 done
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for _, m := range varRef.FindAllStringSubmatch(env[i].value, -1) {
			if j, ok := index[m[1]]; ok && j != i {
				visit(j)
			}
		}
		state[i] = 2
		out = append(out, env[i])
	}
	for i := range env {
		visit(i)
	}
	return out
}

var braceVar = regexp.MustCompile(`\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}`)

// expandVars applies the NodeManager's substitutions: {{VAR}} becomes $VAR,
// <CPS> the class-path separator, <LOG_DIR> the container's log directory.
func expandVars(s, logDir string) string {
	s = braceVar.ReplaceAllString(s, `$$$1`)
	s = strings.ReplaceAll(s, "<CPS>", ":")
	return strings.ReplaceAll(s, "<LOG_DIR>", logDir)
}

// launchScript renders launch_container.sh: exports, resource symlinks, and
// the command run with bash -c.
func launchScript(env []envVar, links map[string]string, command string) string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n\nset -o pipefail -e\n")
	b.WriteString("echo \"Setting up env variables\"\n")
	for _, e := range env {
		fmt.Fprintf(&b, "export %s=\"%s\"\n", e.key, escapeDoubleQuoted(e.value))
	}
	b.WriteString("echo \"Setting up job resources\"\n")
	keys := make([]string, 0, len(links))
	for k := range links {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if dir := filepath.Dir(k); dir != "." {
			fmt.Fprintf(&b, "mkdir -p %s\n", singleQuote(dir))
		}
		fmt.Fprintf(&b, "ln -sf -- %s %s\n", singleQuote(links[k]), singleQuote(k))
	}
	b.WriteString("echo \"Launching container\"\n")
	fmt.Fprintf(&b, "exec /bin/bash -c %s\n", singleQuote(command))
	return b.String()
}

// escapeDoubleQuoted escapes what would end or alter a double-quoted bash
// string, leaving $ alone so that $VAR references expand as on the NM.
func escapeDoubleQuoted(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`")
	return r.Replace(s)
}

func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// writeContainerTokens writes the container's token file: the AMRM token of the
// attempt plus the tokens and secrets given at submission.
func (rm *RM) writeContainerTokens(a *app, at *attempt, path string) error {
	creds := &hadoop.Credentials{Tokens: map[string]hadoop.Token{}, Secrets: map[string][]byte{}}
	rm.mu.Lock()
	for _, t := range a.tokens {
		creds.Tokens[t.alias] = t.token
	}
	for k, v := range a.secrets {
		creds.Secrets[k] = v
	}
	// Under the empty alias, as AMLauncher.setupTokens adds it
	// (credentials.addToken(amrmToken.getService(), ...)).
	amrm, err := rm.issueTokenLocked(at)
	at.heldKey = at.tokenKey
	rm.mu.Unlock()
	if err != nil {
		return fmt.Errorf("container %s: %w", at.container, err)
	}
	creds.Tokens[amrm.Service] = amrm
	if err := hadoop.WriteTokenFile(path, creds, hadoop.TokenFormatWritable); err != nil {
		return fmt.Errorf("container %s: %w", at.container, err)
	}
	return nil
}
