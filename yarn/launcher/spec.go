package launcher

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Names of the files the launcher and the executor share. SpecFile and Binary
// are the link names of the local resources in the container's working
// directory; the others live in the action directory on HDFS. The link names
// are unusual on purpose: they share the working directory with the user's
// <file> and <archive> entries.
const (
	// Binary is the link name of the staged gozie binary.
	Binary = "__gozie_launcher__"
	// SpecFile is the link name of the launch spec; the executor writes it
	// into the action directory as SpecFile too.
	SpecFile = "__gozie_launch__.json"
	// ResultFile is the launcher's result in the action directory.
	ResultFile = "result.json"
	// IDFile holds the application id of the launcher that ran the action,
	// written by the launcher before it starts the action's command (the
	// recovery-id guard: a second launcher for the same run refuses to run).
	IDFile = "launcher.id"
)

// SpecVersion is the version of the Spec format written by this code.
const SpecVersion = 1

// Action types the launcher runs.
const (
	TypeShell     = "shell"
	TypeJava      = "java"
	TypeHive      = "hive"
	TypeMapReduce = "map-reduce"
)

// Defaults of the Spec's timing fields.
const (
	DefaultHeartbeat       = 10 * time.Second
	DefaultKillGrace       = 200 * time.Millisecond
	DefaultCallbackTimeout = 10 * time.Second
	// DefaultMaxOutputData is Oozie's oozie.action.max.output.data.
	DefaultMaxOutputData = 2048
)

// Spec is the launch spec: everything the launcher needs to run one action
// run, written by the executor into the action directory and localized into
// the container as [SpecFile]. It is JSON; unknown fields are ignored so that
// an older launcher can read a newer spec's fields it does not know.
type Spec struct {
	// Version is SpecVersion.
	Version int `json:"version"`
	// Type is TypeShell, TypeJava, TypeHive or TypeMapReduce.
	Type string `json:"type"`
	// ActionID is the workflow action id (<jobID>@<node>), for logs.
	ActionID string `json:"actionId"`
	// User is the HDFS user the launcher acts as.
	User string `json:"user"`
	// NameNode is the default filesystem of the launcher (hdfs://host:port),
	// used for bare paths.
	NameNode string `json:"nameNode"`
	// ActionDir is the run's directory (a full URI), where the launcher
	// writes ResultFile and IDFile.
	ActionDir string `json:"actionDir"`
	// CallbackURL, if set, is called with the final status appended once the
	// run ended.
	CallbackURL string `json:"callbackUrl,omitempty"`
	// SchedulerAddress overrides the scheduler address (host:port) that the
	// container's Hadoop configuration (HADOOP_CONF_DIR) or, without one,
	// the AMRM token names.
	SchedulerAddress string `json:"schedulerAddress,omitempty"`
	// Heartbeat is the interval between heartbeats to the RM; zero means
	// DefaultHeartbeat.
	Heartbeat Duration `json:"heartbeat,omitempty"`
	// KillGrace is how long the action's process group has between SIGTERM
	// and SIGKILL; zero means DefaultKillGrace. It must stay below the
	// NodeManager's own grace (yarn.nodemanager.sleep-delay-before-sigkill.ms,
	// 250 ms), after which the launcher itself is killed.
	KillGrace Duration `json:"killGrace,omitempty"`
	// CallbackTimeout bounds all attempts of the callback together; zero
	// means DefaultCallbackTimeout.
	CallbackTimeout Duration `json:"callbackTimeout,omitempty"`
	// CaptureOutput keeps the action's output properties: stdout for shell,
	// the file named by the oozie.action.output.properties system property
	// for java.
	CaptureOutput bool `json:"captureOutput,omitempty"`
	// MaxOutputData bounds the captured output in bytes; zero means
	// DefaultMaxOutputData.
	MaxOutputData int `json:"maxOutputData,omitempty"`
	// ChildTag is the YARN tag for applications the action starts itself
	// (MapReduce, Tez, Spark), so that a kill can find them.
	ChildTag string `json:"childTag,omitempty"`
	// Prepare lists paths to delete and then create before the command runs.
	Prepare *Prepare `json:"prepare,omitempty"`
	// Resources lists the link names of the localized files and archives,
	// checked before the command runs.
	Resources []string `json:"resources,omitempty"`
	// Env is added to the command's environment.
	Env map[string]string `json:"env,omitempty"`
	// Conf is the action configuration, written for the command as Hadoop
	// configuration XML (OOZIE_ACTION_CONF_XML, oozie.action.conf.xml).
	Conf map[string]string `json:"conf,omitempty"`
	// Shell describes a shell action (Type TypeShell).
	Shell *ShellSpec `json:"shell,omitempty"`
	// Java describes a java action (Type TypeJava).
	Java *JavaSpec `json:"java,omitempty"`
	// Hive describes a hive action (Type TypeHive).
	Hive *HiveSpec `json:"hive,omitempty"`
	// MapReduce describes a map-reduce action (Type TypeMapReduce). Its job
	// configuration is Conf, which the launcher hands to the cluster's
	// `mapred job -submit` as the job file.
	MapReduce *MapReduceSpec `json:"mapReduce,omitempty"`
	// Spark describes a spark action (Type TypeSpark).
	Spark *SparkSpec `json:"spark,omitempty"`
	// Distcp describes a distcp action (Type TypeDistcp).
	Distcp *DistcpSpec `json:"distcp,omitempty"`
	// Pig describes a pig action (Type TypePig).
	Pig *PigSpec `json:"pig,omitempty"`
	// Sqoop describes a sqoop action (Type TypeSqoop).
	Sqoop *SqoopSpec `json:"sqoop,omitempty"`
	// Git describes a git action (Type TypeGit), which the launcher runs
	// itself.
	Git *GitSpec `json:"git,omitempty"`
}

