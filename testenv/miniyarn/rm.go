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
	"strconv"
	"sync"
	"time"

	"github.com/gozie/gozie/testenv/internal/portpick"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/gozie/gozie/yarn"
)

// RM is a running fake ResourceManager with its NodeManager.
type RM struct {
	opts Options
	log  *slog.Logger

	// adminMu serialises the hooks that start and stop servers (Failover,
	// Stop, StartAgain, Close); it is taken before mu.
	adminMu sync.Mutex

	mu      sync.Mutex
	apps    map[yarn.ApplicationID]*app
	order   []yarn.ApplicationID
	issued  int64 // highest sequence handed out by new-application
	hold    bool
	closing bool
	active  int  // index of the active RM (webs, scheds); -1 for none
	down    bool // the RM process is down (Stop); the NodeManager runs on
	// failLaunches counts container launches still to fail (FailNextLaunches).
	failLaunches int
	pending      []transition
	notifyMu     sync.Mutex // serialises OnTransition calls

	webs     []*endpoint  // one per RM index
	scheds   []*scheduler // one per RM index
	keys     *amrmKeys    // the AMRM token master keys (state store)
	nmServer *http.Server
	nmAddr   string
	secret   []byte // signs hadoop.auth cookies
	dtokens  *rmTokens
	renewer  *dtRenewer // the delegation tokens of submissions (Kerberos)
	proxies  *ugi.ProxyUsers
	localDir string
	cache    resourceCache // localized PUBLIC and PRIVATE resources
	logRoot  string
	confDir  string // the NodeManager's HADOOP_CONF_DIR

	ctx    context.Context // cancelled by Close; bounds localisation
	cancel context.CancelFunc
	wg     sync.WaitGroup // attempt and cleanup goroutines
}

// endpoint is the web endpoint of one RM (the active one or a standby). Its
// address is fixed for the life of the RM; server is nil while the RM is
// down.
type endpoint struct {
	index  int
	addr   string
	server *http.Server
	ln     net.Listener // server's listener, closed with it
	hold   *portHold    // the address, held while down (best effort)
}

// rmID is the HA id of RM index i (yarn.resourcemanager.ha.rm-ids).
func rmID(i int) string { return "rm" + strconv.Itoa(i+1) }

// Start starts a fake RM listening on the addresses of [Options.Addrs]
// (random loopback ports where none are given). ctx bounds the start only;
// stop the RM with [RM.Close].
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
	if rm.keys, err = newAMRMKeys(); err != nil {
		return nil, err
	}
	if rm.dtokens, err = newRMTokens(); err != nil {
		return nil, err
	}
	rm.renewer = newDTRenewer()
	if o.Kerberos != nil {
		rm.wg.Add(1)
		go func() {
			defer rm.wg.Done()
			rm.runCanceller(rm.ctx)
		}()
	}
	for _, d := range []string{rm.localDir, rm.logRoot} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("miniyarn: %w", err)
		}
	}
	if err := rm.startServers(ctx); err != nil {
		rm.Close()
		return nil, err
	}
	if err := rm.writeNMConf(rm.confDir); err != nil {
		rm.Close()
		return nil, err
	}
	return rm, nil
}

// startServers starts the NodeManager, every RM's web endpoint, and the
// active RM's scheduler; a standby RM's scheduler address is only reserved.
func (rm *RM) startServers(ctx context.Context) error {
	if err := rm.startNM(ctx); err != nil {
		return err
	}
	for i := 0; i <= rm.opts.Standbys; i++ {
		what := "the web endpoint of " + rmID(i)
		hold, addr, err := reopenable(ctx, at(rm.opts.Addrs.Web, i), what)
		if err != nil {
			return err
		}
		var l net.Listener
		if hold != nil {
			l, err = hold.listen()
		} else {
			l, err = listen(ctx, addr, what)
		}
		if err != nil {
			return err
		}
		ep := &endpoint{index: i, addr: advertised(addr, l)}
		rm.webs = append(rm.webs, ep)
		rm.serveEndpoint(ep, l)
	}
	for i := 0; i <= rm.opts.Standbys; i++ {
		hold, addr, err := reopenable(ctx, at(rm.opts.Addrs.Scheduler, i), "the scheduler of "+rmID(i))
		if err != nil {
			return err
		}
		rm.scheds = append(rm.scheds, &scheduler{rm: rm, index: i, addr: addr, hold: hold})
	}
	return rm.scheds[0].start()
}

