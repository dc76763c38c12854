// Package daemon assembles one gozie server process from its configuration:
// the store, the trigger engine with every handler, and the REST server, and
// runs them until its context ends, then stops them in order (HTTP drains,
// the engine finishes in-flight handlers, the store closes).
package daemon

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/buildinfo"
	"github.com/gozie/gozie/bundle/bundlerun"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/coordinator/coordrun/editwatch"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/krblogin"
	"github.com/gozie/gozie/hcat/metastore"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/purge"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/dashboard"
	"github.com/gozie/gozie/server/jobs"
	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/backends"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

// Options are the parts of a process that do not come from configuration.
type Options struct {
	// Config is the loaded server configuration.
	Config *conf.Server
	// Logger receives everything; nil means slog.Default().
	Logger *slog.Logger
	// Listener, if set, is served instead of listening on Config.HTTP.Address.
	Listener net.Listener
	// Clock is the engine's time source; nil means the real clock.
	Clock clock.Clock
	// Ready, if set, is called once the REST API accepts connections.
	Ready func(addr net.Addr)
	// Executors runs workflow actions by type; nil means the standard ones.
	Executors actions.Registry
	// LauncherBinary is the gozie binary staged as the YARN launcher; empty
	// means the running executable.
	LauncherBinary string
}

// Daemon is one running server process.
type Daemon struct {
	opts   Options
	log    *slog.Logger
	Store  store.Store
	Engine *engine.Engine
	REST   *server.Server
	// FS reaches the cluster's filesystems (and file://) by URI, for the
	// server's own use.
	FS *hadoop.Resolver
	// UserFS is FS seen through gozie.filesystems.supported: everything that
	// acts on paths users name (applications, datasets, actions) gets it.
	UserFS *hadoop.Restricted
	// Workflows runs workflow jobs.
	Workflows *wfrun.Runner
	// Coordinators runs coordinator jobs.
	Coordinators *coordrun.Runner
	// Bundles runs bundle jobs.
	Bundles *bundlerun.Runner
	// Metrics is the registry /metrics serves.
	Metrics *prometheus.Registry
	// SLA is the SLA service; nil when gozie.sla.enabled is false.
	SLA *sla.Service
	// Purge removes old finished jobs (daemon/purge.go).
	Purge *purge.Purger
	// hcat checks hcat:// datasets and follows their metastores (daemon/hcat.go).
	hcat *metastore.Datasets
	// editWatch follows the default filesystem's edit stream (daemon/editwatch.go); nil when off.
	editWatch *editwatch.Watcher
}

