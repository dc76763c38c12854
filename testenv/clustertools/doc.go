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
//   - mapred appmaster FILE (the AM container's command): registers with
//     the RM, heartbeats, runs the job, unregisters with SUCCEEDED or
//     FAILED and its diagnostics, then calls the job-end notification URL
//     (mapreduce.job.end-notification.url or job.end.notification.url, with
//     $jobId and $jobStatus replaced).
//   - hadoop fs / hdfs dfs: -ls [-R], -cat, -text, -put, -copyFromLocal,
//     -get, -copyToLocal, -mkdir [-p], -rm [-r] [-f] [-skipTrash], -rmdir,
//     -test -e|-d|-f|-z|-s, -touchz, -mv, -cp, -du -s; hadoop version.
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
// Not modelled: splits and parallel tasks, counters, combiners,
// partitioners and custom formats, pipes, Kerberos, Beeline's interactive
// mode and output formats other than its table.
package clustertools
