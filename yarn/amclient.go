package yarn

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/proto"
)

// ErrAMShutdown is returned by [AMClient.Heartbeat] when the RM orders the AM
// to shut down (AM_SHUTDOWN), e.g. after the application was killed.
var ErrAMShutdown = errors.New("ResourceManager ordered the ApplicationMaster to shut down")

// AMClient is an ApplicationMaster's session with the ResourceManager's
// scheduler (ApplicationMasterProtocol over Hadoop IPC, authenticated with the
// AMRM token through SASL DIGEST-MD5). The RM counts an attempt as successful
// only when its AM registered and unregistered; an AM container that exits
// without [AMClient.Unregister] is a failed attempt, whatever its exit code.
//
// The session outlives RM trouble as Hadoop's AMRMClientImpl over RMProxy
// does: a call whose connection fails, or that an RM answers as a standby,
// is made again on the next scheduler address (round robin, the rm-ids under
// HA) after the pause [AMRetry] sets, until it gives up; once registered, an
// allocate or finish answered with ApplicationMasterNotRegisteredException (an
// RM that failed over or restarted) registers again, responseId back at 0,
// and is made again; a new AMRM token in an allocate answer (a master key
// roll) authenticates every later connection. Calls are serialised.
type AMClient struct {
	cfg   AMConfig
	addrs []string
	log   *slog.Logger

	callMu     sync.Mutex             // one call at a time, and guards the fields below
	reg        *amRegistrationRequest // nil until Register succeeded
	responseID int32

	// connMu guards the fields below; next and token change only under
	// callMu too, so a call reads them without connMu.
	connMu     sync.Mutex
	next       int // index into addrs of the scheduler to use
	token      hadoop.Token
	conn       *ipc.Client
	protection ipc.Protection
	closed     chan struct{}
}

// amRegistrationRequest is what the AM registered with, to register again.
type amRegistrationRequest struct{ host, trackingURL string }

// AMRegistration is what the RM answers to a registration.
type AMRegistration struct {
	// MaxResource is the largest container the scheduler grants.
	MaxResource Resource
	// Queue is the queue the application runs in.
	Queue string
}

// AMRMToken returns the AMRM token (kind YARN_AM_RM_TOKEN) from a container's
// token file, the file named by HADOOP_TOKEN_FILE_LOCATION. A real RM writes it
// with an empty service and alias: the scheduler's address comes from the
// container's Hadoop configuration (see [SchedulerAddresses]).
func AMRMToken(tokenFile string) (hadoop.Token, error) {
	creds, err := hadoop.ReadTokenFile(tokenFile)
	if err != nil {
		return hadoop.Token{}, fmt.Errorf("reading the AMRM token: %w", err)
	}
	t, ok := creds.TokenOfKind(hadoop.KindAMRMToken)
	if !ok {
		return hadoop.Token{}, fmt.Errorf("reading the AMRM token: %s holds no %s token", tokenFile, hadoop.KindAMRMToken)
	}
	return t, nil
}

// NewAMClientFromEnv connects with the AMRM token of the container's token file
// (HADOOP_TOKEN_FILE_LOCATION) to the scheduler the container's Hadoop
// configuration (HADOOP_CONF_DIR) names, with its protection and retry
// settings (see [ContainerAMConfig]).
func NewAMClientFromEnv(ctx context.Context) (*AMClient, error) {
	path := os.Getenv(hadoop.TokenFileEnv)
	if path == "" {
		return nil, fmt.Errorf("connecting to the scheduler: %s is not set", hadoop.TokenFileEnv)
	}
	tok, err := AMRMToken(path)
	if err != nil {
		return nil, err
	}
	h, err := ContainerHadoopConf(os.LookupEnv)
	if err != nil {
		return nil, fmt.Errorf("connecting to the scheduler: %w", err)
	}
	cfg, err := ContainerAMConfig(h, tok)
	if err != nil {
		return nil, fmt.Errorf("connecting to the scheduler: %w", err)
	}
	return DialAM(ctx, cfg)
}

// NewAMClient connects to the scheduler at schedulerAddr (host:port,
// yarn.resourcemanager.scheduler.address) with the attempt's AMRM token,
// accepting the default protection (authentication) only.
func NewAMClient(ctx context.Context, schedulerAddr string, token hadoop.Token) (*AMClient, error) {
	return DialAM(ctx, AMConfig{SchedulerAddr: schedulerAddr, Token: token})
}

