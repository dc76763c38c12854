package daemon

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/fsaction"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/actions/rmroute"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// executors builds the action executors: shell and java run as YARN
// applications with `gozie launcher` as their ApplicationMaster, on the
// cluster each action names; fs runs in the server; hive2 runs its
// statements on HiveServer2 from the server.
func executors(cfg *conf.Server, fs *hadoop.Resolver, clk clock.Clock, log *slog.Logger, binary string) (actions.Registry, error) {
	dir := cfg.Hadoop.ConfDir
	if dir == "" {
		dir = conf.HadoopConfDir(os.LookupEnv)
	}
	hc, err := conf.LoadHadoop(dir)
	if err != nil {
		return nil, fmt.Errorf("reading Hadoop configuration: %w", err)
	}
	resolve := rmroute.ResolveWith(hc.ResourceManagerAddresses(), hc.ResourceManagerWebAppURLs())
	reg := actions.Registry{}
	for _, typ := range []string{"shell", "java"} {
		reg[typ] = rmroute.NewRouter(resolve, func(web []string) (actions.Executor, error) {
			yc, err := yarn.NewClient(yarn.Config{Addresses: web, Auth: yarn.PseudoAuth{User: cfg.UserName},
				Logger: log.With("component", "yarn")})
			if err != nil {
				return nil, err
			}
			return launch.New(launch.Config{Type: typ, YARN: yc, FS: fs, Binary: binary, Queue: cfg.Launcher.Queue,
				MemoryMB: cfg.Launcher.MemoryMB, VCores: cfg.Launcher.VCores, MaxOutputData: cfg.Action.MaxOutputData,
				Clock: clk, Logger: log.With("component", "launch", "type", typ)})
		})
	}
	fsx, err := fsaction.New(fsaction.Config{FS: fs, Clock: clk, Logger: log.With("component", "fs-action")})
	if err != nil {
		return nil, err
	}
	reg["fs"] = fsx
	h2, err := hive2.New(hive2.Config{FS: fs, Clock: clk, Logger: log.With("component", "hive2")})
	if err != nil {
		return nil, err
	}
	reg["hive2"] = h2
	return reg, nil
}
