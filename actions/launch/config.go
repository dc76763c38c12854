package launch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// Defaults of Config. The launcher sizes are Oozie's
// (oozie.launcher.default.memory.mb, .vcores, .queue).
const (
	DefaultQueue       = "default"
	DefaultMemoryMB    = 2048
	DefaultVCores      = 1
	DefaultLauncherDir = "/user/{user}/gozie-sys/launcher"
	// DefaultCheckAllLookback is how far back the first CheckAll of a
	// process looks for finished applications.
	DefaultCheckAllLookback = 24 * time.Hour
	// DefaultCheckAllOverlap is how far before the previous CheckAll the
	// next one starts looking, to absorb clock skew between the server and
	// the RM.
	DefaultCheckAllOverlap = time.Minute
)

// ApplicationType is the YARN application type of every launcher.
const ApplicationType = "GOZIE"

// CommonTag is carried by every launcher application besides its run's tag;
// CheckAll finds all of them with one query.
const CommonTag = "gozie-launcher"

// ChildCommonTag is carried, besides the run's child tag, by the job a
// map-reduce action submits, which the server follows instead of the
// launcher: CheckAll finds finished launchers and such jobs with one query.
const ChildCommonTag = "gozie-child"

// ChildTag is the tag the action's own YARN applications (MapReduce, Tez,
// Spark jobs its command starts) should carry so that Kill finds them: the
// launcher hands it to the command as GOZIE_CHILD_TAG and in the action
// configuration (mapreduce.job.tags, tez.application.tags).
func ChildTag(runTag string) string { return runTag + "-child" }

// Config configures an Executor.
type Config struct {
	// Type is the action type the executor runs: "shell", "java", "hive"
	// or "map-reduce". Required.
	Type string
	// YARN is the ResourceManager client. Required.
	YARN *yarn.Client
	// FS reaches the cluster's filesystems by full URI: the workflow
	// application, its job-xml, file and archive entries, the action
	// directory and the staged launcher, all of them on filesystems the
	// workflow names. The server gives a *hadoop.Restricted, so that only the
	// schemes of gozie.filesystems.supported are reached. Required.
	FS hadoop.FileSystem
	// Binary is the local gozie binary staged as the launcher; empty means
	// the running executable.
	Binary string
	// LauncherDir is where staged binaries live, one sub-directory per
	// content hash: a full URI, or a path on the run's name node. "{user}"
	// stands for the run's user. Empty means DefaultLauncherDir.
	LauncherDir string
	// Queue, MemoryMB and VCores size launchers whose action does not say
	// (<launcher> or oozie.launcher.* properties); zero means the defaults.
	Queue    string
	MemoryMB int
	VCores   int
	// MaxOutputData bounds captured output in bytes; zero means
	// launcher.DefaultMaxOutputData.
	MaxOutputData int
	// Heartbeat and KillGrace are handed to the launcher; zero means the
	// launcher's defaults.
	Heartbeat time.Duration
	KillGrace time.Duration
	// Classpath entries follow the working directory on a java action's
	// class path, e.g. "{{HADOOP_CONF_DIR}}" and the Hadoop jar directories
	// (yarn.application.classpath); the NodeManager expands {{VAR}}.
	Classpath []string
	// Env is added to every launcher container's environment.
	Env map[string]string
	// Credentials, when set, returns the delegation tokens a run's
	// launcher carries (HDFS tokens for the NodeManager's localization and
	// the launcher's HDFS access, RM and Hive tokens for the jobs the
	// command submits). They go into the submission's credentials.tokens
	// under their service as alias, so the container's token file
	// (HADOOP_TOKEN_FILE_LOCATION) holds them. Nil: no tokens (a cluster
	// without Kerberos). An *actions.ExecError it returns keeps its kind
	// and code; other errors are retried (JA009).
	Credentials func(ctx context.Context, run *actions.Attempt) ([]hadoop.Token, error)
	// HiveJDBCURL is the HiveServer2 that hive actions run beeline against
	// when their configuration names none (oozie.hive2.jdbc.url).
	HiveJDBCURL string
	// HiveToken, when set, gets a HiveServer2 delegation token for a hive
	// run's user from the HiveServer2 of jdbcURL, a Kerberos URL
	// (principal= names the server); it is asked only when Credentials
	// gave no such token. Nil: hive runs carry no token unless their
	// <credential>s give one (a cluster without Kerberos). Errors are
	// treated as Credentials' are.
	HiveToken func(ctx context.Context, run *actions.Attempt, jdbcURL string) (hadoop.Token, error)
	// JobHistory is the cluster's MapReduce JobHistory server, from which
	// a map-reduce run whose job succeeded gets its counters (the run's
	// Stats, what hadoop:counters reads). Nil: no counters are collected.
	JobHistory *JobHistory
	// CheckAllLookback and CheckAllOverlap bound CheckAll's query; zero
	// means the defaults.
	CheckAllLookback time.Duration
	CheckAllOverlap  time.Duration
	// Clock is the time source; nil means the system clock.
	Clock clock.Clock
	// Logger receives the executor's log lines; nil discards them.
	Logger *slog.Logger
}

func (c *Config) setDefaults() error {
	switch c.Type {
	case launcher.TypeShell, launcher.TypeJava, launcher.TypeHive, launcher.TypeMapReduce:
	case launcher.TypeSpark:
	case launcher.TypeGit:
	case launcher.TypeDistcp, launcher.TypePig:
	case launcher.TypeSqoop:
	default:
		return fmt.Errorf("launch: Type %q: want %q, %q, %q or %q", c.Type,
			launcher.TypeShell, launcher.TypeJava, launcher.TypeHive, launcher.TypeMapReduce)
	}
	if c.YARN == nil {
		return errors.New("launch: Config.YARN is required")
	}
	if c.FS == nil {
		return errors.New("launch: Config.FS is required")
	}
	if c.Binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("launch: finding the gozie binary: %w", err)
		}
		c.Binary = exe
	}
	if c.LauncherDir == "" {
		c.LauncherDir = DefaultLauncherDir
	}
	if c.Queue == "" {
		c.Queue = DefaultQueue
	}
	if c.MemoryMB <= 0 {
		c.MemoryMB = DefaultMemoryMB
	}
	if c.VCores <= 0 {
		c.VCores = DefaultVCores
	}
	if c.MaxOutputData <= 0 {
		c.MaxOutputData = launcher.DefaultMaxOutputData
	}
	if c.CheckAllLookback <= 0 {
		c.CheckAllLookback = DefaultCheckAllLookback
	}
	if c.CheckAllOverlap <= 0 {
		c.CheckAllOverlap = DefaultCheckAllOverlap
	}
	if c.Clock == nil {
		c.Clock = clock.Real{}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return nil
}
