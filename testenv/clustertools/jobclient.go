package clustertools

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/yarn"
)

// defaultPollInterval is how often a waiting job client asks for its
// job's report (mapreduce.client.completion.pollinterval; Hadoop's default
// is 5 s, the stand-in's is shorter so that tests do not idle).
const defaultPollInterval = 500 * time.Millisecond

// genericOptions reads Hadoop's generic options in front of a tool's own
// (GenericOptionsParser): -conf FILE (a local configuration file, later
// ones winning) and -D KEY=VALUE or -DKEY=VALUE. It returns the
// configuration they make and the remaining arguments.
func (t *tool) genericOptions(args []string) (map[string]string, []string, error) {
	props := map[string]string{}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-conf":
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("-conf needs a configuration file")
			}
			i++
			p, err := t.readJobFile(args[i])
			if err != nil {
				return nil, nil, fmt.Errorf("-conf %s: %w", args[i], err)
			}
			for k, v := range p {
				props[k] = v
			}
		case a == "-D":
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("-D needs KEY=VALUE")
			}
			i++
			if err := setDefine(props, args[i]); err != nil {
				return nil, nil, err
			}
		case strings.HasPrefix(a, "-D") && len(a) > 2:
			if err := setDefine(props, a[2:]); err != nil {
				return nil, nil, err
			}
		default:
			return props, args[i:], nil
		}
	}
	return props, nil, nil
}

func setDefine(props map[string]string, kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("-D %s: want KEY=VALUE", kv)
	}
	props[strings.TrimSpace(k)] = v
	return nil
}

// awaitJob waits for a submitted job's application to end, as
// Job.waitForCompletion does, asking the RM every
// mapreduce.client.completion.pollinterval; ctx ending (SIGTERM) stops
// the wait.
func (t *tool) awaitJob(ctx context.Context, c *cluster, appID yarn.ApplicationID, job map[string]string) (yarn.AppReport, error) {
	yc, err := t.yarnClient(c)
	if err != nil {
		return yarn.AppReport{}, err
	}
	every := defaultPollInterval
	if ms, err := strconv.Atoi(strings.TrimSpace(job["mapreduce.client.completion.pollinterval"])); err == nil && ms > 0 {
		every = time.Duration(ms) * time.Millisecond
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		rep, err := yc.App(ctx, appID)
		if err != nil {
			return yarn.AppReport{}, fmt.Errorf("asking for %s: %w", jobIDOf(appID), err)
		}
		if rep.Done() {
			return rep, nil
		}
		select {
		case <-ctx.Done():
			return yarn.AppReport{}, ctx.Err()
		case <-tick.C:
		}
	}
}
