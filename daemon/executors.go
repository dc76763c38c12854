package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/credentials"
	"github.com/gozie/gozie/actions/email"
	"github.com/gozie/gozie/actions/fsaction"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/actions/rmroute"
	sshaction "github.com/gozie/gozie/actions/ssh"
	"github.com/gozie/gozie/actions/subwf"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow/wfrun"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
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
// server, ssh from the server on the action's host; hive2 runs its statements on HiveServer2 from the server. The
// sub-workflow executor needs the workflow runner, so subWorkflows adds it
// once the runner exists. Every executor acts on paths users name, so fs is
// the filesystems seen through gozie.filesystems.supported.
func executors(cfg *conf.Server, hc *conf.Hadoop, fs *hadoop.Restricted, hdfs *hadoop.Resolver, krb *krbclient.Client,
	clk clock.Clock, log *slog.Logger, binary string) (actions.Registry, error) {
	// Actions name their cluster by RPC address, RM HA cluster id, rm-id or
	// host; rmroute.ResolveWith has the rules.
	resolve := rmroute.ResolveWith(hc.ResourceManagers())
	reg := actions.Registry{}
	for _, typ := range []string{launcher.TypeShell, launcher.TypeJava, launcher.TypeHive, launcher.TypeMapReduce, launcher.TypeSqoop, launcher.TypeSpark,
		launcher.TypeGit, launcher.TypeDistcp, launcher.TypePig} {
		reg[typ] = rmroute.NewRouter(resolve, func(web []string) (actions.Executor, error) {
			// Requests made for a job carry doAs=<job user>, so the
			// application is the job user's.
			auth, err := webAuth(cfg, hc, krb, rmSPNEGOPrincipal)
			if err != nil {
				return nil, err
			}
			yc, err := yarn.NewClient(yarn.Config{Addresses: web, Auth: auth, Logger: log.With("component", "yarn")})
			if err != nil {
				return nil, err
			}
			lc := launchConfig(cfg, hc, typ)
			lc.YARN, lc.FS, lc.Binary, lc.Clock = yc, fs, binary, clk
			if typ == launcher.TypeMapReduce || typ == launcher.TypeSqoop {
				if lc.JobHistory, err = jobHistory(cfg, hc, krb); err != nil {
					return nil, err
				}
			}
			lc.Logger = log.With("component", "launch", "type", typ)
			if krb != nil {
				lc.Credentials = launchTokens(hc, hdfs, yc, &credentials.Provider{Kerberos: krb}, typ)
				lc.HiveToken = hiveServerToken(krb)
			}
			return launch.New(lc)
		})
	}
	fsx, err := fsaction.New(fsaction.Config{FS: fs, Clock: clk, Logger: log.With("component", "fs-action")})
	if err != nil {
		return nil, err
	}
	reg["fs"] = fsx
	h2, err := hive2.New(hive2.Config{FS: fs, Kerberos: krb, Clock: clk, Logger: log.With("component", "hive2")})
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
	// ssh runs in the server, over SSH to the action's host as the job's
	// user, with the server's keys.
	sx, err := sshaction.New(sshaction.Config{KeyFiles: cfg.SSH.KeyFiles, KnownHostsFile: cfg.SSH.KnownHostsFile,
		Port: cfg.SSH.Port, AllowUserAtHost: cfg.SSH.AllowUserAtHost, ConnectTimeout: cfg.SSH.ConnectTimeout,
		MaxOutputData: cfg.Action.MaxOutputData, Logger: log.With("component", "ssh")})
	if err != nil {
		return nil, err
	}
	reg["ssh"] = sx
	return reg, nil
}

// launchTokens are the delegation tokens a launch of typ carries on a
// Kerberized cluster, all for the job's user and renewable by the RM (as
// MapReduce's TokenCache asks for them): an HDFS token of the action's
// filesystem, which the NodeManager localizes with and the launcher
// reads and writes with; an RM token for the actions whose work submits
// YARN applications of its own (map-reduce, hive, sqoop); and the tokens of the
// action's <credential>s.
func launchTokens(hc *conf.Hadoop, hdfs *hadoop.Resolver, yc *yarn.Client, creds *credentials.Provider, typ string) func(context.Context, *actions.Attempt) ([]hadoop.Token, error) {
	renewer := shortName(hc.ResourceManagerPrincipal())
	return func(ctx context.Context, run *actions.Attempt) ([]hadoop.Token, error) {
		var out []hadoop.Token
		t, err := hdfs.DelegationToken(ctx, run.NameNode, run.User, renewer)
		switch {
		case errors.Is(err, hadoop.ErrNoDelegationToken):
		case err != nil:
			return nil, fmt.Errorf("HDFS delegation token of %s for %s: %w", run.NameNode, run.User, err)
		default:
			out = append(out, t)
		}
		if typ == launcher.TypeMapReduce || typ == launcher.TypeHive || typ == launcher.TypeSqoop || typ == launcher.TypeSpark ||
			typ == launcher.TypeDistcp || typ == launcher.TypePig {
			t, err := yc.DelegationToken(hadoop.AsUser(ctx, run.User), renewer)
			if err != nil {
				return nil, fmt.Errorf("ResourceManager delegation token for %s: %w", run.User, err)
			}
			// The RM issues it for no service; clients find it by the RMs'
			// addresses, comma-separated under HA, as ClientRMProxy's
			// getRMDelegationTokenService sets it.
			t.Service = strings.Join(hc.ResourceManagerAddresses(), ",")
			out = append(out, t)
		}
		toks, err := creds.Tokens(ctx, run)
		if err != nil {
			return nil, err
		}
		for _, t := range toks {
			out = append(out, t.Token)
		}
		return out, nil
	}
}

// hiveServerToken gets a hive run's HiveServer2 delegation token, for its
// beeline in the container (which has no Kerberos ticket): from the
// HiveServer2 of the run's JDBC URL, whose principal= names the server and
// the token's renewer, for the run's user, as gozie's principal acting for
// them (what a hive2 <credential> does). The launch asks only when the
// action's own <credential>s give no such token.
func hiveServerToken(krb *krbclient.Client) func(context.Context, *actions.Attempt, string) (hadoop.Token, error) {
	return func(ctx context.Context, run *actions.Attempt, jdbcURL string) (hadoop.Token, error) {
		url, principal := hive2.CutPrincipal(jdbcURL)
		props := conf.NewProperties(hive2.CredentialJDBCURL, url, hive2.CredentialPrincipal, principal)
		t, err := hive2.FetchDelegationToken(ctx, krb, props, run.User)
		if err != nil {
			return hadoop.Token{}, fmt.Errorf("HiveServer2 delegation token for %s: %w", run.User, err)
		}
		return t, nil
	}
}

// shortName is a principal's first component (rm of rm/_HOST@REALM), the
// name a token's renewer is checked against; "yarn" when none is set.
func shortName(principal string) string {
	if principal == "" {
		return "yarn"
	}
	return strings.FieldsFunc(principal, func(r rune) bool { return r == '/' || r == '@' })[0]
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
func subWorkflows(reg actions.Registry, r *wfrun.Runner, st store.Store, log *slog.Logger) error {
	if _, ok := reg[wfrun.SubWorkflowType]; ok {
		return nil
	}
	sw, err := subwf.New(subwf.Config{Workflows: r, Store: st, Logger: log.With("component", "sub-workflow")})
	if err != nil {
		return err
	}
	reg[wfrun.SubWorkflowType] = sw
	return nil
}