// AMConfig says how an ApplicationMaster reaches the scheduler.
type AMConfig struct {
	// SchedulerAddrs are the schedulers' host:port in failover order: one
	// per rm-id under RM HA (yarn.resourcemanager.scheduler.address.<id>).
	SchedulerAddrs []string
	// SchedulerAddr is the scheduler's host:port
	// (yarn.resourcemanager.scheduler.address) when SchedulerAddrs is
	// empty.
	SchedulerAddr string
	// Token is the attempt's AMRM token.
	Token hadoop.Token
	// Protection is the cluster's hadoop.rpc.protection, the levels the AM
	// accepts, most preferred first (ipc.ParseProtection reads the value).
	// Empty means authentication, Hadoop's default; a scheduler that
	// requires integrity or privacy refuses such an AM.
	Protection []ipc.Protection
	// Retry says how calls keep trying when the RM is unreachable or a
	// standby; the zero value tries each address once.
	Retry AMRetry
	// Logger receives notices of failovers and re-registrations; nil
	// discards them.
	Logger *slog.Logger
}

// errNoSchedulerAddr reports a configuration that names no scheduler.
var errNoSchedulerAddr = errors.New("connecting to the scheduler: no address (no yarn.resourcemanager.scheduler.address in HADOOP_CONF_DIR, and the AMRM token names no service)")

