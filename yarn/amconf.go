package yarn

import (
	"context"
	"errors"
	"fmt"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
)

// schedulerKey is the scheduler address property of yarn-site.xml.
const schedulerKey = "yarn.resourcemanager.scheduler.address"

// SchedulerAddresses returns where an ApplicationMaster finds the scheduler,
// in the order to try them, as Hadoop's ClientRMProxy does: the
// yarn.resourcemanager.scheduler.address of h (one per rm-id of
// yarn.resourcemanager.ha.rm-ids under RM HA, with the
// yarn.resourcemanager.hostname fallbacks), h being the configuration the
// NodeManager exports to the container (HADOOP_CONF_DIR). A real RM writes
// the AMRM token with an empty service, so the token's service is used only
// when h names no scheduler; with neither, Hadoop's default
// (0.0.0.0:8030) remains. h may be nil.
func SchedulerAddresses(h *conf.Hadoop, tok hadoop.Token) []string {
	if h != nil && namesScheduler(h) {
		return h.SchedulerAddresses()
	}
	if tok.Service != "" {
		return []string{tok.Service}
	}
	if h != nil {
		return h.SchedulerAddresses()
	}
	return nil
}

// namesScheduler reports whether h sets the scheduler's address or host.
func namesScheduler(h *conf.Hadoop) bool {
	if len(h.RMHAIDs()) > 0 {
		return true
	}
	for _, k := range []string{schedulerKey, "yarn.resourcemanager.hostname"} {
		if _, ok := h.Raw(k); ok {
			return true
		}
	}
	return false
}

// ContainerHadoopConf reads the Hadoop configuration the NodeManager gives a
// container: $HADOOP_CONF_DIR (else $HADOOP_HOME/etc/hadoop) as lookupEnv
// sees it. Without either it is a configuration of defaults only.
func ContainerHadoopConf(lookupEnv func(string) (string, bool)) (*conf.Hadoop, error) {
	return conf.LoadHadoop(conf.HadoopConfDir(lookupEnv))
}

// DialAMAny connects to the first scheduler of addrs that accepts the
// connection, in order, as Hadoop's ConfiguredRMFailoverProxyProvider walks
// the rm-ids (a standby RM runs no scheduler, so its port refuses the
// connection); cfg.SchedulerAddr is ignored. It returns the client and the
// address it reached; when none accepts, the error names every failure.
func DialAMAny(ctx context.Context, addrs []string, cfg AMConfig) (*AMClient, string, error) {
	if len(addrs) == 0 {
		return nil, "", errors.New("connecting to the scheduler: no address (no yarn.resourcemanager.scheduler.address in HADOOP_CONF_DIR, and the AMRM token names no service)")
	}
	var errs []error
	for _, addr := range addrs {
		c := cfg
		c.SchedulerAddr = addr
		am, err := DialAM(ctx, c)
		if err == nil {
			return am, addr, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, "", fmt.Errorf("no scheduler reachable: %w", errors.Join(errs...))
}
