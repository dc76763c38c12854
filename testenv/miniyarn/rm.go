package miniyarn

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/gozie/gozie/yarn"
)

// RM is a running fake ResourceManager with its NodeManager.
type RM struct {
	opts Options
	log  *slog.Logger

	mu      sync.Mutex
	apps    map[yarn.ApplicationID]*app
	order   []yarn.ApplicationID
	issued  int64 // highest sequence handed out by new-application
	hold    bool
	closing bool
	active  int // index into webs of the active endpoint; -1 for none
	// failLaunches counts container launches still to fail (FailNextLaunches).
	failLaunches int
	pending      []transition
	notifyMu     sync.Mutex // serialises OnTransition calls

	webs     []*endpoint
	nmServer *http.Server
	nmAddr   string
	sched    *scheduler
	secret   []byte // signs hadoop.auth cookies and AMRM tokens
	proxies  *ugi.ProxyUsers
	localDir string
	logRoot  string
	confDir  string // the NodeManager's HADOOP_CONF_DIR

	ctx    context.Context // cancelled by Close; bounds localisation
	cancel context.CancelFunc
	wg     sync.WaitGroup // attempt and cleanup goroutines
}

// endpoint is one web address of the RM (the active one or a standby).
type endpoint struct {
	index  int
	addr   string
	server *http.Server
}

// Start starts a fake RM listening on random loopback ports. ctx bounds the
// start only; stop the RM with [RM.Close].
func Start(ctx context.Context, opts Options) (*RM, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	rm := &RM{
		opts:     o,
		log:      o.Logger,
		apps:     make(map[yarn.ApplicationID]*app),
		secret:   make([]byte, 32),
		proxies:  ugi.NewProxyUsers(o.Conf, ugi.NewGroups(o.Conf)),
		localDir: filepath.Join(o.WorkDir, "nm-local-dir"),
		logRoot:  filepath.Join(o.WorkDir, "nm-logs"),
		confDir:  filepath.Join(o.WorkDir, nmConfDirName),
	}
	rm.ctx, rm.cancel = context.WithCancel(context.Background())
	if _, err := rand.Read(rm.secret); err != nil {
		return nil, fmt.Errorf("miniyarn: making the RM secret: %w", err)
	}
	for _, d := range []string{rm.localDir, rm.logRoot} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("miniyarn: %w", err)
		}
	}
	if err := rm.startNM(ctx); err != nil {
		rm.Close()
		return nil, err
	}
	for i := 0; i <= o.Standbys; i++ {
		if err := rm.startEndpoint(ctx, i); err != nil {
			rm.Close()
			return nil, err
		}
	}
	sched, err := startScheduler(ctx, rm)
	if err != nil {
		rm.Close()
		return nil, err
	}
	rm.mu.Lock()
	rm.sched = sched
	rm.mu.Unlock()
	if err := rm.writeNMConf(rm.confDir); err != nil {
		rm.Close()
		return nil, err
	}
	return rm, nil
}

func listenLoopback(ctx context.Context) (net.Listener, error) {
	var lc net.ListenConfig
	l, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("miniyarn: listening on a loopback port: %w", err)
	}
	return l, nil
}

func (rm *RM) startNM(ctx context.Context) error {
	l, err := listenLoopback(ctx)
	if err != nil {
		return err
	}
	rm.nmAddr = l.Addr().String()
	rm.nmServer = &http.Server{Handler: rm.nmHandler(), ReadHeaderTimeout: 10 * time.Second}
	go rm.nmServer.Serve(l) //nolint:errcheck // Serve always returns ErrServerClosed after Close.
	return nil
}

func (rm *RM) startEndpoint(ctx context.Context, index int) error {
	l, err := listenLoopback(ctx)
	if err != nil {
		return err
	}
	ep := &endpoint{index: index, addr: l.Addr().String()}
	ep.server = &http.Server{Handler: rm.webHandler(ep), ReadHeaderTimeout: 10 * time.Second}
	rm.webs = append(rm.webs, ep)
	go ep.server.Serve(l) //nolint:errcheck // Serve always returns ErrServerClosed after Close.
	return nil
}

// WebAddr returns the host:port of the active RM's web endpoint.
func (rm *RM) WebAddr() string { return rm.activeWebAddr() }

// WebURL returns the base URL of the active RM's web endpoint.
func (rm *RM) WebURL() string { return "http://" + rm.activeWebAddr() }

// WebAddrs returns the host:port of every web endpoint, active or standby, in
// creation order (index 0 is active at start).
func (rm *RM) WebAddrs() []string {
	out := make([]string, len(rm.webs))
	for i, ep := range rm.webs {
		out[i] = ep.addr
	}
	return out
}

// NodeManagerAddr returns the host:port of the NodeManager web server that
// serves container logs.
func (rm *RM) NodeManagerAddr() string { return rm.nmAddr }

// SchedulerAddr returns the host:port of the ApplicationMasterProtocol (AMRM)
// IPC server.
func (rm *RM) SchedulerAddr() string {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.sched == nil {
		return ""
	}
	return rm.sched.addr()
}

