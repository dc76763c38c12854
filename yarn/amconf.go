package yarn

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/ipc"
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
// connection); cfg.SchedulerAddr and cfg.SchedulerAddrs are replaced by
// addrs. The client keeps every address and fails over along them later
// (see [AMClient]). It returns the client and the address it reached; when
// none accepts, the error names the addresses.
func DialAMAny(ctx context.Context, addrs []string, cfg AMConfig) (*AMClient, string, error) {
	cfg.SchedulerAddr, cfg.SchedulerAddrs = "", addrs
	am, err := DialAM(ctx, cfg)
	if err != nil {
		return nil, "", err
	}
	return am, am.Addr(), nil
}

// Keys of the container's configuration that say how an AM waits for the
// ResourceManager (YarnConfiguration), and Hadoop's defaults.
const (
	connectMaxWaitKey       = "yarn.resourcemanager.connect.max-wait.ms"
	connectRetryIntervalKey = "yarn.resourcemanager.connect.retry-interval.ms"
	failoverSleepBaseKey    = "yarn.client.failover-sleep-base-ms"
	failoverSleepMaxKey     = "yarn.client.failover-sleep-max-ms"
	failoverMaxAttemptsKey  = "yarn.client.failover-max-attempts"

	// DefaultConnectMaxWait is yarn.resourcemanager.connect.max-wait.ms's
	// default.
	DefaultConnectMaxWait = 15 * time.Minute
	// DefaultConnectRetryInterval is
	// yarn.resourcemanager.connect.retry-interval.ms's default.
	DefaultConnectRetryInterval = 30 * time.Second
)

// AMRetry is how an ApplicationMaster keeps trying the scheduler when a
// connection fails or an RM answers as a standby, as Hadoop's
// RMProxy.createRetryPolicy builds it from the configuration. It applies to
// each call on its own. The zero AMRetry tries every address once without
// pausing.
type AMRetry struct {
	// HA selects the failover policy (yarn.resourcemanager.ha.enabled);
	// with several addresses it applies anyway. Each failover moves to the
	// next address, round robin.
	HA bool
	// MaxWait bounds the tries of a call
	// (yarn.resourcemanager.connect.max-wait.ms): MaxWait/Interval retries
	// without HA, MaxWait/FailoverBase failovers with it. Negative means no
	// bound (the caller's context still ends the call).
	MaxWait time.Duration
	// Interval is the pause between retries without HA
	// (yarn.resourcemanager.connect.retry-interval.ms).
	Interval time.Duration
	// FailoverBase and FailoverMax shape the pause before the n-th failover
	// of a call (yarn.client.failover-sleep-base-ms, -max-ms; both default
	// to Interval): none before the first, then min(FailoverBase·2^n,
	// FailoverMax), give or take half (RetryPolicies'
	// calculateExponentialTime).
	FailoverBase, FailoverMax time.Duration
	// MaxFailovers is yarn.client.failover-max-attempts: 0 derives it from
	// MaxWait and FailoverBase, a negative value allows none.
	MaxFailovers int
}

// AMRetryFromConf reads h's retry settings, with Hadoop's defaults for the
// keys it does not set; h may be nil. A value that is not a number, or a
// negative max-wait other than -1 (forever), is an error naming the key.
func AMRetryFromConf(h *conf.Hadoop) (AMRetry, error) {
	if h == nil {
		h = conf.NewHadoop(conf.NewProperties(), nil)
	}
	var errs []error
	num := func(key string, def int64) int64 {
		v := h.GetDefault(key, "")
		if v == "" {
			return def
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s=%q is not a number", key, v))
			return def
		}
		return n
	}
	maxWait := num(connectMaxWaitKey, DefaultConnectMaxWait.Milliseconds())
	interval := num(connectRetryIntervalKey, DefaultConnectRetryInterval.Milliseconds())
	base := num(failoverSleepBaseKey, interval)
	maxSleep := num(failoverSleepMaxKey, interval)
	attempts := num(failoverMaxAttemptsKey, -1)
	switch {
	case maxWait < -1:
		errs = append(errs, fmt.Errorf("%s can be -1, but can not be other negative numbers", connectMaxWaitKey))
	case interval < 0:
		errs = append(errs, fmt.Errorf("%s should not be negative", connectRetryIntervalKey))
	case maxWait >= 0 && maxWait < interval:
		maxWait = 0 // Hadoop then connects once
	}
	if err := errors.Join(errs...); err != nil {
		return AMRetry{}, err
	}
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	r := AMRetry{HA: h.RMHAEnabled(), MaxWait: ms(maxWait), Interval: ms(interval), FailoverBase: ms(base), FailoverMax: ms(maxSleep)}
	switch {
	case attempts == 0:
		r.MaxFailovers = -1
	case attempts > 0:
		r.MaxFailovers = int(attempts)
	}
	return r, nil
}

// limit is how many retries (or failovers) one call may make; -1 means no
// limit.
func (r AMRetry) limit(failover bool, addrs int) int {
	if failover {
		switch {
		case r.MaxFailovers > 0:
			return r.MaxFailovers
		case r.MaxFailovers < 0:
			return 0
		case r.MaxWait < 0:
			return -1
		case r.FailoverBase > 0:
			return int(r.MaxWait / r.FailoverBase)
		default:
			return addrs - 1
		}
	}
	switch {
	case r.MaxWait < 0:
		return -1
	case r.Interval > 0:
		return int(r.MaxWait / r.Interval)
	default:
		return 0
	}
}

// pause is how long to wait before retry n (0 for the first) of a call.
func (r AMRetry) pause(failover bool, n int) time.Duration {
	if !failover {
		return r.Interval
	}
	if n == 0 || r.FailoverBase <= 0 {
		return 0
	}
	d := r.FailoverMax
	if n < 32 && r.FailoverBase<<n < d {
		d = r.FailoverBase << n
	}
	return time.Duration(float64(d) * (0.5 + rand.Float64()))
}

// ContainerAMConfig says how an ApplicationMaster in a container reaches
// the scheduler with the attempt's AMRM token tok, from h, the container's
// Hadoop configuration (see [ContainerHadoopConf]; nil means Hadoop's
// defaults): the scheduler of every rm-id ([SchedulerAddresses]),
// hadoop.rpc.protection and the retry settings ([AMRetryFromConf]).
func ContainerAMConfig(h *conf.Hadoop, tok hadoop.Token) (AMConfig, error) {
	cfg := AMConfig{SchedulerAddrs: SchedulerAddresses(h, tok), Token: tok}
	if h == nil {
		return cfg, nil
	}
	v, _ := h.Get(ipc.RPCProtectionKey)
	protection, err := ipc.ParseProtection(v)
	if err != nil {
		return AMConfig{}, fmt.Errorf("the container's configuration: %w", err)
	}
	cfg.Protection = protection
	if cfg.Retry, err = AMRetryFromConf(h); err != nil {
		return AMConfig{}, fmt.Errorf("the container's configuration: %w", err)
	}
	return cfg, nil
}
