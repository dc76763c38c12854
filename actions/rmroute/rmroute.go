// Package rmroute sends each action run to the ResourceManager its workflow
// names. gozie talks to YARN over REST, so the `resourceManager`/`jobTracker`
// value of an action is mapped to RM web addresses; ResolveWith holds the
// rules, in one place. One executor per cluster is built on first use and
// kept, and the batched poll (CheckAll) asks every cluster that has running
// actions, building its executor when needed (after a restart none is
// built yet).
package rmroute

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
)

// Resolve maps the value an action names (empty for none) to the RM web base
// URLs of its cluster, or fails with a JA006 error when the value cannot be
// a ResourceManager.
type Resolve func(rm string) ([]string, error)

// New builds the executor for one cluster from its RM web addresses.
type New func(webAddrs []string) (actions.Executor, error)

// Router is an actions.Executor and actions.BatchChecker over many clusters.
type Router struct {
	resolve Resolve
	build   New
	mu      sync.Mutex
	byKey   map[string]actions.Executor
}

var (
	_ actions.Executor     = (*Router)(nil)
	_ actions.BatchChecker = (*Router)(nil)
)

// NewRouter returns a router.
func NewRouter(resolve Resolve, build New) *Router {
	return &Router{resolve: resolve, build: build, byKey: map[string]actions.Executor{}}
}

// executor returns the executor of the cluster rm names.
func (r *Router) executor(rm string) (actions.Executor, error) {
	addrs, err := r.resolve(rm)
	if err != nil {
		return nil, err
	}
	return r.executorFor(addrs)
}

// executorFor returns the executor of the cluster with these web
// addresses, building it on first use.
func (r *Router) executorFor(addrs []string) (actions.Executor, error) {
	key := strings.Join(addrs, ",")
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.byKey[key]; ok {
		return e, nil
	}
	e, err := r.build(addrs)
	if err != nil {
		return nil, fmt.Errorf("executor for ResourceManager %s: %w", key, err)
	}
	r.byKey[key] = e
	return e, nil
}

// Start implements actions.Executor.
func (r *Router) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	e, err := r.executor(run.ResourceManager)
	if err != nil {
		return actions.Status{}, err
	}
	return e.Start(ctx, run)
}

// Check implements actions.Executor.
func (r *Router) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	e, err := r.executor(run.ResourceManager)
	if err != nil {
		return actions.Status{}, err
	}
	return e.Check(ctx, run)
}

// Kill implements actions.Executor.
func (r *Router) Kill(ctx context.Context, run *actions.Attempt) error {
	e, err := r.executor(run.ResourceManager)
	if err != nil {
		return err
	}
	return e.Kill(ctx, run)
}

// CheckAll groups the runs by the cluster their ResourceManager resolves
// to and asks each cluster, one query each, about its own runs, building
// the cluster's executor if none is built yet (after a restart, before any
// Start or Check): the poll covers every RM that has running actions. A run
// whose ResourceManager does not resolve is left out (its own Check reports
// why). A cluster that fails does not keep the others' answers back: the
// statuses found are returned with the failures joined into the error.
func (r *Router) CheckAll(ctx context.Context, runs []*actions.Attempt) (map[string]actions.Status, error) {
	type cluster struct {
		addrs []string
		runs  []*actions.Attempt
	}
	var order []string
	groups := map[string]*cluster{}
	for _, run := range runs {
		addrs, err := r.resolve(run.ResourceManager)
		if err != nil {
			continue
		}
		key := strings.Join(addrs, ",")
		g := groups[key]
		if g == nil {
			g = &cluster{addrs: addrs}
			groups[key] = g
			order = append(order, key)
		}
		g.runs = append(g.runs, run)
	}
	out := map[string]actions.Status{}
	var errs []error
	for _, key := range order {
		g := groups[key]
		e, err := r.executorFor(g.addrs)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		bc, ok := e.(actions.BatchChecker)
		if !ok {
			continue
		}
		res, err := bc.CheckAll(ctx, g.runs)
		if err != nil {
			errs = append(errs, fmt.Errorf("ResourceManager %s: %w", key, err))
			continue
		}
		for id, st := range res {
			out[id] = st
		}
	}
	return out, errors.Join(errs...)
}

