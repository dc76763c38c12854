package launcher

import (
	"fmt"
	"strings"
	"time"
)

// TypeSpark is the spark action (uri:oozie:spark-action), PySpark included.
const TypeSpark = "spark"

// sparkSubmitTool is the cluster's tool a spark action runs.
const sparkSubmitTool = "spark-submit"

// SparkSpec is what a spark action runs: the cluster's spark-submit with
// the arguments the executor worked out from the action (Oozie's
// SparkArgsExtractor mapping: --master, --deploy-mode, --name, --class,
// --conf entries, --files, --archives, --py-files, the application and its
// arguments). The launcher waits for spark-submit; when it submitted a
// YARN application ("Submitted application application_..."), that
// application is the run's new id and the server follows it, as it
// follows a map-reduce action's job. In cluster mode the executor asks
// spark-submit not to wait for the application's end
// (spark.yarn.submit.waitAppCompletion=false), so the launcher ends at
// submission; in client mode the driver runs in spark-submit, which the
// launcher waits for.
type SparkSpec struct {
	// Tool is the command; empty means "spark-submit".
	Tool string `json:"tool,omitempty"`
	// Args are spark-submit's arguments, in order.
	Args []string `json:"args"`
}

// sparkCommand builds a spark action's command: the cluster's spark-submit
// with the spec's arguments. SPARK_HOME stays the node's: Oozie points it
// at the working directory because it runs SparkSubmit in its own JVM from
// the sharelib, while gozie runs the installed spark-submit, whose script
// finds its own home (and PySpark's libraries below it).
func sparkCommand(spec *Spec, container []string, f files, launched time.Time) (command, error) {
	env := baseEnv(spec, container, f, launched)
	tool := spec.Spark.Tool
	if tool == "" {
		tool = sparkSubmitTool
	}
	exe, err := lookPath(tool, env["PATH"], f.dir)
	if err != nil {
		return command{}, err
	}
	return command{path: exe, args: append([]string{tool}, spec.Spark.Args...), env: env.slice(), dir: f.dir}, nil
}

// sparkError is a failed spark-submit's message: its last line that
// reports an error ("Error: Deploy mode must be either client or cluster",
// "Exception in thread "main" org.apache.spark.SparkException: Application
// application_... finished with failed status"; spark-submit prints a hint
// after its own errors), else its last error line, else its exit code.
func sparkError(sc *outputScanner, ex exit) string {
	lines := strings.Split(ex.stderrTail, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "Error: ") || strings.HasPrefix(l, `Exception in thread "main" `) {
			return l
		}
	}
	if line := sc.lastError(); line != "" {
		return line
	}
	return fmt.Sprintf("Main Class [%s], exit code [%d]", sparkSubmitTool, ex.code)
}
