package conf

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/internal/gcbudget"
)

// Setting describes one server configuration key. Settings returns the table; it is the one
// place where keys, defaults and their documentation are written down.
type Setting struct {
	// Key is the property name, as written in gozie-site.xml.
	Key string
	// Default is the raw default value; it may refer to other keys as ${key} and to
	// ${user.name}.
	Default string
	// Type is the kind of value: "string", "duration", "int" or "bool".
	Type string
	// Doc says what the setting does, with the Oozie property it mirrors where there is one.
	Doc string
	// Secret marks a value that may hold a password; Server.Dump redacts it.
	Secret bool

	apply func(s *Server, v string) error
	// redact, when set, replaces RedactPassword for a Secret value.
	redact func(v string) string
}

// EnvName returns the environment variable that overrides key: the key upper-cased with '.'
// and '-' replaced by '_', e.g. gozie.http.address → GOZIE_HTTP_ADDRESS.
func EnvName(key string) string {
	return strings.NewReplacer(".", "_", "-", "_").Replace(strings.ToUpper(key))
}

// FlagName returns the command-line flag that overrides key: the key without its "gozie."
// prefix, e.g. gozie.http.address → -http.address.
func FlagName(key string) string { return strings.TrimPrefix(key, "gozie.") }

// Settings returns a copy of the table of server settings, in documentation order.
func Settings() []Setting { return append([]Setting(nil), settings...) }

// settingByKey finds a setting of the table.
func settingByKey(key string) (Setting, bool) {
	for _, st := range settings {
		if st.Key == key {
			return st, true
		}
	}
	return Setting{}, false
}