// DialAM connects to the scheduler as cfg says, failing over along its
// addresses as calls do.
func DialAM(ctx context.Context, cfg AMConfig) (*AMClient, error) {
	addrs := cfg.SchedulerAddrs
	if len(addrs) == 0 && cfg.SchedulerAddr != "" {
		addrs = []string{cfg.SchedulerAddr}
	}
	if len(addrs) == 0 {
		return nil, errNoSchedulerAddr
	}
	if len(cfg.Token.Identifier) == 0 || len(cfg.Token.Password) == 0 {
		return nil, errors.New("connecting to the scheduler: empty AMRM token")
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &AMClient{cfg: cfg, addrs: addrs, log: log, token: cfg.Token, closed: make(chan struct{})}
	c.callMu.Lock()
	defer c.callMu.Unlock()
	if err := c.invoke(ctx, "", nil, nil); err != nil {
		return nil, err
	}
	return c, nil
}

// Protection reports the protection level the last connection negotiated.
func (c *AMClient) Protection() ipc.Protection {
	c.connMu.Lock()
	defer c.connMu.Unlock()
	return c.protection
}

// Addr returns the scheduler address the client uses (or tries next).
func (c *AMClient) Addr() string {
	c.connMu.Lock()
	defer c.connMu.Unlock()
	return c.addrs[c.next]
}

// Token returns the AMRM token the client authenticates new connections
// with: the container's, or the newest an allocate answer carried.
func (c *AMClient) Token() hadoop.Token {
	c.connMu.Lock()
	defer c.connMu.Unlock()
	return c.token
}

// Register registers the AM; host is where it runs and trackingURL its web UI
// (may be empty). The client registers again with the same values whenever
// the RM asks (see [AMClient]).
func (c *AMClient) Register(ctx context.Context, host, trackingURL string) (AMRegistration, error) {
	c.callMu.Lock()
	defer c.callMu.Unlock()
	reg, err := c.registerLocked(ctx, host, trackingURL)
	if err != nil {
		return AMRegistration{}, err
	}
	c.reg = &amRegistrationRequest{host: host, trackingURL: trackingURL}
	return reg, nil
}

// registerLocked calls registerApplicationMaster. The RM expects responseId
// 0 after a registration, a second one too (a resync), as AMRMClientImpl
// resets it. Callers hold callMu.
func (c *AMClient) registerLocked(ctx context.Context, host, trackingURL string) (AMRegistration, error) {
	req := &yarnpb.RegisterApplicationMasterRequestProto{
		Host: proto.String(host), RpcPort: proto.Int32(-1), TrackingUrl: proto.String(trackingURL),
	}
	var resp yarnpb.RegisterApplicationMasterResponseProto
	if err := c.invoke(ctx, "registerApplicationMaster", req, &resp); err != nil {
		return AMRegistration{}, fmt.Errorf("registering the ApplicationMaster: %w", err)
	}
	c.responseID = 0
	return AMRegistration{
		MaxResource: Resource{
			MemoryMB: resp.GetMaximumCapability().GetMemory(),
			VCores:   int64(resp.GetMaximumCapability().GetVirtualCores()),
		},
		Queue: resp.GetQueue(),
	}, nil
}

// maxResyncs bounds the registrations one call makes when the RM keeps
// answering that the AM is not registered.
const maxResyncs = 5

// resync registers again after the RM said the AM is not registered, when
// the AM registered before (an RM that failed over or restarted forgets
// registrations); it reports whether the call should be made again.
// Callers hold callMu.
func (c *AMClient) resync(ctx context.Context, err error, resyncs int) (bool, error) {
	var re *ipc.RemoteError
	if c.reg == nil || resyncs >= maxResyncs || !errors.As(err, &re) || re.Class != ipc.ApplicationMasterNotRegisteredException {
		return false, nil
	}
	c.log.Info("the ResourceManager does not know the registration (a failover or a restart): registering again", "scheduler", c.addrs[c.next])
	if _, err := c.registerLocked(ctx, c.reg.host, c.reg.trackingURL); err != nil {
		return false, err
	}
	return true, nil
}

// Heartbeat reports progress (0 to 1) and keeps the attempt alive; the RM
// expires AMs that stay silent (yarn.am.liveness-monitor.expiry-interval-ms,
// 10 minutes by default). An answer that carries a new AMRM token makes it
// the client's token; an AM_RESYNC order registers again.
func (c *AMClient) Heartbeat(ctx context.Context, progress float32) error {
	c.callMu.Lock()
	defer c.callMu.Unlock()
	var resp yarnpb.AllocateResponseProto
	for resyncs := 0; ; resyncs++ {
		req := &yarnpb.AllocateRequestProto{ResponseId: proto.Int32(c.responseID), Progress: proto.Float32(progress)}
		err := c.invoke(ctx, "allocate", req, &resp)
		if err == nil {
			break
		}
		again, rerr := c.resync(ctx, err, resyncs)
		if rerr != nil {
			return fmt.Errorf("heartbeat: %w", rerr)
		}
		if !again {
			return fmt.Errorf("heartbeat: %w", err)
		}
	}
	c.responseID = resp.GetResponseId()
	if t := resp.GetAmRmToken(); t != nil {
		c.takeToken(t.GetIdentifier(), t.GetPassword(), t.GetKind())
	}
	if resp.AMCommand != nil {
		switch resp.GetAMCommand() {
		case yarnpb.AMCommandProto_AM_SHUTDOWN:
			return ErrAMShutdown
		case yarnpb.AMCommandProto_AM_RESYNC:
			if c.reg != nil {
				if _, err := c.registerLocked(ctx, c.reg.host, c.reg.trackingURL); err != nil {
					return fmt.Errorf("heartbeat: resync ordered: %w", err)
				}
			}
		}
	}
	return nil
}

// takeToken makes a rolled AMRM token the one later connections use; the
// open connection stays authenticated as it is (AMRMClientImpl.updateAMRMToken
// adds it to the user's credentials). Callers hold callMu.
func (c *AMClient) takeToken(ident, password []byte, kind string) {
	if len(ident) == 0 || len(password) == 0 {
		return
	}
	if kind == "" {
		kind = hadoop.KindAMRMToken
	}
	if string(ident) == string(c.token.Identifier) && string(password) == string(c.token.Password) {
		return
	}
	c.connMu.Lock()
	c.token = hadoop.Token{Identifier: ident, Password: password, Kind: kind}
	c.connMu.Unlock()
	c.log.Info("the ResourceManager rolled the AMRM token; later connections use the new one")
}

// unregisterRetryPause separates unregistration calls while the RM has not yet
// recorded it.
const unregisterRetryPause = 100 * time.Millisecond

// Unregister ends the attempt with the given final status (SUCCEEDED, FAILED or
// KILLED), diagnostics and tracking URL. It repeats the call until the RM
// confirms (isUnregistered), through failovers, restarts and
// re-registrations, bounded by ctx. After it the application is FINISHED with
// this final status.
func (c *AMClient) Unregister(ctx context.Context, final FinalStatus, diagnostics, trackingURL string) error {
	status, err := finalStatusProto(final)
	if err != nil {
		return fmt.Errorf("unregistering the ApplicationMaster: %w", err)
	}
	req := &yarnpb.FinishApplicationMasterRequestProto{
		Diagnostics: proto.String(diagnostics), TrackingUrl: proto.String(trackingURL),
		FinalApplicationStatus: status.Enum(),
	}
	c.callMu.Lock()
	defer c.callMu.Unlock()
	for resyncs := 0; ; {
		var resp yarnpb.FinishApplicationMasterResponseProto
		err := c.invoke(ctx, "finishApplicationMaster", req, &resp)
		if err != nil {
			again, rerr := c.resync(ctx, err, resyncs)
			switch {
			case rerr != nil:
				return fmt.Errorf("unregistering the ApplicationMaster: %w", rerr)
			case !again:
				return fmt.Errorf("unregistering the ApplicationMaster: %w", err)
			}
			resyncs++
			continue
		}
		if resp.GetIsUnregistered() {
			return nil
		}
		if err := c.sleep(ctx, unregisterRetryPause); err != nil {
			return fmt.Errorf("unregistering the ApplicationMaster: %w", err)
		}
	}
}

// Close closes the connection; calls under way and later ones fail.
func (c *AMClient) Close() error {
	c.connMu.Lock()
	defer c.connMu.Unlock()
	select {
	case <-c.closed:
		return nil
	default:
	}
	close(c.closed)
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
	return nil
}

// errAMClientClosed is returned by calls on a closed client.
var errAMClientClosed = errors.New("the ApplicationMaster client is closed")

// invoke makes one call (or, with an empty method, only connects) with
// failover: a connection that cannot be made or breaks, and a
// StandbyException, make it try the next address after the pause the retry
// policy sets, until the policy gives up; any other error ends it. Callers
// hold callMu.
func (c *AMClient) invoke(ctx context.Context, method string, req, resp proto.Message) error {
	failover := c.cfg.Retry.HA || len(c.addrs) > 1
	limit := c.cfg.Retry.limit(failover, len(c.addrs))
	for n := 0; ; n++ {
		err := c.try(ctx, method, req, resp)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || !retriable(err) {
			return err
		}
		if limit >= 0 && n >= limit {
			return fmt.Errorf("no scheduler reachable at %s (%d tries): %w", strings.Join(c.addrs, ", "), n+1, err)
		}
		from := c.addrs[c.next]
		if failover {
			c.connMu.Lock()
			c.next = (c.next + 1) % len(c.addrs)
			c.connMu.Unlock()
		}
		pause := c.cfg.Retry.pause(failover, n)
		level := slog.LevelDebug
		if n == 0 {
			level = slog.LevelInfo
		}
		c.log.Log(ctx, level, "the scheduler is unreachable or a standby: trying again", "scheduler", from,
			"next", c.addrs[c.next], "pause", pause, "err", err)
		if serr := c.sleep(ctx, pause); serr != nil {
			return fmt.Errorf("%w (last failure: %v)", serr, err)
		}
	}
}

// try makes one call on the open connection, connecting first if there is
// none; a connection that failed is dropped.
func (c *AMClient) try(ctx context.Context, method string, req, resp proto.Message) error {
	conn, err := c.connection(ctx)
	if err != nil || method == "" {
		return err
	}
	err = conn.Call(ctx, method, req, resp)
	if err != nil && retriable(err) {
		c.dropConnection(conn)
	}
	return err
}

// connection returns the open connection, or dials the current address
// with the current token. Callers hold callMu.
func (c *AMClient) connection(ctx context.Context) (*ipc.Client, error) {
	c.connMu.Lock()
	select {
	case <-c.closed:
		c.connMu.Unlock()
		return nil, errAMClientClosed
	default:
	}
	conn := c.conn
	c.connMu.Unlock()
	if conn != nil {
		return conn, nil
	}
	addr := c.addrs[c.next]
	conn, err := ipc.Dial(ctx, ipc.ClientOptions{
		Addr:       addr,
		Protocol:   ipc.ApplicationMasterProtocol,
		Token:      c.token.IPC(),
		Protection: c.cfg.Protection,
	})
	if err != nil {
		return nil, fmt.Errorf("connecting to the scheduler at %s: %w", addr, err)
	}
	c.connMu.Lock()
	defer c.connMu.Unlock()
	select {
	case <-c.closed:
		conn.Close()
		return nil, errAMClientClosed
	default:
	}
	c.conn, c.protection = conn, conn.Protection()
	return conn, nil
}

// dropConnection closes conn if it is still the open connection.
func (c *AMClient) dropConnection(conn *ipc.Client) {
	c.connMu.Lock()
	defer c.connMu.Unlock()
	if c.conn == conn {
		c.conn = nil
	}
	conn.Close()
}

// sleep waits d, or until ctx ends or the client is closed.
func (c *AMClient) sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-c.closed:
		return errAMClientClosed
	case <-t.C:
		return nil
	}
}

