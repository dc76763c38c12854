package conf

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// SiteFile is the name of the server configuration file in the configuration directory.
const SiteFile = "gozie-site.xml"

// DefaultConfigDir is the configuration directory used when none is given (-config-dir).
const DefaultConfigDir = "./conf"

// Origins of values reported by Server.Effective, besides the site file's path and the
// "env NAME" and "flag -name" forms.
const (
	SourceDefault = "default"
	SourceDerived = "derived"
)

// Server is the gozie server configuration. Every field comes from one key of the Settings
// table, which holds the defaults and the documentation; Load fills it.
type Server struct {
	// HTTP configures the REST listener.
	HTTP HTTP
	// Authorization says who may do what through the REST API.
	Authorization Authorization
	// BaseURL is the public URL of the REST API including the /oozie context path.
	BaseURL string
	// CallbackBaseURL is the URL launchers call back when an action ends.
	CallbackBaseURL string
	// SystemID is embedded in job ids.
	SystemID string
	// ProcessingTimezone is UTC or GMT±HHMM.
	ProcessingTimezone string
	// SubstituteDepth bounds ${name} substitutions in job configuration values.
	SubstituteDepth int
	// DataDir holds local state.
	DataDir string
	// HeapBudgetMB is the heap, in MiB, below which the garbage collector
	// trades memory for CPU (package gcbudget); 0 keeps Go's defaults.
	HeapBudgetMB int
	// DB configures the store.
	DB DB
	// Log configures logging.
	Log Log
	// Engine configures the trigger loop.
	Engine Engine
	// Coord holds coordinator defaults.
	Coord Coord
	// Action holds workflow action defaults.
	Action Action
	// Hadoop locates the cluster.
	Hadoop HadoopSettings
	// Kerberos is gozie's own identity towards Hadoop.
	Kerberos Kerberos
	// Launcher sizes launcher applications on YARN.
	Launcher Launcher
	// Purge configures the removal of old jobs.
	Purge Purge
	// SLA holds SLA defaults.
	SLA SLA
	// Email is the SMTP server of the email action.
	Email Email
	// SSH is how the ssh action logs in to its hosts.
	SSH SSH
	// UserName is the operating-system user the server runs as, the value of ${user.name}.
	UserName string

	effective []EffectiveValue
}

// HTTP configures the REST listener.
type HTTP struct {
	// Address is the listen address (host:port).
	Address string
	// ShutdownTimeout bounds the wait for in-flight requests on shutdown.
	ShutdownTimeout time.Duration
	// AuthenticationType is "simple" or "kerberos".
	AuthenticationType string
	// AnonymousAllowed serves simple-authentication requests without user.name.
	AnonymousAllowed bool
	// KerberosPrincipal is the SPNEGO service principal (HTTP/_HOST, HTTP/host@REALM or *).
	KerberosPrincipal string
	// KerberosKeytab is the keytab file of KerberosPrincipal.
	KerberosKeytab string
	// SignatureSecret signs the hadoop.auth cookie; empty means a random one per process.
	SignatureSecret string
	// TokenValidity is how long a hadoop.auth cookie stays valid.
	TokenValidity time.Duration
	// ProxyUsers may act for other users with the doAs parameter.
	ProxyUsers []ProxyUser
}

// Authorization says who may do what through the REST API.
type Authorization struct {
	// Enabled turns authorization on: jobs are modified only by their owner, their ACL
	// and admins, admin operations only by admins.
	Enabled bool
	// ReadRequiresACL makes reading a job need the rights of modifying it.
	ReadRequiresACL bool
	// AdminUsers are the administrators by name: gozie.admin.users and the lines of
	// AdminUsersFile in the configuration directory.
	AdminUsers []string
	// AdminGroups are the groups whose members are administrators.
	AdminGroups []string
	// SystemInfoUsers, when not empty, are the only users besides admins who may read the
	// server's configuration and environment.
	SystemInfoUsers []string
}

// AdminUsersFile is Oozie's file of administrators in the configuration directory: one
// user per line, # comments.
const AdminUsersFile = "adminusers.txt"

// DB configures the store.
type DB struct {
	// URL is sqlite:<path> or a postgres:// URL.
	URL string
	// MaxConnections bounds open connections.
	MaxConnections int
}

// Log configures logging.
type Log struct {
	// Level is the minimum level logged.
	Level slog.Level
	// Format is "text" or "json".
	Format string
}

// Engine configures the trigger loop.
type Engine struct {
	// Workers is the number of triggers run at once.
	Workers int
	// Lease is how long a claimed trigger stays leased.
	Lease time.Duration
	// MaxSleep is the longest sleep without a wake-up.
	MaxSleep time.Duration
	// MaxAttempts is how many attempts of a trigger may fail before the engine gives up on it.
	MaxAttempts int
}

