package yarn

import (
	"context"
	"errors"
	"fmt"
	"os"
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

// ErrAMResync is returned by [AMClient.Heartbeat] when the RM orders the AM to
// register again (AM_RESYNC), after an RM restart.
var ErrAMResync = errors.New("ResourceManager ordered the ApplicationMaster to resync")

// AMClient is an ApplicationMaster's connection to the ResourceManager's
// scheduler (ApplicationMasterProtocol over Hadoop IPC, authenticated with the
// AMRM token through SASL DIGEST-MD5). The RM counts an attempt as successful
// only when its AM registered and unregistered; an AM container that exits
// without [AMClient.Unregister] is a failed attempt, whatever its exit code.
type AMClient struct {
	conn *ipc.Client

	mu         sync.Mutex
	responseID int32
}

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
// configuration (HADOOP_CONF_DIR) names, failing over along its rm-ids (see
// [SchedulerAddresses] and [DialAMAny]).
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
	am, _, err := DialAMAny(ctx, SchedulerAddresses(h, tok), AMConfig{Token: tok})
	return am, err
}

// NewAMClient connects to the scheduler at schedulerAddr (host:port,
// yarn.resourcemanager.scheduler.address) with the attempt's AMRM token,
// accepting the default protection (authentication) only.
func NewAMClient(ctx context.Context, schedulerAddr string, token hadoop.Token) (*AMClient, error) {
	return DialAM(ctx, AMConfig{SchedulerAddr: schedulerAddr, Token: token})
}

// AMConfig says how an ApplicationMaster reaches the scheduler.
type AMConfig struct {
	// SchedulerAddr is the scheduler's host:port
	// (yarn.resourcemanager.scheduler.address).
	SchedulerAddr string
	// Token is the attempt's AMRM token.
	Token hadoop.Token
	// Protection is the cluster's hadoop.rpc.protection, the levels the AM
	// accepts, most preferred first (ipc.ParseProtection reads the value).
	// Empty means authentication, Hadoop's default; a scheduler that
	// requires integrity or privacy refuses such an AM.
	Protection []ipc.Protection
}

// DialAM connects to the scheduler as cfg says.
func DialAM(ctx context.Context, cfg AMConfig) (*AMClient, error) {
	if cfg.SchedulerAddr == "" {
		return nil, errors.New("connecting to the scheduler: no address")
	}
	if len(cfg.Token.Identifier) == 0 || len(cfg.Token.Password) == 0 {
		return nil, errors.New("connecting to the scheduler: empty AMRM token")
	}
	conn, err := ipc.Dial(ctx, ipc.ClientOptions{
		Addr:       cfg.SchedulerAddr,
		Protocol:   ipc.ApplicationMasterProtocol,
		Token:      cfg.Token.IPC(),
		Protection: cfg.Protection,
	})
	if err != nil {
		return nil, fmt.Errorf("connecting to the scheduler at %s: %w", cfg.SchedulerAddr, err)
	}
	return &AMClient{conn: conn}, nil
}

// Protection reports the protection level the connection negotiated.
func (c *AMClient) Protection() ipc.Protection { return c.conn.Protection() }

// Register registers the AM; host is where it runs and trackingURL its web UI
// (may be empty).
func (c *AMClient) Register(ctx context.Context, host, trackingURL string) (AMRegistration, error) {
	req := &yarnpb.RegisterApplicationMasterRequestProto{
		Host: proto.String(host), RpcPort: proto.Int32(-1), TrackingUrl: proto.String(trackingURL),
	}
	var resp yarnpb.RegisterApplicationMasterResponseProto
	if err := c.conn.Call(ctx, "registerApplicationMaster", req, &resp); err != nil {
		return AMRegistration{}, fmt.Errorf("registering the ApplicationMaster: %w", err)
	}
	// The RM expects responseId 0 after a registration, a second one too
	// (a resync), as MapReduce's RMContainerAllocator resets it.
	c.mu.Lock()
	c.responseID = 0
	c.mu.Unlock()
	return AMRegistration{
		MaxResource: Resource{
			MemoryMB: resp.GetMaximumCapability().GetMemory(),
			VCores:   int64(resp.GetMaximumCapability().GetVirtualCores()),
		},
		Queue: resp.GetQueue(),
	}, nil
}

// Heartbeat reports progress (0 to 1) and keeps the attempt alive; the RM
// expires AMs that stay silent (yarn.am.liveness-monitor.expiry-interval-ms,
// 10 minutes by default).
func (c *AMClient) Heartbeat(ctx context.Context, progress float32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	req := &yarnpb.AllocateRequestProto{ResponseId: proto.Int32(c.responseID), Progress: proto.Float32(progress)}
	var resp yarnpb.AllocateResponseProto
	if err := c.conn.Call(ctx, "allocate", req, &resp); err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	c.responseID = resp.GetResponseId()
	if resp.AMCommand != nil {
		switch resp.GetAMCommand() {
		case yarnpb.AMCommandProto_AM_SHUTDOWN:
			return ErrAMShutdown
		case yarnpb.AMCommandProto_AM_RESYNC:
			return ErrAMResync
		}
	}
	return nil
}

// unregisterRetryPause separates unregistration calls while the RM has not yet
// recorded it.
const unregisterRetryPause = 100 * time.Millisecond

// Unregister ends the attempt with the given final status (SUCCEEDED, FAILED or
// KILLED), diagnostics and tracking URL. It repeats the call until the RM
// confirms, bounded by ctx. After it the application is FINISHED with this
// final status.
func (c *AMClient) Unregister(ctx context.Context, final FinalStatus, diagnostics, trackingURL string) error {
	status, err := finalStatusProto(final)
	if err != nil {
		return fmt.Errorf("unregistering the ApplicationMaster: %w", err)
	}
	req := &yarnpb.FinishApplicationMasterRequestProto{
		Diagnostics: proto.String(diagnostics), TrackingUrl: proto.String(trackingURL),
		FinalApplicationStatus: status.Enum(),
	}
	for {
		var resp yarnpb.FinishApplicationMasterResponseProto
		if err := c.conn.Call(ctx, "finishApplicationMaster", req, &resp); err != nil {
			return fmt.Errorf("unregistering the ApplicationMaster: %w", err)
		}
		if resp.GetIsUnregistered() {
			return nil
		}
		t := time.NewTimer(unregisterRetryPause)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("unregistering the ApplicationMaster: %w", ctx.Err())
		case <-t.C:
		}
	}
}

// Close closes the connection.
func (c *AMClient) Close() error { return c.conn.Close() }

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
