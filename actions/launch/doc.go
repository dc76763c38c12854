// Package launch is the executor of the shell, java, hive and map-reduce
// actions: each run is one YARN application whose ApplicationMaster is
// `gozie launcher` (package yarn/launcher). One Executor runs one action
// type (Config.Type).
//
// Start, exactly once per run:
//
//	the RM knows an app tagged run.Tag ──yes──► report it (no second launch)
//	        │ no
//	result.json in the action dir ──yes──► report it (the RM forgot the app)
//	        │ no
//	stage: <launcher dir>/<sha256>/gozie (once per binary), the launch spec
//	       in the action dir, lib/ files, <file> and <archive> entries, each
//	       stat-ed for YARN's size and timestamp check
//	        ▼
//	new-application ─► submit (1 attempt, tags run.Tag + CommonTag, type GOZIE)
//
// The action's job-xml, file and archive paths (and a hive script) are read
// as Oozie reads them, Hadoop's Path(application directory, path): a full
// URI stays, an absolute path goes on the application's filesystem, a
// relative one ("./conf.xml", "conf/x.xml") below the application
// directory, dot segments resolved. A job-xml that is missing (JA008), or a
// path no HDFS name can be (IllegalArgumentException), ends the action in
// ERROR rather than being retried.
//
// Check reads the application report; once the application ended it reads
// result.json for the error code, message and captured output, and when the
// RM no longer knows the application it falls back to result.json alone
// (JA017 when that is missing too). CheckAll asks the RM once for every
// launcher that finished since the last call. Kill kills the launcher and
// every application carrying the run's child tag.
//
// A hive run is beeline in the launcher, against the HiveServer2 of the
// action's oozie.hive2.jdbc.url or else Config.HiveJDBCURL: the script (a
// local resource) or inline query, <param> as --hivevar, the action's
// configuration as --hiveconf with hive.execution.engine=tez unless it says
// otherwise, and the child tag on tez.application.tags and
// mapreduce.job.tags. A failed statement's error code is Hive's (10001 for an
// unknown table); the Tez applications beeline reports are the run's child
// ids. On a Kerberized cluster the container has tokens and no ticket: the
// launch carries a HiveServer2 delegation token (the run's <credential>s',
// else one from Config.HiveToken when the URL has principal=), and beeline
// gets the URL with auth=delegationToken instead of principal=.
//
// A distcp run is `hadoop distcp -conf <action configuration> <arg>...` in
// the launcher (<java-opts> in HADOOP_CLIENT_OPTS), a pig run `pig
// -propertyFile pig.properties -file <script> -param k=v... <argument>...`
// (plan_distcp_pig.go); both configurations carry the child tag. The tool
// waits for its MapReduce jobs; the launcher then names the last one as its
// new id and the run follows it as a map-reduce run follows its job. When
// the launcher failed, the first child that did not succeed is the run's
// outcome, with its diagnostics (children.go).
//
// A sqoop run is `sqoop <tool> -conf <action configuration> <arg>...` in
// the launcher (plan_sqoop.go): the arguments are the <arg> entries as
// written, or the <command> split as Oozie splits it (on every space, or
// as a shell does when oozie.action.sqoop.shellsplitter is true; an
// unbalanced quote is SQOOP002), a redundant leading "sqoop" dropped; the
// configuration's mapreduce.job.tags is the child tag. Sqoop waits for its
// MapReduce jobs, and the run follows them as a distcp run does. A failed
// sqoop's error code is its exit code and its message sqoop's last error
// line.
//
// A map-reduce run is `mapred job -submit` in the launcher, with the
// action's configuration as the job file (streaming settings included), the
// child tag and ChildCommonTag as the job's tags, and the job-end
// notification pointed at the run's callback. The launcher returns once the
// job is submitted and names it in its result (newId); from then on Check
// and CheckAll follow the job, whose application becomes the run's external
// id, and the job's final status is the run's outcome (Oozie's id swap; a
// failed job is ERROR with JA018 and the job's diagnostics). A job that
// succeeded gets its counters from the cluster's JobHistory server
// (Config.JobHistory, GET /ws/v1/history/mapreduce/jobs/<job>/counters) as
// the run's Stats in Oozie's MRStats JSON, which hadoop:counters reads; a
// server that cannot answer yet makes Check a transient error, as Oozie
// retries an end whose counters it cannot read. Kill kills the job through
// the child tag. A config-class or pipes job, or one naming a launcher main
// class of its own (oozie.launcher.action.main.class, Oozie's custom-main),
// parses but ends in ERROR (MR_UNSUPPORTED) saying why: each needs Oozie's
// JVM launcher (pipes also native tasks the test cluster cannot run).
//
// A spark run is the cluster's spark-submit in the launcher, with Oozie's
// mapping of the action (planSpark: --master, --deploy-mode, --name,
// --class, the configuration's oozie.* properties, the spark-opts, on YARN
// the run's cache as --files and --archives and the application found in
// it, spark.yarn.tags with the child tag and ChildCommonTag). In cluster
// mode spark-submit returns once the application is submitted
// (spark.yarn.submit.waitAppCompletion=false); in client mode it returns
// when the driver ends. The launcher names the Spark application it
// started in its result (newId) and the run follows it as a map-reduce run
// follows its job: the application is the external id, its final status
// the outcome (ERROR with JA018 and Spark's diagnostics), Kill kills it
// through the child tag. With a local master no application starts and
// the launcher's own outcome is the run's.
//
// Outcomes are Oozie's: final status SUCCEEDED is OK (external status
// SUCCEEDED); anything else is ERROR (external status FAILED/KILLED), with
// error code "1" for a failed shell command, the exit code of a java main
// class, JA018 for an exception or over-long captured output.
//
// Staging and submission act for the run's user; on a Kerberized cluster
// the submission carries the delegation tokens of Config.Credentials (and
// Config.HiveToken), which the container's token file then holds.
package launch