// Coord holds coordinator defaults.
type Coord struct {
	// MaterializationWindow is how far ahead actions are materialized.
	MaterializationWindow time.Duration
	// DefaultTimeout applies when the app gives no timeout.
	DefaultTimeout time.Duration
	// MaxTimeout caps timeouts; negative timeouts become it.
	MaxTimeout time.Duration
	// DefaultConcurrency applies when the app gives none.
	DefaultConcurrency int
	// DefaultThrottle applies when the app gives none.
	DefaultThrottle int
	// CheckMaximumFrequency rejects frequencies below 5 minutes.
	CheckMaximumFrequency bool
	// InputCheckMinInterval is the first delay between input checks.
	InputCheckMinInterval time.Duration
	// InputCheckMaxInterval is the longest delay between input checks.
	InputCheckMaxInterval time.Duration
	// EditStream follows the default filesystem's edit stream (HDFS inotify) to wake
	// waiting actions when their datasets appear.
	EditStream bool
	// ActionsDefaultLength is the number of actions job info returns by default.
	ActionsDefaultLength int
	// MaxInstances bounds the dataset instances of one data-in or data-out, and of each range.
	MaxInstances int
}

// Action holds workflow action defaults.
type Action struct {
	// RetriesMax bounds transient retries.
	RetriesMax int
	// RetryInterval is the delay before a transient retry.
	RetryInterval time.Duration
	// RetryPolicy is "periodic" or "exponential".
	RetryPolicy string
	// UserRetryMax bounds an action's retry-max.
	UserRetryMax int
	// UserRetryInterval is the default retry-interval.
	UserRetryInterval time.Duration
	// UserRetryPolicy is the default retry-policy.
	UserRetryPolicy string
	// MaxOutputData bounds captured output in bytes.
	MaxOutputData int
	// PollInterval is the interval of the batched YARN status poll.
	PollInterval time.Duration
	// CheckInterval is the interval of the checks of actions the batched poll does not follow.
	CheckInterval time.Duration
	// FallbackCheckInterval is the interval of the own check of actions the poll follows.
	FallbackCheckInterval time.Duration
	// DefinitionCacheSize bounds the workflow jobs whose parsed definitions are kept.
	DefinitionCacheSize int
}

// HadoopSettings locates the Hadoop cluster.
type HadoopSettings struct {
	// ConfDir is the Hadoop client configuration directory; empty means the environment's.
	ConfDir string
	// DefaultNameNode is used by actions that name none, and for paths
	// without a scheme; when empty, such actions are E0701 errors and such
	// paths are on fs.defaultFS.
	DefaultNameNode string
	// DefaultResourceManager is used by actions that name none; empty means the configured RMs.
	DefaultResourceManager string
	// SupportedFilesystems are the schemes user-named paths may use ("hdfs"; "file" only when an
	// administrator adds it; "*" for all).
	SupportedFilesystems []string
	// DefaultHiveJDBCURL is the HiveServer2 of hive actions whose configuration names none.
	DefaultHiveJDBCURL string
}

// Kerberos is gozie's identity towards Hadoop.
type Kerberos struct {
	// Principal is the principal gozie logs in as.
	Principal string
	// Keytab is the keytab file of Principal.
	Keytab string
}

// Launcher sizes launcher applications.
type Launcher struct {
	// Queue is the YARN queue.
	Queue string
	// MemoryMB is the container memory in MiB.
	MemoryMB int
	// VCores is the container's virtual cores.
	VCores int
}

// Purge configures the removal of old jobs.
type Purge struct {
	// Enabled runs the purge on its schedule.
	Enabled bool
	// OldCoordAction also purges the old finished actions of running coordinators.
	OldCoordAction bool
	// WorkflowOlderThan is the age of finished workflows that are purged.
	WorkflowOlderThan time.Duration
	// CoordOlderThan is the age of finished coordinators that are purged.
	CoordOlderThan time.Duration
	// BundleOlderThan is the age of finished bundles that are purged.
	BundleOlderThan time.Duration
	// Interval is how often the purge runs.
	Interval time.Duration
	// Limit is the number of jobs purged per batch.
	Limit int
}

// SLA holds SLA defaults.
type SLA struct {
	// DefaultAlertEvents is a comma-separated list of START_MISS, END_MISS, DURATION_MISS.
	DefaultAlertEvents string
	// DisableAlertsOlderThan suppresses alerts for old nominal times.
	DisableAlertsOlderThan time.Duration
	// Enabled runs the SLA service.
	Enabled bool
	// WebhookURLs are comma-separated URLs that receive SLA events.
	WebhookURLs string
	// WebhookEvents are the events posted (comma list, or ALL).
	WebhookEvents string
	// WebhookAttempts, WebhookBackoff and WebhookTimeout govern one delivery.
	WebhookAttempts int
	WebhookBackoff  time.Duration
	WebhookTimeout  time.Duration
	// EmailEnabled sends alert emails through the Email SMTP server.
	EmailEnabled bool
}

