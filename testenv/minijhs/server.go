package minijhs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/internal/nmlogs"
	"github.com/gozie/gozie/testenv/internal/portpick"
	"github.com/gozie/gozie/testenv/internal/ugi"
)

// StaticUser is who an anonymous request is (hadoop.http.staticuser.user,
// set by StaticUserWebFilter).
const StaticUser = "dr.who"

// Options configures a JobHistory server.
type Options struct {
	// Addr is the address to listen on; empty picks a free loopback port.
	Addr string
	// FS reaches the cluster's filesystem; the server reads the history
	// as the HDFS superuser (the identity FS has without hadoop.AsUser).
	FS hadoop.FileSystem
	// DefaultFS qualifies the intermediate done directory (hdfs://host:port).
	DefaultFS string
	// Conf is the server's configuration: the proxy-user rules and group
	// overrides of core-site.xml, and of mapred-site.xml the intermediate
	// done directory, mapreduce.cluster.acls.enabled and
	// mapreduce.cluster.administrators.
	Conf map[string]string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Logs is the cluster's aggregated container logs, which the server
	// serves as the log server (yarn.log.server.web-service.url is
	// [Server.LogServerURL]); nil serves none.
	Logs *nmlogs.Store
}

// Server is a running JobHistory server stand-in.
type Server struct {
	opts    Options
	path    string // the intermediate done directory as configured
	dir     string // and qualified
	groups  *ugi.Groups
	proxies *ugi.ProxyUsers
	admins  ugi.ACL
	acls    bool
	ln      net.Listener
	srv     *http.Server
	done    chan struct{}
}

// Start creates the intermediate done directory as a JobHistory server
// does at start (HistoryFileManager.serviceInit: world-writable with the
// sticky bit, so that every user's AM can leave its history there) and
// serves the REST API.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if opts.FS == nil {
		return nil, errors.New("minijhs: no filesystem (Options.FS)")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	groups := ugi.NewGroups(opts.Conf)
	s := &Server{opts: opts, groups: groups, proxies: ugi.NewProxyUsers(opts.Conf, groups),
		admins: ugi.ParseACL(opts.Conf[AdminsKey]), acls: opts.Conf[ACLsEnabledKey] == "true",
		path: IntermediateDoneDir(func(k string) string { return opts.Conf[k] }), done: make(chan struct{})}
	s.dir = qualify(opts.DefaultFS, s.path)
	su := hadoop.AsUser(ctx, "")
	if err := opts.FS.MkdirAll(su, s.dir, 0o777); err != nil {
		return nil, fmt.Errorf("minijhs: creating %s: %w", s.dir, err)
	}
	if err := opts.FS.Chmod(su, s.dir, IntermediateDoneDirPerm); err != nil {
		return nil, fmt.Errorf("minijhs: %s: %w", s.dir, err)
	}
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := portpick.Listen(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("minijhs: listening on %s: %w", addr, err)
	}
	s.ln = ln
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		s.srv.Serve(ln)
	}()
	return s, nil
}

// Addr is the server's host:port (mapreduce.jobhistory.webapp.address).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is the server's base URL.
func (s *Server) URL() string { return "http://" + s.Addr() }

// IntermediateDoneDir is the directory the server reads history from, as
// configured (a path on the default filesystem, or a URI).
func (s *Server) IntermediateDoneDir() string { return s.path }

// Close stops serving.
func (s *Server) Close() error {
	err := s.srv.Close()
	<-s.done
	return err
}

func qualify(defaultFS, p string) string {
	if strings.Contains(p, "://") || defaultFS == "" {
		return p
	}
	return strings.TrimSuffix(defaultFS, "/") + "/" + strings.TrimPrefix(p, "/")
}

// countersPath is GET /ws/v1/history/mapreduce/jobs/{jobid}/counters.
var countersPath = regexp.MustCompile(`^/ws/v1/history/mapreduce/jobs/([^/]+)/counters/?$`)

// jobIDPattern is a well-formed MapReduce job id (MRApps.toJobID).
var jobIDPattern = regexp.MustCompile(`^job_\d+_\d+$`)

