package launcher

import (
	"fmt"
	"strings"
	"time"
)

// TypeSqoop is the sqoop action (uri:oozie:sqoop-action).
const TypeSqoop = "sqoop"

// sqoopTool is the cluster's tool a sqoop action runs.
const sqoopTool = "sqoop"

// sqoopMain is the main class Oozie names in a failed sqoop action's
// message ("Main Class [...], exit code [n]").
const sqoopMain = "org.apache.oozie.action.hadoop.SqoopMain"

// SqoopSpec is what a sqoop action runs: the cluster's sqoop with the
// arguments the executor worked out from <command> or <arg> (the tool name
// first: import, export, ...). The launcher adds the action configuration
// as Hadoop's generic -conf option right after the tool name, as Oozie's
// SqoopMain hands it to Sqoop in sqoop-site.xml: it carries the child tag
// (mapreduce.job.tags) the MapReduce jobs Sqoop submits are found by. The
// launcher waits for sqoop, which waits for its jobs, as it waits for
// DistCp and Pig (waitsForChildren): the applications sqoop reports
// ("Submitted application application_...") are the run's children, and
// the last one the run's new id, which the server follows.
type SqoopSpec struct {
	// Tool is the command; empty means "sqoop".
	Tool string `json:"tool,omitempty"`
	// Args are Sqoop's arguments, the tool name first.
	Args []string `json:"args"`
}

// sqoopCommand builds a sqoop action's command: `sqoop <tool> -conf <action
// configuration> <arguments>`. Arguments that do not start with a tool name
// (a lone option such as --help) are passed as they are.
func sqoopCommand(spec *Spec, container []string, f files, launched time.Time) (command, error) {
	env := baseEnv(spec, container, f, launched)
	tool := spec.Sqoop.Tool
	if tool == "" {
		tool = sqoopTool
	}
	exe, err := lookPath(tool, env["PATH"], f.dir)
	if err != nil {
		return command{}, err
	}
	return command{path: exe, args: append([]string{tool}, sqoopArgs(spec.Sqoop.Args, f.actionConf)...), env: env.slice(), dir: f.dir}, nil
}

// sqoopArgs puts Hadoop's generic -conf option after the tool name: Sqoop
// parses generic options there, before the tool's own.
func sqoopArgs(args []string, confFile string) []string {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return args
	}
	out := make([]string, 0, len(args)+2)
	out = append(out, args[0], "-conf", confFile)
	return append(out, args[1:]...)
}

// sqoopError is a failed sqoop run's message: Sqoop's last error line (say,
// "ERROR tool.ImportTool: Import failed: ..."), else Oozie's message for a
// main class that exited non-zero.
func sqoopError(sc *outputScanner, code int) string {
	if line := sc.lastError(); line != "" {
		return line
	}
	return fmt.Sprintf("Main Class [%s], exit code [%d]", sqoopMain, code)
}
