package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gozie/gozie/server/auth"
)

// ContextPath is the path prefix of the REST API, as in Oozie.
const ContextPath = "/oozie"

// MetricsPath is where Prometheus metrics are served (outside the context path).
const MetricsPath = "/metrics"

// Defaults of the Config limits.
const (
	DefaultShutdownTimeout   = 30 * time.Second
	DefaultReadHeaderTimeout = 30 * time.Second
	DefaultReadTimeout       = 60 * time.Second
	DefaultWriteTimeout      = 10 * time.Minute
	DefaultIdleTimeout       = 60 * time.Second
	DefaultMaxHeaderBytes    = 64 << 10
)

// Config configures a Server. The zero value works: it logs nowhere, serves metrics from a
// private registry and reports a "dev" build.
type Config struct {
	// Logger receives request logs and server events; nil discards them.
	Logger *slog.Logger
	// Registry receives the HTTP metrics and is what /metrics serves; nil means a new
	// registry with the Go and process collectors.
	Registry *prometheus.Registry
	// Build is reported by admin/build-version; the zero value means BuildInfoFromBinary.
	Build BuildInfo
	// Configuration returns the configuration for admin/configuration; values of keys that
	// look secret (password, secret, token, credential) are masked and passwords inside URLs
	// redacted before they are sent. Nil means an empty configuration.
	Configuration func() map[string]string
	// Admin answers the admin endpoints that need the engine or the store
	// (queue-dump, available-oozie-servers, list_sharelib).
	Admin AdminSources
	// OnSystemModeChange, if set, is called after every change of the system mode, e.g. so
	// that the engine pauses in SAFEMODE.
	OnSystemModeChange func(from, to SystemMode)
	// ShutdownTimeout bounds how long Serve waits for in-flight requests; zero means
	// DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// ReadHeaderTimeout bounds how long a client may take to send request headers; zero
	// means DefaultReadHeaderTimeout.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds how long a client may take to send a whole request, body
	// included; zero means DefaultReadTimeout.
	ReadTimeout time.Duration
	// WriteTimeout bounds a request from the end of its headers to the end of its answer
	// (a purge answers when it is done); zero means DefaultWriteTimeout.
	WriteTimeout time.Duration
	// IdleTimeout bounds how long a kept-alive connection waits for its next request;
	// zero means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds the request line and headers; zero means
	// DefaultMaxHeaderBytes.
	MaxHeaderBytes int
	// Authenticator, if set, authenticates every request but those of Unauthenticated
	// paths; handlers read the identity with auth.User. Nil means no authentication: the
	// user is the user.name parameter, as auth.User reads it without the middleware.
	Authenticator *auth.Authenticator
	// Authorization decides what each caller may do with the permission every route
	// declares (see Handle). Nil means no authorization, for handler tests and embedding;
	// the daemon always sets one from gozie.authorization.*, enabled by default.
	Authorization *auth.Policy
}

// JobLookup returns what authorizing a request on a job needs of it: its owner and ACL.
// id is the id of the route's {id} variable, a job's or one of its actions'
// ("<job>@<action>"); an unknown job is an error the server answers as it is (404 E0604).
type JobLookup func(ctx context.Context, id string) (auth.Job, error)

// Server is gozie's REST server: the Oozie admin endpoints, /metrics, Oozie error responses
// for every failure, request logging, and Handle for the endpoints of other packages.
type Server struct {
	cfg       Config
	log       *slog.Logger
	router    *mux.Router
	metrics   *metrics
	gatherer  prometheus.Gatherer
	timezones []Timezone

	modeMu sync.Mutex // serialises SetSystemMode so OnSystemModeChange sees ordered changes
	mode   atomic.Pointer[SystemMode]

	jobs  JobLookup                  // set by SetJobLookup before serving
	perms map[string]auth.Permission // "METHOD route label" → the route's permission

	shareLib shareLibMemory // the share lib directory the last update_sharelib reported
}

// HandlerFunc serves one REST call. A returned error is sent as an Oozie error response
// (see Error); a handler that has already written its response should return nil.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// RouteOption adjusts a route registered with Handle.
type RouteOption func(*routeSpec)

// AllowInSafeMode lets a changing route (POST, PUT, DELETE) run while the system mode is
// not NORMAL, as Oozie does for the admin and callback servlets.
func AllowInSafeMode() RouteOption {
	return func(r *routeSpec) { r.allowInSafeMode = true }
}

