package miniyarn

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gozie/gozie/conf"
)

// nmConfDirName is the NodeManager's Hadoop configuration directory below
// Options.WorkDir, exported to every container as HADOOP_CONF_DIR.
const nmConfDirName = "nm-conf"

// writeNMConf writes the NodeManager's own Hadoop configuration, which a real
// NodeManager exports to every container as HADOOP_CONF_DIR
// (ContainerLaunch.sanitizeEnv) and from which a real ApplicationMaster
// learns the scheduler's address (ClientRMProxy.getRMAddress): core-site.xml
// (Options.Conf, and fs.defaultFS from an [HDFSStorage] when Conf names
// none), hdfs-site.xml (Options.HDFSConf) and yarn-site.xml
// ([RM.YarnSite]).
func (rm *RM) writeNMConf(dir string) error {
	core := map[string]string{}
	for k, v := range rm.opts.Conf {
		core[k] = v
	}
	if _, ok := core["fs.defaultFS"]; !ok {
		if s, ok := rm.opts.Storage.(*HDFSStorage); ok && s.DefaultFS != "" {
			core["fs.defaultFS"] = s.DefaultFS
		}
	}
	yarnSite := rm.YarnSite()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("miniyarn: %w", err)
	}
	for name, props := range map[string]map[string]string{
		"core-site.xml": core, "hdfs-site.xml": rm.opts.HDFSConf, "yarn-site.xml": yarnSite,
	} {
		var b strings.Builder
		if err := conf.WriteConfigurationXML(&b, conf.PropertiesFromMap(props)); err != nil {
			return fmt.Errorf("miniyarn: %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			return fmt.Errorf("miniyarn: %w", err)
		}
	}
	return nil
}

// Client retry settings of the generated yarn-site.xml: legitimate values
// (a real cluster's are larger) that let clients find a restarted or
// failed-over RM quickly, and give up after a bounded time.
const (
	clientRetryInterval = "100"   // yarn.resourcemanager.connect.retry-interval.ms
	clientMaxWait       = "60000" // yarn.resourcemanager.connect.max-wait.ms
	clientFailoverBase  = "100"   // yarn.client.failover-sleep-base-ms
	clientFailoverMax   = "200"   // yarn.client.failover-sleep-max-ms
)

// YarnSite returns the client side of the cluster's yarn-site.xml, which the
// NodeManager's configuration holds and clients of the cluster need:
// without HA (no [Options.Standbys]) yarn.resourcemanager.scheduler.address
// and yarn.resourcemanager.webapp.address; with HA
// yarn.resourcemanager.ha.enabled, yarn.resourcemanager.cluster-id
// ([Options.ClusterID]), yarn.resourcemanager.ha.rm-ids (rm1..rmN, see
// [RM.RMIDs]), the scheduler and webapp addresses per rm-id, and
// yarn.resourcemanager.ha.automatic-failover.enabled=false (failovers are
// [RM.Failover]'s). Both carry connect and failover retry settings small
// enough for tests to reconnect fast. The addresses stay valid across
// failovers and restarts.
func (rm *RM) YarnSite() map[string]string {
	site := map[string]string{
		"yarn.resourcemanager.connect.retry-interval.ms": clientRetryInterval,
		"yarn.resourcemanager.connect.max-wait.ms":       clientMaxWait,
	}
	rm.logSite(site)
	if len(rm.scheds) == 1 {
		site["yarn.resourcemanager.scheduler.address"] = rm.scheds[0].addr
		site["yarn.resourcemanager.webapp.address"] = rm.webs[0].addr
		return site
	}
	site["yarn.resourcemanager.ha.enabled"] = "true"
	site["yarn.resourcemanager.ha.automatic-failover.enabled"] = "false"
	site["yarn.resourcemanager.cluster-id"] = rm.opts.ClusterID
	site["yarn.resourcemanager.ha.rm-ids"] = strings.Join(rm.RMIDs(), ",")
	site["yarn.client.failover-sleep-base-ms"] = clientFailoverBase
	site["yarn.client.failover-sleep-max-ms"] = clientFailoverMax
	for i, id := range rm.RMIDs() {
		site["yarn.resourcemanager.scheduler.address."+id] = rm.scheds[i].addr
		site["yarn.resourcemanager.webapp.address."+id] = rm.webs[i].addr
	}
	return site
}

// HadoopConfDir is the NodeManager's generated Hadoop configuration directory
// (core-site.xml, hdfs-site.xml, yarn-site.xml naming this cluster), the
// HADOOP_CONF_DIR of every container unless Options.Env sets another.
func (rm *RM) HadoopConfDir() string { return rm.confDir }