// settings is the table of every server setting and its default.
var settings = []Setting{
	// HTTP and identity.
	str("gozie.http.address", ":11000",
		"Address (host:port) the REST API listens on; Oozie's default port is 11000.",
		func(s *Server) *string { return &s.HTTP.Address }, checkHostPort),
	dur("gozie.http.shutdown-timeout", "30s",
		"How long a shutdown waits for in-flight HTTP requests to finish.",
		func(s *Server) *time.Duration { return &s.HTTP.ShutdownTimeout }),
	str("gozie.http.authentication.type", "simple",
		"Authentication of REST clients: simple (user.name parameter) or kerberos (SPNEGO).",
		func(s *Server) *string { return &s.HTTP.AuthenticationType }, oneOf("simple", "kerberos")),
	boolean("gozie.http.authentication.simple.anonymous-allowed", "true",
		"With simple authentication, serve requests without user.name as anonymous; false answers them 401 "+
			"(Oozie: oozie.authentication.simple.anonymous.allowed).",
		func(s *Server) *bool { return &s.HTTP.AnonymousAllowed }),
	str("gozie.http.authentication.kerberos.principal", "HTTP/_HOST",
		"Service principal of SPNEGO, HTTP/<host>[@REALM]; _HOST is replaced by the server's host name and * "+
			"accepts every HTTP/ principal of the keytab (Oozie: oozie.authentication.kerberos.principal).",
		func(s *Server) *string { return &s.HTTP.KerberosPrincipal }, checkHTTPPrincipal),
	str("gozie.http.authentication.kerberos.keytab", "",
		"Keytab holding the key of gozie.http.authentication.kerberos.principal; required with kerberos "+
			"authentication (Oozie: oozie.authentication.kerberos.keytab).",
		func(s *Server) *string { return &s.HTTP.KerberosKeytab }, nil),
	{
		Key: "gozie.http.authentication.signature.secret", Default: "", Type: "string", Secret: true,
		Doc: "Secret signing the hadoop.auth cookie; empty means a random secret per process, so servers sharing " +
			"a load balancer need the same value (Oozie: oozie.authentication.signature.secret).",
		apply: func(s *Server, v string) error {
			s.HTTP.SignatureSecret = v
			return nil
		},
		redact: func(v string) string {
			if v == "" {
				return ""
			}
			return "xxxxx"
		},
	},
	dur("gozie.http.authentication.token.validity", "36000s",
		"How long a hadoop.auth cookie stays valid after an authentication "+
			"(Oozie: oozie.authentication.token.validity, in seconds there).",
		func(s *Server) *time.Duration { return &s.HTTP.TokenValidity }),
	boolean("gozie.authorization.enabled", "true",
		"Authorize REST calls: a job is modified (every action=, rerun, change, update, SLA and bulk command) only "+
			"by its owner, the users and groups of its oozie.job.acl (or group.name) and admins; admin operations "+
			"(system mode, purge, share-library update) only by admins; anonymous callers only read "+
			"(Oozie: oozie.service.AuthorizationService.authorization.enabled, false there).",
		func(s *Server) *bool { return &s.Authorization.Enabled }),
	boolean("gozie.authorization.read-requires-acl", "false",
		"Reading a job (info, definition, log, graph) needs the rights of modifying it; otherwise any caller reads.",
		func(s *Server) *bool { return &s.Authorization.ReadRequiresACL }),
	names("gozie.admin.users", "${user.name}",
		"Administrators, comma-separated; the lines of "+AdminUsersFile+" in the configuration directory are added "+
			"(Oozie: adminusers.txt). The default is the user the server runs as.",
		func(s *Server) *[]string { return &s.Authorization.AdminUsers }),
	names("gozie.admin.groups", "",
		"Groups (of the operating system) whose members are administrators "+
			"(Oozie: oozie.service.AuthorizationService.admin.groups).",
		func(s *Server) *[]string { return &s.Authorization.AdminGroups }),
	names("gozie.authorization.system-info.users", "",
		"When set, only these users and admins read admin/configuration, os-env and java-sys-properties "+
			"(Oozie: oozie.service.AuthorizationService.system.info.authorized.users).",
		func(s *Server) *[]string { return &s.Authorization.SystemInfoUsers }),
	{
		Key: "gozie.http.proxyusers", Default: "", Type: "string",
		Doc: "Users allowed to act for others with the doAs parameter, and from where and for whom: entries " +
			"USER:hosts=H1,H2;groups=G1,G2 separated by spaces or ', ' (hosts: names, IP addresses or CIDR " +
			"ranges; groups: operating-system groups of the doAs user; * means any), e.g. " +
			"\"hue:hosts=*;groups=*, etl:hosts=gw1,10.0.0.0/8;groups=analysts\" " +
			"(Oozie: oozie.service.ProxyUserService.proxyuser.USER.hosts and .groups).",
		apply: func(s *Server, v string) error {
			p, err := ParseProxyUsers(v)
			s.HTTP.ProxyUsers = p
			return err
		},
	},
	str("gozie.base.url", "",
		"Public base URL of this server including the /oozie context path (Oozie: oozie.base.url); "+
			"empty means http://<hostname>:<port of gozie.http.address>/oozie.",
		func(s *Server) *string { return &s.BaseURL }, checkHTTPURL(false)),
	str("gozie.callback.base.url", "${gozie.base.url}/callback",
		"URL that launchers call back when an action ends "+
			"(Oozie: oozie.service.CallbackService.base.url).",
		func(s *Server) *string { return &s.CallbackBaseURL }, checkHTTPURL(false)),
	str("gozie.system.id", "gozie-${user.name}",
		"System id embedded in job ids, of which ids use the first 10 characters (Oozie: oozie.system.id).",
		func(s *Server) *string { return &s.SystemID }, checkSystemID),
	str("gozie.processing.timezone", "UTC",
		"Time zone in which job times are parsed and printed: UTC or GMT+HHMM / GMT-HHMM "+
			"(Oozie: oozie.processing.timezone).",
		func(s *Server) *string { return &s.ProcessingTimezone }, checkProcessingTimezone),
	intv("gozie.configuration.substitute.depth", "20", 1,
		"Maximum ${name} substitutions in one job configuration value "+
			"(Oozie: oozie.configuration.substitute.depth).",
		func(s *Server) *int { return &s.SubstituteDepth }),

	intv("gozie.heap.budget.mb", strconv.Itoa(gcbudget.DefaultMB), 0,
		"Heap size in MiB up to which the garbage collector lets garbage grow to four times "+
			"the live heap (GOGC=400) before collecting, which saves CPU on every request; "+
			"beyond it the collector works as Go's default does. 0, or GOGC or GOMEMLIMIT "+
			"in the environment, keeps Go's own settings.",
		func(s *Server) *int { return &s.HeapBudgetMB }),

	// Storage and logging.
	str("gozie.data.dir", "./gozie-data",
		"Directory for local state: the SQLite database and work files.",
		func(s *Server) *string { return &s.DataDir }, nil),
	{
		Key: "gozie.db.url", Default: "sqlite:${gozie.data.dir}/gozie.db", Type: "string", Secret: true,
		Doc: "Database: sqlite:<path> for one server, postgres://user:password@host/db for several.",
		apply: func(s *Server, v string) error {
			if err := checkDBURL(v); err != nil {
				return err
			}
			s.DB.URL = v
			return nil
		},
	},
	intv("gozie.db.max-connections", "10", 1,
		"Maximum open database connections.",
		func(s *Server) *int { return &s.DB.MaxConnections }),
	{
		Key: "gozie.log.level", Default: "info", Type: "string",
		Doc: "Log level: debug, info, warn or error.",
		apply: func(s *Server, v string) error {
			l, err := parseLogLevel(v)
			s.Log.Level = l
			return err
		},
	},
	str("gozie.log.format", "text",
		"Log format: text or json.",
		func(s *Server) *string { return &s.Log.Format }, oneOf("text", "json")),

	// Engine.
	intv("gozie.engine.workers", strconv.Itoa(DefaultEngineWorkers), 1,
		"Triggers run at the same time by one server (Oozie: oozie.service.CallableQueueService.threads).",
		func(s *Server) *int { return &s.Engine.Workers }),
	dur("gozie.engine.lease", in(DefaultEngineLease, time.Second),
		"How long a claimed trigger stays leased; a crashed server's work is resumed by another "+
			"server once its leases expire, or at once by a server of the same host and PID namespace "+
			"that finds the crashed process gone.",
		func(s *Server) *time.Duration { return &s.Engine.Lease }),
	dur("gozie.engine.max-sleep", in(DefaultEngineMaxSleep, time.Second),
		"Longest the trigger loop sleeps without a wake-up, a fallback for missed notifications.",
		func(s *Server) *time.Duration { return &s.Engine.MaxSleep }),

	intv("gozie.engine.max-attempts", strconv.Itoa(DefaultEngineMaxAttempts), 1,
		"Attempts of one piece of work (a trigger) that may end without success, by an error or by the server "+
			"dying while running it, before the engine gives up and removes it: a coordinator job or action it "+
			"was for fails with the error, readable in its info (other work is logged), and the server goes on.",
		func(s *Server) *int { return &s.Engine.MaxAttempts }),
	// Coordinators.
	dur("gozie.coord.materialization.window", in(DefaultCoordMaterializationWindow, time.Hour),
		"How far ahead of now coordinator actions are materialized "+
			"(Oozie: CoordMaterializeTriggerService.materialization.window).",
		func(s *Server) *time.Duration { return &s.Coord.MaterializationWindow }),
	dur("gozie.coord.default.timeout", in(DefaultCoordTimeout, time.Minute),
		"Coordinator action timeout when the app gives none (Oozie: oozie.service.coord.normal.default.timeout).",
		func(s *Server) *time.Duration { return &s.Coord.DefaultTimeout }),
	dur("gozie.coord.default.max-timeout", in(DefaultCoordMaxTimeout, time.Minute),
		"Cap on coordinator action timeouts; negative timeouts become this "+
			"(Oozie: oozie.service.coord.default.max.timeout).",
		func(s *Server) *time.Duration { return &s.Coord.MaxTimeout }),
	intv("gozie.coord.default.concurrency", strconv.Itoa(DefaultCoordConcurrency), 1,
		"Coordinator concurrency when the app gives none (Oozie: oozie.service.coord.default.concurrency).",
		func(s *Server) *int { return &s.Coord.DefaultConcurrency }),
	intv("gozie.coord.default.throttle", strconv.Itoa(DefaultCoordThrottle), 1,
		"Maximum WAITING actions of a coordinator when the app gives none "+
			"(Oozie: oozie.service.coord.default.throttle).",
		func(s *Server) *int { return &s.Coord.DefaultThrottle }),
	boolean("gozie.coord.check.maximum-frequency", "false",
		"Reject coordinator frequencies below 5 minutes, as Oozie does by default "+
			"(oozie.service.coord.check.maximum.frequency); gozie triggers are exact, so one minute works.",
		func(s *Server) *bool { return &s.Coord.CheckMaximumFrequency }),
	dur("gozie.coord.input-check.min-interval", in(DefaultCoordInputCheckMinInterval, time.Second),
		"First delay between input (done-flag) checks of a waiting action; it backs off from here.",
		func(s *Server) *time.Duration { return &s.Coord.InputCheckMinInterval }),
	dur("gozie.coord.input-check.max-interval", in(DefaultCoordInputCheckMaxInterval, time.Second),
		"Longest delay between input checks (Oozie's fixed interval: "+
			"oozie.service.coord.input.check.requeue.interval).",
		func(s *Server) *time.Duration { return &s.Coord.InputCheckMaxInterval }),
	boolean("gozie.coord.input-check.edit-stream", strconv.FormatBool(DefaultCoordEditStream),
		"Follow the default filesystem's edit stream (HDFS inotify: getEditsFromTxid) from the last "+
			"transaction recorded in the database and check an action at once when a file or directory it "+
			"waits on is closed, renamed into place or made. The NameNode serves the stream to HDFS "+
			"superusers only; elsewhere (or while it fails) the server logs why and input checks poll as "+
			"without it. One server of several follows it at a time (a lease). Oozie has no such path.",
		func(s *Server) *bool { return &s.Coord.EditStream }),
	intv("gozie.coord.max-instances", strconv.Itoa(DefaultCoordMaxInstances), 1,
		"Dataset instances one data-in or data-out of a coordinator action may name, and each range in it "+
			"(start-instance to end-instance, coord:currentRange, coord:latestRange, coord:futureRange, "+
			"coord:absoluteRange), and how many instances coord:latest looks back and coord:future ahead. "+
			"The default is a week of one-minute instances; a submission over it is refused (E1010, naming "+
			"the element). Oozie has no such bound.",
		func(s *Server) *int { return &s.Coord.MaxInstances }),
	intv("gozie.coord.actions.default-length", "1000", 1,
		"Coordinator actions returned by job info when len is not given (Oozie: oozie.coord.actions.default.length).",
		func(s *Server) *int { return &s.Coord.ActionsDefaultLength }),

	// Workflow actions.
	intv("gozie.action.retries.max", strconv.Itoa(DefaultActionRetriesMax), 0,
		"Automatic retries of an action start that failed transiently; after them the action waits in START_MANUAL and its workflow is suspended (Oozie: oozie.action.retries.max).",
		func(s *Server) *int { return &s.Action.RetriesMax }),
	dur("gozie.action.retry.interval", in(DefaultActionRetryInterval, time.Second),
		"Delay before a transient retry of an action start (Oozie: oozie.action.retry.interval).",
		func(s *Server) *time.Duration { return &s.Action.RetryInterval }),
	str("gozie.action.retry.policy", DefaultActionRetryPolicy,
		"Transient retry policy: periodic or exponential (Oozie: oozie.action.retry.policy).",
		func(s *Server) *string { return &s.Action.RetryPolicy }, oneOf("periodic", "exponential")),
	intv("gozie.action.user-retry.max", strconv.Itoa(DefaultActionUserRetryMax), 0,
		"Upper bound on a workflow action's retry-max (Oozie: LiteWorkflowStoreService.user.retry.max).",
		func(s *Server) *int { return &s.Action.UserRetryMax }),
	dur("gozie.action.user-retry.interval", in(DefaultActionUserRetryInterval, time.Minute),
		"Default retry-interval of a workflow action (Oozie: LiteWorkflowStoreService.user.retry.inteval).",
		func(s *Server) *time.Duration { return &s.Action.UserRetryInterval }),
	str("gozie.action.user-retry.policy", DefaultActionUserRetryPolicy,
		"Default retry-policy of a workflow action: periodic or exponential.",
		func(s *Server) *string { return &s.Action.UserRetryPolicy }, oneOf("periodic", "exponential")),
	intv("gozie.action.max-output-data", "2048", 1,
		"Maximum bytes of captured action output (Oozie: oozie.action.max.output.data).",
		func(s *Server) *int { return &s.Action.MaxOutputData }),
	dur("gozie.action.poll.interval", in(DefaultActionPollInterval, time.Second),
		"Interval of the batched YARN status poll of running actions, one ResourceManager query for all of "+
			"them, the fallback for lost callbacks (Oozie has callbacks and the action checker only).",
		func(s *Server) *time.Duration { return &s.Action.PollInterval }),
	dur("gozie.action.check.interval", in(DefaultActionCheckInterval, time.Second),
		"Interval of the checks of a running action whose type the batched poll does not follow (hive2 "+
			"statements, in-process actions), one check per action "+
			"(Oozie: oozie.service.ActionCheckerService.action.check.interval, 60 s there).",
		func(s *Server) *time.Duration { return &s.Action.CheckInterval }),
	dur("gozie.action.fallback-check.interval", in(DefaultActionFallbackCheckInterval, time.Minute),
		"Interval of the check of its own of an action the batched poll follows, for the rare run the batch "+
			"misses (an application the ResourceManager forgot between two polls).",
		func(s *Server) *time.Duration { return &s.Action.FallbackCheckInterval }),
	intv("gozie.workflow.definition-cache.size", strconv.Itoa(DefaultWorkflowDefinitionCacheSize), 1,
		"How many workflow jobs' parsed definitions a server keeps in memory, the least recently used "+
			"dropped first; a dropped job is parsed again when next used.",
		func(s *Server) *int { return &s.Action.DefinitionCacheSize }),

	// Hadoop, YARN and the launcher.
	str("gozie.hadoop.conf.dir", "",
		"Hadoop client configuration directory; empty means $HADOOP_CONF_DIR, else $HADOOP_HOME/etc/hadoop.",
		func(s *Server) *string { return &s.Hadoop.ConfDir }, nil),
	str("gozie.actions.default.name-node", "",
		"Name node for actions that name none (Oozie: oozie.actions.default.name-node), and the "+
			"filesystem of paths without a scheme; when empty, such actions are refused (E0701) and "+
			"paths without a scheme are on fs.defaultFS.",
		func(s *Server) *string { return &s.Hadoop.DefaultNameNode }, nil),
	names("gozie.filesystems.supported", "hdfs",
		"Filesystem schemes that the paths users name may use (application paths, datasets, fs actions, "+
			"job-xml, file and archive, email attachments), comma-separated and case-insensitive; a path "+
			"without a scheme is judged by its default filesystem's. file, the server's own disk, is refused "+
			"unless listed here; * allows every scheme. Other schemes answer E0904 "+
			"(Oozie: oozie.service.HadoopAccessorService.supported.filesystems, hdfs,hftp,webhdfs there). "+
			"A listed scheme gozie has no filesystem for (anything but hdfs and file) is accepted and fails "+
			"where it is used with Hadoop's \"No FileSystem for scheme\"; an input check on it "+
			"waits until the action times out, as Oozie's does.",
		func(s *Server) *[]string { return &s.Hadoop.SupportedFilesystems }),
	str("gozie.actions.default.resource-manager", "",
		"Resource manager for actions that name none (Oozie: oozie.actions.default.job-tracker); "+
			"empty means the Hadoop configuration's resource managers.",
		func(s *Server) *string { return &s.Hadoop.DefaultResourceManager }, nil),
	str("gozie.actions.default.hive2.jdbc.url", "",
		"HiveServer2 JDBC URL (jdbc:hive2://host:port/db) that hive actions run beeline against when their "+
			"configuration sets no oozie.hive2.jdbc.url; `gozie server -local` sets the local cluster's.",
		func(s *Server) *string { return &s.Hadoop.DefaultHiveJDBCURL }, checkJDBCURL),
	str("gozie.kerberos.principal", "",
		"Kerberos principal gozie logs in as to reach Hadoop when hadoop.security.authentication is kerberos.",
		func(s *Server) *string { return &s.Kerberos.Principal }, nil),
	str("gozie.kerberos.keytab", "",
		"Keytab file of gozie.kerberos.principal.",
		func(s *Server) *string { return &s.Kerberos.Keytab }, nil),
	str("gozie.launcher.queue", "default",
		"YARN queue of launcher applications (Oozie: oozie.launcher.default.queue).",
		func(s *Server) *string { return &s.Launcher.Queue }, nil),
	intv("gozie.launcher.memory-mb", "2048", 1,
		"Memory of a launcher container in MiB (Oozie: oozie.launcher.default.memory.mb).",
		func(s *Server) *int { return &s.Launcher.MemoryMB }),
	intv("gozie.launcher.vcores", "1", 1,
		"Virtual cores of a launcher container (Oozie: oozie.launcher.default.vcores).",
		func(s *Server) *int { return &s.Launcher.VCores }),

	// The email action's SMTP server.
	str("gozie.email.smtp.host", "localhost",
		"SMTP server of the email action (Oozie: oozie.email.smtp.host).",
		func(s *Server) *string { return &s.Email.Host }, nil),
	intv("gozie.email.smtp.port", "25", 1,
		"Port of the SMTP server (Oozie: oozie.email.smtp.port).",
		func(s *Server) *int { return &s.Email.Port }),
	str("gozie.email.smtp.from", "gozie@localhost",
		"Sender address of the email action's messages (Oozie: oozie.email.from.address).",
		func(s *Server) *string { return &s.Email.From }, nil),
	boolean("gozie.email.smtp.auth", "false",
		"Authenticate to the SMTP server with gozie.email.smtp.username and .password "+
			"(SMTP AUTH PLAIN, only over TLS or to localhost; Oozie: oozie.email.smtp.auth).",
		func(s *Server) *bool { return &s.Email.Auth }),
	str("gozie.email.smtp.username", "",
		"SMTP user name (Oozie: oozie.email.smtp.username).",
		func(s *Server) *string { return &s.Email.Username }, nil),
	{
		Key: "gozie.email.smtp.password", Default: "", Type: "string", Secret: true,
		Doc: "SMTP password (Oozie: oozie.email.smtp.password).",
		apply: func(s *Server, v string) error {
			s.Email.Password = v
			return nil
		},
		redact: func(v string) string {
			if v == "" {
				return ""
			}
			return "xxxxx"
		},
	},
	dur("gozie.email.smtp.timeout", "10s",
		"Bound on sending one message, connection included (Oozie: oozie.email.smtp.socket.timeout.ms).",
		func(s *Server) *time.Duration { return &s.Email.Timeout }),
	boolean("gozie.email.attachment.enabled", "true",
		"Allow the email action's <attachment> files (Oozie: oozie.email.attachment.enabled).",
		func(s *Server) *bool { return &s.Email.Attachments }),

	// The ssh action.
	names("gozie.action.ssh.key-files", "",
		"Private keys (OpenSSH or PEM, no passphrase) the server logs in to ssh actions' hosts with, "+
			"comma-separated; empty means ~/.ssh/id_ed25519, id_ecdsa and id_rsa of the server's user, as ssh does.",
		func(s *Server) *[]string { return &s.SSH.KeyFiles }),
	str("gozie.action.ssh.known-hosts", "",
		"known_hosts file (OpenSSH's format) holding the keys of the ssh actions' hosts; a host not in it is "+
			"refused (Oozie runs ssh with StrictHostKeyChecking=no, gozie never accepts an unknown host). Empty "+
			"means ~/.ssh/known_hosts of the server's user.",
		func(s *Server) *string { return &s.SSH.KnownHostsFile }, nil),
	intv("gozie.action.ssh.port", "22", 1,
		"SSH port of the ssh actions' hosts.",
		func(s *Server) *int { return &s.SSH.Port }),
	boolean("gozie.action.ssh.allow-user-at-host", "false",
		"Let an ssh action's user@host log in as a user other than the job's; otherwise that is "+
			"ERR_USER_MISMATCH (Oozie: oozie.action.ssh.allow.user.at.host, true there).",
		func(s *Server) *bool { return &s.SSH.AllowUserAtHost }),
	dur("gozie.action.ssh.connect-timeout", "20s",
		"Bound on connecting to an ssh action's host and the SSH handshake (Oozie's ssh -o ConnectTimeout=20).",
		func(s *Server) *time.Duration { return &s.SSH.ConnectTimeout }),

	// Purge.
	boolean("gozie.purge.enabled", "true",
		"Purge old finished jobs every gozie.purge.interval (Oozie's PurgeService); PUT admin/purge "+
			"works either way.",
		func(s *Server) *bool { return &s.Purge.Enabled }),
	dur("gozie.purge.workflow.older-than", in(DefaultPurgeWorkflowOlderThan, day),
		"Age after which finished workflows are purged, and the finished actions of running coordinators "+
			"with the workflows they ran (Oozie: oozie.service.PurgeService.older.than).",
		func(s *Server) *time.Duration { return &s.Purge.WorkflowOlderThan }),
	dur("gozie.purge.coord.older-than", in(DefaultPurgeCoordOlderThan, day),
		"Age after which finished coordinators that are not in a bundle are purged, once all their "+
			"workflows are old too (Oozie: oozie.service.PurgeService.coord.older.than).",
		func(s *Server) *time.Duration { return &s.Purge.CoordOlderThan }),
	dur("gozie.purge.bundle.older-than", in(DefaultPurgeBundleOlderThan, day),
		"Age after which finished bundles are purged with their coordinators, once those are old too "+
			"(Oozie: oozie.service.PurgeService.bundle.older.than).",
		func(s *Server) *time.Duration { return &s.Purge.BundleOlderThan }),
	boolean("gozie.purge.old-coord-action", strconv.FormatBool(DefaultPurgeOldCoordAction),
		"Also purge the finished actions of long-running coordinators, with their workflows, once those "+
			"are older than gozie.purge.workflow.older-than (Oozie: "+
			"oozie.service.PurgeService.purge.old.coord.action, off in Oozie, on in gozie).",
		func(s *Server) *bool { return &s.Purge.OldCoordAction }),
	dur("gozie.purge.interval", in(DefaultPurgeInterval, time.Hour),
		"How often the purge runs (Oozie: oozie.service.PurgeService.purge.interval).",
		func(s *Server) *time.Duration { return &s.Purge.Interval }),
	intv("gozie.purge.limit", strconv.Itoa(DefaultPurgeLimit), 1,
		"Jobs looked at per purge batch, each batch one short transaction "+
			"(Oozie: oozie.service.PurgeService.purge.limit).",
		func(s *Server) *int { return &s.Purge.Limit }),

	// SLA.
	{
		Key: "gozie.sla.default.alert-events", Default: DefaultSLAAlertEvents, Type: "string",
		Doc: "SLA events alerted when sla:alert-events is not given: a comma-separated list of " +
			"START_MISS, END_MISS, DURATION_MISS.",
		apply: func(s *Server, v string) error {
			if err := checkSLAEvents(v); err != nil {
				return err
			}
			s.SLA.DefaultAlertEvents = v
			return nil
		},
	},
	dur("gozie.sla.disable-alerts.older-than", in(DefaultSLADisableAlertsOlderThan, time.Hour),
		"SLA alerts are not sent for jobs whose nominal time is older than this "+
			"(Oozie: oozie.sla.disable.alerts.older.than).",
		func(s *Server) *time.Duration { return &s.SLA.DisableAlertsOlderThan }),
	boolean("gozie.sla.enabled", "true",
		"Run the SLA service: register sla:info blocks, judge their deadlines, serve /v2/sla and the dashboard "+
			"(Oozie's SLAService is off unless added to oozie.services.ext).",
		func(s *Server) *bool { return &s.SLA.Enabled }),
	str("gozie.sla.webhook.urls", "",
		"Comma-separated http(s) URLs that receive SLA events as JSON POST requests; empty sends none.",
		func(s *Server) *string { return &s.SLA.WebhookURLs }, checkURLList),
	{
		Key: "gozie.sla.webhook.events", Default: "START_MISS,END_MISS,DURATION_MISS", Type: "string",
		Doc: "SLA events posted to the webhooks: a comma-separated list of START_MET, START_MISS, DURATION_MET, " +
			"DURATION_MISS, END_MET, END_MISS, or ALL.",
		apply: func(s *Server, v string) error {
			if err := checkSLAEventList(v); err != nil {
				return err
			}
			s.SLA.WebhookEvents = v
			return nil
		},
	},
	intv("gozie.sla.webhook.attempts", "5", 1,
		"Attempts to deliver one event to a webhook (network errors, 5xx and 429 answers are retried).",
		func(s *Server) *int { return &s.SLA.WebhookAttempts }),
	dur("gozie.sla.webhook.backoff", "1s",
		"Delay before the second webhook attempt, doubled after each further failure up to one minute.",
		func(s *Server) *time.Duration { return &s.SLA.WebhookBackoff }),
	dur("gozie.sla.webhook.timeout", "10s",
		"Bound on one webhook request.",
		func(s *Server) *time.Duration { return &s.SLA.WebhookTimeout }),
	boolean("gozie.sla.email.enabled", "true",
		"Email SLA alerts to sla:alert-contact, for the events of sla:alert-events, through the gozie.email.smtp.* "+
			"server (Oozie: the SLA email event listener).",
		func(s *Server) *bool { return &s.SLA.EmailEnabled }),
}

