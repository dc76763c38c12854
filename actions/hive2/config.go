package hive2

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/hadoop"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// Defaults of Config.
const (
	DefaultPollInterval      = 500 * time.Millisecond
	DefaultHeartbeatInterval = 10 * time.Second
	DefaultConnectTimeout    = 30 * time.Second
	DefaultSocketTimeout     = 10 * time.Minute
	DefaultReconnectFor      = 2 * time.Minute
	DefaultShutdownGrace     = 10 * time.Second
	DefaultMaxLogBytes       = 4 << 20
)

// Config configures an Executor.
type Config struct {
	// FS reads scripts (full URIs under the application path) and keeps
	// the run's files in its action directory (Run.ActionDir). Required.
	FS hadoop.FileSystem
	// Clock stamps records and log lines and paces polls and heartbeats;
	// default clock.Real.
	Clock clock.Clock
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// PollInterval is the longest pause between GetOperationStatus calls
	// of a statement (the first come after 5 ms, the pause doubling up to
	// it); default DefaultPollInterval.
	PollInterval time.Duration
	// HeartbeatInterval is how often a running run rewrites its record
	// and log and looks for a kill request; default DefaultHeartbeatInterval.
	HeartbeatInterval time.Duration
	// StaleAfter is how old a record's heartbeat must be before another
	// executor (after a crash, or on another server) takes the run over;
	// default three heartbeat intervals.
	StaleAfter time.Duration
	// ConnectTimeout bounds opening a session; default DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// SocketTimeout bounds each call to HiveServer2 (ExecuteStatement
	// compiles the statement synchronously, which can take a while);
	// default DefaultSocketTimeout.
	SocketTimeout time.Duration
	// ReconnectFor is how long a run tries to get a broken connection back
	// before it ends in ERROR (JA009); default DefaultReconnectFor.
	ReconnectFor time.Duration
	// ShutdownGrace bounds how long Close waits for running statements to
	// be cancelled; default DefaultShutdownGrace.
	ShutdownGrace time.Duration
	// MaxLogBytes caps the operation log kept per run (the oldest part is
	// dropped); default DefaultMaxLogBytes.
	MaxLogBytes int
	// InstanceID names this executor in records; default a random id.
	InstanceID string
	// Kerberos is the server's logged-in Kerberos client (its principal
	// must be allowed to act for the workflows' users by HiveServer2's
	// hadoop.proxyuser rules). jdbc-urls with principal= need it: the
	// session authenticates as this principal (SASL GSSAPI, or SPNEGO
	// over HTTP) and acts for the workflow's user through
	// hive.server2.proxy.user. nil refuses such URLs.
	Kerberos *krbclient.Client
}

func (c *Config) setDefaults() error {
	if c.FS == nil {
		return errors.New("hive2: Config.FS is required")
	}
	if c.Clock == nil {
		c.Clock = clock.Real{}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.PollInterval, DefaultPollInterval)
	def(&c.HeartbeatInterval, DefaultHeartbeatInterval)
	def(&c.StaleAfter, 3*c.HeartbeatInterval)
	def(&c.ConnectTimeout, DefaultConnectTimeout)
	def(&c.SocketTimeout, DefaultSocketTimeout)
	def(&c.ReconnectFor, DefaultReconnectFor)
	def(&c.ShutdownGrace, DefaultShutdownGrace)
	if c.MaxLogBytes <= 0 {
		c.MaxLogBytes = DefaultMaxLogBytes
	}
	if c.StaleAfter <= c.HeartbeatInterval {
		return fmt.Errorf("hive2: StaleAfter (%s) must exceed HeartbeatInterval (%s)", c.StaleAfter, c.HeartbeatInterval)
	}
	if c.InstanceID == "" {
		b := make([]byte, 8)
		rand.Read(b)
		c.InstanceID = "hive2-" + hex.EncodeToString(b)
	}
	return nil
}
