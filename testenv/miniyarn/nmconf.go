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
// none), hdfs-site.xml (Options.HDFSConf) and yarn-site.xml (the scheduler's
// and the active web endpoint's addresses).
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
	yarnSite := map[string]string{
		"yarn.resourcemanager.scheduler.address": rm.sched.addr(),
		"yarn.resourcemanager.webapp.address":    rm.webs[0].addr,
	}
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

// HadoopConfDir is the NodeManager's generated Hadoop configuration directory
// (core-site.xml, hdfs-site.xml, yarn-site.xml naming this cluster), the
// HADOOP_CONF_DIR of every container unless Options.Env sets another.
func (rm *RM) HadoopConfDir() string { return rm.confDir }