// Open opens the store and builds the engine and REST server without
// starting them.
func Open(ctx context.Context, opts Options) (*Daemon, error) {
	cfg := opts.Config
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	// REST authentication (daemon/auth.go) first: a bad keytab fails before anything opens.
	authn, err := newAuthenticator(cfg, log.With("component", "auth"))
	if err != nil {
		return nil, err
	}
	st, err := backends.Open(ctx, cfg.DB.URL)
	if err != nil {
		return nil, fmt.Errorf("opening store: %w", err)
	}
	// Every failure below closes the store; the daemon owns it once Open returns.
	opened := false
	defer func() {
		if !opened {
			st.Close()
		}
	}()
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if db, ok := st.(interface{ SQL() *sql.DB }); ok {
		// go_sql_*{db_name="gozie"}: the connection pool, whose closes for
		// the idle cap or lifetime show connections opened over and over.
		reg.MustRegister(collectors.NewDBStatsCollector(db.SQL(), "gozie"))
	}
	d := &Daemon{opts: opts, log: log, Store: st, Metrics: reg}
	d.Engine = engine.New(engine.Config{
		Store:       st,
		Clock:       opts.Clock,
		Logger:      log.With("component", "engine"),
		Lease:       cfg.Engine.Lease,
		Workers:     cfg.Engine.Workers,
		MaxSleep:    cfg.Engine.MaxSleep,
		Metrics:     engine.NewMetrics(reg),
		MaxAttempts: cfg.Engine.MaxAttempts,
	})
	hconf, err := hadoopConf(cfg)
	if err != nil {
		return nil, err
	}
	// HDFS: the server's user is the real user of every call, which acts
	// for the job's user (hadoop.AsUser, set where work is done for a
	// job); a call that names no user fails rather than act as the server.
	// The configuration maps HA nameservices to their NameNodes.
	// On a Kerberized cluster the server's principal is that real user,
	// logged in from its keytab (and kept logged in) before anything starts.
	rc := hadoop.ResolverConfig{Conf: hconf.Map(), DefaultFS: cfg.Hadoop.DefaultNameNode,
		User: cfg.UserName, RequireUser: true, Now: opts.Clock.Now, SimpleRefusedHint: simpleRefusedHint(hconf)}
	if hconf.Kerberos() {
		if rc.Kerberos, err = krblogin.Login(krblogin.Config{Principal: cfg.Kerberos.Principal, Keytab: cfg.Kerberos.Keytab}); err != nil {
			return nil, fmt.Errorf("hadoop.security.authentication=kerberos: %w", err)
		}
	}
	d.FS, err = hadoop.NewResolver(rc)
	if err != nil {
		return nil, fmt.Errorf("filesystems: %w", err)
	}
	schemes, err := hadoop.NewSchemePolicy(cfg.Hadoop.SupportedFilesystems, d.FS.DefaultFS())
	if err != nil {
		return nil, fmt.Errorf("gozie.filesystems.supported: %w", err)
	}
	d.UserFS = schemes.Restrict(d.FS)
	if opts.Executors == nil {
		if opts.Executors, err = executors(cfg, hconf, d.UserFS, d.FS, rc.Kerberos, opts.Clock, log, opts.LauncherBinary); err != nil {
			return nil, err
		}
	}
	wopts := workflow.DefaultOptions()
	wopts.DefaultNameNode = cfg.Hadoop.DefaultNameNode
	wopts.DefaultResourceManager = cfg.Hadoop.DefaultResourceManager
	wopts.HadoopConf = hconf // hadoop:conf; the fs: EL functions use the runner's FS below
	// The registry the runner runs actions with says which types are
	// supported; the sub-workflow executor is added to it below.
	wopts.HasExecutor = opts.Executors.Has
	wopts.UserRetryMax = cfg.Action.UserRetryMax
	wopts.UserRetryInterval = cfg.Action.UserRetryInterval
	wopts.UserRetryPolicy = cfg.Action.UserRetryPolicy
	// SLA (daemon/sla.go): the service follows workflow changes through
	// the runner's OnChange hook.
	var onWorkflowChange func(context.Context, store.Tx, *store.WorkflowJob, bool, bool, []store.WorkflowAction) error
	if cfg.SLA.Enabled {
		if d.SLA, err = newSLA(cfg, st, opts.Clock, log.With("component", "sla"), reg); err != nil {
			return nil, err
		}
		onWorkflowChange = d.SLA.WorkflowChanged
	}
	d.Workflows, err = wfrun.New(wfrun.Config{
		Store: st, Clock: opts.Clock, Logger: log.With("component", "workflow"), FS: d.UserFS,
		Executors: opts.Executors, IDs: ids.NewGenerator(cfg.SystemID, opts.Clock.Now()),
		CallbackBaseURL: cfg.CallbackBaseURL, Options: wopts, SubstituteDepth: cfg.SubstituteDepth,
		PollInterval: cfg.Action.PollInterval, CheckInterval: cfg.Action.CheckInterval,
		FallbackCheckInterval: cfg.Action.FallbackCheckInterval, DefinitionCacheSize: cfg.Action.DefinitionCacheSize,
		StartRetry: wfrun.StartRetry{Max: cfg.Action.RetriesMax,
			Interval: cfg.Action.RetryInterval, Policy: cfg.Action.RetryPolicy}, Metrics: reg,
		OnChange: onWorkflowChange,
		// Coordinator actions follow their workflows (see below).
		OnJobChange: func(ctx context.Context, x store.Tx, job store.WorkflowJob) error {
			return d.Coordinators.OnWorkflowChange(ctx, x, job)
		},
	})
	if err != nil {
		return nil, err
	}
	if err := subWorkflows(opts.Executors, d.Workflows, st, log); err != nil {
		return nil, err
	}
	d.Workflows.Register(d.Engine)

	// Coordinators (coordinator/coordrun): materialization, input checks,
	// starts, roll-ups and workflow commands run as triggers; the actions
	// follow their workflows through the runner's OnJobChange above.
	format, err := oozietime.NewFormat(cfg.ProcessingTimezone)
	if err != nil {
		return nil, fmt.Errorf("processing time zone: %w", err)
	}
	if d.hcat, err = newHCat(hconf, rc.Kerberos, log.With("component", "hcat")); err != nil {
		return nil, err
	}
	d.Coordinators, err = coordrun.New(coordrun.Config{
		Store: st, Clock: opts.Clock, Logger: log.With("component", "coordinator"), FS: d.UserFS, HCat: hcatDatasets(d.hcat),
		IDs: ids.NewGenerator(cfg.SystemID, opts.Clock.Now()), Workflows: d.Workflows, Format: format,
		SubstituteDepth: cfg.SubstituteDepth, InputCheckMinInterval: cfg.Coord.InputCheckMinInterval,
		InputCheckMaxInterval: cfg.Coord.InputCheckMaxInterval,
		Settings: coordinator.Settings{
			DefaultTimeout:        int(cfg.Coord.DefaultTimeout / time.Minute),
			MaxTimeout:            int(cfg.Coord.MaxTimeout / time.Minute),
			DefaultConcurrency:    cfg.Coord.DefaultConcurrency,
			DefaultThrottle:       cfg.Coord.DefaultThrottle,
			CheckMaximumFrequency: cfg.Coord.CheckMaximumFrequency,
			Window:                cfg.Coord.MaterializationWindow,
			HideErrorStates:       true,
			MaxInstances:          cfg.Coord.MaxInstances,
		},
		// Bundles follow their coordinators (see below).
		OnJobChange: func(ctx context.Context, x store.Tx, job store.CoordJob) error {
			return d.Bundles.OnCoordinatorChange(ctx, x, job)
		},
	})
	if err != nil {
		return nil, err
	}
	d.Coordinators.Register(d.Engine)
	if d.hcat != nil {
		d.hcat.SetNotify(d.Coordinators.Notify)
	}
	if d.editWatch, err = newEditWatch(cfg, d.FS, st, d.Coordinators, d.Engine.Owner(), opts.Clock,
		log.With("component", "editwatch")); err != nil {
		return nil, err
	}

	// Bundles (bundle/bundlerun): kick-offs and roll-ups run as triggers; a
	// bundle submits its coordinators through the coordinator engine and
	// follows them through its OnJobChange above.
	d.Bundles, err = bundlerun.New(bundlerun.Config{
		Store: st, Clock: opts.Clock, Logger: log.With("component", "bundle"), FS: d.UserFS,
		IDs: ids.NewGenerator(cfg.SystemID, opts.Clock.Now()), Coordinators: d.Coordinators, Format: format,
		SubstituteDepth: cfg.SubstituteDepth,
	})
	if err != nil {
		return nil, err
	}
	d.Bundles.Register(d.Engine)

	if d.SLA != nil {
		d.SLA.Register(d.Engine)
	}
	b := buildinfo.Get()
	d.REST = server.New(server.Config{
		Authenticator:   authn,
		Authorization:   authorization(cfg),
		Logger:          log.With("component", "rest"),
		Registry:        reg,
		Build:           server.BuildInfo{Version: b.Version, Revision: b.Revision, Time: b.Time, URL: "github.com/gozie/gozie"},
		Configuration:   cfg.Dump,
		Admin:           adminSources(st, opts.Clock),
		ShutdownTimeout: cfg.HTTP.ShutdownTimeout,
		OnSystemModeChange: func(_, to server.SystemMode) {
			if to == server.ModeSafe {
				// The kinds that start new work, as registered (engine.StartsNewWork);
				// running work (checks, kills, completions) goes on.
				d.Engine.Hold(d.Engine.NewWorkKinds()...)
				return
			}
			d.Engine.Hold()
		},
	})
	if err := jobs.Register(d.REST, jobs.Deps{Store: st, Workflows: d.Workflows, Coordinators: d.Coordinators, Bundles: d.Bundles, Clock: opts.Clock,
		Logger: log.With("component", "jobs"), FS: d.UserFS, WorkflowOptions: wopts, SubstituteDepth: cfg.SubstituteDepth,
		SLA: slaControl(d.SLA), ActionLogs: actionLogClusters(cfg, hconf, rc.Kerberos, log)}); err != nil {
		return nil, err
	}
	// The web console at /oozie/ (server/dashboard), whether or not the SLA service runs.
	if err := dashboard.Register(d.REST, dashboard.Deps{Store: st, Clock: opts.Clock}); err != nil {
		return nil, err
	}
	if d.SLA != nil {
		if err := registerSLA(d.REST, cfg, st, opts.Clock, log.With("component", "sla")); err != nil {
			return nil, err
		}
	}

	// Purge (daemon/purge.go): old finished jobs go on the gozie.purge.*
	// schedule, and on demand through PUT admin/purge.
	if d.Purge, err = newPurge(ctx, cfg, st, d.Engine, opts.Clock, log.With("component", "purge"), reg); err != nil {
		return nil, err
	}
	d.REST.RegisterPurge(d.Purge)
	opened = true
	return d, nil
}