// reopenable holds addr as reservePort does, or for an address without a
// port (empty, or port 0) a port picked below the ephemeral range and held
// in the same step: the web endpoints and the schedulers close their ports
// (a stopped or standby RM) and open them again, and an ephemeral port would
// go to some outgoing connection meanwhile. The address returned keeps the
// host as given (a host name is advertised as such).
func reopenable(ctx context.Context, addr, what string) (*portHold, string, error) {
	host, port, err := net.SplitHostPort(addr)
	switch {
	case addr == "":
		host = "127.0.0.1"
	case err != nil:
		return nil, "", fmt.Errorf("miniyarn: address %q for %s: %w", addr, what, err)
	case port != "0":
		hold, _, err := reservePort(ctx, addr, what)
		return hold, addr, err
	}
	var hold *portHold
	var bound string
	picked, err := portpick.Bind(host, func(a string) error {
		var err error
		hold, bound, err = holdPort(a, what)
		return err
	})
	if err != nil {
		return nil, "", fmt.Errorf("miniyarn: %w", err)
	}
	if _, p, _ := net.SplitHostPort(picked); p == "0" {
		_, p, _ = net.SplitHostPort(bound)
		picked = net.JoinHostPort(host, p)
	}
	return hold, picked, nil
}

// listen listens on addr (a random loopback port when empty); the error
// names what the address is for.
func listen(ctx context.Context, addr, what string) (net.Listener, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	l, err := portpick.ListenNoWait(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("miniyarn: listening on %s for %s: %w", addr, what, err)
	}
	return l, nil
}

