package conf

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// HadoopFiles are the Hadoop client configuration files LoadHadoop reads, in order; a later
// file overrides an earlier one unless the earlier definition is final.
var HadoopFiles = []string{"core-site.xml", "hdfs-site.xml", "mapred-site.xml", "yarn-site.xml"}

// Defaults of the Hadoop keys gozie reads (core-default.xml, yarn-default.xml).
const (
	defaultFS            = "file:///"
	defaultRMHostname    = "0.0.0.0"
	defaultRMWebAppPort  = 8088
	defaultRMWebAppHTTPS = 8090
	defaultRMPort        = 8032
	defaultRMScheduler   = 8030
)

// Hadoop is the Hadoop client configuration of a cluster, read from a HADOOP_CONF_DIR. Values
// are looked up the way Hadoop's Configuration does: ${name} references to other properties
// and ${env.NAME} references to environment variables are expanded (up to
// DefaultSubstituteDepth substitutions), and well-known keys fall back to Hadoop's defaults.
type Hadoop struct {
	// Dir is the directory the files were read from, empty when none was given.
	Dir string
	// Files lists the files that were found and read.
	Files []string
	props *Properties
	env   func(string) (string, bool)
}

// HadoopConfDir returns the Hadoop configuration directory named by the environment:
// $HADOOP_CONF_DIR, else $HADOOP_HOME/etc/hadoop, else "". lookupEnv is usually os.LookupEnv.
func HadoopConfDir(lookupEnv func(string) (string, bool)) string {
	if dir, ok := lookupEnv("HADOOP_CONF_DIR"); ok && dir != "" {
		return dir
	}
	if home, ok := lookupEnv("HADOOP_HOME"); ok && home != "" {
		return filepath.Join(home, "etc", "hadoop")
	}
	return ""
}

// LoadHadoop reads the HadoopFiles present in dir. Missing files are skipped, and an empty
// dir gives a configuration of defaults only; a directory that does not exist is an error.
// ${env.NAME} references are resolved with os.LookupEnv.
func LoadHadoop(dir string) (*Hadoop, error) {
	h := &Hadoop{Dir: dir, props: &Properties{}, env: os.LookupEnv}
	if dir == "" {
		return h, nil
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("hadoop configuration directory: %w", err)
	}
	for _, name := range HadoopFiles {
		path := filepath.Join(dir, name)
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("hadoop configuration: %w", err)
		}
		props, err := ReadConfigurationXML(f, path)
		f.Close()
		if err != nil {
			return nil, err
		}
		h.add(props)
		h.Files = append(h.Files, path)
	}
	return h, nil
}

// NewHadoop returns a Hadoop configuration holding props, as if read from one file;
// ${env.NAME} references resolve with lookupEnv (nil resolves none).
func NewHadoop(props *Properties, lookupEnv func(string) (string, bool)) *Hadoop {
	h := &Hadoop{props: &Properties{}, env: lookupEnv}
	h.add(props)
	return h
}

// add layers props over the current properties, keeping final ones.
func (h *Hadoop) add(props *Properties) {
	for _, e := range props.Entries() {
		if old, ok := h.props.Lookup(e.Name); ok && old.Final {
			continue
		}
		h.props.Put(e)
	}
}

// Raw returns the unexpanded value of key and whether it is set.
func (h *Hadoop) Raw(key string) (string, bool) { return h.props.Get(key) }

// Get returns the expanded value of key and whether it is set. An expansion that exceeds the
// substitution depth returns the raw value.
func (h *Hadoop) Get(key string) (string, bool) {
	raw, ok := h.props.Get(key)
	if !ok {
		return "", false
	}
	return h.expand(raw), true
}

// GetDefault returns the expanded and trimmed value of key, or def when key is unset or blank.
func (h *Hadoop) GetDefault(key, def string) string {
	if v, ok := h.Get(key); ok && strings.TrimSpace(v) != "" {
		return strings.TrimSpace(v)
	}
	return def
}

