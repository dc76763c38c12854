// Package testenv holds gozie's in-process stand-ins for a Hadoop cluster,
// each in its own package: minidfs (a NameNode or an HA pair, and a
// DataNode), miniyarn (a ResourceManager or an HA pair, with one
// NodeManager), minihs2 (HiveServer2, and a metastore over its catalog:
// partitions, notifications, and get_delegation_token when Kerberized), kdc (an MIT KDC), minissh (an SSH server, the
// host of ssh actions), minijhs (MapReduce's JobHistory server), gitrepo
// (git repositories, and a smart-HTTP git server, for git actions),
// clustertools (the command-line tools of a node), localcluster (all of them together, for
// gozie server -local and the end-to-end tests) and clusteradmin (what an
// administrator's haadmin, rmadmin and daemon commands do to a real
// cluster, done to a local one).
// The real client libraries talk to them unchanged.
//
// A stand-in is only worth what it refuses: where a real cluster is strict,
// so is the stand-in, with the answer a real cluster gives. The table names
// each rule and the Hadoop source it mirrors (files of apache/hadoop, by
// class and method; line numbers move between releases).
//
// # Identity, permissions and proxy users
//
//	rule                                                   stand-in            Hadoop source
//	────────────────────────────────────────────────────── ─────────────────── ──────────────────────────────────────────────────────
//	SIMPLE: the connection context's effective user is     minidfs (ipc)       ipc/Server.java Connection.processConnectionContext,
//	the caller; with a real user too, the real user acts                       util/ProtoUtil.java getUgi
//	for it (a proxy); KERBEROS: an effective user other
//	than the principal makes the principal a proxy
//	a proxy is allowed only by hadoop.proxyuser.<real>.    minidfs, miniyarn   security/authorize/DefaultImpersonationProvider.java
//	users|groups (the effective user or one of its                             authorize, AccessControlList.isUserAllowed,
//	groups; * for all) and .hosts (IP, CIDR, host name,                        util/MachineList.java includes
//	*); none configured: nobody may
//	an IPC refusal is FATAL_UNAUTHORIZED, call id -3,      minidfs (ipc)       ipc/Server.java authorizeConnection, processOneRpc
//	AuthorizationException "User: <real> is not allowed
//	to impersonate <user>" or "Unauthorized connection
//	for super-user: <real> from IP <ip>"
//	a REST refusal of doAs is 403 with the RemoteException miniyarn            security/token/delegation/web/
//	JSON of an AuthorizationException; doAs is matched                         DelegationTokenAuthenticationFilter.java doFilter,
//	case-insensitively; anonymous requests ignore it                           util/HttpExceptionUtils.java createServletExceptionResponse
//	a user's groups: hadoop.user.group.static.mapping.     minidfs, miniyarn   security/Groups.java, ShellBasedUnixGroupsMapping.java
//	overrides, else the OS's groups of the user, else none
//	the superuser (the user that started the NameNode)     minidfs             hdfs/server/namenode/FSPermissionChecker.java
//	and the supergroup (dfs.permissions.superusergroup)                        isSuperUser, FSDirectory.checkPermission
//	pass every check
//	owner, group or other bits by who the caller is;       minidfs             FSPermissionChecker.check, hasPermission,
//	refusal "Permission denied: user=<u>, access=<FsAction>,                   toAccessControlString
//	inode="<path>":<owner>:<group>:<d|->rwxr-xr-x"
//	EXECUTE on every existing ancestor (traverse)          minidfs             FSPermissionChecker.checkTraverse
//	getFileInfo: traverse; getListing: READ_EXECUTE on a   minidfs             namenode/FSDirStatAndListingOp.java getFileInfo,
//	directory; getBlockLocations: READ; getContentSummary:                     getListingInt, getBlockLocations, getContentSummary
//	READ_EXECUTE on every directory below
//	mkdirs, create: WRITE on the last existing ancestor;   minidfs             FSDirMkdirOp.mkdirs, FSDirWriteFileOp
//	create over a file: WRITE on it; append, truncate,                         resolvePathForStartFile, FSDirAppendOp,
//	setTimes: WRITE on the file                                                FSDirTruncateOp, FSDirAttrOp.setTimes
//	delete: WRITE on the parent, ALL on every non-empty    minidfs             FSDirDeleteOp.delete, FSPermissionChecker.checkSubAccess
//	directory of the tree
//	rename: WRITE on the source's parent and on the        minidfs             FSDirRenameOp.renameTo, dstForRenameTo
//	target's last existing ancestor
//	sticky bit: only the entry's or the directory's owner  minidfs             FSPermissionChecker.checkStickyBit
//	removes or renames; "Permission denied by sticky bit"
//	chmod, chown: the owner ("Permission denied.           minidfs             FSDirAttrOp.setPermission, setOwner,
//	user=<u> is not the owner of inode=<path>"); only a                        FSPermissionChecker.checkOwner
//	superuser changes the owner, a user only to a group
//	of theirs
//	new inodes belong to the effective user and take the   minidfs             FSDirectory.addINode (inherited group),
//	parent's group; directories made on the way get u+wx                       FSDirMkdirOp.addImplicitUwx
//	a resource is localized as the application's user;     miniyarn            yarn ContainerLocalizer, FSDownload.copy
//	one it may not read fails the attempt
//	the application belongs to the request's user (after  miniyarn            resourcemanager/webapp/RMWebServices.java
//	doAs), shown as "user" in the report                                       submitApplication, AppInfo
//
// # Other rules
//
//	rule                                                   stand-in            Hadoop source
//	────────────────────────────────────────────────────── ─────────────────── ──────────────────────────────────────────────────────
//	SIMPLE refused by a Kerberized NameNode ("SIMPLE       minidfs (ipc)       ipc/Server.java initializeAuthContext
//	authentication is not enabled.  Available:[TOKEN,                          (doSaslReply: authFailedCall), setupBadVersionResponse,
//	KERBEROS]"), a FATAL_UNAUTHORIZED answer at call id                        RpcConstants.AUTHORIZATION_FAILED_CALL_ID
//	-1 before any request, then closed; a wrong IPC
//	version likewise at -1
//	hadoop.rpc.protection (authentication, integrity,      minidfs, miniyarn   security/SaslPropertiesResolver.java, SaslRpcServer
//	privacy) is the qop offered; a client that picks         (AMRM)            QualityOfProtection, ipc/Server.java wrapWithSasl,
//	another is refused; past auth, every RPC travels in                        ipc/SaslRpcClient.java (WRAP, call id -33)
//	SASL WRAP messages
//	a secure NameNode issues HDFS_DELEGATION_TOKENs        minidfs             hdfs/server/namenode/FSNamesystem.java getDelegationToken,
//	only over Kerberos (a proxy counts as its real user;                       isAllowedDelegationTokenOp, shouldUseDelegationTokens
//	over a token: IOException "Delegation Token can be
//	issued only with kerberos or web authentication");
//	without security it answers no token
//	the token's identifier: version 0, owner (the          minidfs             security/token/delegation/AbstractDelegationTokenIdentifier.java
//	effective user's full name), renewer (its short                            write, setRenewer, AbstractDelegationTokenSecretManager
//	name), real user (the proxy's principal), issue and                        createPassword, SecretManager.createPassword
//	max dates, sequence number, master key id; password
//	HMAC-SHA1 of the identifier under the master key
//	a token lives until issue + renew interval unless      minidfs             AbstractDelegationTokenSecretManager.renewToken,
//	renewed, never past max date; only its renewer                             cancelToken; dfs.namenode.delegation.token.renew-
//	renews ("tries to renew a token ... with non-                              interval, .max-lifetime
//	matching renewer"); owner or renewer cancels ("is
//	not authorized to cancel the token")
//	a secure NameNode offers TOKEN (DIGEST-MD5) before     minidfs (ipc)       ipc/Server.java getAuthMethods, AbstractDelegationToken
//	KERBEROS; the caller is the token's owner; an                              SecretManager.checkToken, hdfs DelegationTokenIdentifier
//	expired or cancelled token is refused: InvalidToken                        toString
//	"token (token for <u>: ...) is expired, current
//	time: ..." / "... can't be found in cache"
//	over TOKEN the connection context may name no other    minidfs (ipc)       ipc/Server.java processConnectionContext
//	user ("Authenticated user (<owner>) doesn't match
//	what the client claims to be (<user>)")
//	a client picks the HDFS_DELEGATION_TOKEN whose         (hadoop.Resolver)   hdfs/HAUtilClient.java buildTokenServiceForLogicalUri,
//	service is ha-hdfs:<nameservice> (HA) or the                               security/SecurityUtil.java buildTokenService,
//	NameNode's IP:port, and sends no user with it                              AbstractDelegationTokenSelector, ProtoUtil
//	a standby answers StandbyException; clients fail over  minidfs, miniyarn   ipc/StandbyException, RMWebApp standby redirect
//	a standby NameNode answers every ClientProtocol call   minidfs             hdfs/server/namenode/ha/StandbyState.java checkOperation,
//	(getDataEncryptionKey aside) with StandbyException                         FSNamesystem.checkOperation, getAdditionalBlock,
//	"Operation category READ|WRITE is not supported in                         renewLease, NameNodeRpcServer
//	state standby. Visit https://s.apache.org/sbnn-error",
//	the category checked first (addBlock: READ)
//	an HA pair is two NameNodes over one namespace (nn1    minidfs             hdfs/DFSUtilClient.java getAddresses,
//	active, nn2 standby), reached only through the                             namenode/ha/ConfiguredFailoverProxyProvider
//	nameservice's client configuration: dfs.nameservices,
//	dfs.ha.namenodes.<ns>, dfs.namenode.rpc-address.<ns>.
//	<nn>, ConfiguredFailoverProxyProvider
//	failover only to a standby ("Can't failover to an      minidfs             ha/FailoverController.java preFailoverChecks,
//	active service"); transitionToActive refused while the                     ha/HAAdmin.java isOtherTargetNodeActive,
//	other is active; the new active renews every lease, so                     FSNamesystem.startActiveServices (renewAllLeases)
//	an open file's writer carries on
//	hdfs haadmin / yarn rmadmin -failover <from> <to>      localcluster        ha/HAAdmin.java failover, resolveTarget,
//	refuses an id the configuration does not name                              ha/FailoverController.java failover,
//	("Unable to determine service address for ..."), a                         preFailoverChecks, hdfs/tools/NNHAServiceTarget
//	service failing over to itself ("Can't failover a
//	service to itself"), a target already active
//	("Can't failover to an active service") and a stopped
//	RM ("Unable to get service state for <id>")
//	a client of an HA nameservice fails over on            (hadoop.Resolver)   io/retry/RetryPolicies.java FailoverOnNetworkExceptionRetry,
//	StandbyException and, while no NameNode serves, waits                      hdfs/client/HdfsClientConfigKeys.java Failover
//	and tries again: dfs.client.failover.max.attempts
//	(15), .sleep.base.millis (500), .sleep.max.millis
//	(15000)
//	only a lease holder writes; a second writer gets       minidfs             namenode/LeaseManager, FSNamesystem.recoverLeaseInternal
//	AlreadyBeingCreatedException until the soft limit
//	a deleted or overwritten file's blocks are gone: its   minidfs             FSDirDeleteOp.delete (collectBlocksAndClear),
//	writer can neither update nor complete them, and a                         FSNamesystem.updateBlockForPipeline (checkUCBlock),
//	retried complete succeeds only if it names the file's                      FSDirWriteFileOp.completeFileInternal (HDFS-3031)
//	last block
//	the edit stream (getCurrentEditLogTxid,                minidfs             NameNodeRpcServer.getCurrentEditLogTxid,
//	getEditsFromTxid) is the active NameNode's (READ) and                      getEditsFromTxid, FSNamesystem.checkSuperuserPrivilege,
//	a superuser's only: AccessControlException "Access                         FSPermissionChecker.checkSuperuserPrivilege
//	denied for user <u>. Superuser privilege is required"
//	(nobody is refused with dfs.permissions.enabled=false)
//	each namespace change is one transaction, numbered     minidfs             namenode/InotifyFSEditLogOpTranslator.translate,
//	from 1, with its inotify events: mkdirs one CREATE                         FSDirMkdirOp (one OP_MKDIR per directory),
//	(directory) per directory made, a client's file a                          FSEditLog logOpenFile, logCloseFile, logRename,
//	CREATE then a CLOSE (size, time) at complete, rename                       logDelete, logAppendFile, logTruncate, logTimes,
//	and rename2 one RENAME, delete one UNLINK, append,                         logSetOwner, logSetPermissions
//	truncate, setTimes/setOwner/setPermission APPEND,
//	TRUNCATE, METADATA
//	getEditsFromTxid past the last synced transaction      minidfs             NameNodeRpcServer.getEventBatchList,
//	answers no batch (firstTxid = lastTxid = -1); from a                       hdfs/DFSInotifyEventInputStream.poll
//	purged txid it answers from the first kept one (the                        (MissingEventsException)
//	client sees the gap); an answer stops after the
//	transaction reaching dfs.namenode.inotify.max.events.
//	per.rpc (1000) events
//	an AM that exits without unregistering fails its       miniyarn            resourcemanager RMAppAttemptImpl (AMContainerFinished)
//	attempt
//	localization checks the resource's timestamp           miniyarn            yarn/util/FSDownload.java copy
//	PUBLIC and PRIVATE resources are localized once (for   miniyarn            nodemanager/.../localizer/
//	all users, per user) and found again by URI,                               ResourceLocalizationService (public and private
//	timestamp, type and pattern without asking the                             trackers), LocalResourcesTrackerImpl,
//	filesystem; APPLICATION ones once per container;                           LocalResourceRequest.equals
//	the cache is never trimmed (not modelled:
//	localizer.cache.target-size-mb)
//	a PUBLIC resource must be readable by others under     miniyarn            yarn/util/FSDownload.java isPublic,
//	directories others may traverse, or "is not publicly                       ancestorsHaveExecutePermissions, verifyAndCopy
//	accessible and as such cannot be part of the public
//	cache."
//	the AMRM token in the container's token file has an    miniyarn            resourcemanager/security/AMRMTokenSecretManager.java
//	empty service and an empty alias: the AM finds the                         createAndGetAMRMToken (new Text()), amlauncher/
//	scheduler in its configuration                                             AMLauncher.java setupTokens (addToken(getService(),..))
//	the AM's scheduler: yarn.resourcemanager.scheduler.    (launcher)          yarn/client/ClientRMProxy.java getRMAddress,
//	address, per rm-id of yarn.resourcemanager.ha.rm-ids                       ConfiguredRMFailoverProxyProvider (rm-ids in order)
//	under HA, tried in order
//	every container gets the NodeManager's own             miniyarn            nodemanager/containermanager/launcher/
//	HADOOP_CONF_DIR, forced over the application's: a                          ContainerLaunch.java sanitizeEnv
//	generated core-site.xml (fs.defaultFS, Options.Conf),                      (putEnvIfNotNull(HADOOP_CONF_DIR, System.getenv))
//	hdfs-site.xml (Options.HDFSConf) and yarn-site.xml
//	(the scheduler address), never the test process's
//	a container's environment is the application's, the    miniyarn            nodemanager/containermanager/launcher/
//	NodeManager's whitelist (yarn.nodemanager.env-                             ContainerLaunch.java sanitizeEnv (whitelist,
//	whitelist: JAVA_HOME, PATH, LANG, TZ, the HADOOP_*                         admin-env), YarnConfiguration
//	homes) where the application set none, and what the                        DEFAULT_NM_ENV_WHITELIST
//	NodeManager sets itself; no other variable of the
//	process running the NodeManager reaches it
//	the container's variables are exported after those   miniyarn            nodemanager/containermanager/launcher/
//	their values refer to ({{VAR}} of the application                          ContainerLaunch.java orderEnvByDependencies
//	after the NodeManager's HADOOP_CONF_DIR, PWD, ...)
//	allocate: responseId 0 after registering, then the     miniyarn            resourcemanager/ApplicationMasterService.java
//	last response's echoed; one step old gets the last                         allocate, registerApplicationMaster (setResponseId(0)),
//	response again unprocessed; any other is refused                           ApplicationMasterServiceUtils getNextResponseId
//	(InvalidApplicationMasterRequestException "Invalid
//	responseId in AllocateRequest ... expect responseId
//	to be <n>, but get <m>")
//	finishApplicationMaster answers isUnregistered=false   miniyarn            ApplicationMasterService.finishApplicationMaster
//	to the call that unregisters, true once the final                          (RMApp.isAppFinalStateStored)
//	state is stored; the AM asks again
//	the default static user may not kill ("The default     miniyarn            RMWebServices.updateAppState
//	static user cannot carry out this operation.")
//	a Kerberized RM's REST API takes only SPNEGO (401      miniyarn            security/authentication/server/
//	"WWW-Authenticate: Negotiate" to anything else,                            KerberosAuthenticationHandler.authenticate,
//	user.name ignored; a token that does not verify: 403)                      AuthenticationFilter.doFilter (getToken: type check)
//	and the hadoop.auth cookie it sets (t=kerberos; a
//	cookie of another type is ignored)
//	RM delegation tokens only for Kerberos callers         miniyarn            RMWebServices.createKerberosUserGroupInformation,
//	(403, bare "Delegation token operations can only be                        postDelegationToken, createDelegationToken;
//	carried out on a Kerberos authenticated channel..."):                      ClientRMService.getDelegationToken,
//	RM_DELEGATION_TOKEN, empty service, identifier                             YARNDelegationTokenIdentifierProto
//	YARNDelegationTokenIdentifierProto (owner = doAs user,
//	renewer's short name), HMAC-SHA1 password; answer
//	{token, renewer, owner, kind, expiration-time,
//	max-validity}, renew interval 1 d, max lifetime 7 d
//	a Kerberized RM's REST API also takes an RM delegation miniyarn            resourcemanager/security/http/RMAuthenticationFilter
//	token (Hadoop-YARN-RM-Delegation-Token or                                  doFilter, RMWebServices.DELEGATION_TOKEN_HEADER;
//	X-Hadoop-Delegation-Token header) as its owner; one                        AbstractDelegationTokenSecretManager.verifyToken,
//	it did not issue ("can't be found in cache") or past                       checkToken
//	its renew date ("is expired") is 403; such callers
//	may not ask for more tokens
//	a Kerberized NodeManager localizes HDFS resources only miniyarn            nodemanager/.../localizer/ContainerLocalizer,
//	with the submission's HDFS_DELEGATION_TOKEN ("Client                       ipc/SaslRpcClient.selectSaslClient
//	cannot authenticate via:[TOKEN, KERBEROS]")
//	a submission's credentials.tokens are token URL        miniyarn            resourcemanager/webapp/RMWebServices.java
//	strings (Token.encodeToUrlString: Writable, URL-safe                       createCredentials; security/token/Token.java
//	base64 without padding); one that does not decode is                       decodeFromUrlString; nodemanager/.../launcher/
//	400 BadRequestException "Could not parse credentials                       ContainerLaunch.java (CONTAINER_TOKEN_FILE_ENV_NAME),
//	data"; the tokens, under their aliases, with the AMRM                      security/Credentials.java writeTokenStorageToStream
//	token, are the container's token file, named by
//	HADOOP_TOKEN_FILE_LOCATION
//	a Kerberized RM cancels an ended application's         miniyarn            resourcemanager/security/DelegationTokenRenewer.java
//	HDFS and RM delegation tokens (as its own principal,                       handleAppSubmitEvent (skipTokenRenewal: empty
//	so only those it owns or renews) unless the                                renewer), DelegationTokenToRenew (shouldCancelAtEnd,
//	submission said cancel-tokens-when-complete=false;                         referringAppIds), applicationFinished,
//	a token shared by running applications takes the                           removeApplicationFromRenewal, cancelToken,
//	flag of its first submission and is cancelled only                         DelegationTokenCancelThread; RMAppManager
//	when the last of them ends; tokens of other kinds and                      (security only); AbstractDelegationTokenSecretManager
//	with an empty renewer are left; with log aggregation                       cancelToken (owner or renewer)
//	the RM lets go 10 min after the end (keep-alive)
//	a Kerberized RM renews each new token of a             miniyarn            resourcemanager/security/DelegationTokenRenewer.java
//	submission as its own principal before it accepts                          handleAppSubmitEvent (renewToken, "Failed to renew
//	the application; one that does not renew (another                          token: " + token), DelegationTokenRenewerRunnable
//	renewer, cancelled, expired) rejects it: NEW →                             (APP_REJECTED, t.getMessage()); RMAppManager
//	FAILED, diagnostics "Failed to renew token: Kind:                          submitApplication (addApplicationAsync under
//	..., Service: ..., Ident: (...)"; a token another                          security); AbstractDelegationTokenSecretManager
//	running application holds is not renewed again                             renewToken
//	a node's tools in a container authenticate with its    clustertools        security/UserGroupInformation.java getLoginUser
//	token file (HADOOP_TOKEN_FILE_LOCATION), never a                           (HADOOP_TOKEN_FILE_LOCATION), hive jdbc
//	ticket: HDFS with the HDFS_DELEGATION_TOKEN of the                         HiveConnection.java createBinaryTransport,
//	filesystem's service, the RM with the RM token (else                       getClientDelegationToken (hiveserver2ClientToken),
//	user.name); beeline with auth=delegationToken takes                        mapreduce/JobSubmitter.java populateTokenCache,
//	the HIVE_DELEGATION_TOKEN of service                                       security/TokenCache.java; mapreduce.job.complete.
//	hiveserver2ClientToken (without one SASL PLAIN, which                      cancel.delegation.tokens
//	a Kerberized HiveServer2 refuses; with principal=,
//	"GSS initiate failed"); mapred and the other job
//	submitters pass the container's tokens on to their
//	job, asking the RM not to cancel them
//	only the active RM runs the ApplicationMasterService:  miniyarn            resourcemanager/ResourceManager.java transitionToActive,
//	each RM has its own scheduler address, a standby's                         transitionToStandby (active services),
//	refuses connections, a failover or a stop drops the                        ApplicationMasterService.serviceStart, serviceStop
//	AMs' connections
//	an RM that becomes active (failover, work-preserving   miniyarn            rmapp/RMAppImpl.java RMAppRecoveredTransition,
//	restart) recovers the apps: an unfinished one is                           rmapp/attempt/RMAppAttemptImpl.java
//	ACCEPTED, its attempt LAUNCHED, until the AM registers                     AttemptRecoveredTransition,
//	again; allocate answers                                                    ApplicationMasterService.java allocate,
//	ApplicationMasterNotRegisteredException ("AM is not                        finishApplicationMaster
//	registered for known application attempt: <attempt> or
//	RM had restarted after AM registered.  AM should
//	re-register."), finishApplicationMaster too
//	("Application Master is trying to unregister before
//	registering for: <app>")
//	finishApplicationMaster answers isUnregistered=true    miniyarn            ApplicationMasterService.finishApplicationMaster,
//	before any other check once the final state is stored                      RMAppImpl.isAppFinalStateStored, RMAppImpl.recover
//	(FINISHING, FINISHED, FAILED, KILLED), also after a                        (stored final state)
//	restart; an app whose AM unregistered is recovered
//	FINISHED
//	an AM container that ended while the RM was down       miniyarn            RMAppAttemptImpl.AttemptRecoveredTransition (waits in
//	counts when it is back (exit without unregistering:                        LAUNCHED for the NM's container status),
//	the attempt fails)                                                         ResourceTrackerService.registerNodeManager
//	after the AM unregisters, the app is FINISHING until   miniyarn            RMAppImpl (RUNNING → FINAL_SAVING → FINISHING → FINISHED
//	its container exits (or the NM kills it): reports say                      on ATTEMPT_FINISHED),
//	FINISHED with the AM's final status, GET/PUT .../state                     RMServerUtils.createApplicationState,
//	and the attempt say FINISHING, a kill answers 200 at                       createApplicationAttemptState,
//	once                                                                       RMWebServices.getAppState,
//	                                                                           ClientRMService.forceKillApplication
//	AMRM master key roll: tokens of the current and the    miniyarn            security/AMRMTokenSecretManager.java rollMasterKey,
//	next key authenticate; allocate on a connection of                         activateNextMasterKey, retrievePassword,
//	another key answers the attempt's token of the new key                     createAndGetAMRMToken (new Text());
//	(am_rm_token, empty service); once the next key is                         ApplicationMasterService.allocate
//	activated the old one's tokens are refused
//	(InvalidToken "Invalid AMRMToken from <attempt>"),
//	open connections live on
//	under RM HA the generated yarn-site.xml has            miniyarn            yarn/conf/YarnConfiguration.java, HAUtil.java,
//	yarn.resourcemanager.ha.enabled, cluster-id, ha.rm-ids                     client/ConfiguredRMFailoverProxyProvider.java
//	(rm1..rmN) and the scheduler and webapp address of
//	each rm-id
//	NodeManager container log web services (Hadoop 3):     miniyarn            nodemanager/webapp/NMWebServices.java getContainerLogsInfo,
//	GET /ws/v1/node/containers/<c>/logs lists the files                        getContainerLogFile, getLogs; logaggregation/LogToolUtils.java
//	({"containerLogsInfo":[{containerLogInfo[fileName,                         outputContainerLogThroughZeroCopy; webapp/dao/ContainerLogsInfo,
//	fileSize (a string), lastModifiedTime],                                    ContainerLogFileInfo
//	logAggregationType LOCAL, containerId, nodeId}]});
//	.../logs/<file> and /containerlogs/<c>/<file> send
//	one file framed "Container: <c> on <node>",
//	LogAggregationType, LogType, LogLastModifiedTime,
//	LogLength (whole file), LogContents, then "End of
//	LogType:<file>." ("This log file belongs to a running
//	container ..." while it runs); size>0 first bytes,
//	size<0 last bytes; format other than text or
//	octet-stream: 400; authentication as the RM's
//	a container the NodeManager does not have (unknown,    miniyarn            NMWebServices.createRedirectResponse, ContainerLogsUtils
//	not yet running, or its application's logs                                 getApplicationForContainer, checkState, getContainerLogFile
//	aggregated): 307 to yarn.log.server.web-service.url
//	+ /containers/<c>/logs[/<file>] with the query minus
//	nm.id plus redirected_from_node=true; without a log
//	server 404 (NotFoundException JSON for the listing,
//	the message as text for a file); malformed id 400
//	with yarn.acl.enable only the owner, yarn.admin.acl    miniyarn            ContainerLogsUtils.checkAccess, security/
//	(default *) and the application's VIEW_APP ACL read                        ApplicationACLsManager.checkAccess
//	its logs: "User [<u>] is not authorized to view the
//	logs for application <app>" (500 text for a file;
//	the listing redirects or 404s); off, everyone
//	log aggregation (yarn.log-aggregation-enable): once    miniyarn            nodemanager/containermanager/logaggregation/
//	the application has ended and its containers are                           AppLogAggregatorImpl, LogAggregationService
//	gone, their logs move to <remote-app-log-dir>/<user>/
//	logs/<app>/ (kept on local disk) and the NodeManager
//	forgets the application; the local cluster turns it
//	on with the JobHistory server as log server
//	RM web UI: /cluster/apps and /cluster/app/<app>        miniyarn            resourcemanager/webapp/RmController, AppBlock, AppsBlock
//	(user, name, type, tags, queue, state, final status,
//	times, tracking URL, diagnostics, attempts with
//	their NodeManager log links); with yarn.acl.enable a
//	caller who may not view it gets "You (User <u>) are
//	not authorized to view application <app>" (403; the
//	RM renders it in a 200 page); unknown app 404
//	the web proxy /proxy/<app>/ (the report's tracking     miniyarn            webproxy/WebAppProxyServlet.java methodAction,
//	URL, an action's Console URL) redirects (302) to the                       getTrackingUri
//	RM's /cluster/app/<app> when the AM gave no tracking
//	URL, to the AM's URL once the application ended
//	an AM fails over round robin along the rm-ids on a     (launcher)          yarn/client/RMProxy.java createRetryPolicy,
//	failed connection or a StandbyException (a SASL or                         io/retry/RetryPolicies.java
//	InvalidToken refusal fails at once), pausing                               FailoverOnNetworkExceptionRetry,
//	yarn.client.failover-sleep-base-ms·2^n up to -max-ms                       api/impl/AMRMClientImpl.java allocate,
//	(connect.retry-interval.ms without HA), giving up                          unregisterApplicationMaster, updateAMRMToken
//	after connect.max-wait.ms (15 min, 30 s by default);
//	it registers again (responseId 0) on
//	ApplicationMasterNotRegisteredException and uses the
//	am_rm_token of an allocate answer for later
//	connections
//	a Kerberized HiveServer2 takes SASL GSSAPI (binary)    minihs2             service/auth/HiveAuthFactory.java, ThriftCLIService
//	or SPNEGO (HTTP) and refuses PLAIN, NOSASL and basic;                      getProxyUser, getDelegationToken, cancelDelegationToken,
//	a session acts for doAs / hive.server2.proxy.user only                     renewDelegationToken; AbstractDelegationTokenSecretManager
//	when hadoop.proxyuser rules allow the principal;                           renewToken, cancelToken
//	delegation tokens only over Kerberos, renewed only by
//	the renewer, cancelled by owner or renewer
//	a Kerberized HiveServer2's binary transport takes     minihs2             hive metastore/security/HadoopThriftAuthBridge.java
//	SASL DIGEST-MD5 with its own HIVE_DELEGATION_TOKEN                         Server.createSaslServerTransportFactory,
//	(user base64(identifier), password base64(password),                       SaslDigestCallbackHandler, TUGIAssumingProcessor,
//	digest-uri null/default, qop auth): the session's                          TokenStoreDelegationTokenSecretManager.retrievePassword,
//	user is the token's owner; a cancelled or foreign                          AbstractDelegationTokenSecretManager.checkToken; JDK
//	token ("token expired or does not exist: ...") or one                      com/sun/security/sasl/digest/DigestMD5Server.java
//	past its renew date ("token (...) is expired, ...")                        validateClientResponse
//	is refused with BAD "DIGEST-MD5: IO error acquiring
//	password", a wrong password with "DIGEST-MD5: digest
//	response format violation. Mismatched response."
//	a Kerberized metastore (minihs2.Metastore) takes SASL  minihs2             hive metastore/security/HadoopThriftAuthBridge.java
//	GSSAPI; get_delegation_token(owner, renewer) issues                        Server, MetastoreDelegationTokenManager
//	a HIVE_DELEGATION_TOKEN with no service; a caller                          getDelegationToken, DelegationTokenSecretManager
//	whose short name is not owner's needs the                                  getDelegationToken; ThriftHiveMetastore
//	hadoop.proxyuser rules (MetaException "User: <p> is                        get_delegation_token (hive_metastore.thrift)
//	not allowed to impersonate <owner>"); its token store
//	is its own (MemoryTokenStore, the default)
//	a method the server does not know is answered with     minihs2             thrift TBaseProcessor.process (TApplicationException
//	TApplicationException UNKNOWN_METHOD "Invalid method                       UNKNOWN_METHOD)
//	name: '<name>'" (the metastore stand-in serves
//	get_delegation_token and the catalog methods below)
//	a metastore without SASL takes the plain binary        minihs2             hive metastore HiveMetaStore.startMetaStore (TTransportFactory),
//	protocol; set_ugi names the connection's user, whom                        TUGIBasedProcessor (set_ugi), HMSHandler.set_ugi
//	later calls run as; under SASL the principal is the
//	user and set_ugi changes nothing
//	get_partition, get_partitions_by_filter on an unknown  minihs2             ObjectStore.ensureGetMTable, getPartition,
//	db or table: NoSuchObjectException "hive.<db>.<table>                      HMSHandler.fireReadTablePreEvent
//	table not found"; a missing partition:
//	NoSuchObjectException "partition values=[v1, v2]"
//	a filter naming a column that is not a partition key:  minihs2             metastore/parser/ExpressionTree.java LeafNode
//	MetaException "Specified key <k> is not a partitioning                     getPartColIndexForFilter, PartFilterExprUtil
//	key for the table"; an unparsable filter MetaException                     getFilterParser
//	"Error parsing partition filter; ..."
//	add_partition: unknown table InvalidObjectException,   minihs2             HMSHandler.add_partition_core, ObjectStore.addPartition
//	an existing partition AlreadyExistsException, values
//	not matching the partition keys MetaException; the
//	partition's directory is made
//	drop_partition of a missing partition:                 minihs2             ObjectStore.getPartition, HMSHandler.drop_partition_common
//	NoSuchObjectException "partition values=[...]"; with
//	deleteData a managed table's directory goes too
//	every partition added (ALTER TABLE ADD PARTITION,      minihs2             hcatalog DbNotificationListener.onAddPartition,
//	INSERT ... PARTITION, add_partition) is one                                ObjectStore.addNotificationEvent, getNextNotification,
//	ADD_PARTITION event of the notification log (ids from                      getCurrentNotificationEventId; messaging/json
//	1, JSON message json-0.2 with db, table and the                            JSONAddPartitionMessage
//	partitions' key values); get_next_notification
//	returns those after lastEvent, oldest first, up to
//	maxEvents, without eventTypeSkipList's types
//	ALTER TABLE ADD PARTITION / INSERT ... PARTITION       minihs2             ql BaseSemanticAnalyzer.validatePartSpec, ErrorMsg
//	refuse a non-partitioned table ("table is not                              (NEED_PARTITION_ERROR 10062), DDLTask
//	partitioned but partition spec exists"), non-partition                     (AlreadyExistsException "Partition already exists")
//	columns, an INSERT without PARTITION into a
//	partitioned table (10062), an existing partition
//	without IF NOT EXISTS
//	SSH logins by public key only: the key must be among   minissh             OpenSSH auth2-pubkey.c user_key_allowed
//	the login user's authorized keys (a user with none,                        (AuthorizedKeysFile), auth2.c; sshd_config
//	another user's key, a password: "unable to                                 PasswordAuthentication no
//	authenticate ... no supported methods remain")
//	an exec request runs its command with the login's      minissh             OpenSSH session.c do_exec_no_pty, do_setup_env,
//	shell in its HOME (HOME, USER, LOGNAME set); its end                       session_exit_message
//	is exit-status, or exit-signal with the signal's name
//	env requests are answered false (AcceptEnv unset)      minissh             OpenSSH session.c session_env_req
//	a git repository (gitrepo) is served over HTTP as git  gitrepo             git http-backend.c get_info_refs, service_rpc,
//	http-backend serves it to a clone: smart upload-pack                       http.receivepack; Documentation/gitprotocol-
//	("# service=" advertisement, then the pack); a push                        http.txt
//	is 403 (http.receivepack is off for anonymous users),
//	an unknown repository 404, and with Options.User a
//	missing or wrong basic credential 401 with a
//	WWW-Authenticate challenge
//	sqoop refuses what Sqoop refuses, before any job:      clustertools        sqoop Sqoop.runTool, tool/BaseSqoopTool.java
//	an unknown tool ("No such sqoop tool: <t>. See 'sqoop                      validateCommonOptions, tool/ImportTool.java
//	help'."), an unknown option ("Unrecognized argument:                       validateImportOptions, manager/ConnManager.java
//	<a>"), no --connect, --table with --query, a query                         getColumnTypes, manager/SqlManager.java
//	without --target-dir, -m > 1 on a query without                            checkTableImportOptions; hadoop FileOutputFormat
//	--split-by or on a table without a primary key, a                          checkOutputSpecs, FileInputFormat listStatus;
//	query without $CONDITIONS ("Query [<q>] must contain                       sqoop tool/ExportTool.java validateExportOptions,
//	'$CONDITIONS' in WHERE clause."), an existing target                       hadoop util/GenericOptionsParser.java
//	directory (FileAlreadyExistsException), an export
//	without --table or --export-dir, a missing export
//	directory (InvalidInputException), a generic option
//	(-D, -conf) after the tool's own options
//	sqoop import's rows are read by its MapReduce job,     clustertools        sqoop mapreduce/db/DataDrivenDBInputFormat.java getSplits,
//	tagged with mapreduce.job.tags: one map task per                           IntegerSplitter, DataDrivenDBRecordReader getSelectQuery,
//	split of the split column's MIN..MAX, $CONDITIONS                          mapreduce/ImportJobBase.java runImport; oozie
//	replaced by the split; a failed task fails the job,                        LauncherMain.setYarnTag; sqoop mapreduce/
//	whose diagnostics sqoop prints before "Import failed:                      TextExportMapper, ExportJobBase.runExport
//	org.apache.sqoop.util.ImportException: Import job
//	failed!"; sqoop export's map tasks insert the
//	records, a wrong number of fields fails the task
//	("Can't parse input data: '<line>'")
//	a MapReduce job counts what its tasks did: TaskCounter clustertools        mapreduce/TaskCounter, JobCounter, FileSystemCounter;
//	MAP_INPUT_RECORDS (lines read), MAP_OUTPUT_RECORDS,    (mapred appmaster)  mapred/MapTask, ReduceTask, Task (FileSystemCounter
//	REDUCE_INPUT_GROUPS, REDUCE_INPUT_RECORDS,                                 names <SCHEME>_BYTES_READ)
//	REDUCE_OUTPUT_RECORDS, JobCounter TOTAL_LAUNCHED_MAPS|
//	REDUCES, <SCHEME>_BYTES_READ|WRITTEN, each by the
//	phase that counted it
//	the AM leaves the job's history before it unregisters clustertools        mapreduce/jobhistory/JobHistoryEventHandler.java
//	in <mapreduce.jobhistory.intermediate-done-dir, default (mapred appmaster)  serviceInit, processDoneFiles, moveTmpToDone;
//	<staging>/history/done_intermediate; drwxrwxrwt, made                      v2/jobhistory/JobHistoryUtils (permissions),
//	if missing>/<user>/ (drwxrwx---): summary, conf, then                      FileNameIndexUtils.getDoneFileName,
//	the .jhist (job-submit-user-name-finish-maps-reduces-                      v2/app/job/impl/JobImpl (constructJobACLs)
//	status-queue-launch, "-" in names as %2D), each
//	written <name>_tmp and renamed; JOB_SUBMITTED holds
//	the job's ACLs only with mapreduce.cluster.acls.enabled
//	the JobHistory server makes the intermediate done      minijhs             v2/hs/HistoryFileManager.java serviceInit, scanIntermediateDirectory
//	directory drwxrwxrwt at start and reads the users'
//	history as the superuser; a file still _tmp is no job
//	GET /ws/v1/history/mapreduce/jobs/<id>/counters:       minijhs             v2/hs/webapp/HsWebServices.getJobCounters,
//	jobCounters{id, counterGroup[counterGroupName,                             v2/app/webapp/dao/JobCounterInfo, CounterGroupInfo,
//	counter[name, totalCounterValue, mapCounterValue,                          CounterInfo
//	reduceCounterValue]]}; a failed job has no groups
//	an unknown or malformed job id: 404, RemoteException   minijhs             v2/app/webapp/AMWebServices.getJobFromJobIdString,
//	NotFoundException "java.lang.Exception: job, <id>, is                      yarn/webapp/GenericExceptionHandler
//	not found" ("JobId string : <id> is not properly
//	formed")
//	with mapreduce.cluster.acls.enabled, only the job's    minijhs             HsWebServices.checkAccess, v2/hs/CompletedJob.checkAccess,
//	owner, mapreduce.cluster.administrators and the users                      mapred/JobACLsManager.checkAccess
//	and groups of its mapreduce.job.acl-view-job see it
//	(401); anonymous callers are dr.who; doAs needs the                        http/lib/StaticUserWebFilter, security/authentication/
//	proxy-user rules (403 AuthorizationException)                              server/ProxyUserAuthenticationFilter
//	the log server: GET /ws/v1/history/containers/<c>/logs minijhs             v2/hs/webapp/HsWebServices.getContainerLogs,
//	(logAggregationType AGGREGATED), .../logs/<file> and                       getContainerLogFile, getLogs; webapp/LogServlet
//	/containerlogs/<c>/<file>, framed as the NodeManager
//	frames them, from the aggregated logs; none: 404
//	NotFoundException; with yarn.acl.enable only the
//	owner, yarn.admin.acl and VIEW_APP read them (403)
//	spark-submit refuses what SparkSubmit refuses, "Error: clustertools        spark deploy/SparkSubmitArguments.scala
//	<msg>" and exit 1: an unknown option ("Unrecognized                        handleUnknown, validateSubmitArguments,
//	option '<o>'."), no primary resource, a deploy mode                        deploy/SparkSubmit.scala prepareSubmitEnvironment
//	other than client or cluster, cluster mode with a
//	local master, a master other than yarn or local[..],
//	yarn-cluster/yarn-client against another mode, a jar
//	without --class or Main-Class
//	spark-submit on YARN: an application of type SPARK,    clustertools        spark deploy/yarn/Client.scala submitApplication,
//	tagged spark.yarn.tags, local files staged under                           prepareLocalResources (.sparkStaging), monitorApplication
//	~/.sparkStaging/<app>, a missing one refused                               (spark.yarn.submit.waitAppCompletion, "finished with
//	(FileNotFoundException); "Submitted application                            failed status")
//	<id>"; waits for the end (but not in cluster mode
//	with spark.yarn.submit.waitAppCompletion=false) and
//	fails unless it SUCCEEDED
//	the Spark AM registers, heartbeats, runs the            clustertools        spark deploy/yarn/ApplicationMaster.scala runDriver,
//	application with its --files, --py-files and                               finish ("User class threw exception: ...",
//	--archives localized, and unregisters FAILED with                          SparkUserAppException: "User application exited with
//	"User class threw exception: <e>" or "User                                 status <n>")
//	application exited with status <n>"; a kill stops
//	the application's processes
//	hadoop distcp refuses what DistCp refuses: a source    clustertools        hadoop-distcp OptionsParser.parse, DistCpOptions.validate,
//	matching nothing ("<path> doesn't exist", exit 255),                       SimpleCopyListing.validatePaths, CopyListing
//	two sources onto one target (DuplicateFileException,                       DuplicateFileException, DistCp.run (INVALID_ARGUMENT,
//	254), -skipcrccheck without -update, -delete without                       DUPLICATE_INPUT, UNKNOWN_ERROR), waitForJobCompletion
//	-update or -overwrite, both of those, no target or no
//	source, an unknown option (255); a failed job "DistCp
//	failure: Job <id> has failed: <diagnostics>" (25)
//	DistCp's listing and copy: a lone file to a missing    clustertools        SimpleCopyListing.computeSourceRootPath, CopyMapper
//	or file target is the target; a directory's contents                       canSkip, checkUpdate, CopyCommitter.deleteMissing
//	go into a missing target when it is the only source
//	or with -update/-overwrite, else below the target; an
//	existing file is kept, unless -overwrite or (-update)
//	its length or content differs; -delete removes the
//	rest; the job is map-only, tagged mapreduce.job.tags
//	-bandwidth B: each copy reads at most B MB/s; a B      clustertools        hadoop-distcp util/ThrottledInputStream, DistCpOptions
//	that is not positive is refused ("Bandwidth                                (setMapBandwidth)
//	specified is not positive")
//	pig refuses, before any job, what it does not          clustertools        pig parser QueryParser (ERROR 1200), LogicalPlanBuilder
//	implement (ERROR 1200 naming the statement, exit 7),                       (1025), ParameterSubstitutionPreprocessor, InputOutput
//	undefined $parameters (2999, 6), aliases and fields                        FileValidator (6000), PigRunner.ReturnCode
//	(1025, 7), missing inputs (2118, 2) and existing
//	outputs (6000, 6); its job is map-only and tagged
//	mapreduce.job.tags; a failing STREAM command fails
//	the task (ERROR 2055) and the job (pig exits 2)
//	WebHDFS (/webhdfs/v1 on each NameNode's dfs.namenode.  minidfs (web)       hdfs/server/namenode/web/resources/
//	http-address): OPEN and CREATE answer 307 to the                           NamenodeWebHdfsMethods (redirectURI, chooseDatanode:
//	DataNode's HTTP address with namenoderpcaddress and                        "Offset=... out of the range"), datanode/web/webhdfs/
//	the caller (noredirect=true: 200 {"Location"}); OPEN                       WebHdfsHandler (onOpen, onCreate), hdfs/web/JsonUtil
//	checks the file and offset first; the DataNode streams                     (FileStatus, FileStatuses, boolean)
//	(offset, length) and writes (201, Location
//	hdfs://<nn><path>; overwrite, permission,
//	createparent); FileStatus JSON, {"boolean"} answers
//	WebHDFS runs the NameNode's own ClientProtocol         minidfs (web)       NamenodeWebHdfsMethods (np.getFileInfo, getListing,
//	handlers as the caller: the same permission checks,                        mkdirs, delete, rename), WebHdfsHandler.newDfsClient,
//	HA state (a standby: 403 StandbyException), homes,                         ExceptionHandler (StandbyException is an IOException)
//	leases and namespace as RPC
//	WebHDFS errors: {"RemoteException":{exception,         minidfs (web)       hdfs/web/resources/ExceptionHandler.toResponse,
//	javaClassName, message}}; 404 FileNotFoundException;                       JsonUtil.toJsonString(Exception), ParamFilter,
//	400 IllegalArgumentException ("Invalid value for                           web/resources/EnumParam, BooleanParam, UserParam,
//	webhdfs parameter ...": a bad boolean, number, user                        DestinationParam; datanode/web/webhdfs/ParameterParser
//	name, relative destination, an op not of the method's                      ("namenoderpcaddress is not specified.")
//	enum) and UnsupportedOperationException ("op=X is not
//	supported"); 403 for every other IOException
//	(AccessControlException, FileAlreadyExistsException,
//	PathIsNotEmptyDirectoryException) and SecurityException
//	WebHDFS identity under simple authentication:          minidfs (web)       hdfs/web/AuthFilter (anonymous allowed unless set),
//	user.name, none the static user dr.who                                     PseudoAuthenticationHandler.authenticate,
//	(hadoop.http.staticuser.user) unless dfs.web.                              server/common/JspHelper.getUGI, web/resources/
//	authentication.simple.anonymous.allowed=false (401                         UserProvider ("Failed to obtain user group
//	PseudoAuth); doas only under the proxy-user rules of                       information: ..."), ProxyUsers.authorize
//	the RPC server (403 SecurityException "Failed to
//	obtain user group information: ...Authorization-
//	Exception: User: <u> is not allowed to impersonate
//	<d>")
//	a Kerberized NameNode's WebHDFS takes SPNEGO only (401 minidfs (web)       hdfs/web/AuthFilter, KerberosAuthenticationHandler,
//	"WWW-Authenticate: Negotiate" to user.name; a ticket                       NamenodeWebHdfsMethods.redirectURI, generateDelegation-
//	that does not verify: 403), or its own delegation                          Token (kind WEBHDFS delegation), WebHdfsHandler
//	token; its redirects carry a delegation token issued                       (a secure DataNode's UGI comes from the token),
//	to the caller, and its DataNode takes nothing else                         JspHelper.getUGI ("Security enabled but user not
//	(403 SecurityException)                                                    authenticated by filter")
//
// What the stand-ins leave out is listed in each package's documentation
// (minidfs: ACLs, snapshots, quotas, encryption zones; permissions of the
// DataNode's block tokens; WebHDFS operations besides LISTSTATUS,
// GETFILESTATUS, GETHOMEDIRECTORY, OPEN, CREATE, MKDIRS, DELETE and RENAME,
// answered UnsupportedOperationException; minissh: switching to the login user, since
// commands run as the OS user running the tests, shells, terminals,
// subsystems and port forwarding; clustertools' mapred: a job naming Java
// mapper or reducer classes runs them as identity, where a cluster runs the
// classes from the job's jar or fails the task with ClassNotFoundException
// (mapred MapTask.runNewMapper, JobConf.getMapperClass), so a Java job's
// output is not checked against its classes).
package testenv
