package minihs2

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// How a statement becomes a YARN application.
//
// HiveServer2 runs a query's DAG in a Tez ApplicationMaster, which
// registers with the ResourceManager and unregisters with the DAG's
// outcome. MiniHS2 keeps the real protocol and moves the AM's logic into
// itself: it submits an application whose AM container is a small bash
// relay. The relay connects to MiniHS2's rendezvous socket, hands over the
// container's AMRM token (from HADOOP_TOKEN_FILE_LOCATION) and waits.
// MiniHS2 then registers with the scheduler using that token, heartbeats
// while the statement runs, and unregisters with the true final status
// (SUCCEEDED, FAILED with the error, or KILLED for a cancelled statement)
// before it releases the relay, which exits 0. So the RM sees a correct AM
// life cycle under the strict AM rule, the container lives exactly as
// long as the statement, and killing the application (its container
// dies, closing the socket) fails the statement, as killing a Tez
// application fails the query.

// amLaunchTimeout bounds the relay's handshake on the rendezvous socket.
const amLaunchTimeout = 30 * time.Second

// amHeartbeat is the AM's heartbeat period.
const amHeartbeat = time.Second

// yarnLauncher submits statements' applications and runs their AMs.
type yarnLauncher struct {
	client *yarn.Client
	spnego bool // the client authenticates by SPNEGO, acting for users by doAs
	ln     net.Listener
	log    *slog.Logger
	wg     sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	waiting map[string]chan amHello
	conns   map[net.Conn]struct{}
}

// amHello is a relay that connected: its socket and the AMRM token.
type amHello struct {
	conn  net.Conn
	token hadoop.Token
	// confDir is the container's HADOOP_CONF_DIR, which names the scheduler.
	confDir string
}

// appSpec describes a statement's application.
type appSpec struct {
	user    string
	name    string
	appType string
	queue   string
	tags    []string
}

type yarnUserKey struct{}

// forUser marks ctx as acting for user: the pseudo user of requests, or
// with SPNEGO the doAs user.
func (l *yarnLauncher) forUser(ctx context.Context, user string) context.Context {
	if l.spnego {
		return hadoop.AsUser(ctx, user)
	}
	return context.WithValue(ctx, yarnUserKey{}, user)
}

// startYARNLauncher submits statements' applications to the RM at addr as
// each session's user: with pseudo authentication as that user, with krb
// (a Kerberized RM) by SPNEGO as HiveServer2's principal acting for the
// user (doAs), as a secure HiveServer2 with impersonation does.
func startYARNLauncher(addr string, krb *krbclient.Client, log *slog.Logger) (*yarnLauncher, error) {
	var auth yarn.Authenticator = yarn.AuthenticatorFunc(func(req *http.Request) error {
		user, _ := req.Context().Value(yarnUserKey{}).(string)
		return yarn.PseudoAuth{User: user}.Authenticate(req)
	})
	if krb != nil {
		a, err := yarn.NewSPNEGOAuth(krb, "")
		if err != nil {
			return nil, fmt.Errorf("minihs2: YARN client: %w", err)
		}
		auth = a
	}
	client, err := yarn.NewClient(yarn.Config{Addresses: []string{addr}, Logger: log, Auth: auth})
	if err != nil {
		return nil, fmt.Errorf("minihs2: YARN client: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("minihs2: AM rendezvous socket: %w", err)
	}
	l := &yarnLauncher{client: client, spnego: krb != nil, ln: ln, log: log, waiting: map[string]chan amHello{}, conns: map[net.Conn]struct{}{}}
	l.wg.Add(1)
	go l.accept()
	return l, nil
}

func (l *yarnLauncher) close() error {
	l.mu.Lock()
	l.closed = true
	for c := range l.conns {
		c.Close()
	}
	l.mu.Unlock()
	err := l.ln.Close()
	l.wg.Wait()
	return err
}

func (l *yarnLauncher) accept() {
	defer l.wg.Done()
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			c.Close()
			return
		}
		l.conns[c] = struct{}{}
		l.mu.Unlock()
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			if err := l.greet(c); err != nil {
				l.log.Debug("minihs2 AM relay refused", "err", err)
				l.drop(c)
			}
		}()
	}
}