// Run serves until ctx ends, then shuts down gracefully: no new requests or
// claims, in-flight requests and handlers finish, and the store closes. It
// returns nil after a clean shutdown.
func (d *Daemon) Run(ctx context.Context) (err error) {
	defer func() {
		for _, ex := range d.opts.Executors {
			if c, ok := ex.(interface{ Close() error }); ok {
				c.Close()
			}
		}
		d.FS.Close()
		if cerr := d.Store.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing store: %w", cerr)
		}
	}()
	ln := d.opts.Listener
	if ln == nil {
		ln, err = net.Listen("tcp", d.opts.Config.HTTP.Address)
		if err != nil {
			return fmt.Errorf("listening on %s: %w", d.opts.Config.HTTP.Address, err)
		}
	}
	if err := d.Engine.Start(ctx); err != nil {
		ln.Close()
		return err
	}
	defer d.Engine.Stop()
	defer runHCat(ctx, d.hcat)()
	defer runEditWatch(ctx, d.editWatch)()
	hbCtx, stopHeartbeat := context.WithCancel(ctx)
	hbDone := make(chan struct{})
	go func() {
		defer close(hbDone)
		heartbeat(hbCtx, d.Store, d.opts.Clock, d.log, d.Engine.Owner(), d.opts.Config.BaseURL)
	}()
	defer func() { stopHeartbeat(); <-hbDone }()
	d.log.Info("gozie server started", "address", ln.Addr().String(), "store", d.Store.Backend(),
		"version", buildinfo.Get().Version, "engine", d.Engine.Owner(),
		"console", "http://"+ln.Addr().String()+server.ContextPath+"/")
	if d.opts.Ready != nil {
		d.opts.Ready(ln.Addr())
	}
	err = d.REST.Serve(ctx, ln)
	d.log.Info("shutting down: waiting for running work")
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}
