package miniyarn

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/gozie/gozie/testenv/internal/nmlogs"
	"github.com/gozie/gozie/yarn"
)

// aggregatedDirName is the aggregated store under Options.WorkDir
// (yarn.nodemanager.remote-app-log-dir, kept on local disk).
const aggregatedDirName = "app-logs"

// SetLogServerURL sets yarn.log.server.web-service.url (see
// [Options.LogServerURL]), for a log server started after the RM.
func (rm *RM) SetLogServerURL(u string) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	rm.opts.LogServerURL = strings.TrimSuffix(u, "/")
}

// logServerURL is yarn.log.server.web-service.url, "" when unset.
func (rm *RM) logServerURL() string {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.opts.LogServerURL
}

// AggregatedLogs is the store of aggregated container logs, which a log
// server (minijhs) serves.
func (rm *RM) AggregatedLogs() *nmlogs.Store {
	return &nmlogs.Store{Root: filepath.Join(rm.opts.WorkDir, aggregatedDirName)}
}

// aggregateIfDone aggregates an application's container logs once it has
// ended and all its containers are gone (AppLogAggregatorImpl, run when
// the application finishes on the node): the files move to the store,
// the local ones are deleted, and the NodeManager forgets the
// application. Without Options.LogAggregation it does nothing.
func (rm *RM) aggregateIfDone(a *app) {
	rm.mu.Lock()
	if !rm.opts.LogAggregation || a.aggregated || a.aggregating || !a.state.Final() || a.finishing {
		rm.mu.Unlock()
		return
	}
	local := map[string]string{}
	for _, at := range a.attempts {
		if at.proc != nil || at.finished.IsZero() {
			rm.mu.Unlock()
			return // a container still runs
		}
		if at.logDir != "" {
			local[at.container.String()] = at.logDir
		}
	}
	a.aggregating = true
	id := a.id
	meta := nmlogs.Aggregated{Owner: a.user, Node: rm.nmAddr, ViewACL: a.sc.AMContainerSpec.ApplicationACLs["VIEW_APP"]}
	rm.mu.Unlock()

	store := rm.AggregatedLogs()
	err := store.Add(id, meta, local)
	rm.mu.Lock()
	a.aggregating = false
	if err == nil {
		a.aggregated = true
		for _, at := range a.attempts {
			if at.logDir != "" {
				at.logDir = store.ContainerDir(id, meta.Owner, at.container.String())
			}
		}
	}
	rm.mu.Unlock()
	if err != nil {
		rm.log.Warn("miniyarn: log aggregation failed", "yarn_app_id", id.String(), "err", err)
		return
	}
	for _, dir := range local {
		os.RemoveAll(dir) //nolint:errcheck // best effort, as the NodeManager's deletion service.
	}
	rm.log.Info("miniyarn: logs aggregated", "yarn_app_id", id.String())
}

// logSite adds the log aggregation settings to a yarn-site.xml:
// yarn.log-aggregation-enable and, when set, the log server's URL.
func (rm *RM) logSite(site map[string]string) {
	if rm.opts.LogAggregation {
		site["yarn.log-aggregation-enable"] = "true"
	}
	if u := rm.logServerURL(); u != "" {
		site[yarn.LogServerURLKey] = u
	}
}
