// Package clustertools holds stand-ins of a Hadoop cluster's command-line
// tools, for the local cluster's YARN containers: what the hive and
// map-reduce actions run in their launcher (beeline, mapred) and what user
// scripts of shell actions call (hadoop fs, hdfs dfs). They speak the real
// protocols to the local cluster's stand-ins: Thrift to MiniHS2 (through
// gohive), the RM REST API and the ApplicationMasterProtocol to MiniYARN,
// and Hadoop IPC to MiniDFS.
//
// They are reached as `gozie tool <name> args...`. Install writes one small
// wrapper script per tool into a directory that the local cluster puts first
// on its containers' PATH, so that a container runs `beeline ...` or
// `mapred ...` as it would on a real node. The cluster's addresses come
// from $HADOOP_CONF_DIR (core-site.xml fs.defaultFS, yarn-site.xml
// yarn.resourcemanager.webapp.address), which the local cluster writes and
// exports to its containers; the user is $HADOOP_USER_NAME, else $USER.
//
// What each tool does:
//
//   - beeline -u URL [-n user] [-p password] [-d driver] [-e stmt]... [-f file]
//     [--hivevar k=v]... [--hiveconf k=v]... [-i file]: connects with the
//     URL's transport and authentication, sends --hiveconf and --hivevar in
//     OpenSession (set:hiveconf:, set:hivevar:), splits the script into
//     statements and substitutes ${var} as Beeline does, runs them one by
//     one, and prints rows as tables on stdout and the operation log
//     ("INFO  : ...", including "Executing on YARN cluster with App id ...")
//     on stderr. A failed statement prints Beeline's line
//     "Error: <message> (state=<SQL state>,code=<Hive code>)" and exits 2.
//     SIGTERM cancels the running statement on the server before exiting.
//   - mapred job -submit FILE: reads the job configuration, checks the
//     output directory does not exist and the input paths do, stages the
//     job file under the MapReduce staging directory, and submits a
//     MAPREDUCE application tagged with mapreduce.job.tags, whose AM is the
//     stand-in below; prints "Created job job_..." and returns.
//     mapred job -status|-kill JOB and mapred job -list ask the RM.
//     mapred pipes is refused (exit 1): its tasks would run a native
//     program over Hadoop Pipes' binary protocol, which the stand-in's
//     tasks do not.
//   - mapred appmaster FILE (the AM container's command): registers with
//     the RM, heartbeats, runs the job, unregisters with SUCCEEDED or
//     FAILED and its diagnostics, then calls the job-end notification URL
//     (mapreduce.job.end-notification.url or job.end.notification.url, with
//     $jobId and $jobStatus replaced).
//   - hadoop fs / hdfs dfs: -ls [-R], -cat, -text, -put, -copyFromLocal,
//     -get, -copyToLocal, -mkdir [-p], -rm [-r] [-f] [-skipTrash], -rmdir,
//     -test -e|-d|-f|-z|-s, -touchz, -mv, -cp, -du -s; hadoop version.
//   - hadoop distcp [-conf FILE] [-D k=v]... [-update|-overwrite]
//     [-skipcrccheck] [-delete] [-i] [-m N] [-f LISTING] [-log DIR] [-async]
//     [-bandwidth MB/s]
//     SOURCE... TARGET: DistCp's option checks, its copy listing (written into
//     a meta folder under the staging directory), then a map-only MAPREDUCE
//     job whose mapper is DistCp's CopyMapper, run by the stand-in AM as
//     copyJob: each file copied through a temporary file renamed into place,
//     or skipped as CopyMapper skips it, at most -bandwidth MB/s (so a tiny
//     bandwidth holds the job running); distcp waits for the job unless
//     -async. Options that change what is copied and are not modelled (-p,
//     -atomic, -diff, -append, ...) are refused.
//   - pig [-D k=v]... [-propertyFile F] (-file SCRIPT | -e STATEMENTS)
//     [-param k=v]... [-param_file F]... [-c] [-dryrun] [-version]: parameter
//     substitution (%default, %declare, $NAME, ${NAME}), then the Pig Latin of
//     piglatin.go parsed and checked (aliases, fields, inputs, outputs) and run
//     as one map-only MAPREDUCE job (the script in pig.script), whose AM
//     computes each STORE and commits it; any statement outside that part of
//     Pig Latin is refused before a job starts.
//   - sqoop import [-conf FILE] [-D k=v]... --connect jdbc:postgresql://...
//     [--username U] [--password P] (--table T [--columns c,..] [--where W]
//     | --query Q) [--target-dir D | --warehouse-dir W] [-m N] [--split-by C]
//     [--fields-terminated-by C] [--null-string S] [--null-non-string S]
//     [--delete-target-dir]: checks the options as Sqoop does, reads the
//     columns from PostgreSQL (the query with $CONDITIONS as "(1 = 0)"), finds
//     the primary key to split by, refuses an existing target directory, and
//     submits a MAPREDUCE job (the job configuration holds Hadoop's
//     mapreduce.jdbc.* keys and Sqoop's DataDrivenDBInputFormat) whose map
//     tasks run the splits' SELECTs and write part-m-NNNNN; it waits for the
//     job, printing "Submitted application ..." and, when the job fails, its
//     diagnostics and "Import failed: ... Import job failed!".
//     sqoop export ... --table T --export-dir D [--columns c,..]
//     [--input-fields-terminated-by C] [--input-null-string S]: a job whose
//     map tasks insert D's records, one transaction per file; a record with
//     the wrong number of fields fails its task ("Can't parse input data").
//     Other tools than import, export, version and help are refused, and so
//     is a jdbc:hsqldb URL: the stand-in has no HSQLDB engine.
//   - spark-submit [--master M] [--deploy-mode client|cluster] [--class C]
//     [--name N] [--conf k=v]... [--files F,..] [--py-files F,..]
//     [--archives A,..] [--queue Q] [other spark-submit options] <app.jar |
//     app.py> [app arguments]: refuses what SparkSubmit refuses; with a local
//     master it runs the application in place (a cluster file downloaded
//     first); on YARN it stages the local files under
//     ~/.sparkStaging/<app>, submits a SPARK application tagged with
//     spark.yarn.tags, prints "Submitted application ..." and follows it to
//     its end ("... finished with failed status" and exit 1 unless it
//     SUCCEEDED), except in cluster mode with
//     spark.yarn.submit.waitAppCompletion=false, where it returns at once.
//     Its AM (`spark-submit --gozie-appmaster FILE`) runs the application
//     with the files localized and unregisters with Spark's diagnostics.
//     Real Spark code cannot run here: an application is a jar whose main
//     class uses only Java (run with $JAVA_HOME/bin/java, the jar and the
//     working directory on the class path) or a Python file that does not
//     import pyspark (run with $PYSPARK_PYTHON or python3, the --py-files
//     on PYTHONPATH); it reaches HDFS through the node's hadoop command. In
//     client mode the stand-in runs the application in the YARN application
//     too (it has no executors to give the work to), and spark-submit waits
//     for it.
//
// The stand-in MapReduce job reads the files of its input paths (globs
// allowed) line by line. Streaming jobs (stream.map.streamprocessor,
// stream.reduce.streamprocessor, as Oozie's streaming action sets them)
// run their mapper and reducer commands as processes fed through pipes,
// with the mapper's output sorted by key between them, as Hadoop
// Streaming does. Other jobs name Java classes the stand-in cannot run:
// they behave as the identity mapper and reducer (TextInputFormat's byte
// offset and line, written as "offset<TAB>line" in offset order). The
// output directory gets the part file (part-00000 for the old API,
// part-r-00000 or part-m-00000 for the new) and an empty _SUCCESS marker,
// committed by a rename from _temporary, so readers never see a half
// output.
//
// The job counts what it does as Hadoop's tasks count it, one map task per
// input file and one reduce task (TaskCounter's MAP_INPUT_RECORDS: lines
// read, MAP_OUTPUT_RECORDS, REDUCE_INPUT_GROUPS, REDUCE_INPUT_RECORDS,
// REDUCE_OUTPUT_RECORDS; JobCounter's launched tasks; FileSystemCounter's
// bytes read and written), and when it ends the AM leaves its history in
// mapreduce.jobhistory.intermediate-done-dir for the JobHistory server
// (package minijhs), before it unregisters.
//
// Not modelled: splits and parallel tasks, counters beyond those, combiners,
// partitioners and custom formats, pipes (Hadoop Pipes' native tasks),
// Kerberos, Beeline's interactive mode and output formats other than its
// table.
package clustertools
