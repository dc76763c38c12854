package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server/auth"
)

// unmatchedRoute labels requests that matched no route.
const unmatchedRoute = "unmatched"

// requestInfo travels in the request context from observe down to the route wrapper and
// error writer, which fill it in for the log line and metrics written afterwards.
type requestInfo struct {
	route   string
	errCode string
	errMsg  string
}

type requestInfoKey struct{}

// infoFrom returns the request's info, or a throwaway one when the handler runs outside
// observe (e.g. the router used directly).
func infoFrom(r *http.Request) *requestInfo {
	if info, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok {
		return info
	}
	return &requestInfo{}
}

// statusRecorder remembers the status and size of a response.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

// WriteHeader records the first status sent.
func (r *statusRecorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

// Write counts the body bytes; a body without a header means 200.
func (r *statusRecorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.status, r.wrote = http.StatusOK, true
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// observe logs every request with slog and records it in the metrics, by route template.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{route: unmatchedRoute}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		s.metrics.inFlight.Inc()
		defer s.metrics.inFlight.Dec()
		next.ServeHTTP(rec, keepSemicolons(r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, info))))
		elapsed := time.Since(start)

		method := metricMethod(r.Method)
		s.metrics.requests.WithLabelValues(info.route, method, strconv.Itoa(rec.status)).Inc()
		s.metrics.duration.WithLabelValues(info.route, method).Observe(elapsed.Seconds())

		level := slog.LevelInfo
		if info.route == MetricsPath {
			level = slog.LevelDebug
		}
		attrs := []slog.Attr{
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", rec.status),
			slog.Duration("duration", elapsed),
			slog.String("route", info.route),
			slog.Int("bytes", rec.bytes),
			slog.String("remote", r.RemoteAddr),
		}
		if info.errCode != "" {
			attrs = append(attrs, slog.String("error_code", info.errCode), slog.String("error", info.errMsg))
		}
		s.log.LogAttrs(r.Context(), level, "http request", attrs...)
	})
}

// keepSemicolons percent-encodes the raw semicolons of r's query. Oozie's clients send
// filters such as filter=status=RUNNING;name=x without encoding the ';', which Java servlet
// containers keep inside the value; Go's query parser would drop the whole parameter
// instead (it refuses ';' as a separator). Encoded, the value reaches the handlers whole.
func keepSemicolons(r *http.Request) *http.Request {
	if !strings.Contains(r.URL.RawQuery, ";") {
		return r
	}
	u := *r.URL
	u.RawQuery = strings.ReplaceAll(u.RawQuery, ";", "%3B")
	r.URL = &u
	return r
}

// metricMethod keeps the method label bounded: unusual methods count as OTHER.
func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete,
		http.MethodPatch, http.MethodOptions:
		return m
	}
	return "OTHER"
}

// wrap turns a HandlerFunc into a route handler: it names the route for logs and metrics,
// refuses changing calls outside NORMAL mode, writes returned errors and turns a panic into
// a 500 response (a request is one unit of work).
func (s *Server) wrap(spec routeSpec, h HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		infoFrom(r).route = spec.label
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("panic serving request", "method", r.Method, "path", r.URL.Path,
					"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				s.fail(w, r, fmt.Errorf("panic: %v", p))
			}
		}()
		if err := s.authorizeRoute(r, spec.perm); err != nil {
			s.log.Warn("request refused", "method", r.Method, "path", r.URL.Path, "user", auth.User(r),
				"permission", spec.perm.String(), "error", err)
			s.fail(w, r, err)
			return
		}
		if !spec.allowInSafeMode && r.Method != http.MethodGet && r.Method != http.MethodHead &&
			s.SystemMode() != ModeNormal {
			s.fail(w, r, ErrSafeMode())
			return
		}
		if err := h(w, r); err != nil {
			s.fail(w, r, err)
		}
	})
}

// fail sends err as an Oozie error response, unless the response has already started, and
// notes the error code for the request log.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	info := infoFrom(r)
	if rec, ok := w.(*statusRecorder); ok && rec.wrote {
		e := ErrorFor(err)
		info.errCode, info.errMsg = e.Code, e.Msg
		s.log.Warn("error after the response started", "path", r.URL.Path, "error", err)
		return
	}
	e := writeError(w, err)
	info.errCode, info.errMsg = e.Code, e.Msg
}

// servlets are the path prefixes (below ContextPath) that Oozie serves; an unknown path
// below one of them is an invalid resource of that servlet (400 E0301), anything else is
// not found (404 E0301).
var servlets = []string{
	"/versions",
	"/v0/admin", "/v1/admin", "/v2/admin",
	"/v0/jobs", "/v1/jobs", "/v2/jobs",
	"/v0/job", "/v1/job", "/v2/job",
	"/v1/sla", "/v2/sla",
	"/v2/validate",
	"/callback",
}

// servletResource splits a path below ContextPath into Oozie's resource name, the part after
// the servlet prefix, and reports whether the path belongs to a servlet.
func servletResource(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, ContextPath)
	if !ok {
		return "", false
	}
	for _, p := range servlets {
		if rest == p || strings.HasPrefix(rest, p+"/") {
			return strings.TrimSpace(strings.TrimLeft(rest[len(p):], "/")), true
		}
	}
	return "", false
}

// notFound answers a request that matched no route.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if res, ok := servletResource(r.URL.Path); ok {
		s.fail(w, r, ErrInvalidResource(res))
		return
	}
	s.fail(w, r, NewError(http.StatusNotFound, oozieerr.E0301, "Invalid resource [%s]", r.URL.Path))
}

// methodNotAllowed answers a request whose path exists for other methods: 405 with an Allow
// header and Oozie's E0301.
func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		var match mux.RouteMatch
		if s.router.Match(probe, &match) && match.MatchErr == nil {
			allowed = append(allowed, m)
		}
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	res, ok := servletResource(r.URL.Path)
	if !ok {
		res = r.URL.Path
	}
	s.fail(w, r, NewError(http.StatusMethodNotAllowed, oozieerr.E0301, "Invalid resource [%s]", res))
}
