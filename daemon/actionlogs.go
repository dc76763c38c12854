package daemon

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/gozie/gozie/actions/rmroute"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/jobs"
	"github.com/gozie/gozie/yarn"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// actionLogClusters gives the action log endpoint the YARN cluster of an
// action, found from its resource manager as the executors find it
// (rmroute), with the executors' authentication: the server as itself
// (SPNEGO on a Kerberized cluster), acting for the job's user. The log
// server is the configuration's yarn.log.server.web-service.url. Clients
// are made once per cluster.
func actionLogClusters(cfg *conf.Server, hc *conf.Hadoop, krb *krbclient.Client, log *slog.Logger) jobs.ActionLogClusters {
	resolve := rmroute.ResolveWith(hc.ResourceManagers())
	logServer := hc.GetDefault(yarn.LogServerURLKey, "")
	var (
		mu      sync.Mutex
		clients = map[string]*yarn.Client{}
	)
	return func(rm string) (jobs.ActionLogCluster, error) {
		web, err := resolve(rm)
		if err != nil {
			return jobs.ActionLogCluster{}, err
		}
		key := strings.Join(slices.Sorted(slices.Values(web)), ",")
		mu.Lock()
		defer mu.Unlock()
		if c, ok := clients[key]; ok {
			return jobs.ActionLogCluster{YARN: c, LogServer: logServer}, nil
		}
		auth, err := webAuth(cfg, hc, krb, rmSPNEGOPrincipal)
		if err != nil {
			return jobs.ActionLogCluster{}, fmt.Errorf("YARN authentication: %w", err)
		}
		c, err := yarn.NewClient(yarn.Config{Addresses: web, Auth: auth, Retry: yarn.RetryPolicy{Rounds: 2},
			Logger: log.With("component", "action-logs")})
		if err != nil {
			return jobs.ActionLogCluster{}, err
		}
		clients[key] = c
		return jobs.ActionLogCluster{YARN: c, LogServer: logServer}, nil
	}
}