// checkHTTPPrincipal accepts * or a service principal SERVICE/HOST[@REALM].
func checkHTTPPrincipal(v string) error {
	if v == "*" {
		return nil
	}
	name, realm, hasRealm := strings.Cut(v, "@")
	service, host, ok := strings.Cut(name, "/")
	if !ok || service == "" || host == "" || strings.Contains(host, "/") || (hasRealm && realm == "") {
		return fmt.Errorf("invalid service principal %q (want HTTP/<host>[@REALM] or *)", v)
	}
	return nil
}

// ProxyUser is one entry of gozie.http.proxyusers: a user who may act for others (doAs)
// from the listed hosts, for users in the listed groups. A list holding "*" allows any.
type ProxyUser struct {
	// User is the authenticated (real) user.
	User string
	// Hosts are the host names, IP addresses and CIDR ranges the user may call from.
	Hosts []string
	// Groups are the groups of which the impersonated user must be in one.
	Groups []string
}

// ParseProxyUsers parses the value of gozie.http.proxyusers: entries
// USER:hosts=H1,H2;groups=G1,G2 separated by white space (a comma ending an entry is
// dropped, so "a:hosts=*;groups=*, b:hosts=h;groups=g" reads as two entries). Both fields are
// required, once each, with non-empty lists; a user may have one entry only.
func ParseProxyUsers(v string) ([]ProxyUser, error) {
	var out []ProxyUser
	seen := map[string]bool{}
	for _, entry := range strings.Fields(v) {
		entry = strings.TrimSuffix(entry, ",")
		if entry == "" {
			continue
		}
		user, spec, ok := strings.Cut(entry, ":")
		if !ok || user == "" {
			return nil, fmt.Errorf("proxy user entry %q: want USER:hosts=H1,H2;groups=G1,G2", entry)
		}
		if seen[user] {
			return nil, fmt.Errorf("proxy user %q is listed twice", user)
		}
		seen[user] = true
		p := ProxyUser{User: user}
		for _, field := range strings.Split(spec, ";") {
			key, list, ok := strings.Cut(field, "=")
			var dst *[]string
			switch strings.TrimSpace(key) {
			case "hosts":
				dst = &p.Hosts
			case "groups":
				dst = &p.Groups
			default:
				return nil, fmt.Errorf("proxy user %q: unknown field %q (want hosts=H1,H2 and groups=G1,G2)", user, field)
			}
			if !ok {
				return nil, fmt.Errorf("proxy user %q: field %q has no value", user, key)
			}
			if *dst != nil {
				return nil, fmt.Errorf("proxy user %q: %s given twice", user, key)
			}
			for _, item := range strings.Split(list, ",") {
				if item = strings.TrimSpace(item); item == "" {
					return nil, fmt.Errorf("proxy user %q: empty item in %s=%s", user, key, list)
				}
				if dst == &p.Hosts && strings.Contains(item, "/") {
					if _, err := netip.ParsePrefix(item); err != nil {
						return nil, fmt.Errorf("proxy user %q: invalid CIDR range %q", user, item)
					}
				}
				*dst = append(*dst, item)
			}
		}
		if p.Hosts == nil || p.Groups == nil {
			return nil, fmt.Errorf("proxy user %q: both hosts and groups are required", user)
		}
		out = append(out, p)
	}
	return out, nil
}

