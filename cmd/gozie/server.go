package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"slices"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/internal/gcbudget"
	"github.com/gozie/gozie/store/backends"
)

// serverFlagAliases are the short flags of `gozie server`, each an alias of
// a configuration key (which also has its own long flag).
var serverFlagAliases = []struct{ name, key, usage string }{
	{"addr", "gozie.http.address", "listen address HOST:PORT (gozie.http.address)"},
	{"db", "gozie.db.url", "database: sqlite:PATH or a postgres:// URL (gozie.db.url)"},
	{"data-dir", "gozie.data.dir", "directory for local state (gozie.data.dir)"},
}

func runServer(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	flags := conf.RegisterFlags(fs)
	alias := map[string]*string{}
	for _, a := range serverFlagAliases {
		alias[a.key] = fs.String(a.name, "", a.usage)
	}
	local := fs.Bool("local", false, "also run a local cluster (MiniDFS, MiniYARN) in <data-dir> and use it by default; "+
		"listens on 127.0.0.1 unless -addr says otherwise")
	cf := registerClusterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "gozie server: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	src := flags.Sources()
	if src.Flags == nil {
		src.Flags = map[string]string{}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, a := range serverFlagAliases {
		if set[a.name] {
			src.Flags[a.key] = *alias[a.key]
		}
	}
	if v, ok := src.Flags["gozie.db.url"]; ok {
		if err := backends.Validate(v); err != nil {
			fmt.Fprintf(os.Stderr, "gozie server: -db: %v\n", err)
			return 2
		}
	}
	cfg, err := conf.Load(src)
	if err == nil && *local && loopbackByDefault(cfg) {
		// The local cluster is for one machine: unless the address was chosen, listen on
		// the loopback interface only, and call back through it.
		_, port, _ := net.SplitHostPort(cfg.HTTP.Address)
		src.Flags["gozie.http.address"] = net.JoinHostPort("127.0.0.1", port)
		src.Hostname = "localhost"
		cfg, err = conf.Load(src)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gozie server: %v\n", err)
		return 2
	}
	if err := backends.Validate(cfg.DB.URL); err != nil {
		fmt.Fprintf(os.Stderr, "gozie server: gozie.db.url: %v\n", err)
		return 2
	}
	log := newLogger(cfg.Log)
	slog.SetDefault(log)
	var ready func(net.Addr)
	if *local {
		// The server acts for the jobs' users through the cluster's
		// proxy-user rules, which let its own user do so.
		c, err := startLocalCluster(ctx, cfg.DataDir, cfg.UserName, cf, log)
		if err != nil {
			log.Error("local cluster failed to start", "err", err)
			return 1
		}
		defer c.Close()
		p := c.Properties()
		if cfg.Hadoop.ConfDir == "" {
			// The cluster's client configuration names its nameservice,
			// its ResourceManagers and their protection.
			cfg.Hadoop.ConfDir = c.ConfDir
		}
		if cfg.Hadoop.DefaultNameNode == "" {
			cfg.Hadoop.DefaultNameNode = p["nameNode"]
		}
		if cfg.Hadoop.DefaultResourceManager == "" {
			cfg.Hadoop.DefaultResourceManager = p["resourceManager"]
		}
		if cfg.Hadoop.DefaultHiveJDBCURL == "" {
			cfg.Hadoop.DefaultHiveJDBCURL = p["hive2JdbcUrl"]
		}
		useLocalSSH(cfg, p)
		// The cluster's metastore serves hcat:// datasets (hcatNode).
		if !slices.Contains(cfg.Hadoop.SupportedFilesystems, "hcat") && !slices.Contains(cfg.Hadoop.SupportedFilesystems, "*") {
			cfg.Hadoop.SupportedFilesystems = append(cfg.Hadoop.SupportedFilesystems, "hcat")
		}
		if *cf.kerberos {
			useLocalRealm(cfg, p)
		}
		ready = func(addr net.Addr) { localBanner(log, addr, cfg.DataDir, p) }
	}
	defer gcbudget.Start(ctx, int64(cfg.HeapBudgetMB)<<20)()
	d, err := daemon.Open(ctx, daemon.Options{Config: cfg, Logger: log, Ready: ready})
	if err != nil {
		log.Error("gozie server failed to start", "err", err)
		return 1
	}
	if err := d.Run(ctx); err != nil {
		log.Error("gozie server stopped with an error", "err", err)
		return 1
	}
	log.Info("gozie server stopped")
	return 0
}

// useLocalRealm makes the server a service of the local cluster's
// Kerberos realm, where nothing else set it otherwise: it logs in toward
// Hadoop as the cluster's gozie principal and authenticates REST callers
// with SPNEGO as its HTTP principal, both keys in the cluster's gozie
// keytab; KRB5_CONFIG names the realm's KDC for the server and the tools
// it runs.
func useLocalRealm(cfg *conf.Server, p map[string]string) {
	os.Setenv("KRB5_CONFIG", p["krb5Config"])
	if cfg.Kerberos.Principal == "" {
		cfg.Kerberos.Principal, cfg.Kerberos.Keytab = p["goziePrincipal"], p["gozieKeytab"]
	}
	if isDefault(cfg, "gozie.http.authentication.type") {
		cfg.HTTP.AuthenticationType = "kerberos"
		cfg.HTTP.KerberosPrincipal, cfg.HTTP.KerberosKeytab = p["gozieHTTPPrincipal"], p["gozieKeytab"]
	}
}

// isDefault reports whether key has its built-in default, set by no flag,
// variable or site file.
func isDefault(cfg *conf.Server, key string) bool {
	for _, e := range cfg.Effective() {
		if e.Key == key {
			return e.Source == conf.SourceDefault
		}
	}
	return false
}

// loopbackByDefault reports whether the listen address is the built-in default (every
// interface), set by no flag, variable or site file.
func loopbackByDefault(cfg *conf.Server) bool { return isDefault(cfg, "gozie.http.address") }

func newLogger(c conf.Log) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.Level}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}