// retriable reports whether a failed call may succeed at another try, as
// Hadoop's RetryPolicies.FailoverOnNetworkExceptionRetry decides: a
// connection that could not be made or broke, and a StandbyException, may;
// an answer of the RM (a RemoteException), a refused authentication
// (InvalidToken, a SASL failure), a protection level the server does not
// offer and a closed client may not.
func retriable(err error) bool {
	if errors.Is(err, errAMClientClosed) || errors.Is(err, ipc.ErrNoCommonProtection) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var re *ipc.RemoteError
	if errors.As(err, &re) {
		return re.Class == ipc.StandbyException && re.Method != "sasl"
	}
	return true
}

func finalStatusProto(f FinalStatus) (yarnpb.FinalApplicationStatusProto, error) {
	switch f {
	case FinalSucceeded:
		return yarnpb.FinalApplicationStatusProto_APP_SUCCEEDED, nil
	case FinalFailed:
		return yarnpb.FinalApplicationStatusProto_APP_FAILED, nil
	case FinalKilled:
		return yarnpb.FinalApplicationStatusProto_APP_KILLED, nil
	case FinalEnded:
		return yarnpb.FinalApplicationStatusProto_APP_ENDED, nil
	case FinalUndefined:
		return yarnpb.FinalApplicationStatusProto_APP_UNDEFINED, nil
	default:
		return 0, fmt.Errorf("unknown final status %q", f)
	}
}
