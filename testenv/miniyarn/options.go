package miniyarn

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gozie/gozie/yarn"
)

// Defaults of [Options].
const (
	DefaultMaxAMAttempts   = 2
	DefaultKillGrace       = 250 * time.Millisecond
	DefaultFinishingGrace  = 10 * time.Second
	DefaultUserHomeDir     = "/home/"
	DefaultQueue           = "default"
	DefaultApplicationName = "N/A"
	DefaultApplicationType = "YARN"
	// DefaultClusterID is yarn.resourcemanager.cluster-id of an HA pair.
	DefaultClusterID = "yarn-cluster"
	// StaticUser is who anonymous requests act as when they are allowed.
	StaticUser = "dr.who"
	// Version is the Hadoop version the fake RM reports.
	Version = "3.3.6"
)

// DefaultMaxResource is the default largest container the scheduler grants.
var DefaultMaxResource = yarn.Resource{MemoryMB: 8192, VCores: 32}

// Options configures [Start].
type Options struct {
	// WorkDir holds the NodeManager's local and log directories. Required;
	// t.TempDir() in tests.
	WorkDir string
	// Storage reads local resources. Nil means [LocalFS] (file:// URLs and plain
	// paths); the test environment backs it with HDFS.
	Storage Storage
	// Lenient turns off the strict ApplicationMaster rule: an AM container that
	// exits 0 without unregistering then ends FINISHED/SUCCEEDED. Strict (false)
	// is the default and matches a real cluster.
	Lenient bool
	// AnonymousAllowed lets requests without user.name run as dr.who; otherwise
	// they get 401, as with pseudo authentication and anonymous access off.
	AnonymousAllowed bool
	// Kerberos, when set, makes the RM Kerberized: its REST API accepts
	// only SPNEGO (and the hadoop.auth cookie it sets), issues RM
	// delegation tokens, and the NodeManager localizes hdfs:// resources
	// only with an HDFS delegation token of the submission. Nil: pseudo
	// authentication (user.name).
	Kerberos *KerberosOptions
	// Conf holds the core-site.xml properties the RM reads: the proxy-user
	// rules hadoop.proxyuser.<user>.users|groups|hosts, which decide whether
	// a request's user may act for the user its doAs parameter names, and
	// hadoop.user.group.static.mapping.overrides. Without rules no request
	// may use doAs. hadoop.rpc.protection (authentication, integrity,
	// privacy, or a list; default authentication) sets what the scheduler's
	// IPC server offers and requires of ApplicationMasters.
	Conf map[string]string
	// HDFSConf holds the hdfs-site.xml properties of the configuration the
	// NodeManager gives containers (HADOOP_CONF_DIR), e.g. dfs.nameservices
	// and the NameNodes of an HA nameservice.
	HDFSConf map[string]string
	// Standbys is the number of extra ResourceManagers of an HA group: each
	// has its own web endpoint and scheduler address, shares this RM's
	// state (the state store) and acts as a standby until [RM.Failover]
	// makes it the active one. With Standbys > 0 the generated
	// yarn-site.xml is an RM HA configuration (rm-ids rm1..rmN).
	Standbys int
	// ClusterID is yarn.resourcemanager.cluster-id under HA; empty means
	// DefaultClusterID.
	ClusterID string
	// Addrs fixes the listen addresses; empty means random loopback ports.
	Addrs Addrs
	// MaxResource is the scheduler's maximum allocation; zero fields take
	// DefaultMaxResource's.
	MaxResource yarn.Resource
	// MaxAMAttempts is yarn.resourcemanager.am.max-attempts: the default for
	// submissions without max-app-attempts and the upper bound for the others.
	// 0 means DefaultMaxAMAttempts.
	MaxAMAttempts int
	// KillGrace is the pause between SIGTERM and SIGKILL; 0 means
	// DefaultKillGrace (yarn.nodemanager.sleep-delay-before-sigkill.ms).
	KillGrace time.Duration
	// FinishingGrace is how long an AM container may keep running after it
	// unregistered before the NodeManager kills it; 0 means DefaultFinishingGrace.
	FinishingGrace time.Duration
	// UserHomeDir is HOME in containers (yarn.nodemanager.user-home-dir); empty
	// means DefaultUserHomeDir.
	UserHomeDir string
	// Env adds variables to every container's environment (after the user's,
	// before the NodeManager's own), e.g. a JAVA_HOME. HADOOP_CONF_DIR here
	// replaces the generated configuration directory (RM.HadoopConfDir) as
	// the NodeManager's own, which every container gets.
	Env map[string]string
	// ClusterTimestamp fixes the middle part of application ids; 0 means the
	// start time in milliseconds.
	ClusterTimestamp int64
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// OnTransition, when set, is called after every application state change,
	// in order, outside the RM's lock. It must not block for long.
	OnTransition func(id yarn.ApplicationID, state yarn.AppState)
	// Logger receives the fake RM's log lines; nil discards them.
	Logger *slog.Logger
	// LogAggregation is yarn.log-aggregation-enable: when an application
	// has ended and its containers are gone, the NodeManager moves their
	// logs to the aggregated store ([RM.AggregatedLogs]) and forgets the
	// application, so that its web services redirect to LogServerURL (or
	// answer 404 without one). Off, the NodeManager keeps serving the
	// local logs of ended containers.
	LogAggregation bool
	// LogServerURL is yarn.log.server.web-service.url, where the
	// NodeManager redirects requests for the logs of containers it no
	// longer has; [RM.SetLogServerURL] sets it after start.
	LogServerURL string
}

