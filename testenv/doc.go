// Package testenv holds gozie's in-process stand-ins for a Hadoop cluster,
// each in its own package: minidfs (a NameNode and a DataNode), miniyarn (a
// ResourceManager with one NodeManager), minihs2 (HiveServer2), kdc (an MIT
// KDC), clustertools (the command-line tools of a node) and localcluster
// (all of them together, for gozie server -local and the end-to-end tests).
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
//	authentication is not enabled")
//	hadoop.rpc.protection (authentication, integrity,      minidfs, miniyarn   security/SaslPropertiesResolver.java, SaslRpcServer
//	privacy) is the qop offered; a client that picks         (AMRM)            QualityOfProtection, ipc/Server.java wrapWithSasl,
//	another is refused; past auth, every RPC travels in                        ipc/SaslRpcClient.java (WRAP, call id -33)
//	SASL WRAP messages
//	a standby answers StandbyException; clients fail over  minidfs, miniyarn   ipc/StandbyException, RMWebApp standby redirect
//	only a lease holder writes; a second writer gets       minidfs             namenode/LeaseManager, FSNamesystem.recoverLeaseInternal
//	AlreadyBeingCreatedException until the soft limit
//	an AM that exits without unregistering fails its       miniyarn            resourcemanager RMAppAttemptImpl (AMContainerFinished)
//	attempt
//	localization checks the resource's timestamp           miniyarn            yarn/util/FSDownload.java copy
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
//
// What the stand-ins leave out is listed in each package's documentation
// (minidfs: ACLs, snapshots, quotas, encryption zones; permissions of the
// DataNode's block tokens).
package testenv