// Well-known RPC ports of the ResourceManager's client protocol: Apache
// Hadoop's default (yarn.resourcemanager.address) and the one Ambari (HDP)
// configures, which job.properties copy.
const (
	rmPortApache = 8032
	rmPortHDP    = 8050
)

// ResolveWith returns the rules that map an action's resourceManager (or
// jobTracker) value to RM web addresses, given the ResourceManager cluster
// of the Hadoop configuration. Host names and the cluster id compare without
// regard to case, rm-ids exactly; a leading http:// or https:// and a
// trailing "/" are ignored. In order:
//
//  1. empty: the configured cluster (the default RM);
//  2. a name of the configured cluster: its RM HA cluster id
//     (yarn.resourcemanager.cluster-id), an rm-id
//     (yarn.resourcemanager.ha.rm-ids), an RPC address
//     (yarn.resourcemanager.address[.<rm-id>]), or the host of one of its RMs
//     (yarn.resourcemanager.hostname[.<rm-id>], or the host of the RM's RPC
//     or web address) alone or with one of that RM's ports (RPC, web) or a
//     well-known RM RPC port (8032, Apache's default; 8050, Ambari's, which
//     HDP job.properties carry): the configured cluster;
//  3. any other host:port, unless its port is a well-known RM RPC port: the
//     web address of another cluster's RM (that is how the local cluster
//     writes it: jobTracker=127.0.0.1:<web port>);
//  4. anything else under RM HA: the configured cluster. Oozie hands the
//     value to YARN's client as yarn.resourcemanager.address, which under HA
//     ignores it and dials the configured rm-ids, so a user's "yarnRM",
//     "yarn" or "local" keeps working;
//  5. anything else fails with JA006. Without HA, Oozie would dial the value
//     as an RPC address (<name>:8032); gozie, which needs a web address,
//     never dials a name it cannot place, nor an RPC port as a URL.
//
// The configured cluster is always all its RMs (an HA set fails over).
func ResolveWith(set conf.ResourceManagerSet) Resolve {
	web := set.WebAppURLs()
	return func(value string) ([]string, error) {
		v := strings.TrimSpace(value)
		switch {
		case v == "" || names(set, v):
			return slices.Clone(web), nil
		case otherWebAddress(v):
			if strings.Contains(v, "://") {
				return []string{strings.TrimSuffix(v, "/")}, nil
			}
			return []string{"http://" + strings.TrimSuffix(v, "/")}, nil
		case set.HA:
			return slices.Clone(web), nil
		}
		return nil, actions.Errorf(actions.ActionFailed, "JA006",
			"resourceManager (jobTracker) [%s] names no ResourceManager of the Hadoop configuration%s, RM HA off: "+
				"the names it gives are %s (keys read: %s); another cluster's RM is named by its web address, host:port",
			value, confDirNote(set.ConfDir), knownNames(set), lookedAt)
	}
}

// lookedAt lists the configuration keys ResolveWith reads, for errors.
const lookedAt = "yarn.resourcemanager.cluster-id, yarn.resourcemanager.ha.enabled, yarn.resourcemanager.ha.rm-ids, " +
	"yarn.resourcemanager.address[.<rm-id>], yarn.resourcemanager.hostname[.<rm-id>], " +
	"yarn.resourcemanager.webapp[.https].address[.<rm-id>]"

// names reports whether v names the configured cluster (rule 2 of
// ResolveWith).
func names(set conf.ResourceManagerSet, v string) bool {
	v = bare(v)
	host, port, ok := hostPort(v)
	if !ok {
		return false
	}
	if port == "" {
		if set.ClusterID != "" && strings.EqualFold(v, set.ClusterID) {
			return true
		}
		for _, rm := range set.RMs {
			if rm.ID != "" && v == rm.ID {
				return true
			}
		}
		return hostOfRM(set, host) != nil
	}
	if set.Address != "" && sameHostPort(v, set.Address) {
		return true
	}
	for _, rm := range set.RMs {
		if sameHostPort(v, rm.Address) {
			return true
		}
	}
	rm := hostOfRM(set, host)
	if rm == nil {
		return false
	}
	n, _ := strconv.Atoi(port)
	return rpcPort(n) || slices.Contains(rmPorts(*rm), n)
}

