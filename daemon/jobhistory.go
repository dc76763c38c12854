package daemon

import (
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/conf"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// jobHistory returns the client of the cluster's MapReduce JobHistory
// server, from which map-reduce actions get their job counters: its web
// address from mapred-site.xml (mapreduce.jobhistory.webapp.address, or
// .webapp.https.address under mapreduce.jobhistory.http.policy HTTPS_ONLY),
// asked as the server (SPNEGO with mapreduce.jobhistory.webapp.spnego-principal
// on a Kerberized cluster). Nil when the configuration names no server:
// then no counters are collected and hadoop:counters says so.
func jobHistory(cfg *conf.Server, hc *conf.Hadoop, krb *krbclient.Client) (*launch.JobHistory, error) {
	key, scheme := "mapreduce.jobhistory.webapp.address", "http://"
	if hc.GetDefault("mapreduce.jobhistory.http.policy", "HTTP_ONLY") == "HTTPS_ONLY" {
		key, scheme = "mapreduce.jobhistory.webapp.https.address", "https://"
	}
	addr := hc.GetDefault(key, "")
	if addr == "" {
		return nil, nil
	}
	auth, err := webAuth(cfg, hc, krb, "mapreduce.jobhistory.webapp.spnego-principal")
	if err != nil {
		return nil, err
	}
	return launch.NewJobHistory(scheme+addr, auth, nil)
}
