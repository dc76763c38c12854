package minihs2

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/beltran/gohive/hiveserver"
	"github.com/gozie/gozie/testenv/internal/portpick"
	"github.com/gozie/gozie/testenv/internal/ugi"
)

// Server is a running MiniHS2.
type Server struct {
	opts      Options
	cat       *catalog
	yarn      *yarnLauncher // nil without Options.YARN
	processor *hiveserver.TCLIServiceProcessor
	// proxyUsers holds the hadoop.proxyuser rules (AuthKerberos).
	proxyUsers *ugi.ProxyUsers
	tokens     *tokenStore

	ln      net.Listener
	httpSrv *http.Server

	ctx    context.Context // the server's lifetime; operations derive from it
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	closed   bool
	conns    map[net.Conn]struct{}
	sessions map[string]*session
	ops      map[string]*operation
	hooks    []hook
	stmts    []*Statement
}

// Statement is one statement the server was asked to execute, with what
// it ran under.
type Statement struct {
	// SessionID is the session's handle, in hex.
	SessionID string
	// User is the session user.
	User string
	// Database is the session's current database when the statement ran.
	Database string
	// Text is the statement as received.
	Text string
	// Conf is a copy of the session's configuration (hiveconf) at execution.
	Conf map[string]string
	// Tags are the YARN application tags the statement's application carries
	// (or would carry): tez.application.tags, or mapreduce.job.tags when
	// hive.execution.engine is mr.
	Tags []string
	// State is the operation's state: RUNNING, FINISHED, ERROR, CANCELED, or
	// REJECTED for a statement that failed to compile.
	State string
	// ErrorCode is Hive's error code of a failed statement.
	ErrorCode int
	// AppID is the YARN application the statement ran as, if any.
	AppID string
	// Hung is true when a HangNext or HangOn hook holds the statement
	// until it is cancelled.
	Hung bool
}

// injectedFailure is the error a FailNext or FailOn hook injects.
type injectedFailure struct {
	code int
	msg  string
}

// hook is a FailNext, FailOn, HangNext or HangOn request: it applies to the
// next statement that compiles and contains match ("" matches any).
type hook struct {
	match string
	fail  *injectedFailure // nil: hang
}

// Start starts a MiniHS2 on a random 127.0.0.1 port.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if err := opts.setDefaults(); err != nil {
		return nil, err
	}
	s := &Server{
		opts: opts, cat: newCatalog(opts.Warehouse),
		conns: map[net.Conn]struct{}{}, sessions: map[string]*session{}, ops: map[string]*operation{},
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.processor = hiveserver.NewTCLIServiceProcessor(&service{s: s})
	s.proxyUsers = ugi.NewProxyUsers(opts.HadoopConf, ugi.NewGroups(opts.HadoopConf))
	s.tokens = newTokenStore(opts.TokenMaxLifetime, opts.TokenRenewInterval)
	if opts.YARN != "" {
		y, err := startYARNLauncher(opts.YARN, opts.YARNKerberos, opts.Logger)
		if err != nil {
			s.cancel()
			return nil, err
		}
		s.yarn = y
	}
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := portpick.Listen(ctx, addr)
	if err != nil {
		s.cancel()
		if s.yarn != nil {
			s.yarn.close()
		}
		return nil, fmt.Errorf("minihs2: listening: %w", err)
	}
	s.ln = ln
	s.wg.Add(1)
	if opts.Transport == HTTP {
		s.httpSrv = s.newHTTPServer()
		go func() {
			defer s.wg.Done()
			_ = s.httpSrv.Serve(ln)
		}()
	} else {
		go func() {
			defer s.wg.Done()
			s.serveBinary()
		}()
	}
	opts.Logger.Debug("minihs2 started", "addr", ln.Addr().String(), "transport", opts.Transport, "auth", opts.Auth)
	return s, nil
}

// Addr returns the server's host:port.
// A host name of Options.Addr is kept (localhost:0 gives localhost:<port>,
// what a Kerberos principal's _HOST needs); otherwise it is the bound
// address.
func (s *Server) Addr() string {
	host, _, err := net.SplitHostPort(s.opts.Addr)
	if err != nil || host == "" || net.ParseIP(host) != nil {
		return s.ln.Addr().String()
	}
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	return net.JoinHostPort(host, port)
}