func (l *yarnLauncher) drop(c net.Conn) {
	c.Close()
	l.mu.Lock()
	delete(l.conns, c)
	l.mu.Unlock()
}

// greet reads the relay's line "<key> <base64 token file> [<base64
// HADOOP_CONF_DIR>]" and hands the
// connection to the statement waiting for that key.
func (l *yarnLauncher) greet(c net.Conn) error {
	c.SetReadDeadline(time.Now().Add(amLaunchTimeout))
	line, err := bufio.NewReaderSize(io.LimitReader(c, 1<<20), 4096).ReadString('\n')
	if err != nil {
		return fmt.Errorf("reading the relay's greeting: %w", err)
	}
	c.SetReadDeadline(time.Time{})
	key, enc, ok := strings.Cut(strings.TrimSpace(line), " ")
	if !ok {
		return errors.New("malformed relay greeting")
	}
	enc, encDir, _ := strings.Cut(enc, " ")
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return fmt.Errorf("decoding the token file: %w", err)
	}
	confDir, err := base64.StdEncoding.DecodeString(encDir)
	if err != nil {
		return fmt.Errorf("decoding HADOOP_CONF_DIR: %w", err)
	}
	creds, err := hadoop.ReadCredentials(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	tok, ok := creds.TokenOfKind(hadoop.KindAMRMToken)
	if !ok {
		return errors.New("the container's token file holds no AMRM token")
	}
	l.mu.Lock()
	ch := l.waiting[key]
	delete(l.waiting, key)
	l.mu.Unlock()
	if ch == nil {
		return fmt.Errorf("no statement waits for relay %q", key)
	}
	ch <- amHello{conn: c, token: tok, confDir: string(confDir)}
	return nil
}

// relayCommand is the AM container's command: connect to the rendezvous
// socket, send the key, the token file and HADOOP_CONF_DIR, wait for "done".
func (l *yarnLauncher) relayCommand(key string) string {
	port := l.ln.Addr().(*net.TCPAddr).Port
	return fmt.Sprintf(`exec 3<>/dev/tcp/127.0.0.1/%d && echo "%s $(base64 -w0 "$HADOOP_TOKEN_FILE_LOCATION") $(printf %%s "$HADOOP_CONF_DIR" | base64 -w0)" >&3 && read -r verdict <&3 && [ "$verdict" = done ]`+
		` 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr`, port, key)
}

// launch submits an application for a statement and waits until its AM
// registered. ctx cancels the wait (the application is then killed).
func (l *yarnLauncher) launch(ctx context.Context, spec appSpec) (*runningApp, error) {
	ctx = l.forUser(ctx, spec.user)
	na, err := l.client.NewApplication(ctx)
	if err != nil {
		return nil, err
	}
	keyBytes := make([]byte, 16)
	rand.Read(keyBytes)
	key := hex.EncodeToString(keyBytes)
	ch := make(chan amHello, 1)
	l.mu.Lock()
	l.waiting[key] = ch
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.waiting, key)
		l.mu.Unlock()
	}()
	sc := yarn.ApplicationSubmissionContext{
		ApplicationID: na.ApplicationID, ApplicationName: spec.name, ApplicationType: spec.appType, Queue: spec.queue,
		ApplicationTags: spec.tags, MaxAppAttempts: 1, Resource: &yarn.Resource{MemoryMB: 256, VCores: 1},
		AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{l.relayCommand(key)}},
	}
	if err := l.client.Submit(ctx, sc); err != nil {
		return nil, err
	}
	var hello amHello
	select {
	case hello = <-ch:
	case <-ctx.Done():
		l.kill(spec.user, na.ApplicationID)
		return nil, ctx.Err()
	}
	app := &runningApp{id: na.ApplicationID, l: l, conn: hello.conn, lost: make(chan struct{}), stop: make(chan struct{}),
		beats: make(chan struct{})}
	am, err := l.dialAM(ctx, hello)
	if err != nil {
		l.drop(hello.conn)
		return nil, err
	}
	app.am = am
	if _, err := am.Register(ctx, "127.0.0.1", ""); err != nil {
		am.Close()
		l.drop(hello.conn)
		return nil, err
	}
	go app.watch()
	go app.heartbeat()
	return app, nil
}