// Prepare is the <prepare> block of an action: full URIs or paths on the
// default filesystem. Deletes may be Hadoop globs.
type Prepare struct {
	Delete []string `json:"delete,omitempty"`
	Mkdir  []string `json:"mkdir,omitempty"`
}

// ShellSpec is what a shell action runs.
type ShellSpec struct {
	// Exec is the command: a file name looked up in the working directory
	// and then on PATH (Oozie runs shell actions with PATH=.:$PATH).
	Exec string `json:"exec"`
	// Args are the command's arguments.
	Args []string `json:"args,omitempty"`
	// EnvVars are the <env-var> entries, NAME=VALUE each; $NAME references in
	// a value are expanded against the environment built so far.
	EnvVars []string `json:"envVars,omitempty"`
}

// JavaSpec is what a java action runs.
type JavaSpec struct {
	// MainClass is the class whose main method runs.
	MainClass string `json:"mainClass"`
	// Opts are JVM options, one per element.
	Opts []string `json:"opts,omitempty"`
	// Args are the main method's arguments.
	Args []string `json:"args,omitempty"`
	// Classpath is the class path; empty means the container's CLASSPATH, or
	// else the working directory and every jar in it.
	Classpath string `json:"classpath,omitempty"`
}

// HiveSpec is what a hive action runs: its script through the cluster's
// beeline, against HiveServer2.
type HiveSpec struct {
	// JDBCURL is the HiveServer2 to run against (beeline -u).
	JDBCURL string `json:"jdbcUrl"`
	// Password is beeline's -p; empty means "DUMMY", as Oozie sends.
	Password string `json:"password,omitempty"`
	// Script is the link name of the localized script; empty when Query is
	// set.
	Script string `json:"script,omitempty"`
	// Query is the inline query (hive-action 0.6 and later), run from a file
	// the launcher writes.
	Query string `json:"query,omitempty"`
	// Params are the <param> entries, NAME=VALUE each (--hivevar).
	Params []string `json:"params,omitempty"`
	// HiveConf is set in the session with --hiveconf, in key order.
	HiveConf map[string]string `json:"hiveConf,omitempty"`
	// Args are the <argument> entries, passed to beeline as they are.
	Args []string `json:"args,omitempty"`
}