// Strings returns the comma-separated values of key, trimmed, without empty items.
func (h *Hadoop) Strings(key string) []string {
	v, _ := h.Get(key)
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Bool returns the value of key as Hadoop reads booleans ("true"/"false", any case, trimmed),
// or def when it is unset or not a boolean.
func (h *Hadoop) Bool(key string, def bool) bool {
	switch strings.ToLower(h.GetDefault(key, "")) {
	case "true":
		return true
	case "false":
		return false
	}
	return def
}

// Properties returns a copy of all properties with their raw values.
func (h *Hadoop) Properties() *Properties { return h.props.Clone() }

// Map returns all properties with expanded values, e.g. to build a colinmarc/hdfs
// hadoopconf.HadoopConf.
func (h *Hadoop) Map() map[string]string {
	m := make(map[string]string, h.props.Len())
	for k, v := range h.props.All() {
		m[k] = h.expand(v)
	}
	return m
}

// expand resolves ${name} and ${env.NAME} references like Hadoop's Configuration.
func (h *Hadoop) expand(raw string) string {
	v, err := substituteValue(raw, DefaultSubstituteDepth, func(name string) (string, bool) {
		if env, ok := strings.CutPrefix(name, "env."); ok {
			if h.env == nil {
				return "", false
			}
			return h.env(env)
		}
		return h.props.Get(name)
	})
	if err != nil {
		return raw
	}
	return v
}

// DefaultFS returns fs.defaultFS (or its deprecated name fs.default.name), default "file:///".
func (h *Hadoop) DefaultFS() string {
	if v := h.GetDefault("fs.defaultFS", ""); v != "" {
		return v
	}
	return h.GetDefault("fs.default.name", defaultFS)
}

// SecurityAuthentication returns hadoop.security.authentication in lower case: "simple"
// (the default) or "kerberos".
func (h *Hadoop) SecurityAuthentication() string {
	return strings.ToLower(h.GetDefault("hadoop.security.authentication", "simple"))
}

// Kerberos reports whether the cluster requires Kerberos authentication.
func (h *Hadoop) Kerberos() bool { return h.SecurityAuthentication() == "kerberos" }

// NameNodePrincipal returns dfs.namenode.kerberos.principal (e.g. "nn/_HOST@REALM"), or "".
func (h *Hadoop) NameNodePrincipal() string {
	return h.GetDefault("dfs.namenode.kerberos.principal", "")
}

// ResourceManagerPrincipal returns yarn.resourcemanager.principal, or "".
func (h *Hadoop) ResourceManagerPrincipal() string {
	return h.GetDefault("yarn.resourcemanager.principal", "")
}

// RMHAEnabled reports yarn.resourcemanager.ha.enabled.
func (h *Hadoop) RMHAEnabled() bool { return h.Bool("yarn.resourcemanager.ha.enabled", false) }

// RMHAIDs returns yarn.resourcemanager.ha.rm-ids when ResourceManager HA is enabled, else nil.
func (h *Hadoop) RMHAIDs() []string {
	if !h.RMHAEnabled() {
		return nil
	}
	return h.Strings("yarn.resourcemanager.ha.rm-ids")
}

// HTTPSOnly reports whether yarn.http.policy is HTTPS_ONLY, in which case the RM web
// addresses are the https ones.
func (h *Hadoop) HTTPSOnly() bool {
	return strings.EqualFold(h.GetDefault("yarn.http.policy", "HTTP_ONLY"), "HTTPS_ONLY")
}

// ResourceManagerWebAppURLs returns the base URLs ("http://host:8088") of the
// ResourceManager web applications: one per HA id from yarn.resourcemanager.webapp.address.<id>
// (or .webapp.https.address.<id> under HTTPS_ONLY), falling back to
// yarn.resourcemanager.hostname.<id> with the default port; without HA, the single
// yarn.resourcemanager.webapp.address, falling back to yarn.resourcemanager.hostname.
func (h *Hadoop) ResourceManagerWebAppURLs() []string {
	key, port, scheme := "yarn.resourcemanager.webapp.address", defaultRMWebAppPort, "http"
	if h.HTTPSOnly() {
		key, port, scheme = "yarn.resourcemanager.webapp.https.address", defaultRMWebAppHTTPS, "https"
	}
	addrs := h.rmAddresses(key, port)
	urls := make([]string, len(addrs))
	for i, a := range addrs {
		urls[i] = scheme + "://" + a
	}
	return urls
}

// ResourceManagerAddresses returns the RM client (application submission) IPC addresses,
// yarn.resourcemanager.address[.<id>], default port 8032.
func (h *Hadoop) ResourceManagerAddresses() []string {
	return h.rmAddresses("yarn.resourcemanager.address", defaultRMPort)
}

// SchedulerAddresses returns the RM scheduler addresses an ApplicationMaster registers with,
// yarn.resourcemanager.scheduler.address[.<id>], default port 8030.
func (h *Hadoop) SchedulerAddresses() []string {
	return h.rmAddresses("yarn.resourcemanager.scheduler.address", defaultRMScheduler)
}

// rmAddresses resolves key (per HA id when HA is on) with the hostname fallback.
func (h *Hadoop) rmAddresses(key string, port int) []string {
	if ids := h.RMHAIDs(); len(ids) > 0 {
		out := make([]string, 0, len(ids))
		for _, id := range ids {
			out = append(out, h.GetDefault(key+"."+id, joinHostPort(h.rmHostname(id, defaultRMHostname), port)))
		}
		return out
	}
	return []string{h.GetDefault(key, joinHostPort(h.rmHostname("", defaultRMHostname), port))}
}

// rmHostname returns yarn.resourcemanager.hostname.<id> (id non-empty),
// else yarn.resourcemanager.hostname, else def.
func (h *Hadoop) rmHostname(id, def string) string {
	if id != "" {
		def = h.GetDefault("yarn.resourcemanager.hostname", def)
		return h.GetDefault("yarn.resourcemanager.hostname."+id, def)
	}
	return h.GetDefault("yarn.resourcemanager.hostname", def)
}

// ResourceManagerSet is the ResourceManager cluster a Hadoop configuration
// describes, with every name the configuration gives it: what an action's
// resourceManager (jobTracker) value may say to mean this cluster.
// actions/rmroute decides which values name it.
type ResourceManagerSet struct {
	// ConfDir is the directory the configuration was read from ("" for
	// defaults only), for error messages.
	ConfDir string
	// ClusterID is yarn.resourcemanager.cluster-id, "" when unset.
	ClusterID string
	// HA reports ResourceManager HA: yarn.resourcemanager.ha.enabled with
	// rm-ids (RMHAIDs).
	HA bool
	// Address is yarn.resourcemanager.address as set, "" when unset. Under HA
	// the per-rm-id addresses are the RMs' own, but the plain key is often
	// still there, and job.properties copy it.
	Address string
	// RMs are the ResourceManagers: one per rm-id under HA, else one.
	RMs []ResourceManagerNames
}

// ResourceManagerNames are the names of one ResourceManager of a
// ResourceManagerSet.
type ResourceManagerNames struct {
	// ID is the rm-id, "" without HA.
	ID string
	// Hostname is yarn.resourcemanager.hostname[.<id>] (under HA the
	// per-id key, else the plain one), "" when neither is set.
	Hostname string
	// Address is the client RPC address, as ResourceManagerAddresses
	// gives it.
	Address string
	// WebAppURL is the web application's base URL, as
	// ResourceManagerWebAppURLs gives it.
	WebAppURL string
}

// ResourceManagers returns the configured ResourceManager cluster and its
// names; RMs[i] has the i-th address of ResourceManagerAddresses and
// ResourceManagerWebAppURLs.
func (h *Hadoop) ResourceManagers() ResourceManagerSet {
	set := ResourceManagerSet{
		ConfDir:   h.Dir,
		ClusterID: h.GetDefault("yarn.resourcemanager.cluster-id", ""),
		Address:   h.GetDefault("yarn.resourcemanager.address", ""),
	}
	ids := h.RMHAIDs()
	set.HA = len(ids) > 0
	if !set.HA {
		ids = []string{""}
	}
	rpc, web := h.ResourceManagerAddresses(), h.ResourceManagerWebAppURLs()
	for i, id := range ids {
		set.RMs = append(set.RMs, ResourceManagerNames{ID: id, Hostname: h.rmHostname(id, ""),
			Address: rpc[i], WebAppURL: web[i]})
	}
	return set
}

// WebAppURLs returns the web application base URLs of the set's RMs.
func (s ResourceManagerSet) WebAppURLs() []string {
	out := make([]string, len(s.RMs))
	for i, rm := range s.RMs {
		out[i] = rm.WebAppURL
	}
	return out
}

// DefaultYARNApplicationClasspath is Hadoop's default of
// yarn.application.classpath in its cross-platform form
// (YarnConfiguration.DEFAULT_YARN_CROSS_PLATFORM_APPLICATION_CLASSPATH):
// the NodeManager expands {{VAR}} with its own environment, so a client
// that does not know the node's OS can send it.
var DefaultYARNApplicationClasspath = []string{
	"{{HADOOP_CONF_DIR}}",
	"{{HADOOP_COMMON_HOME}}/share/hadoop/common/*",
	"{{HADOOP_COMMON_HOME}}/share/hadoop/common/lib/*",
	"{{HADOOP_HDFS_HOME}}/share/hadoop/hdfs/*",
	"{{HADOOP_HDFS_HOME}}/share/hadoop/hdfs/lib/*",
	"{{HADOOP_YARN_HOME}}/share/hadoop/yarn/*",
	"{{HADOOP_YARN_HOME}}/share/hadoop/yarn/lib/*",
}

// YARNApplicationClasspath returns the class path entries of
// yarn.application.classpath (comma-separated, trimmed), or a copy of
// DefaultYARNApplicationClasspath when it is unset or blank, as
// YARN's own clients read it.
func (h *Hadoop) YARNApplicationClasspath() []string {
	if cp := h.Strings("yarn.application.classpath"); len(cp) > 0 {
		return cp
	}
	return slices.Clone(DefaultYARNApplicationClasspath)
}

func joinHostPort(host string, port int) string {
	return net.JoinHostPort(host, strconv.Itoa(port))
}