// ClusterTimestamp returns the cluster timestamp of application ids.
func (rm *RM) ClusterTimestamp() int64 { return rm.opts.ClusterTimestamp }

func (rm *RM) activeWebAddr() string {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.activeWebAddrLocked()
}

func (rm *RM) activeWebAddrLocked() string {
	if len(rm.webs) == 0 {
		return ""
	}
	if rm.active < 0 { // no active RM: addresses in reports name the first one
		return rm.webs[0].addr
	}
	return rm.webs[rm.active].addr
}

// activeEndpointLocked returns the active endpoint, nil during a failover.
// Callers hold rm.mu.
func (rm *RM) activeEndpointLocked() *endpoint {
	if rm.active < 0 || rm.active >= len(rm.webs) {
		return nil
	}
	return rm.webs[rm.active]
}

// Failover makes the web endpoint with the given index (see [RM.WebAddrs]) the
// active RM; the others answer as standbys. Index -1 leaves no RM active, as
// during a failover: every endpoint then answers as a standby that does not
// know the active RM (307 with a Refresh header and no Location).
func (rm *RM) Failover(index int) error {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if index < -1 || index >= len(rm.webs) {
		return fmt.Errorf("miniyarn: no web endpoint %d (have %d)", index, len(rm.webs))
	}
	rm.active = index
	return nil
}

// FailNextLaunches makes the next n container launches fail before the command
// starts (as a NodeManager that cannot launch the container), so tests can
// exercise attempt retries and failed applications.
func (rm *RM) FailNextLaunches(n int) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	rm.failLaunches = max(n, 0)
}

// HoldAccepted keeps newly submitted applications in ACCEPTED (as a full queue
// does) while hold is true. Turning it off launches every held application.
func (rm *RM) HoldAccepted(hold bool) {
	rm.mu.Lock()
	rm.hold = hold
	var release []*app
	if !hold {
		for _, id := range rm.order {
			if a := rm.apps[id]; a != nil && a.held {
				a.held = false
				release = append(release, a)
			}
		}
	}
	for _, a := range release {
		rm.startAttemptLocked(a)
	}
	rm.mu.Unlock()
	rm.flushTransitions()
}

// Forget drops a finished application, as the RM does past
// max-completed-applications or on a restart without recovery; its report then
// answers 404. Forgetting an unknown or unfinished application is an error.
func (rm *RM) Forget(id yarn.ApplicationID) error {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	a, ok := rm.apps[id]
	if !ok {
		return fmt.Errorf("miniyarn: forgetting %s: unknown application", id)
	}
	if !a.state.Final() {
		return fmt.Errorf("miniyarn: forgetting %s: application is %s, not finished", id, a.state)
	}
	delete(rm.apps, id)
	rm.order = slices.DeleteFunc(rm.order, func(x yarn.ApplicationID) bool { return x == id })
	return nil
}

// Apps returns the reports of every known application in submission order.
func (rm *RM) Apps() []yarn.AppReport {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	out := make([]yarn.AppReport, 0, len(rm.order))
	for _, id := range rm.order {
		out = append(out, rm.report(rm.apps[id]))
	}
	return out
}

// App returns the report of one application.
func (rm *RM) App(id yarn.ApplicationID) (yarn.AppReport, bool) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	a, ok := rm.apps[id]
	if !ok {
		return yarn.AppReport{}, false
	}
	return rm.report(a), true
}

// ContainerProcessGroup returns the process group id of the current AM
// container of an application, or 0 when none runs (yet).
func (rm *RM) ContainerProcessGroup(id yarn.ApplicationID) int {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	a, ok := rm.apps[id]
	if !ok {
		return 0
	}
	if cur := a.current(); cur != nil {
		return cur.pgid
	}
	return 0
}

// Close kills every container (SIGTERM, SIGKILL after the grace period), waits
// for them, and stops the servers. It is safe to call more than once.
func (rm *RM) Close() error {
	rm.mu.Lock()
	rm.closing = true
	var running []*attempt
	for _, a := range rm.apps {
		for _, at := range a.attempts {
			if at.proc != nil {
				running = append(running, at)
			}
		}
	}
	for _, at := range running {
		rm.signalGroupLocked(at)
	}
	sched := rm.sched
	rm.sched = nil
	rm.mu.Unlock()
	rm.cancel()
	rm.wg.Wait()

	// Every container is gone, so no request of ours is pending. Close (rather
	// than Shutdown) also drops connections a client opened but never used,
	// which Shutdown would wait for.
	var errs []error
	for _, ep := range rm.webs {
		if err := ep.server.Close(); err != nil {
			errs = append(errs, fmt.Errorf("stopping web endpoint %s: %w", ep.addr, err))
		}
	}
	if rm.nmServer != nil {
		if err := rm.nmServer.Close(); err != nil {
			errs = append(errs, fmt.Errorf("stopping NodeManager web server: %w", err))
		}
	}
	if sched != nil {
		if err := sched.close(); err != nil {
			errs = append(errs, fmt.Errorf("stopping scheduler: %w", err))
		}
	}
	rm.flushTransitions()
	return errors.Join(errs...)
}
