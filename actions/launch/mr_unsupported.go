package launch

import (
	"slices"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
)

// pipesRefusal is why a map-reduce <pipes> job cannot run. Oozie's launcher
// runs PipesMain in a JVM, which sets the job up for Hadoop Pipes
// (hadoop.pipes.executable and the hadoop.pipes.java.* switches) and
// submits it with Pipes' Submitter; each map and reduce task then starts
// the program and drives it over Hadoop's binary pipes protocol,
// authenticated with the job token. gozie's launcher submits jobs with the
// cluster's mapred, and its local cluster has no task runtime for native
// programs speaking that protocol, so gozie could neither run such a job
// on its test cluster nor show that it runs: it refuses it, naming the
// ways that work.
func pipesRefusal(p *workflow.Pipes) error {
	program := strings.TrimSpace(p.Program)
	if program == "" {
		program = "(none)"
	}
	return actions.Errorf(actions.ActionError, codeUnsupported,
		"map-reduce <pipes> (program [%s]) is not supported: Hadoop Pipes runs the program in every task over its binary pipes protocol, "+
			"set up in a JVM by Oozie's PipesMain; gozie's launcher runs no JVM and its test cluster runs no native tasks. "+
			"Run the program as a <streaming> mapper or reducer (records on stdin and stdout), or submit it with `mapred pipes` from a shell action",
		program)
}

// PropLauncherMainClass names the class Oozie's launcher runs in place of
// its own main for the action type (LauncherAMUtils.
// CONF_OOZIE_ACTION_MAIN_CLASS), e.g. a subclass of MapReduceMain.
const PropLauncherMainClass = "oozie.launcher.action.main.class"

// oozieMapReduceMains are Oozie's own mains of a map-reduce action, whose
// work gozie's launcher does itself.
var oozieMapReduceMains = []string{
	"org.apache.oozie.action.hadoop.MapReduceMain",
	"org.apache.oozie.action.hadoop.StreamingMain",
}

// customMainRefusal refuses a map-reduce action whose configuration names
// a launcher main class of its own (Oozie's custom-main example:
// DemoMapReduceMain extends MapReduceMain): the class runs in the
// launcher's JVM with Oozie's launcher classes and Hadoop's client, neither
// of which gozie's launcher has, so running the job without it would
// silently skip whatever the class does.
func customMainRefusal(props map[string]string) error {
	class := strings.TrimSpace(props[PropLauncherMainClass])
	if class == "" || slices.Contains(oozieMapReduceMains, class) {
		return nil
	}
	return actions.Errorf(actions.ActionError, codeUnsupported,
		"%s [%s] is not supported: the class would run in place of Oozie's MapReduceMain in the launcher's JVM, "+
			"with Oozie's launcher classes and Hadoop's client; gozie's launcher runs no JVM and submits the job with the cluster's mapred. "+
			"Remove the property to submit the job as configured, or run the class with a java action",
		PropLauncherMainClass, class)
}
