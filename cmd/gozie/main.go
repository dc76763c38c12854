// Command gozie is the whole of gozie in one binary: the server, the
// Oozie-compatible command-line client, and (on YARN) the action launcher.
//
//	gozie server [-local] [-config-dir DIR] [-addr HOST:PORT] [-db URL] [-data-dir DIR]
//	gozie minicluster [-data-dir DIR]
//	gozie job -config job.properties -run | -info ID | -kill ID | ...   (Oozie's job verbs)
//	gozie jobs -jobtype wf|coordinator [-filter ...]
//	gozie validate FILE
//	gozie sla -filter ...
//	gozie admin -oozie URL -status | -version | -systemmode MODE
//	gozie version
//	gozie launcher [-spec FILE]   (inside a YARN container, started by the server)
//	gozie examples install [-data-dir DIR] [-user NAME] [-oozie URL]   (the example apps, into the local cluster)
//	gozie migrate oozie -from OOZIE_DB_URL -db URL [-dry-run] [-since 30d] [-running-actions refuse|follow|rerun]
//	gozie tool beeline|mapred|hadoop|hdfs args...   (the local cluster's stand-ins of the cluster tools)
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/gozie/gozie/cli"
	"github.com/gozie/gozie/examples"
	"github.com/gozie/gozie/migrate"
	"github.com/gozie/gozie/testenv/clustertools"
	"github.com/gozie/gozie/yarn/launcher"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage()
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	switch args[0] {
	case "server":
		return runServer(ctx, args[1:])
	case "launcher":
		return launcher.Main(ctx, args[1:], launcher.OSEnv())
	case "minicluster":
		return runMiniCluster(ctx, args[1:])
	case "tool":
		return clustertools.Main(ctx, args[1:], clustertools.OSEnv())
	case "examples":
		return examples.Main(ctx, args[1:], examplesEnv())
	case "migrate":
		return migrate.Main(ctx, args[1:], os.Stdout, os.Stderr)
	default:
		if _, ok := cli.Commands[args[0]]; ok {
			return cli.Run(ctx, args, cli.OSEnv())
		}
		fmt.Fprintf(os.Stderr, "gozie: unknown command %q\n\n", args[0])
		usage()
		return 2
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: gozie <command> [flags]")
	fmt.Fprintln(os.Stderr, "\ncommands:")
	fmt.Fprintf(os.Stderr, "  %-11s %s\n", "server", "run the gozie server (REST API, engine); -local adds a local cluster")
	fmt.Fprintf(os.Stderr, "  %-11s %s\n", "minicluster", "run a local Hadoop cluster (MiniDFS, MiniYARN) for development")
	fmt.Fprintf(os.Stderr, "  %-11s %s\n", "launcher", "run an action as a YARN ApplicationMaster (started by the server)")
	fmt.Fprintf(os.Stderr, "  %-11s %s\n", "examples", "install: copy gozie's example apps into the running local cluster and print how to run them")
	fmt.Fprintf(os.Stderr, "  %-11s %s\n", "migrate", "oozie: import a running Oozie's jobs from Oozie's database (-dry-run first)")
	fmt.Fprintf(os.Stderr, "  %-11s %s\n", "tool", "the local cluster's beeline, mapred, hadoop and hdfs (used in its containers)")
	names := make([]string, 0, len(cli.Commands))
	for n := range cli.Commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-11s %s\n", n, cli.Commands[n])
	}
	fmt.Fprintln(os.Stderr, "\nRun 'gozie <command> -help' for a command's flags.")
}
