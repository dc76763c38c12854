package clustertools

import (
	"context"
	"fmt"
	"strings"

	"github.com/gozie/gozie/testenv/clusteradmin"
)

// haAdmin is HAAdmin's command line (`hdfs haadmin`, `yarn rmadmin`) for
// the local cluster's HA pairs: -failover [--forcefence] [--forceactive]
// <from> <to>, -getServiceState <id> and -getAllServiceState, answered as
// Hadoop answers them. The fencing flags are accepted and have nothing to
// fence: the stand-ins share one process.
func (t *tool) haAdmin(ctx context.Context, s clusteradmin.Service, args []string) int {
	if len(args) == 0 {
		t.haUsage(s)
		return exitUsage
	}
	cmd := args[0]
	if !strings.HasPrefix(cmd, "-") {
		t.errorf("Bad command '%s': expected command starting with '-'", cmd)
		t.haUsage(s)
		return exitUsage
	}
	admin, err := t.adminClient()
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	switch cmd {
	case "-failover":
		var ids []string
		for _, a := range args[1:] {
			switch a {
			case "--forcefence", "--forceactive", "-forcefence", "-forceactive":
			default:
				ids = append(ids, a)
			}
		}
		if len(ids) != 2 {
			t.errorf("failover: incorrect arguments")
			t.haUsage(s)
			return exitUsage
		}
		if err := admin.Failover(ctx, s, ids[0], ids[1]); err != nil {
			fmt.Fprintf(t.env.Stderr, "Failover failed: %v\n", err)
			return exitFail
		}
		fmt.Fprintf(t.env.Stdout, "Failover from %s to %s successful\n", ids[0], ids[1])
		return exitOK
	case "-getServiceState", "-getAllServiceState":
		if (cmd == "-getServiceState") != (len(args) == 2) || len(args) > 2 {
			t.errorf("%s: incorrect number of arguments", cmd[1:])
			t.haUsage(s)
			return exitUsage
		}
		states, err := admin.States(ctx, s)
		if err != nil {
			fmt.Fprintf(t.env.Stderr, "Operation failed: %v\n", err)
			return exitFail
		}
		for _, st := range states {
			switch {
			case cmd == "-getAllServiceState":
				fmt.Fprintf(t.env.Stdout, "%-50s %s\n", st.ID, st.State)
			case st.ID == args[1]:
				fmt.Fprintln(t.env.Stdout, st.State)
				return exitOK
			}
		}
		if cmd == "-getServiceState" {
			fmt.Fprintf(t.env.Stderr, "Illegal argument: Unable to determine service address for %s '%s'\n", s, args[1])
			return exitFail
		}
		return exitOK
	}
	t.errorf("%s: Unknown command", cmd[1:])
	t.haUsage(s)
	return exitUsage
}

func (t *tool) haUsage(s clusteradmin.Service) {
	prog := "hdfs haadmin"
	if s == clusteradmin.ResourceManager {
		prog = "yarn rmadmin"
	}
	fmt.Fprintf(t.env.Stderr, "Usage: %s\n    [-failover [--forcefence] [--forceactive] <serviceId> <serviceId>]\n"+
		"    [-getServiceState <serviceId>]\n    [-getAllServiceState]\n", prog)
}

// adminClient reaches the local cluster's admin endpoint named by the
// cluster's core-site.xml.
func (t *tool) adminClient() (*clusteradmin.Client, error) {
	c, err := t.cluster()
	if err != nil {
		return nil, err
	}
	addr, _ := c.conf.Get(clusteradmin.AddressKey)
	tokenFile, _ := c.conf.Get(clusteradmin.TokenFileKey)
	return clusteradmin.NewClient(addr, tokenFile)
}

// yarn is `yarn rmadmin ...` and `yarn --daemon stop|start
// resourcemanager`, the local cluster's ResourceManager restart: stop
// takes every ResourceManager down, leaving the NodeManager's containers
// running; start brings them back on the same ports with every
// application recovered, as a work-preserving restart does.
func (t *tool) yarn(ctx context.Context, args []string) int {
	if len(args) >= 1 && args[0] == "rmadmin" {
		return t.haAdmin(ctx, clusteradmin.ResourceManager, args[1:])
	}
	if len(args) == 3 && args[0] == "--daemon" && args[2] == "resourcemanager" && (args[1] == "stop" || args[1] == "start") {
		admin, err := t.adminClient()
		if err != nil {
			t.errorf("%v", err)
			return exitFail
		}
		if args[1] == "stop" {
			err = admin.StopResourceManager(ctx)
		} else {
			err = admin.StartResourceManager(ctx)
		}
		if err != nil {
			t.errorf("%v", err)
			return exitFail
		}
		return exitOK
	}
	t.errorf("usage: yarn rmadmin <command> [args] | yarn --daemon stop|start resourcemanager")
	return exitUsage
}
