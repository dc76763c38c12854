package localcluster

import (
	"context"
	"fmt"
	"log/slog"
	"maps"

	"github.com/gozie/gozie/testenv/minijhs"
)

// jobHistoryPort names the JobHistory server's port in the ports file.
const jobHistoryPort = "jobhistory.webapp"

// mapredConf is the cluster's MapReduce configuration: YARN as the
// framework and, with a JobHistory server, its web address and job ACLs
// on, so that AMs record who may see a job and the server applies it.
func (c *Cluster) mapredConf() map[string]string {
	m := map[string]string{"mapreduce.framework.name": "yarn"}
	if c.JobHistory != nil {
		m[minijhs.WebAppAddressKey] = c.JobHistory.Addr()
		m[minijhs.IntermediateDoneDirKey] = c.JobHistory.IntermediateDoneDir()
		m[minijhs.ACLsEnabledKey] = "true"
	}
	return m
}

// startJobHistory starts the JobHistory server on addr (a free port when
// empty), reading MiniDFS as the superuser with the cluster's proxy-user
// rules, and serving MiniYARN's aggregated logs as the cluster's log
// server. A Kerberized cluster gets none: the stand-in speaks no SPNEGO,
// and without a server named, map-reduce actions end without counters.
func (c *Cluster) startJobHistory(ctx context.Context, addr string, log *slog.Logger) error {
	if c.realm != nil {
		return nil
	}
	conf := maps.Clone(c.core)
	conf[minijhs.ACLsEnabledKey] = "true"
	s, err := minijhs.Start(ctx, minijhs.Options{Addr: addr, FS: c.FS, DefaultFS: c.DFS.URI(), Conf: conf, Logger: log,
		Logs: c.YARN.AggregatedLogs()})
	if err != nil {
		return fmt.Errorf("starting the JobHistory server: %w", err)
	}
	c.JobHistory = s
	// It is also the log server of the aggregated container logs.
	c.YARN.SetLogServerURL(s.LogServerURL())
	return nil
}