// OnlyIf narrows a route to the requests match accepts; the others go on as if the route
// did not exist (another route, or Oozie's not-found answer). The web console uses it to
// answer /oozie/ to browsers only.
func OnlyIf(match func(*http.Request) bool) RouteOption {
	return func(r *routeSpec) { r.match = match }
}

// routeSpec is what the route wrapper needs to know about a route.
type routeSpec struct {
	label           string
	perm            auth.Permission
	allowInSafeMode bool
	match           func(*http.Request) bool // nil: every request of the path and method
}

// New returns a server in NORMAL mode with the admin endpoints, /oozie/versions and
// /metrics registered.
func New(cfg Config) *Server {
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = DefaultShutdownTimeout
	}
	cfg.ReadHeaderTimeout = cmp.Or(max(cfg.ReadHeaderTimeout, 0), DefaultReadHeaderTimeout)
	cfg.ReadTimeout = cmp.Or(max(cfg.ReadTimeout, 0), DefaultReadTimeout)
	cfg.WriteTimeout = cmp.Or(max(cfg.WriteTimeout, 0), DefaultWriteTimeout)
	cfg.IdleTimeout = cmp.Or(max(cfg.IdleTimeout, 0), DefaultIdleTimeout)
	cfg.MaxHeaderBytes = cmp.Or(max(cfg.MaxHeaderBytes, 0), DefaultMaxHeaderBytes)
	if cfg.Build == (BuildInfo{}) {
		cfg.Build = BuildInfoFromBinary()
	}
	s := &Server{cfg: cfg, log: cfg.Logger, timezones: AvailableTimezones(), perms: map[string]auth.Permission{}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	reg := cfg.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	s.gatherer = reg
	m, err := newMetrics(reg)
	if err != nil {
		// Another collector owns our metric names in the shared registry: keep ours apart
		// and serve both.
		s.log.Error("registering HTTP metrics", "error", err)
		private := prometheus.NewRegistry()
		m, _ = newMetrics(private)
		s.gatherer = prometheus.Gatherers{reg, private}
	}
	s.metrics = m
	normal := ModeNormal
	s.mode.Store(&normal)

	s.router = mux.NewRouter()
	s.router.NotFoundHandler = http.HandlerFunc(s.notFound)
	s.router.MethodNotAllowedHandler = http.HandlerFunc(s.methodNotAllowed)
	s.registerAdmin()
	s.registerAdminInfo()
	metricsHandler := promhttp.HandlerFor(s.gatherer, promhttp.HandlerOpts{})
	s.router.Handle(MetricsPath, s.wrap(routeSpec{label: MetricsPath, perm: auth.PermOpen}, func(w http.ResponseWriter, r *http.Request) error {
		metricsHandler.ServeHTTP(w, r)
		return nil
	})).Methods(http.MethodGet, http.MethodHead)
	return s
}

// Handle registers h for method on path, a gorilla/mux template relative to ContextPath
// (for example "/v{version:[12]}/job/{id}", or "" for ContextPath itself; handlers read
// variables with mux.Vars). perm
// is what the caller needs, judged by Config.Authorization before h runs; a job-scoped
// permission needs an {id} variable and SetJobLookup. Registering a route without a
// permission panics, so that no route can be forgotten. A GET route also answers HEAD.
// Changing methods are refused with 503 E0002 outside NORMAL mode unless AllowInSafeMode
// is given. Register routes before serving: the router is not safe for changes while it
// serves.
func (s *Server) Handle(method, path string, perm auth.Permission, h HandlerFunc, opts ...RouteOption) {
	if path != "" && !strings.HasPrefix(path, "/") {
		path = "/" + path // "" stays: ContextPath itself
	}
	if perm == auth.PermNone {
		panic("server: route " + method + " " + path + " declares no permission")
	}
	if perm.JobScoped() && !strings.Contains(path, "{id}") {
		panic("server: route " + method + " " + path + " has a job permission but no {id}")
	}
	spec := routeSpec{label: routeLabel(path), perm: perm}
	for _, o := range opts {
		o(&spec)
	}
	methods := []string{method}
	if method == http.MethodGet {
		methods = append(methods, http.MethodHead)
	}
	for _, m := range methods {
		s.perms[m+" "+spec.label] = perm
	}
	route := s.router.Handle(ContextPath+path, s.wrap(spec, h)).Methods(methods...)
	if spec.match != nil {
		route.MatcherFunc(func(r *http.Request, _ *mux.RouteMatch) bool { return spec.match(r) })
	}
}

