// Package minijhs is a stand-in of MapReduce's JobHistory server, for the
// local cluster: where a real cluster keeps an ended job's counters after
// its ApplicationMaster is gone, and where Oozie (through JobClient) and
// gozie (through its REST API) read them for hadoop:counters.
//
// As on a real cluster, the ApplicationMaster writes the history and the
// server only reads it. The stand-in MapReduce AM (package clustertools)
// leaves, when its job ends, the job's summary, its configuration
// (<job>_conf.xml) and its history file in <intermediate done
// dir>/<user>/, each written as <name>_tmp and renamed, as
// JobHistoryEventHandler does. The history file
// (<job>-<submit>-<user>-<name>-<finish>-<maps>-<reduces>-<status>-<queue>-<launch>.jhist,
// FileNameIndexUtils) holds Avro-JSON events: JOB_SUBMITTED (user, queue,
// and the job's ACLs when mapreduce.cluster.acls.enabled is on) and
// JOB_FINISHED with the job's counters in total and per phase, or
// JOB_FAILED. The format is History's Encode and ParseHistory, shared by
// both sides.
//
// The server creates the intermediate done directory at start
// (drwxrwxrwt, HistoryFileManager) and serves
// GET /ws/v1/history/mapreduce/jobs/{jobid}/counters with HsWebServices'
// JSON (jobCounters: id, counterGroup[counterGroupName, counter[name,
// totalCounterValue, mapCounterValue, reduceCounterValue]]). It reads the
// intermediate directory on every request, so a job is known as soon as
// its AM has renamed the history file into place.
//
// What it refuses, as the real one does:
//
//   - an unknown job, or a malformed job id: 404 with the RemoteException
//     JSON of a NotFoundException ("java.lang.Exception: job, <id>, is not
//     found"; AMWebServices.getJobFromJobIdString);
//   - a caller the job's view ACL does not admit, when
//     mapreduce.cluster.acls.enabled is on: 401 (HsWebServices.checkAccess,
//     CompletedJob.checkAccess, JobACLsManager: the owner, the
//     administrators of mapreduce.cluster.administrators and the users and
//     groups of mapreduce.job.acl-view-job may see a job);
//   - a doAs the proxy-user rules do not allow: 403 with the
//     AuthorizationException JSON (ProxyUserAuthenticationFilter).
//
// The caller is user.name (pseudo authentication), or the static user
// dr.who without it; doAs then acts for another user. This is the
// JobHistory server of a cluster whose administrator configured
// hadoop.http.authentication.type=simple and the proxy-user filter.
//
// Not modelled: Kerberos (SPNEGO), moving history to the done directory
// and its cache, the other resources (jobs, tasks, attempts, conf), XML
// answers, and the history of an AM that is killed.
package minijhs