// SSH is how the ssh action logs in to its hosts.
type SSH struct {
	// KeyFiles are the server's private keys; empty means ssh's default identities.
	KeyFiles []string
	// KnownHostsFile lists the hosts' keys; empty means ~/.ssh/known_hosts.
	KnownHostsFile string
	// Port is the hosts' SSH port.
	Port int
	// AllowUserAtHost lets an action's user@host name a user other than the job's.
	AllowUserAtHost bool
	// ConnectTimeout bounds connecting and the SSH handshake.
	ConnectTimeout time.Duration
}

// Email is the SMTP server the email action sends through.
type Email struct {
	// Host and Port locate the SMTP server.
	Host string
	Port int
	// From is the sender address.
	From string
	// Auth turns on SMTP authentication (PLAIN) with Username and Password.
	Auth     bool
	Username string
	Password string
	// Timeout bounds one message's whole SMTP conversation.
	Timeout time.Duration
	// Attachments allows the action's <attachment> element.
	Attachments bool
}

// EffectiveValue is one key of the loaded configuration with the value in force (after
// ${...} substitution) and where it came from.
type EffectiveValue struct {
	// Key is the setting's key.
	Key string
	// Value is the value in force.
	Value string
	// Source is SourceDefault, SourceDerived, the site file's path, "env NAME" or "flag -name".
	Source string
}

// Sources says where Load reads configuration from. The zero value reads ./conf/gozie-site.xml
// and the process environment.
type Sources struct {
	// ConfigDir holds gozie-site.xml; empty means DefaultConfigDir. A missing file means
	// defaults; a missing directory is an error unless it is the default one.
	ConfigDir string
	// LookupEnv looks up GOZIE_* variables; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Flags holds the explicitly set command-line values by configuration key (see
	// RegisterFlags); they override everything else.
	Flags map[string]string
	// Hostname is used for the default base URL; empty means os.Hostname.
	Hostname string
	// UserName is the value of ${user.name}; empty means the current operating-system user.
	UserName string
}

// rawValue is a value with its origin, before typed parsing.
type rawValue struct {
	value  string
	source string
	line   int
}

// Load builds the server configuration from, in increasing precedence, the defaults of the
// Settings table, gozie-site.xml in the configuration directory, GOZIE_<KEY> environment
// variables (see EnvName) and src.Flags. Values may refer to other settings and to
// ${user.name} with ${...}, resolved like job configurations. Unknown gozie-site.xml keys or
// flag keys and invalid values are *Error values naming the source and the key, e.g.
// `conf/gozie-site.xml:12: gozie.engine.lease: invalid duration "x"` or
// `env GOZIE_ENGINE_LEASE: gozie.engine.lease: invalid duration "x"`.
func Load(src Sources) (*Server, error) {
	lookupEnv := src.LookupEnv
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	raw := make(map[string]rawValue, len(settings))
	for _, st := range settings {
		raw[st.Key] = rawValue{value: st.Default, source: SourceDefault}
	}
	if err := readSiteFile(src.ConfigDir, raw); err != nil {
		return nil, err
	}
	for _, st := range settings {
		name := EnvName(st.Key)
		if v, ok := lookupEnv(name); ok {
			raw[st.Key] = rawValue{value: v, source: "env " + name}
		}
	}
	flagKeys := make([]string, 0, len(src.Flags))
	for k := range src.Flags {
		flagKeys = append(flagKeys, k)
	}
	sort.Strings(flagKeys)
	for _, k := range flagKeys {
		source := "flag -" + FlagName(k)
		if _, ok := raw[k]; !ok {
			return nil, &Error{Source: source, Key: k, Err: errors.New("unknown configuration key")}
		}
		raw[k] = rawValue{value: src.Flags[k], source: source}
	}

	userName := src.UserName
	if userName == "" {
		userName = currentUser(lookupEnv)
	}
	resolved, err := resolveRaw(raw, userName)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(resolved["gozie.base.url"]) == "" {
		raw["gozie.base.url"] = rawValue{value: defaultBaseURL(src.Hostname, resolved["gozie.http.address"]), source: SourceDerived}
		if resolved, err = resolveRaw(raw, userName); err != nil {
			return nil, err
		}
	}

	s := &Server{UserName: userName}
	for _, st := range settings {
		v := strings.TrimSpace(resolved[st.Key])
		rv := raw[st.Key]
		if err := st.apply(s, v); err != nil {
			return nil, &Error{Source: rv.source, Line: rv.line, Key: st.Key, Err: err}
		}
		s.effective = append(s.effective, EffectiveValue{Key: st.Key, Value: v, Source: rv.source})
	}
	admins, err := readAdminUsers(src.ConfigDir)
	if err != nil {
		return nil, err
	}
	s.Authorization.AdminUsers = append(s.Authorization.AdminUsers, admins...)
	if s.HTTP.AuthenticationType == "kerberos" && s.HTTP.KerberosKeytab == "" {
		rv := raw["gozie.http.authentication.kerberos.keytab"]
		return nil, &Error{Source: rv.source, Line: rv.line, Key: "gozie.http.authentication.kerberos.keytab",
			Err: errors.New("required when gozie.http.authentication.type is kerberos")}
	}
	if s.Coord.InputCheckMinInterval > s.Coord.InputCheckMaxInterval {
		rv := raw["gozie.coord.input-check.min-interval"]
		return nil, &Error{Source: rv.source, Line: rv.line, Key: "gozie.coord.input-check.min-interval",
			Err: fmt.Errorf("must not exceed gozie.coord.input-check.max-interval (%s)", s.Coord.InputCheckMaxInterval)}
	}
	return s, nil
}