// otherWebAddress reports whether v is host:port whose port is not a
// well-known RM RPC port (rule 3 of ResolveWith).
func otherWebAddress(v string) bool {
	_, port, ok := hostPort(bare(v))
	if !ok || port == "" {
		return false
	}
	n, _ := strconv.Atoi(port)
	return !rpcPort(n)
}

func rpcPort(n int) bool { return n == rmPortApache || n == rmPortHDP }

// hostOfRM returns the configured RM whose host is host, or nil. Wildcard
// hosts (0.0.0.0, the default of yarn.resourcemanager.hostname) name no RM.
func hostOfRM(set conf.ResourceManagerSet, host string) *conf.ResourceManagerNames {
	if wildcard(host) {
		return nil
	}
	for i, rm := range set.RMs {
		for _, h := range rmHosts(rm) {
			if strings.EqualFold(h, host) {
				return &set.RMs[i]
			}
		}
	}
	return nil
}

// rmHosts are the host names a configured RM goes by, without wildcards.
func rmHosts(rm conf.ResourceManagerNames) []string {
	var out []string
	for _, a := range []string{rm.Hostname, rm.Address, bare(rm.WebAppURL)} {
		if h, _, ok := hostPort(a); ok && !wildcard(h) {
			out = append(out, h)
		}
	}
	return out
}

// rmPorts are the ports a configured RM listens on that an action may name:
// its RPC and web ports.
func rmPorts(rm conf.ResourceManagerNames) []int {
	var out []int
	for _, a := range []string{rm.Address, bare(rm.WebAppURL)} {
		if _, p, ok := hostPort(a); ok {
			if n, err := strconv.Atoi(p); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// hostPort splits "host:port" or a bare host (port ""); ok is false for
// anything else (a path, a URL, an empty host, a port that is not a number).
func hostPort(s string) (host, port string, ok bool) {
	if s == "" || strings.ContainsAny(s, "/ ") {
		return "", "", false
	}
	if !strings.Contains(s, ":") || net.ParseIP(s) != nil {
		return s, "", true // a name, an IPv4 or a bare IPv6 address
	}
	h, p, err := net.SplitHostPort(s)
	if err != nil || h == "" {
		return "", "", false
	}
	if _, err := strconv.Atoi(p); err != nil {
		return "", "", false
	}
	return h, p, true
}

// sameHostPort compares two host:port addresses, the host without case.
func sameHostPort(a, b string) bool {
	ha, pa, oka := hostPort(bare(a))
	hb, pb, okb := hostPort(bare(b))
	return oka && okb && pa != "" && pa == pb && strings.EqualFold(ha, hb)
}

// bare strips a leading http:// or https:// and a trailing "/".
func bare(s string) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "http://"), "https://")
	return strings.TrimSuffix(s, "/")
}

func wildcard(host string) bool {
	return host == "" || host == "0.0.0.0" || host == "::"
}

// knownNames lists the names of the configured cluster (without HA: its
// hosts, and the cluster id if set), for errors.
func knownNames(set conf.ResourceManagerSet) string {
	var n []string
	if set.ClusterID != "" {
		n = append(n, "the cluster id "+set.ClusterID)
	}
	for _, rm := range set.RMs {
		for _, h := range rmHosts(rm) {
			if !slices.Contains(n, h) {
				n = append(n, h)
			}
		}
	}
	if len(n) == 0 {
		return "none"
	}
	return "[" + strings.Join(n, ", ") + "]"
}

func confDirNote(dir string) string {
	if dir == "" {
		return " (no HADOOP_CONF_DIR: defaults only)"
	}
	return " in " + dir
}
