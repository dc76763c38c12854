package daemon

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/email"
	"github.com/gozie/gozie/actions/fsaction"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/actions/rmroute"
	"github.com/gozie/gozie/actions/subwf"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow/runner"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// hadoopConf reads the Hadoop client configuration of the cluster the
// server uses: gozie.hadoop.conf.dir, else $HADOOP_CONF_DIR (or
// $HADOOP_HOME/etc/hadoop). Its HDFS nameservices, ResourceManagers and
// application class path serve every part of the server.
func hadoopConf(cfg *conf.Server) (*conf.Hadoop, error) {
	dir := cfg.Hadoop.ConfDir
	if dir == "" {
		dir = conf.HadoopConfDir(os.LookupEnv)
	}
	hc, err := conf.LoadHadoop(dir)
	if err != nil {
		return nil, fmt.Errorf("reading Hadoop configuration: %w", err)
	}
	return hc, nil
}

// executors builds the action executors: shell, java, hive and map-reduce
// run as YARN applications with `gozie launcher` as their ApplicationMaster,
// on the cluster each action names (hive through beeline against the
// action's HiveServer2 or the server's default); fs and email run in the
// server; hive2 runs its statements on HiveServer2 from the server. The
// sub-workflow executor needs the workflow runner, so subWorkflows adds it
// once the runner exists. Every executor acts on paths users name, so fs is
// the filesystems seen through gozie.filesystems.supported.
func executors(cfg *conf.Server, hc *conf.Hadoop, fs *hadoop.Restricted, clk clock.Clock, log *slog.Logger, binary string) (actions.Registry, error) {
	// Actions name their cluster by RPC address, RM HA cluster id, rm-id or
	// host; rmroute.ResolveWith has the rules.
	resolve := rmroute.ResolveWith(hc.ResourceManagers())
	reg := actions.Registry{}
	for _, typ := range []string{launcher.TypeShell, launcher.TypeJava, launcher.TypeHive, launcher.TypeMapReduce} {
		reg[typ] = rmroute.NewRouter(resolve, func(web []string) (actions.Executor, error) {
			// The server authenticates as itself; requests made for a job
			// carry doAs=<job user> (hadoop.AsUser), so the application is
			// the job user's.
			yc, err := yarn.NewClient(yarn.Config{Addresses: web, Auth: yarn.PseudoAuth{User: cfg.UserName},
				Logger: log.With("component", "yarn")})
			if err != nil {
				return nil, err
			}
			lc := launchConfig(cfg, hc, typ)
			lc.YARN, lc.FS, lc.Binary, lc.Clock = yc, fs, binary, clk
			lc.Logger = log.With("component", "launch", "type", typ)
			return launch.New(lc)
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
	em, err := email.New(email.Config{Host: cfg.Email.Host, Port: cfg.Email.Port, From: cfg.Email.From,
		Auth: cfg.Email.Auth, Username: cfg.Email.Username, Password: cfg.Email.Password, Timeout: cfg.Email.Timeout,
		Attachments: cfg.Email.Attachments, FS: fs, Clock: clk, Logger: log.With("component", "email")})
	if err != nil {
		return nil, err
	}
	reg["email"] = em
	return reg, nil
}

// launchConfig is what the launch executor of typ takes from the server's
// settings and the Hadoop configuration hc, before the cluster's client and
// the process's parts are added: java actions get the cluster's
// yarn.application.classpath (Hadoop's default when unset), as YARN
// applications put it on their class path.
func launchConfig(cfg *conf.Server, hc *conf.Hadoop, typ string) launch.Config {
	return launch.Config{Type: typ, Queue: cfg.Launcher.Queue, MemoryMB: cfg.Launcher.MemoryMB,
		VCores: cfg.Launcher.VCores, MaxOutputData: cfg.Action.MaxOutputData,
		Classpath: hc.YARNApplicationClasspath(), HiveJDBCURL: cfg.Hadoop.DefaultHiveJDBCURL}
}

// subWorkflows registers the sub-workflow executor on the runner's
// registry, unless the registry has one.
func subWorkflows(reg actions.Registry, r *runner.Runner, st store.Store, log *slog.Logger) error {
	if _, ok := reg[runner.SubWorkflowType]; ok {
		return nil
	}
	sw, err := subwf.New(subwf.Config{Workflows: r, Store: st, Logger: log.With("component", "sub-workflow")})
	if err != nil {
		return err
	}
	reg[runner.SubWorkflowType] = sw
	return nil
}