// readAdminUsers reads AdminUsersFile of the configuration directory; a missing file is
// no administrators.
func readAdminUsers(dir string) ([]string, error) {
	if dir == "" {
		dir = DefaultConfigDir
	}
	b, err := os.ReadFile(filepath.Join(dir, AdminUsersFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the administrators: %w", err)
	}
	var users []string
	for _, line := range strings.Split(string(b), "\n") {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" {
			users = append(users, line)
		}
	}
	return users, nil
}

// readSiteFile layers gozie-site.xml of dir over raw.
func readSiteFile(dir string, raw map[string]rawValue) error {
	explicit := dir != ""
	if !explicit {
		dir = DefaultConfigDir
	}
	if explicit {
		if _, err := os.Stat(dir); err != nil {
			return fmt.Errorf("configuration directory: %w", err)
		}
	}
	path := filepath.Join(dir, SiteFile)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading server configuration: %w", err)
	}
	defer f.Close()
	props, err := ReadConfigurationXML(f, path)
	if err != nil {
		return err
	}
	for _, e := range props.Entries() {
		if _, ok := raw[e.Name]; !ok {
			return &Error{Source: path, Line: e.Line, Key: e.Name, Err: errors.New("unknown configuration key")}
		}
		raw[e.Name] = rawValue{value: e.Value, source: path, line: e.Line}
	}
	return nil
}

// resolveRaw substitutes ${key} and ${user.name} references in every raw value.
func resolveRaw(raw map[string]rawValue, userName string) (map[string]string, error) {
	lookup := func(name string) (string, bool) {
		if name == "user.name" {
			return userName, true
		}
		rv, ok := raw[name]
		return rv.value, ok
	}
	out := make(map[string]string, len(raw))
	for k, rv := range raw {
		v, err := substituteValue(rv.value, DefaultSubstituteDepth, lookup)
		if err != nil {
			return nil, &Error{Source: rv.source, Line: rv.line, Key: k, Err: err}
		}
		out[k] = v
	}
	return out, nil
}

// defaultBaseURL derives http://<hostname>:<port>/oozie from the listen address.
func defaultBaseURL(hostname, address string) string {
	if hostname == "" {
		if h, err := os.Hostname(); err == nil && h != "" {
			hostname = h
		} else {
			hostname = "localhost"
		}
	}
	_, port, err := net.SplitHostPort(strings.TrimSpace(address))
	if err != nil || port == "" {
		port = "11000"
	}
	return "http://" + net.JoinHostPort(hostname, port) + "/oozie"
}

// currentUser returns the operating-system user name, for ${user.name}.
func currentUser(lookupEnv func(string) (string, bool)) string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if v, ok := lookupEnv("USER"); ok && v != "" {
		return v
	}
	return "gozie"
}

// Effective returns every setting with its value in force and its origin, in table order.
// Secret values are not redacted; use Dump for display.
func (s *Server) Effective() []EffectiveValue {
	return append([]EffectiveValue(nil), s.effective...)
}

// Dump returns the configuration in force as key/value pairs for display (the REST
// admin/configuration call), with the passwords of secret settings redacted.
func (s *Server) Dump() map[string]string {
	m := make(map[string]string, len(s.effective))
	for _, e := range s.effective {
		v := e.Value
		if st, ok := settingByKey(e.Key); ok && st.Secret {
			if st.redact != nil {
				v = st.redact(v)
			} else {
				v = RedactPassword(v)
			}
		}
		m[e.Key] = v
	}
	return m
}
