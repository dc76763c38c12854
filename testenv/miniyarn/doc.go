// Package miniyarn is an in-process YARN ResourceManager (with one built-in
// NodeManager) for tests. It speaks the ResourceManager REST API under
// /ws/v1/cluster with the RM's JSON shapes, ids, status codes and
// RemoteException errors, so gozie's yarn.Client talks to it unchanged, and it
// runs each ApplicationMaster container as a local process group.
//
// What it models:
//
//   - Ids: the cluster timestamp is fixed at start; application sequence numbers
//     are zero-padded to four digits; attempts and AM containers follow YARN's
//     forms.
//   - The state path NEW → NEW_SAVING → SUBMITTED → ACCEPTED → RUNNING →
//     FINISHED/FAILED/KILLED, reported to [Options.OnTransition]. [RM.HoldAccepted]
//     keeps new applications in ACCEPTED, as a full queue does.
//   - Validation like the RM: unparsable JSON, bad or missing ids, tags (at most
//     10, at most 100 printable ASCII characters; stored lower-cased), resources
//     above the maximum, undecodable credentials. Submitting an id that is
//     already known succeeds without effect, as on the real RM.
//   - Localisation through [Storage] as the application's user (with
//     [HDFSStorage], through MiniDFS's permission checks: a resource the user
//     may not read fails the attempt), with YARN's timestamp check and its
//     failure message, symlinks named by key, archives (zip, jar, tar, tar.gz,
//     tgz) unpacked.
//   - Launch: a launch_container.sh with the container environment
//     (CONTAINER_ID, NM_HOST, NM_PORT, NM_HTTP_PORT, LOCAL_DIRS, LOG_DIRS, USER,
//     LOGNAME, HOME, PWD, JAVA_HOME and the other pass-through variables,
//     APP_SUBMIT_TIME_ENV, APPLICATION_WEB_PROXY_BASE, MALLOC_ARENA_MAX,
//     HADOOP_TOKEN_FILE_LOCATION), {{VAR}}, <CPS> and <LOG_DIR> expanded, the
//     commands joined with spaces and run with bash -c in the container's own
//     process group. Logs are served at the report's amContainerLogs URL.
//   - The ApplicationMaster rule (strict by default): an attempt succeeds only if
//     its AM unregistered; an AM that exits without unregistering fails its
//     attempt even with exit code 0, with the RM's diagnostics text. Failed
//     attempts are retried up to max-app-attempts. Lenient mode
//     ([Options.Lenient]) instead maps exit code 0 to FINISHED/SUCCEEDED.
//   - The ApplicationMasterProtocol on [RM.SchedulerAddr] (Hadoop IPC, SASL
//     TOKEN/DIGEST-MD5): each attempt's token file holds an AMRM token whose
//     identifier names the attempt and the master key, and whose password is
//     an HMAC under that key, with an empty service and alias as a real RM
//     writes it; the AM finds the scheduler in the container's
//     HADOOP_CONF_DIR, the NodeManager's generated configuration
//     ([RM.HadoopConfDir]: core-site.xml, hdfs-site.xml, yarn-site.xml as
//     [RM.YarnSite] returns it). registerApplicationMaster makes the
//     application RUNNING, allocate records progress (checking responseId),
//     finishApplicationMaster records the final status, diagnostics and
//     tracking URL (isUnregistered=false, then true); the application is
//     then FINISHING ([StateFinishing], reported as FINISHED) until the AM
//     container exits, which it has [Options.FinishingGrace] to do.
//     hadoop.rpc.protection in [Options.Conf] sets the qops the scheduler
//     offers and requires, as a real RM's IPC server reads it
//     (SaslPropertiesResolver, SaslRpcServer, Server.wrapWithSasl): under
//     integrity or privacy an AM that accepts only authentication is
//     refused, and every later packet is SASL-wrapped.
//   - AMRM master key roll ([RM.RollAMRMKey], [RM.ActivateAMRMKey]): both
//     keys are accepted until the activation, allocate answers carry the
//     attempt's token of the new key, and the old key's tokens are refused
//     once it is dropped.
//   - Kill: SIGTERM to the container's process group, SIGKILL after 250 ms;
//     the first PUT answers 202, a later one 200 {"state":"KILLED"}.
//   - HA: [Options.Standbys] extra RMs share the state; each RM has its own
//     web endpoint and scheduler address ([RM.WebAddrs], [RM.SchedulerAddrs],
//     fixed by [Options.Addrs] or random), the generated yarn-site.xml is an
//     RM HA configuration naming them all, every web endpoint but the active
//     one answers 307 to the active one (except on /ws/v1/cluster/info), and
//     only the active RM's scheduler listens. [RM.Failover] makes another RM
//     active: the old scheduler drops its AM connections, and the new active
//     RM recovers the applications as from a state store, so that AMs must
//     register again (ApplicationMasterNotRegisteredException until they do).
//   - Work-preserving restart ([RM.Stop], [RM.StartAgain], [RM.Restart]): the
//     RM's servers go down and come back on the same addresses while the
//     NodeManager and its containers run on; the applications are recovered
//     as after a failover, and a container that ended meanwhile is accounted
//     when the RM is back.
//   - Pseudo authentication: user.name (or the hadoop.auth cookie it sets) is
//     required unless [Options.AnonymousAllowed], which runs anonymous requests
//     as dr.who. A doAs parameter makes an authenticated request act for the
//     user it names, only as the hadoop.proxyuser.<user>.* rules of
//     [Options.Conf] allow (403 AuthorizationException otherwise); the
//     application belongs to that user (the report's "user", the container's
//     USER).
//   - Kerberos ([Options.Kerberos]): the REST API accepts only SPNEGO for the
//     RM's HTTP principal (401 "WWW-Authenticate: Negotiate" otherwise,
//     user.name ignored) and the hadoop.auth cookie of type kerberos it sets;
//     doAs as above. POST /ws/v1/cluster/delegation-token issues
//     RM_DELEGATION_TOKENs to Kerberos callers only (renewal and cancellation
//     are not implemented: 501). The NodeManager localizes non-local
//     resources only with an HDFS_DELEGATION_TOKEN of the submission, which
//     [HDFSStorage] then authenticates with (TOKEN). Before it accepts a
//     submission the RM renews, as its own principal, each of its HDFS and
//     RM delegation tokens that no running application holds yet (HDFS
//     tokens through [KerberosOptions.RenewHDFSToken]); one that does not
//     renew fails the application from NEW with "Failed to renew token:
//     Kind: …" (dtrenewer.go). When an application ends, the RM cancels
//     its HDFS and RM delegation tokens as its own principal
//     ([KerberosOptions.RMPrincipal], HDFS tokens through
//     [KerberosOptions.CancelHDFSToken]) unless the submission said
//     cancel-tokens-when-complete=false, with DelegationTokenRenewer's
//     sharing rule: a token also submitted by other running applications
//     keeps the flag of its first submission and is cancelled only when
//     the last of them ends (dtrenewer.go).
//   - Forgetting finished applications ([RM.Forget]) so that reports answer 404.
//   - Container logs as Hadoop 3 serves them (nmws.go): the NodeManager's
//     web services /ws/v1/node/containers/{id}/logs[/{file}] (size, the
//     LogToolUtils framing, the VIEW_APP check of yarn.acl.enable, 307 to
//     [Options.LogServerURL] for containers it no longer has), and log
//     aggregation ([Options.LogAggregation], [RM.AggregatedLogs]) into a
//     store that a log server (minijhs) serves.
//   - The RM web UI's /cluster/apps and /cluster/app/{id} pages (rmui.go),
//     to which the web proxy (an application's tracking URL) redirects
//     when the AM gave no tracking URL.
//
// Application state inside the RM:
//
//	NEW ─► NEW_SAVING ─► SUBMITTED ─► ACCEPTED ─(held?)─► attempt launched
//	                                                        │
//	   strict: AM registers ─► RUNNING ─► AM unregisters ─► FINISHING ─► AM container exits ─► FINISHED
//	           (reports show FINISHED, with the AM's final status, from the unregistration on)
//	   failover or restart: RUNNING ─► ACCEPTED ─► AM registers again ─► RUNNING; FINISHING ─► FINISHED
//	   lenient: RUNNING at launch, exit 0 ─► FINISHED/SUCCEEDED
//	   attempt fails (exit without unregistering, localisation error):
//	       attempts left ─► new attempt; none left ─► FAILED/FAILED
//	   kill ─► KILLED/KILLED
package miniyarn