// Permissions returns the permission of every registered route, keyed by "METHOD label"
// (for example "PUT /oozie/v{version}/job/{id}"), for tests and documentation.
func (s *Server) Permissions() map[string]auth.Permission { return maps.Clone(s.perms) }

// SetJobLookup sets how job-scoped permissions find a job's owner and ACL. Call it before
// serving.
func (s *Server) SetJobLookup(l JobLookup) { s.jobs = l }

// Authorize decides whether r's caller has perm, on job when perm is job-scoped; handlers
// call it for work beyond their route's own permission (each job of a bulk command).
func (s *Server) Authorize(r *http.Request, perm auth.Permission, job *auth.Job) error {
	err := s.cfg.Authorization.Decide(auth.User(r), perm, job)
	var ae *auth.Error
	if errors.As(err, &ae) {
		return &Error{Status: ae.Status, Code: ae.Code, Msg: ae.Msg}
	}
	return err
}

// authorizeRoute judges r against its route's permission, looking the job up for a
// job-scoped one.
func (s *Server) authorizeRoute(r *http.Request, perm auth.Permission) error {
	if s.cfg.Authorization == nil || s.cfg.Authorization.Disabled || perm == auth.PermOpen {
		return nil
	}
	if !perm.JobScoped() || (perm == auth.PermReadJob && !s.cfg.Authorization.ReadRequiresACL) {
		return s.Authorize(r, perm, nil)
	}
	if s.jobs == nil {
		return errors.New("server: a job-scoped route without a job lookup")
	}
	job, err := s.jobs(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		return err
	}
	return s.Authorize(r, perm, &job)
}

// routeLabel is the metrics and log name of a route: its full template with the regular
// expressions of variables left out ("/oozie/v{version}/job/{id}").
func routeLabel(path string) string {
	return ContextPath + routeVarPattern.ReplaceAllString(path, "{$1}")
}

// routeVarPattern finds the "{name:regexp}" variables of a route template, so that metric
// labels read "{name}".
var routeVarPattern = regexp.MustCompile(`\{([^:{}]+):(?:[^{}]|\{[^{}]*\})*\}`)

// Handler returns the HTTP handler of the whole server, with request logging, metrics and
// authentication.
func (s *Server) Handler() http.Handler { return s.observe(s.authenticate(s.router)) }

// Unauthenticated reports whether path is served without authentication, as Oozie's
// filter leaves out its callback servlet: the action callback (launchers hold no user
// credentials) and /metrics (Prometheus scrapers). Everything else under /oozie is
// authenticated, /versions and the dashboard included, so that a browser negotiates once
// when it opens the dashboard and its cookie then covers the API calls the page makes.
func Unauthenticated(path string) bool {
	callback := ContextPath + "/callback"
	return path == MetricsPath || path == callback || strings.HasPrefix(path, callback+"/")
}

// authenticate runs Config.Authenticator on every request of an authenticated path, stores
// the identity in the request context and answers refusals as Oozie errors.
func (s *Server) authenticate(next http.Handler) http.Handler {
	a := s.cfg.Authenticator
	if a == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if Unauthenticated(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		id, err := a.Authenticate(w, r)
		if err != nil {
			var ae *auth.Error
			if errors.As(err, &ae) {
				err = &Error{Status: ae.Status, Code: ae.Code, Msg: ae.Msg}
			}
			s.fail(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(auth.WithIdentity(r.Context(), id)))
	})
}

// SystemMode returns the current system mode.
func (s *Server) SystemMode() SystemMode { return *s.mode.Load() }

// SetSystemMode changes the system mode, logs the change and calls
// Config.OnSystemModeChange when the mode really changes.
func (s *Server) SetSystemMode(mode SystemMode) error {
	switch mode {
	case ModeNormal, ModeNoWebService, ModeSafe:
	default:
		return fmt.Errorf("unknown system mode %q", mode)
	}
	s.modeMu.Lock()
	defer s.modeMu.Unlock()
	from := s.SystemMode()
	if from == mode {
		return nil
	}
	s.mode.Store(&mode)
	s.log.Info("system mode changed", "from", string(from), "to", string(mode))
	if s.cfg.OnSystemModeChange != nil {
		s.cfg.OnSystemModeChange(from, mode)
	}
	return nil
}
