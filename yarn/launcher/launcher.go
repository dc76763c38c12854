package launcher

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// Bounds of the launcher's own calls once the action has ended.
const (
	unregisterTimeout = time.Minute
	resultAttempts    = 3
	resultPause       = 500 * time.Millisecond
	heartbeatProgress = 0.5
)

// launcher is one run of the ApplicationMaster.
type launcher struct {
	spec *Spec
	env  Env
	log  *slog.Logger

	// hconf is the container's Hadoop configuration, read once by
	// hadoopConf; nil when it could not be read.
	hconf      *conf.Hadoop
	hconfTried bool
	// retry is how the AM client keeps trying the RM, set by connect.
	retry yarn.AMRetry
}

// run registers, runs the action while heartbeating, writes the result,
// unregisters with the action's true final status and calls back.
func (l *launcher) run(ctx context.Context) int {
	appID := ""
	if cid, err := yarn.ParseContainerID(l.env.Getenv("CONTAINER_ID")); err == nil {
		appID = cid.Attempt.App.String()
		l.log = l.log.With("yarn_app_id", appID)
	} else {
		l.log.Warn("no container id: the launcher id guard is off", "err", err)
	}
	// The container's configuration maps an HA nameservice
	// (hdfs://mycluster) to its NameNodes.
	var hdfsConf map[string]string
	if h := l.hadoopConf(); h != nil {
		hdfsConf = h.Map()
	}
	// The submission's HDFS delegation tokens, if any, authenticate the
	// launcher to a secure cluster's NameNodes (TOKEN).
	tokens, err := hadoop.TokensFromEnv(l.env.Getenv)
	if err != nil {
		l.log.Error("reading the container's tokens", "err", err)
		return ExitFailed
	}
	fsys, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: l.defaultFS(), Conf: hdfsConf, User: l.spec.User, Tokens: tokens, Now: l.env.Now})
	if err != nil {
		l.log.Error("opening the filesystem", "err", err)
		return ExitFailed
	}
	defer fsys.Close()

	am, err := l.connect(ctx)
	if err != nil {
		l.log.Error("registering with the ResourceManager", "err", err)
		// The RM will fail the attempt; leave the reason where Check looks.
		l.writeResult(ctx, fsys, failure(appID, CodeException, fmt.Sprintf("registering with the ResourceManager: %v", err)))
		return ExitFailed
	}
	defer am.Close()

	actionCtx, stopAction := context.WithCancelCause(ctx)
	defer stopAction(nil)
	hbCtx, stopHeartbeat := context.WithCancel(ctx)
	hbDone := make(chan struct{})
	go func() {
		defer close(hbDone)
		l.heartbeat(hbCtx, am, stopAction)
	}()
	res := l.runAction(actionCtx, fsys, appID)
	stopHeartbeat()
	<-hbDone

	if ctx.Err() != nil {
		l.log.Info("terminated while the action ran; the ResourceManager ends the application")
		return ExitTerminated
	}
	if cause := context.Cause(actionCtx); cause != nil {
		l.log.Error("the ResourceManager stopped the application", "err", cause)
		return ExitTerminated
	}
	l.writeResult(ctx, fsys, res)
	final := yarn.FinalFailed
	if res.Succeeded() {
		final = yarn.FinalSucceeded
	}
	uctx, cancel := l.unregisterContext(ctx)
	err = am.Unregister(uctx, final, res.ErrorMessage, "")
	cancel()
	code := ExitOK
	if err != nil {
		l.log.Error("unregistering from the ResourceManager", "err", err)
		code = ExitFailed
	} else {
		l.log.Info("unregistered", "final_status", final, "error_code", res.ErrorCode)
	}
	l.callback(ctx, res.FinalStatus)
	return code
}

// unregisterContext bounds the unregistration: long enough for the client
// to ride out an RM failover or restart (each of its calls may keep trying
// for yarn.resourcemanager.connect.max-wait.ms), never shorter than
// unregisterTimeout; without a bound in the configuration, only ctx bounds
// it.
func (l *launcher) unregisterContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if l.retry.MaxWait < 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, max(unregisterTimeout, 2*l.retry.MaxWait))
}

// defaultFS is the spec's name node, or the action directory's filesystem.
func (l *launcher) defaultFS() string {
	if l.spec.NameNode != "" {
		return l.spec.NameNode
	}
	scheme, rest, _ := strings.Cut(l.spec.ActionDir, "://")
	authority, _, _ := strings.Cut(rest, "/")
	return scheme + "://" + authority
}

