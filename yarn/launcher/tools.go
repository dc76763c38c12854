package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// Names of the cluster tools the hive and map-reduce actions run, looked up
// on the container's PATH as a NodeManager's environment provides them.
const (
	beelineTool = "beeline"
	mapredTool  = "mapred"
	// hiveDriver is Beeline's -d, as Oozie's Hive2Main passes it.
	hiveDriver = "org.apache.hive.jdbc.HiveDriver"
	// dummyPassword is Beeline's -p when the action has no password, as
	// Oozie sends it.
	dummyPassword = "DUMMY"
	// queryFile holds an inline <query> for beeline -f.
	queryFile = "__gozie_query__.hql"
)

// hiveCommand builds a hive action's command: the cluster's beeline against
// the spec's HiveServer2, with the configuration as --hiveconf, the params
// as --hivevar, the arguments, and the script (or the inline query written
// to a file) as -f.
func hiveCommand(spec *Spec, container []string, f files, launched time.Time) (command, error) {
	h := spec.Hive
	env := baseEnv(spec, container, f, launched)
	exe, err := lookPath(beelineTool, env["PATH"], f.dir)
	if err != nil {
		return command{}, err
	}
	script := h.Script
	if script == "" {
		script = queryFile
		if err := os.WriteFile(filepath.Join(f.dir, queryFile), []byte(h.Query), 0o644); err != nil {
			return command{}, fmt.Errorf("writing the query file: %w", err)
		}
	}
	password := h.Password
	if password == "" {
		password = dummyPassword
	}
	args := []string{beelineTool, "-u", h.JDBCURL, "-n", spec.User, "-p", password, "-d", hiveDriver}
	keys := make([]string, 0, len(h.HiveConf))
	for k := range h.HiveConf {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		args = append(args, "--hiveconf", k+"="+h.HiveConf[k])
	}
	for _, p := range h.Params {
		args = append(args, "--hivevar", p)
	}
	args = append(args, h.Args...)
	args = append(args, "-f", script)
	return command{path: exe, args: args, env: env.slice(), dir: f.dir}, nil
}

// mapReduceCommand builds a map-reduce action's command: the cluster's
// `mapred job -submit <job file>`, whose job file is the action
// configuration the launcher wrote.
func mapReduceCommand(spec *Spec, container []string, f files, launched time.Time) (command, error) {
	env := baseEnv(spec, container, f, launched)
	tool := spec.MapReduce.Tool
	if tool == "" {
		tool = mapredTool
	}
	exe, err := lookPath(tool, env["PATH"], f.dir)
	if err != nil {
		return command{}, err
	}
	return command{path: exe, args: []string{tool, "job", "-submit", f.actionConf}, env: env.slice(), dir: f.dir}, nil
}

// hiveExitError is a failed beeline run's error code and message: Hive's
// own code and message when Beeline printed its error line (e.g. 10001 for
// an unknown table), else the exit code.
func hiveExitError(sc *outputScanner, code int) (string, string) {
	if c, msg, ok := sc.hiveError(); ok {
		return c, msg
	}
	return strconv.Itoa(code), fmt.Sprintf("Main Class [%s], exit code [%d]", beelineTool, code)
}

// mapReduceError is a failed submission's message: the tool's last error
// line (say, "Output directory ... already exists"), else its exit code.
func mapReduceError(sc *outputScanner, code int) string {
	if line := sc.lastError(); line != "" {
		return line
	}
	return fmt.Sprintf("Main Class [%s job -submit], exit code [%d]", mapredTool, code)
}
