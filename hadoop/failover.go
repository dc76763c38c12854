package hadoop

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/colinmarc/hdfs/v2/hadoopconf"
)

// Client failover settings of an HA nameservice (HdfsClientConfigKeys.
// Failover), read from ResolverConfig.Conf with Hadoop's defaults.
const (
	// FailoverMaxAttemptsKey bounds the attempts of one call while no
	// NameNode of the nameservice serves it (default 15).
	FailoverMaxAttemptsKey = "dfs.client.failover.max.attempts"
	// FailoverSleepBaseKey and FailoverSleepMaxKey shape the wait between
	// those attempts, in milliseconds: exponential from the base (default
	// 500), capped at the max (default 15000), with ±50% jitter.
	FailoverSleepBaseKey = "dfs.client.failover.sleep.base.millis"
	FailoverSleepMaxKey  = "dfs.client.failover.sleep.max.millis"
)

// failoverPolicy is how a client of an HA nameservice waits when every
// NameNode refused a call: all standby (a failover under way) or
// unreachable. colinmarc/hdfs fails over at once to the next NameNode when
// one answers StandbyException, but gives up when none is left; Hadoop's
// client (RetryPolicies.failoverOnNetworkException, which
// ConfiguredFailoverProxyProvider's proxies use) instead sleeps and tries
// again, up to max attempts. The call is safe to repeat: a NameNode that
// refused it as standby, or could not be reached, did not run it.
type failoverPolicy struct {
	maxAttempts int
	base, max   time.Duration
}

// Hadoop's defaults of the failover settings.
const (
	defaultFailoverMaxAttempts = 15
	defaultFailoverSleepBase   = 500 * time.Millisecond
	defaultFailoverSleepMax    = 15 * time.Second
)

// newFailoverPolicy reads the failover settings of conf.
func newFailoverPolicy(conf hadoopconf.HadoopConf) (*failoverPolicy, error) {
	p := &failoverPolicy{maxAttempts: defaultFailoverMaxAttempts, base: defaultFailoverSleepBase, max: defaultFailoverSleepMax}
	for _, s := range []struct {
		key, unit string
		set       func(int)
	}{
		{FailoverMaxAttemptsKey, "attempts", func(v int) { p.maxAttempts = max(v, 1) }},
		{FailoverSleepBaseKey, "milliseconds", func(v int) { p.base = time.Duration(v) * time.Millisecond }},
		{FailoverSleepMaxKey, "milliseconds", func(v int) { p.max = time.Duration(v) * time.Millisecond }},
	} {
		v := strings.TrimSpace(conf[s.key])
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("hadoop: %s=%q is not a number of %s", s.key, v, s.unit)
		}
		s.set(n)
	}
	return p, nil
}

// wait sleeps before attempt n (1 for the first repeat), as
// RetryPolicies.calculateExponentialTime spaces failovers; it returns
// ctx's error if ctx ends first.
func (p *failoverPolicy) wait(ctx context.Context, n int) error {
	d := p.base << min(n, 30)
	if d > p.max || d <= 0 {
		d = p.max
	}
	d = time.Duration(float64(d) * (0.5 + rand.Float64()))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// noNameNodeServed reports colinmarc's error for a call that no NameNode
// served: each answered StandbyException, could not be reached, or was
// skipped (colinmarc v2.4.0, rpc.NamenodeConnection.resolveConnection:
// "no available namenodes: <the last error>").
func noNameNodeServed(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no available namenodes")
}

// failoverEntries is how many entries a client of an HA nameservice gets
// in colinmarc's NameNode list: its NameNodes over and over, in order.
// colinmarc skips an entry for 5 seconds after it failed (a StandbyException
// counts), so with one entry per NameNode a failover back within 5 seconds
// would find every NameNode skipped; each repeat absorbs one more failover
// in that window, and the order stays the configured one, as
// ConfiguredFailoverProxyProvider walks it.
const failoverEntries = 16

// failoverAddresses returns addrs repeated to failoverEntries entries.
func failoverAddresses(addrs []string) []string {
	out := make([]string, 0, failoverEntries+len(addrs))
	for len(out) < failoverEntries {
		out = append(out, addrs...)
	}
	return out
}

// NoActiveNameNodeError reports a call that no NameNode of an HA
// nameservice served through every attempt of the failover policy: all
// of them standby (or unreachable) for that long. Nothing was done. A
// file being written gets one attempt per call (colinmarc's writer cannot
// repeat addBlock or complete), and fails as a whole.
type NoActiveNameNodeError struct {
	// Nameservice is the nameservice's URI, e.g. hdfs://mycluster.
	Nameservice string
	// Attempts is how many times the call was tried.
	Attempts int
	// Err is the client's last error.
	Err error
}

func (e *NoActiveNameNodeError) Error() string {
	tries := ""
	if e.Attempts > 1 {
		tries = fmt.Sprintf(" in %d attempts", e.Attempts)
	}
	return fmt.Sprintf("hadoop: %s: no NameNode served the call%s (all standby or unreachable): %v", e.Nameservice, tries, e.Err)
}

func (e *NoActiveNameNodeError) Unwrap() error { return e.Err }
