// Package launcher is the ApplicationMaster of gozie's asynchronous actions:
// `gozie launcher`, run by YARN as the first (and only) container of one
// application per action run.
//
// A plain command as the AM cannot succeed on a real cluster: the RM fails
// every attempt whose AM exits without unregistering. So the launcher speaks
// the ApplicationMasterProtocol itself (with the AMRM token of the container's
// token file), runs the action's command as a child process group, and
// reports the command's true outcome when it unregisters.
//
// The executor (package actions/launch) stages everything the launcher needs:
// the gozie binary (as [Binary]), the launch [Spec] (as [SpecFile]), the
// workflow's lib/ jars and the action's <file> and <archive> entries. YARN
// localizes them into the container's working directory. The launcher then:
//
//	read spec ─► register with the RM scheduler ─► heartbeat every Spec.Heartbeat
//	    ─► id guard (launcher.id in the action dir) ─► prepare (delete, mkdir)
//	    ─► run the command
//	         shell: exec + args + env-vars, PATH=.:$PATH, stdout captured if asked
//	         java:  java [opts] -Doozie.action.*=… -cp … main args
//	         hive:  beeline -u URL -n user -p … --hiveconf k=v… --hivevar p… args -f script
//	         map-reduce: mapred job -submit action.xml (returns once submitted)
//	         spark: spark-submit --master … --name … [--class …] --conf … app args
//	         git:   no command: the launcher clones (go-git) and copies the tree
//	                into the destination as the job's user (git.go)
//	    ─► result.json into the action dir ─► unregister SUCCEEDED|FAILED
//	    ─► callback ─► exit 0
//
//	SIGTERM (a YARN kill) or an AM_SHUTDOWN order while the command runs
//	    ─► SIGTERM, then SIGKILL, to the command's process group
//	    ─► exit 143 without reporting: the RM has already ended the application
//
// RM trouble does not decide the run: the launcher's session with the
// scheduler (yarn.AMClient, configured from the container's HADOOP_CONF_DIR)
// fails over between the rm-ids, waits out a work-preserving restart,
// registers again when the RM asks (ApplicationMasterNotRegisteredException)
// and takes rolled AMRM tokens, so a command that ran is reported with its
// own outcome: the result file is written before the unregistration, which
// repeats until the RM confirms it.
//
// The command and the launcher exchange files in the working directory, as
// with Oozie's launcher:
//
//   - action.xml, the action configuration: $OOZIE_ACTION_CONF_XML, and the
//     oozie.action.conf.xml system property of a java action;
//   - output.properties, the captured output: a shell action's stdout, or the
//     file a java main class writes at the oozie.action.output.properties
//     system property (also $GOZIE_OUTPUT_PROPERTIES);
//   - externalChildIDs, the YARN applications the command started (comma or
//     line separated): oozie.action.externalChildIDs for java,
//     $GOZIE_EXTERNAL_CHILD_IDS for shell.
//
// $GOZIE_CHILD_TAG (and mapreduce.job.tags in action.xml) is the tag the
// command should put on the YARN applications it starts, so that a kill of
// the action finds them.
//
// The command runs in its own process group, so the launcher can stop the
// whole of it (a script and the programs it started) without stopping itself,
// and it gets the container's token file without the AMRM token, so that user
// code cannot act as the ApplicationMaster.
//
// The hive and map-reduce actions run the cluster's own tools, found on the
// container's PATH as a NodeManager provides them: beeline and mapred. Their
// output is read as Oozie's Hive2Main and MapReduceMain read it: the YARN
// applications a query started ("Executing on YARN cluster with App id …",
// "Submitted application …") become the result's child ids; the id of the
// submitted MapReduce job ("Created job job_…") becomes Result.NewID, which
// the server then follows instead of the launcher (Oozie's id swap); a
// failed statement's "Error: … (state=…,code=N)" line gives Hive's error
// code N.
// A spark action runs the cluster's spark-submit the same way: the Spark
// application it submitted ("Submitted application …") becomes
// Result.NewID once spark-submit exits 0, and the server follows it; a
// failed spark-submit's error is its last "Error: …" or "Exception in
// thread "main" …" line.
//
// Errors follow Oozie (oozie-semantics §3.3): a failed shell command has
// error code "1"; a java main class's exit code N is error code "N"; an
// uncaught exception, a command that cannot start, a failed prepare step and
// captured output over its limit ("output.properties data exceeds its limit
// [2048]") are JA018; a missing local resource is JA008.
package launcher