// MapReduceSpec is what a map-reduce action runs: its job configuration
// (Spec.Conf) submitted with the cluster's `mapred job -submit`. The
// launcher returns as soon as the job is submitted and reports its
// application id (Result.NewID); the server then follows the job itself.
type MapReduceSpec struct {
	// Tool is the command that submits the job; empty means "mapred".
	Tool string `json:"tool,omitempty"`
}

// Duration is a time.Duration written in JSON as a Go duration string
// ("10s"); a number is read as milliseconds.
type Duration time.Duration

// MarshalJSON implements json.Marshaler.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON implements json.Unmarshaler.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("duration %q: %w", s, err)
		}
		*d = Duration(v)
		return nil
	}
	var ms int64
	if err := json.Unmarshal(b, &ms); err != nil {
		return fmt.Errorf("duration %s: want a string such as \"10s\" or milliseconds", b)
	}
	*d = Duration(time.Duration(ms) * time.Millisecond)
	return nil
}

// or returns d, or def when d is not positive.
func (d Duration) or(def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return time.Duration(d)
}

// ErrBadSpec is wrapped by every error about an invalid launch spec.
var ErrBadSpec = errors.New("invalid launch spec")

// ParseSpec decodes and validates a launch spec.
func ParseSpec(b []byte) (*Spec, error) {
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSpec, err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// Encode returns the spec as indented JSON.
func (s *Spec) Encode() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding launch spec: %w", err)
	}
	return append(b, '\n'), nil
}

// Validate checks that the spec can be run.
func (s *Spec) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadSpec, fmt.Sprintf(format, args...))
	}
	if s.Version != SpecVersion {
		return bad("version %d, this launcher reads version %d", s.Version, SpecVersion)
	}
	if s.ActionDir == "" || strings.HasPrefix(s.ActionDir, "/") || !strings.Contains(s.ActionDir, "://") {
		return bad("actionDir %q is not a full URI", s.ActionDir)
	}
	if s.MaxOutputData < 0 {
		return bad("maxOutputData %d is negative", s.MaxOutputData)
	}
	for _, r := range s.Resources {
		if r == "" || strings.HasPrefix(r, "/") || strings.Contains(r, "..") {
			return bad("resource link name %q must be a relative name", r)
		}
	}
	switch s.Type {
	case TypeShell:
		if s.Shell == nil || strings.TrimSpace(s.Shell.Exec) == "" {
			return bad("a shell action needs shell.exec")
		}
		for _, kv := range s.Shell.EnvVars {
			if _, _, ok := strings.Cut(kv, "="); !ok {
				return bad("env-var %q is not NAME=VALUE", kv)
			}
		}
	case TypeJava:
		if s.Java == nil || strings.TrimSpace(s.Java.MainClass) == "" {
			return bad("a java action needs java.mainClass")
		}
	case TypeHive:
		h := s.Hive
		if h == nil || strings.TrimSpace(h.JDBCURL) == "" {
			return bad("a hive action needs hive.jdbcUrl")
		}
		if (strings.TrimSpace(h.Script) == "") == (strings.TrimSpace(h.Query) == "") {
			return bad("a hive action needs exactly one of hive.script and hive.query")
		}
		if strings.HasPrefix(h.Script, "/") || strings.Contains(h.Script, "..") {
			return bad("hive.script %q must be a relative link name", h.Script)
		}
		for _, kv := range h.Params {
			if _, _, ok := strings.Cut(kv, "="); !ok {
				return bad("hive param %q is not NAME=VALUE", kv)
			}
		}
	case TypeMapReduce:
		if s.MapReduce == nil {
			return bad("a map-reduce action needs mapReduce")
		}
	case TypeSpark:
		if s.Spark == nil || len(s.Spark.Args) == 0 {
			return bad("a spark action needs spark.args")
		}
	case TypeSqoop:
		if s.Sqoop == nil || len(s.Sqoop.Args) == 0 {
			return bad("a sqoop action needs sqoop.args")
		}
	case TypeDistcp:
		return s.validateDistcp()
	case TypePig:
		return s.validatePig()
	case TypeGit:
		if err := s.Git.validate(); err != nil {
			return bad("%v", err)
		}
	default:
		return bad("unknown action type %q", s.Type)
	}
	return nil
}