// hadoopConf is the Hadoop configuration the NodeManager gives the container
// (HADOOP_CONF_DIR, which a real NodeManager always exports): it names the
// scheduler, the HDFS nameservices and hadoop.rpc.protection. A configuration
// that cannot be read is logged once and leaves nil (Hadoop's defaults).
func (l *launcher) hadoopConf() *conf.Hadoop {
	if l.hconfTried {
		return l.hconf
	}
	l.hconfTried = true
	h, err := yarn.ContainerHadoopConf(func(k string) (string, bool) {
		v := l.env.Getenv(k)
		return v, v != ""
	})
	if err != nil {
		l.log.Warn("no Hadoop configuration: using Hadoop's defaults", "err", err)
		return nil
	}
	l.hconf = h
	return h
}

// connect registers with the scheduler. A real RM writes the AMRM token with
// an empty service, so the addresses come from the container's Hadoop
// configuration (yarn.resourcemanager.scheduler.address, one per rm-id under
// RM HA), with its hadoop.rpc.protection and its retry settings; the
// token's service serves only when the configuration names no scheduler,
// and the spec's SchedulerAddress overrides both. The session then outlives
// RM failovers, work-preserving restarts and AMRM key rolls (see
// yarn.AMClient).
func (l *launcher) connect(ctx context.Context) (*yarn.AMClient, error) {
	tokenFile := l.env.Getenv(tokenFileEnv)
	if tokenFile == "" {
		return nil, fmt.Errorf("%s is not set: not running in a YARN container", tokenFileEnv)
	}
	tok, err := yarn.AMRMToken(tokenFile)
	if err != nil {
		return nil, err
	}
	cfg, err := yarn.ContainerAMConfig(l.hadoopConf(), tok)
	if err != nil {
		return nil, err
	}
	if l.spec.SchedulerAddress != "" {
		cfg.SchedulerAddrs = []string{l.spec.SchedulerAddress}
	}
	cfg.Logger = l.log
	l.retry = cfg.Retry
	am, err := yarn.DialAM(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := am.Register(ctx, l.host(), ""); err != nil {
		am.Close()
		return nil, err
	}
	l.log.Info("registered with the ResourceManager", "scheduler", am.Addr(), "rpc_protection", am.Protection())
	return am, nil
}

func (l *launcher) host() string {
	if h := l.env.Getenv("NM_HOST"); h != "" {
		return h
	}
	h, _ := os.Hostname()
	return h
}

// heartbeat keeps the attempt alive until ctx ends. An order to shut down
// stops the action (stop). The client itself fails over, reconnects and
// registers again when the RM asks; an error here means it gave up for
// this beat, and the next beat tries again.
func (l *launcher) heartbeat(ctx context.Context, am *yarn.AMClient, stop context.CancelCauseFunc) {
	t := time.NewTicker(l.spec.Heartbeat.or(DefaultHeartbeat))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := am.Heartbeat(ctx, heartbeatProgress)
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return
		case errors.Is(err, yarn.ErrAMShutdown):
			stop(err)
			return
		default:
			l.log.Warn("heartbeat failed; trying again at the next beat", "err", err)
		}
	}
}

// writeResult writes the result file, retrying briefly; a failure is logged,
// since the RM's final status still tells the outcome.
func (l *launcher) writeResult(ctx context.Context, fsys hadoop.FileSystem, res Result) {
	b, err := res.Encode()
	if err != nil {
		l.log.Error("encoding the result", "err", err)
		return
	}
	p := strings.TrimSuffix(l.spec.ActionDir, "/") + "/" + ResultFile
	for attempt := 1; ; attempt++ {
		err = fsys.WriteFile(ctx, p, b, 0o644)
		if err == nil {
			return
		}
		if attempt == resultAttempts || ctx.Err() != nil {
			l.log.Error("writing the result file", "path", p, "err", err)
			return
		}
		t := time.NewTimer(resultPause)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
	}
}

// callback notifies the server, bounded by the spec's callback timeout.
func (l *launcher) callback(ctx context.Context, status string) {
	if l.spec.CallbackURL == "" {
		return
	}
	client := l.env.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: DefaultCallbackTimeout}
	}
	cctx, cancel := context.WithTimeout(ctx, l.spec.CallbackTimeout.or(DefaultCallbackTimeout))
	defer cancel()
	if err := notify(cctx, client, l.spec.CallbackURL, status); err != nil {
		l.log.Warn("callback failed; the server will see the end by polling", "err", err)
	}
}

// failure is a failed result without an exit code.
func failure(appID, code, msg string) Result {
	return Result{Version: ResultVersion, ApplicationID: appID, FinalStatus: StatusFailed, ErrorCode: code, ErrorMessage: msg}
}
