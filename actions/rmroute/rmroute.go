// Package rmroute sends each action run to the ResourceManager its workflow
// names. Actions name a cluster by the ResourceManager's RPC address (the
// `resourceManager`/`jobTracker` of job.properties); gozie talks to YARN over
// REST, so the address is mapped to the RM web addresses through the Hadoop
// configuration (yarn.resourcemanager.address[.id] →
// yarn.resourcemanager.webapp.address[.id], all RMs of an HA pair), and an
// address the configuration does not know is taken to be a web address
// itself (as the local cluster writes it). One executor per cluster is built
// on first use and kept.
package rmroute

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/gozie/gozie/actions"
)

// Resolve maps the address an action names to the RM web base URLs of its
// cluster.
type Resolve func(rm string) []string

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

func (r *Router) executor(rm string) (actions.Executor, error) {
	addrs := r.resolve(rm)
	if len(addrs) == 0 {
		return nil, actions.Errorf(actions.ActionFailed, "JA006", "no ResourceManager for [%s]", rm)
	}
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
func (r *Router) Start(ctx context.Context, run *actions.Run) (actions.Status, error) {
	e, err := r.executor(run.ResourceManager)
	if err != nil {
		return actions.Status{}, err
	}
	return e.Start(ctx, run)
}

// Check implements actions.Executor.
func (r *Router) Check(ctx context.Context, run *actions.Run) (actions.Status, error) {
	e, err := r.executor(run.ResourceManager)
	if err != nil {
		return actions.Status{}, err
	}
	return e.Check(ctx, run)
}

// Kill implements actions.Executor.
func (r *Router) Kill(ctx context.Context, run *actions.Run) error {
	e, err := r.executor(run.ResourceManager)
	if err != nil {
		return err
	}
	return e.Kill(ctx, run)
}

// CheckAll asks every cluster in use, one query each, about all the runs;
// each cluster answers for the runs it knows by their tags.
func (r *Router) CheckAll(ctx context.Context, runs []*actions.Run) (map[string]actions.Status, error) {
	r.mu.Lock()
	execs := make([]actions.Executor, 0, len(r.byKey))
	for _, e := range r.byKey {
		execs = append(execs, e)
	}
	r.mu.Unlock()
	out := map[string]actions.Status{}
	for _, e := range execs {
		bc, ok := e.(actions.BatchChecker)
		if !ok {
			continue
		}
		res, err := bc.CheckAll(ctx, runs)
		if err != nil {
			return nil, err
		}
		for id, st := range res {
			out[id] = st
		}
	}
	return out, nil
}

// ResolveWith maps RM RPC addresses to web addresses using the RM lists of
// the Hadoop configuration: rpc[i] and web[i] are the same RM. The default
// RM (an empty address) is the configured one.
func ResolveWith(rpc, web []string) Resolve {
	return func(rm string) []string {
		rm = strings.TrimSpace(rm)
		if rm == "" {
			return web
		}
		for _, a := range rpc {
			if sameAddr(a, rm) {
				return web
			}
		}
		return []string{rm}
	}
}

func sameAddr(a, b string) bool {
	strip := func(s string) string {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "http://"), "https://")
		return strings.TrimSuffix(s, "/")
	}
	return strip(a) == strip(b)
}