// JDBCURL returns the JDBC URL that reaches the server with database db
// (default when empty), with the session variables its transport and
// authentication need.
func (s *Server) JDBCURL(db string) string {
	if db == "" {
		db = "default"
	}
	u := "jdbc:hive2://" + s.Addr() + "/" + db
	switch s.opts.Auth {
	case AuthNoSASL:
		u += ";auth=noSasl"
	case AuthKerberos:
		u += ";principal=" + s.opts.Kerberos.Principal
	}
	if s.opts.Transport == HTTP {
		u += ";transportMode=http;httpPath=" + s.opts.HTTPPath
	}
	return u
}

// FailNext makes the next statement that compiles fail while executing,
// with Hive error code code and message msg (as a failed task does). Calls
// queue up, one failure per statement.
func (s *Server) FailNext(code int, msg string) { s.FailOn("", code, msg) }

// FailOn is FailNext for the next statement whose text contains substr.
func (s *Server) FailOn(substr string, code int, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hooks = append(s.hooks, hook{match: substr, fail: &injectedFailure{code: code, msg: msg}})
}

// HangNext makes the next statement that compiles run until it is
// cancelled (or its session or the server closes). Calls add up.
func (s *Server) HangNext() { s.HangOn("") }

// HangOn is HangNext for the next statement whose text contains substr.
func (s *Server) HangOn(substr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hooks = append(s.hooks, hook{match: substr})
}

// Statements returns every statement received so far, in order.
func (s *Server) Statements() []Statement {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Statement, len(s.stmts))
	for i, st := range s.stmts {
		out[i] = *st
		out[i].Conf = maps.Clone(st.Conf)
		out[i].Tags = slices.Clone(st.Tags)
	}
	return out
}

// Running returns how many operations are running now.
func (s *Server) Running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, op := range s.ops {
		if op.running() {
			n++
		}
	}
	return n
}

// Sessions returns how many sessions are open now.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// DropConnections closes every open binary connection from the server's
// side, as a network failure or a HiveServer2 restart would: their
// sessions close and their operations are cancelled. Tables and the
// history stay; clients can connect again.
func (s *Server) DropConnections() {
	s.mu.Lock()
	conns := slices.Collect(maps.Keys(s.conns))
	s.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// Close stops the server: it closes the listener and every connection,
// cancels every operation (their applications unregister as KILLED) and
// waits for them. It is idempotent.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	conns := slices.Collect(maps.Keys(s.conns))
	s.mu.Unlock()

	var errs []error
	if s.httpSrv != nil {
		errs = append(errs, s.httpSrv.Close())
	} else if err := s.ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		errs = append(errs, err)
	}
	for _, c := range conns {
		c.Close()
	}
	s.cancel()
	s.wg.Wait()
	if s.yarn != nil {
		errs = append(errs, s.yarn.close())
	}
	return errors.Join(errs...)
}

// takeHooks pops the first injected failure and the first hang that
// apply to a statement.
func (s *Server) takeHooks(text string) (fail *injectedFailure, hang bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.hooks[:0]
	for _, h := range s.hooks {
		switch {
		case !strings.Contains(text, h.match):
		case h.fail != nil && fail == nil:
			fail = h.fail
			continue
		case h.fail == nil && !hang:
			hang = true
			continue
		}
		kept = append(kept, h)
	}
	s.hooks = kept
	return fail, hang
}

// record appends a statement to the history and returns it for updates
// under s.mu.
func (s *Server) record(sess *session, text string) *Statement {
	db, conf := sess.snapshot()
	st := &Statement{SessionID: sess.id, User: sess.user, Database: db, Text: text, Conf: conf,
		Tags: appTags(conf), State: "RUNNING"}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stmts = append(s.stmts, st)
	return st
}

// appTags reads the YARN tags a session's applications get.
func appTags(conf map[string]string) []string {
	key := "tez.application.tags"
	if engine(conf) == "mr" {
		key = "mapreduce.job.tags"
	}
	var tags []string
	for _, t := range strings.Split(conf[key], ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	return tags
}

// engine is the session's hive.execution.engine: "mr" or "tez" (the
// default here, as on the clusters gozie targets).
func engine(conf map[string]string) string {
	if strings.EqualFold(strings.TrimSpace(conf["hive.execution.engine"]), "mr") {
		return "mr"
	}
	return "tez"
}