// advertised is the address clients are given for a listener opened on
// configured: a host name stays (localhost:0 is advertised as
// localhost:<port>, which a Kerberos service principal's _HOST needs),
// an IP address or nothing gives the bound address.
func advertised(configured string, l net.Listener) string {
	host, _, err := net.SplitHostPort(configured)
	if err != nil || host == "" || net.ParseIP(host) != nil {
		return l.Addr().String()
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return net.JoinHostPort(host, port)
}

func (rm *RM) startNM(ctx context.Context) error {
	l, err := listen(ctx, rm.opts.Addrs.NodeManager, "the NodeManager")
	if err != nil {
		return err
	}
	rm.nmAddr = advertised(rm.opts.Addrs.NodeManager, l)
	rm.nmServer = &http.Server{Handler: rm.nmHandler(), ReadHeaderTimeout: 10 * time.Second}
	go rm.nmServer.Serve(l) //nolint:errcheck // Serve always returns ErrServerClosed after Close.
	return nil
}

// serveEndpoint serves ep's web endpoint on l.
func (rm *RM) serveEndpoint(ep *endpoint, l net.Listener) {
	srv := &http.Server{Handler: rm.webHandler(ep), ReadHeaderTimeout: 10 * time.Second}
	ep.server, ep.ln = srv, l
	go srv.Serve(l) //nolint:errcheck // Serve always returns ErrServerClosed after Close.
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

// SchedulerAddr returns the host:port of the active RM's
// ApplicationMasterProtocol (AMRM) IPC server, "" when no RM is active.
func (rm *RM) SchedulerAddr() string {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.active < 0 {
		return ""
	}
	return rm.scheds[rm.active].addr
}

// SchedulerAddrs returns the scheduler address of every RM, in RM order
// (index 0 is rm1, active at start). Only the active RM's listens; the
// addresses stay the same across failovers and restarts.
func (rm *RM) SchedulerAddrs() []string {
	out := make([]string, len(rm.scheds))
	for i, s := range rm.scheds {
		out[i] = s.addr
	}
	return out
}

// RMIDs returns the HA ids of the RMs in RM order (rm1, rm2, ...), as the
// generated yarn-site.xml names them under HA.
func (rm *RM) RMIDs() []string {
	out := make([]string, len(rm.webs))
	for i := range out {
		out[i] = rmID(i)
	}
	return out
}

// Active returns the index of the active RM, -1 when none is.
func (rm *RM) Active() int {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.active
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

// Failover makes the RM with the given index (see [RM.WebAddrs] and
// [RM.SchedulerAddrs]) the active one; the others act as standbys. The old
// active RM's scheduler stops listening and drops its AM connections; the
// new one's listens on its address. Like a real RM that becomes active, the
// new one recovers the applications from the state store: running attempts
// are kept, but their AMs must register again (see [RM.StartAgain]).
// Index -1 leaves no RM active, as during a failover: every web endpoint
// then answers as a standby that does not know the active RM (307 with a
// Refresh header and no Location), and no scheduler listens. Failing over
// to the active RM does nothing; while the RM is down ([RM.Stop]) it only
// chooses which RM [RM.StartAgain] brings back as the active one.
func (rm *RM) Failover(index int) error {
	rm.adminMu.Lock()
	defer rm.adminMu.Unlock()
	defer rm.flushTransitions()
	rm.mu.Lock()
	if index < -1 || index >= len(rm.webs) {
		rm.mu.Unlock()
		return fmt.Errorf("miniyarn: no ResourceManager %d (have %d)", index, len(rm.webs))
	}
	if rm.closing {
		rm.mu.Unlock()
		return errors.New("miniyarn: failover of a closed ResourceManager")
	}
	old := rm.active
	if index == old {
		rm.mu.Unlock()
		return nil
	}
	rm.active = index
	down := rm.down
	if !down && index >= 0 {
		rm.recoverLocked()
	}
	rm.mu.Unlock()
	if down {
		return nil
	}
	var errs []error
	if old >= 0 {
		if err := rm.scheds[old].stop(true); err != nil {
			errs = append(errs, fmt.Errorf("miniyarn: stopping the scheduler of %s: %w", rmID(old), err))
		}
	}
	if index >= 0 {
		errs = append(errs, rm.scheds[index].start())
	}
	rm.log.Info("miniyarn: failover", "from", old, "to", index)
	return errors.Join(errs...)
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
	if !rm.down { // else the RM launches them when it is back
		for _, a := range release {
			rm.startAttemptLocked(a)
		}
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

// NumApps is how many applications the RM knows (Apps' length, without
// building their reports).
func (rm *RM) NumApps() int {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return len(rm.order)
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
// for them, and stops the servers. It is safe to call more than once, and
// on a stopped RM.
func (rm *RM) Close() error {
	rm.adminMu.Lock()
	defer rm.adminMu.Unlock()
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
	rm.replayExitsLocked() // what ended while the RM was down
	for _, t := range rm.renewer.delayed {
		t.Stop()
	}
	rm.mu.Unlock()
	rm.cancel()
	rm.wg.Wait()

	// Every container is gone, so no request of ours is pending. Close (rather
	// than Shutdown) also drops connections a client opened but never used,
	// which Shutdown would wait for.
	errs := rm.stopRMServers(false)
	if rm.nmServer != nil {
		if err := rm.nmServer.Close(); err != nil {
			errs = append(errs, fmt.Errorf("stopping NodeManager web server: %w", err))
		}
	}
	rm.flushTransitions()
	return errors.Join(errs...)
}

// stopRMServers closes every web endpoint and scheduler of the RMs (not the
// NodeManager's server), dropping their connections; with keep, their
// addresses stay held for StartAgain, else they are released. Callers hold
// adminMu.
func (rm *RM) stopRMServers(keep bool) []error {
	var errs []error
	for _, ep := range rm.webs {
		if ep.server != nil {
			if keep {
				ep.hold, _, _ = holdPort(ep.addr, "") // before the close, best effort, as for the scheduler
			}
			if err := ep.server.Close(); err != nil {
				errs = append(errs, fmt.Errorf("stopping web endpoint %s: %w", ep.addr, err))
			}
			// Close closes only the listeners Serve has taken: one whose
			// goroutine has not run yet would accept connections until it
			// does, while the RM is down.
			ep.ln.Close() //nolint:errcheck // closed already when Serve took it
			ep.server, ep.ln = nil, nil
		}
		if !keep {
			ep.hold.release()
			ep.hold = nil
		}
	}
	for _, s := range rm.scheds {
		if err := s.stop(keep); err != nil {
			errs = append(errs, fmt.Errorf("stopping the scheduler at %s: %w", s.addr, err))
		}
	}
	return errs
}