// Addrs are fixed listen addresses (host:port) of the RMs and the
// NodeManager, e.g. to keep a cluster's ports across restarts. An empty or
// missing entry means a random loopback port. Web and Scheduler, when
// given, have one entry per RM (1+Standbys), in RM order (rm1 first).
type Addrs struct {
	// Web are the RMs' web endpoints (yarn.resourcemanager.webapp.address).
	Web []string
	// Scheduler are the RMs' ApplicationMasterProtocol addresses
	// (yarn.resourcemanager.scheduler.address).
	Scheduler []string
	// NodeManager is the NodeManager's web server (container logs).
	NodeManager string
}

// at returns entry i of addrs, or "" (a random port) when there is none.
func at(addrs []string, i int) string {
	if i < len(addrs) {
		return addrs[i]
	}
	return ""
}

func (o *Options) withDefaults() (Options, error) {
	v := *o
	if v.WorkDir == "" {
		return v, errors.New("miniyarn: Options.WorkDir is required")
	}
	if v.Storage == nil {
		v.Storage = LocalFS{}
	}
	if v.MaxResource.MemoryMB <= 0 {
		v.MaxResource.MemoryMB = DefaultMaxResource.MemoryMB
	}
	if v.MaxResource.VCores <= 0 {
		v.MaxResource.VCores = DefaultMaxResource.VCores
	}
	if v.MaxAMAttempts <= 0 {
		v.MaxAMAttempts = DefaultMaxAMAttempts
	}
	if v.KillGrace <= 0 {
		v.KillGrace = DefaultKillGrace
	}
	if v.FinishingGrace <= 0 {
		v.FinishingGrace = DefaultFinishingGrace
	}
	if v.UserHomeDir == "" {
		v.UserHomeDir = DefaultUserHomeDir
	}
	if v.Now == nil {
		v.Now = time.Now
	}
	if v.ClusterTimestamp <= 0 {
		v.ClusterTimestamp = v.Now().UnixMilli()
	}
	if v.Logger == nil {
		v.Logger = slog.New(slog.DiscardHandler)
	}
	if v.Kerberos != nil {
		k := *v.Kerberos
		if err := k.check(); err != nil {
			return v, err
		}
		v.Kerberos = &k
	}
	if v.Standbys < 0 {
		return v, errors.New("miniyarn: Options.Standbys must not be negative")
	}
	if v.ClusterID == "" {
		v.ClusterID = DefaultClusterID
	}
	for name, list := range map[string][]string{"Web": v.Addrs.Web, "Scheduler": v.Addrs.Scheduler} {
		if len(list) != 0 && len(list) != v.Standbys+1 {
			return v, fmt.Errorf("miniyarn: Options.Addrs.%s has %d entries, want one per RM (%d)", name, len(list), v.Standbys+1)
		}
	}
	return v, nil
}