// checkURLList accepts an empty value or comma-separated http(s) URLs.
func checkURLList(v string) error {
	for _, u := range strings.Split(v, ",") {
		if u = strings.TrimSpace(u); u == "" {
			continue
		}
		if err := checkHTTPURL(false)(u); err != nil {
			return err
		}
	}
	return nil
}

// checkSLAEventList accepts ALL or a comma-separated list of SLA event names.
func checkSLAEventList(v string) error {
	for _, e := range strings.Split(v, ",") {
		switch strings.ToUpper(strings.TrimSpace(e)) {
		case "ALL", "START_MET", "START_MISS", "DURATION_MET", "DURATION_MISS", "END_MET", "END_MISS":
		default:
			return fmt.Errorf("invalid SLA event %q", strings.TrimSpace(e))
		}
	}
	return nil
}

// checkJDBCURL accepts an empty value or a jdbc:hive2:// URL.
func checkJDBCURL(s string) error {
	if s != "" && !strings.HasPrefix(strings.ToLower(s), "jdbc:hive2://") {
		return fmt.Errorf("invalid HiveServer2 JDBC URL %q (want jdbc:hive2://host:port/db)", s)
	}
	return nil
}

// str declares a string setting with an optional check.
func str(key, def, doc string, field func(*Server) *string, check func(string) error) Setting {
	return Setting{Key: key, Default: def, Type: "string", Doc: doc, apply: func(s *Server, v string) error {
		if check != nil {
			if err := check(v); err != nil {
				return err
			}
		}
		*field(s) = v
		return nil
	}}
}