// ServeHTTP serves the REST API: the job counters resource and the
// container log resources (containerlogs.go); any other path is 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.serveContainerLogs(w, r) {
		return
	}
	m := countersPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	user, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	jobID := m[1]
	h, err := s.job(r.Context(), jobID)
	if err != nil {
		var re *remoteError
		if errors.As(err, &re) {
			writeRemote(w, re)
			return
		}
		s.opts.Logger.Warn("minijhs: reading history", "job_id", jobID, "err", err)
		writeRemote(w, notFound("java.lang.Exception: job, %s, is not found", jobID))
		return
	}
	if !s.mayView(user, h) {
		// HsWebServices.checkAccess: WebApplicationException(UNAUTHORIZED).
		writeRemote(w, &remoteError{status: http.StatusUnauthorized, exception: "WebApplicationException",
			class: "javax.ws.rs.WebApplicationException"})
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	json.NewEncoder(w).Encode(countersEnvelope{JobCounters: jobCounterInfo(jobID, h)})
}

// authenticate finds the request's user: user.name (pseudo
// authentication), else the static user; a doAs parameter makes an
// authenticated request act for the user it names when the proxy-user
// rules allow it (ProxyUserAuthenticationFilter), and is refused with 403
// AuthorizationException otherwise.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (string, bool) {
	q := r.URL.Query()
	user := q.Get("user.name")
	if user == "" {
		return StaticUser, true
	}
	var doAs string
	for k, v := range q {
		if strings.EqualFold(k, "doAs") && len(v) > 0 {
			doAs = v[0]
		}
	}
	if doAs == "" {
		return user, true
	}
	if err := s.proxies.Authorize(user, doAs, ugi.HostOf(r.RemoteAddr)); err != nil {
		writeRemote(w, &remoteError{status: http.StatusForbidden, exception: "AuthorizationException",
			class: "org.apache.hadoop.security.authorize.AuthorizationException", message: err.Error()})
		return "", false
	}
	return doAs, true
}

// job reads the history of jobID from <intermediate done dir>/<user>/,
// as the server's HistoryFileManager scans it: the .jhist file whose name
// starts with the job id (files still being written end in _tmp).
func (s *Server) job(ctx context.Context, jobID string) (*History, error) {
	if !jobIDPattern.MatchString(jobID) {
		return nil, notFound("java.lang.Exception: JobId string : %s is not properly formed", jobID)
	}
	su := hadoop.AsUser(ctx, "")
	users, err := s.opts.FS.ReadDir(su, s.dir)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", s.dir, err)
	}
	for _, u := range users {
		if !u.IsDir {
			continue
		}
		dir := s.dir + "/" + u.Name
		files, err := s.opts.FS.ReadDir(su, dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, fmt.Errorf("listing %s: %w", dir, err)
		}
		for _, f := range files {
			if f.IsDir || !strings.HasPrefix(f.Name, jobID+"-") || !strings.HasSuffix(f.Name, HistorySuffix) {
				continue
			}
			data, err := s.opts.FS.ReadFile(su, dir+"/"+f.Name)
			if err != nil {
				return nil, fmt.Errorf("reading %s/%s: %w", dir, f.Name, err)
			}
			h, err := ParseHistory(data)
			if err != nil {
				return nil, fmt.Errorf("%s/%s: %w", dir, f.Name, err)
			}
			return h, nil
		}
	}
	return nil, notFound("java.lang.Exception: job, %s, is not found", jobID)
}

// mayView is CompletedJob.checkAccess(VIEW_JOB) with JobACLsManager: with
// ACLs off, or a job that recorded no view ACL, everyone; otherwise the
// administrators, the job's owner and whom the job's view ACL names.
func (s *Server) mayView(user string, h *History) bool {
	view, ok := h.Submitted.ACLs[ViewACLKey]
	if !s.acls || !ok {
		return true
	}
	short := ugi.ShortName(user)
	groups := s.groups.Of(short)
	return s.admins.Allows(short, groups) || short == h.Submitted.UserName || ugi.ParseACL(view).Allows(short, groups)
}