// kill kills an application that never got going (best effort).
func (l *yarnLauncher) kill(user string, id yarn.ApplicationID) {
	ctx, cancel := context.WithTimeout(l.forUser(context.Background(), user), 10*time.Second)
	defer cancel()
	if err := l.client.Kill(ctx, id); err != nil {
		l.log.Debug("minihs2 could not kill an application", "app", id.String(), "err", err)
	}
}

// runningApp is a statement's application whose AM MiniHS2 plays.
type runningApp struct {
	id   yarn.ApplicationID
	l    *yarnLauncher
	am   *yarn.AMClient
	conn net.Conn

	lost     chan struct{} // closed when the container died or the RM shut the AM down
	lostOnce sync.Once
	stop     chan struct{} // closed to end the heartbeats
	beats    chan struct{} // closed when the heartbeat goroutine ended
	ending   sync.Mutex
	ended    bool
}

func (a *runningApp) markLost() { a.lostOnce.Do(func() { close(a.lost) }) }

func (a *runningApp) isLost() bool {
	select {
	case <-a.lost:
		return true
	default:
		return false
	}
}

// watch notices the container's death: the relay never writes after its
// greeting, so any read result means the socket closed.
func (a *runningApp) watch() {
	var b [1]byte
	a.conn.Read(b[:])
	a.ending.Lock()
	ended := a.ended
	a.ending.Unlock()
	if !ended {
		a.markLost()
	}
}

func (a *runningApp) heartbeat() {
	defer close(a.beats)
	t := time.NewTicker(amHeartbeat)
	defer t.Stop()
	for {
		select {
		case <-a.stop:
			return
		case <-a.lost:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err := a.am.Heartbeat(ctx, 0.5)
			cancel()
			if errors.Is(err, yarn.ErrAMShutdown) {
				a.markLost()
				return
			}
		}
	}
}

// finish unregisters with the final status and releases the container. A
// nil app (no YARN) and a lost one have nothing to do.
func (a *runningApp) finish(final yarn.FinalStatus, diagnostics string) {
	if a == nil {
		return
	}
	a.ending.Lock()
	a.ended = true
	a.ending.Unlock()
	close(a.stop)
	<-a.beats
	defer a.l.drop(a.conn)
	defer a.am.Close()
	if a.isLost() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.am.Unregister(ctx, final, diagnostics, ""); err != nil {
		a.l.log.Debug("minihs2 AM could not unregister", "app", a.id.String(), "err", err)
		return
	}
	a.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(a.conn, "done\n")
}

// appSpec builds the application of an operation from its session: Tez
// (or MapReduce with hive.execution.engine=mr), the session's tags and
// queue.
func (s *Server) appSpec(op *operation, conf map[string]string) appSpec {
	spec := appSpec{user: op.sess.user, tags: appTags(conf)}
	if engine(conf) == "mr" {
		spec.appType = "MAPREDUCE"
		spec.name = truncate(op.text, 64)
	} else {
		spec.appType = "TEZ"
		spec.name = "HIVE-" + op.sess.id
	}
	for _, k := range []string{"tez.queue.name", "mapreduce.job.queuename", "mapred.job.queue.name"} {
		if q := conf[k]; q != "" {
			spec.queue = q
			break
		}
	}
	return spec
}

func truncate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n]
	}
	return s
}

// dialAM connects to the scheduler the relay's HADOOP_CONF_DIR names (the
// AMRM token of a real RM has an empty service), with its
// hadoop.rpc.protection and retry settings.
func (l *yarnLauncher) dialAM(ctx context.Context, hello amHello) (*yarn.AMClient, error) {
	h, err := yarn.ContainerHadoopConf(func(k string) (string, bool) {
		if k == "HADOOP_CONF_DIR" && hello.confDir != "" {
			return hello.confDir, true
		}
		return "", false
	})
	if err != nil {
		return nil, err
	}
	cfg, err := yarn.ContainerAMConfig(h, hello.token)
	if err != nil {
		return nil, err
	}
	return yarn.DialAM(ctx, cfg)
}