// names declares a comma-separated list of names; empty entries are dropped.
func names(key, def, doc string, field func(*Server) *[]string) Setting {
	return Setting{Key: key, Default: def, Type: "string", Doc: doc, apply: func(s *Server, v string) error {
		var out []string
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				out = append(out, n)
			}
		}
		*field(s) = out
		return nil
	}}
}

// dur declares a positive duration setting.
func dur(key, def, doc string, field func(*Server) *time.Duration) Setting {
	return Setting{Key: key, Default: def, Type: "duration", Doc: doc, apply: func(s *Server, v string) error {
		d, err := ParseDuration(v)
		if err != nil {
			return err
		}
		if d == 0 {
			return fmt.Errorf("invalid duration %q (must be positive)", v)
		}
		*field(s) = d
		return nil
	}}
}

// intv declares an integer setting of at least min.
func intv(key, def string, min int, doc string, field func(*Server) *int) Setting {
	return Setting{Key: key, Default: def, Type: "int", Doc: doc, apply: func(s *Server, v string) error {
		n, err := parseInt(v, min)
		if err != nil {
			return err
		}
		*field(s) = n
		return nil
	}}
}

// boolean declares a boolean setting.
func boolean(key, def, doc string, field func(*Server) *bool) Setting {
	return Setting{Key: key, Default: def, Type: "bool", Doc: doc, apply: func(s *Server, v string) error {
		b, err := parseBool(v)
		if err != nil {
			return err
		}
		*field(s) = b
		return nil
	}}
}
