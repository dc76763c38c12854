package miniyarn

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/gozie/gozie/yarn"
)

// maxRequestBody bounds a submission body.
const maxRequestBody = 16 << 20

type ctxKey int

const (
	ctxEndpoint ctxKey = iota
	ctxUser
	ctxAuthType
)

// webError is an error answer in the RM's RemoteException shape.
type webError struct {
	status    int
	exception string
	class     string
	message   string
}

func badRequest(format string, args ...any) *webError {
	return &webError{status: http.StatusBadRequest, exception: "BadRequestException",
		class: "org.apache.hadoop.yarn.webapp.BadRequestException", message: fmt.Sprintf(format, args...)}
}

func illegalArgument(format string, args ...any) *webError {
	return &webError{status: http.StatusBadRequest, exception: "IllegalArgumentException",
		class: "java.lang.IllegalArgumentException", message: fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) *webError {
	return &webError{status: http.StatusNotFound, exception: "NotFoundException",
		class: "org.apache.hadoop.yarn.webapp.NotFoundException", message: "java.lang.Exception: " + fmt.Sprintf(format, args...)}
}

func forbidden(format string, args ...any) *webError {
	return &webError{status: http.StatusForbidden, exception: "ForbiddenException",
		class: "org.apache.hadoop.yarn.webapp.ForbiddenException", message: fmt.Sprintf(format, args...)}
}

func writeError(w http.ResponseWriter, e *webError) {
	writeJSON(w, e.status, yarn.RemoteExceptionEnvelope{RemoteException: yarn.RemoteException{
		Exception: e.exception, Message: e.message, JavaClassName: e.class,
	}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "encoding answer: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b) //nolint:errcheck // the client went away; nothing to do.
}

// unredirected paths are served by a standby RM itself.
var unredirected = []string{"/ws/v1/cluster/info", "/cluster", "/proxy/", "/conf", "/stacks", "/logLevel", "/logs", "/jmx", "/prom", "/isActive"}

func isUnredirected(path string) bool {
	if path == "/ws/v1/cluster" || path == "/ws/v1/cluster/" {
		return false
	}
	for _, p := range unredirected {
		if path == p || strings.HasPrefix(path, p+"/") || (strings.HasSuffix(p, "/") && strings.HasPrefix(path, p)) {
			return true
		}
	}
	return false
}

// webHandler serves one web endpoint: standby redirect, authentication, REST.
func (rm *RM) webHandler(ep *endpoint) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ws/v1/cluster", rm.handleInfo)
	mux.HandleFunc("GET /ws/v1/cluster/info", rm.handleInfo)
	mux.HandleFunc("POST /ws/v1/cluster/apps/new-application", rm.handleNewApplication)
	mux.HandleFunc("POST /ws/v1/cluster/apps", rm.handleSubmit)
	mux.HandleFunc("GET /ws/v1/cluster/apps", rm.handleList)
	mux.HandleFunc("GET /ws/v1/cluster/apps/{appid}", rm.handleReport)
	mux.HandleFunc("GET /ws/v1/cluster/apps/{appid}/state", rm.handleGetState)
	mux.HandleFunc("PUT /ws/v1/cluster/apps/{appid}/state", rm.handlePutState)
	mux.HandleFunc("GET /ws/v1/cluster/apps/{appid}/appattempts", rm.handleAttempts)
	mux.HandleFunc("POST /ws/v1/cluster/delegation-token", rm.handleDelegationToken)
	mux.HandleFunc("DELETE /ws/v1/cluster/delegation-token", rm.handleDelegationTokenOther)
	mux.HandleFunc("POST /ws/v1/cluster/delegation-token/expiration", rm.handleDelegationTokenOther)
	mux.HandleFunc("GET /proxy/{appid}/", rm.handleProxy)
	rm.webUI(mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rm.mu.Lock()
		active := rm.activeEndpointLocked()
		rm.mu.Unlock()
		if active != ep && !isUnredirected(r.URL.Path) {
			standbyAnswer(w, r, active)
			return
		}
		user, typ, ok := rm.authenticate(w, r)
		if !ok {
			return
		}
		ctx := context.WithValue(r.Context(), ctxEndpoint, ep)
		ctx = context.WithValue(ctx, ctxUser, user)
		ctx = context.WithValue(ctx, ctxAuthType, typ)
		mux.ServeHTTP(w, r.WithContext(ctx))
	})
}

// standbyAnswer is a standby RM's reply: 307 to the active RM, or, when no RM is
// active, 307 with a Refresh header pointing back at the same URL.
func standbyAnswer(w http.ResponseWriter, r *http.Request, active *endpoint) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if active == nil {
		w.Header().Set("Refresh", "3;url=http://"+r.Host+r.URL.RequestURI())
		w.WriteHeader(http.StatusTemporaryRedirect)
		fmt.Fprintln(w, "This is standby RM. Redirecting to the current active RM is not possible: no active RM is known.")
		return
	}
	target := "http://" + active.addr + r.URL.RequestURI()
	w.Header().Set("Location", target)
	w.WriteHeader(http.StatusTemporaryRedirect)
	fmt.Fprintf(w, "This is standby RM. The redirect url is: %s\n", target)
}

func userOf(r *http.Request) string {
	u, _ := r.Context().Value(ctxUser).(string)
	return u
}

// authTypeOf is the request's authentication type (simple, kerberos).
func authTypeOf(r *http.Request) string {
	t, _ := r.Context().Value(ctxAuthType).(string)
	return t
}

func (rm *RM) handleInfo(w http.ResponseWriter, r *http.Request) {
	ep, _ := r.Context().Value(ctxEndpoint).(*endpoint)
	rm.mu.Lock()
	ha := yarn.HAActive
	if ep != nil && rm.activeEndpointLocked() != ep {
		ha = yarn.HAStandby
	}
	rm.mu.Unlock()
	writeJSON(w, http.StatusOK, yarn.ClusterInfoEnvelope{ClusterInfo: yarn.ClusterInfo{
		ID: rm.opts.ClusterTimestamp, StartedOn: rm.opts.ClusterTimestamp, State: "STARTED", HAState: ha,
		RMStateStoreName:       "org.apache.hadoop.yarn.server.resourcemanager.recovery.NullRMStateStore",
		ResourceManagerVersion: Version, ResourceManagerBuildVersion: Version + " from gozie miniyarn",
		HadoopVersion: Version, HadoopBuildVersion: Version + " from gozie miniyarn",
	}})
}

func (rm *RM) handleNewApplication(w http.ResponseWriter, r *http.Request) {
	id := rm.newApplication()
	writeJSON(w, http.StatusOK, yarn.NewApplication{ApplicationID: id, MaximumResourceCapability: rm.opts.MaxResource})
}

// requireJSON refuses bodies that are not JSON, as Jersey does (415).
func requireJSON(w http.ResponseWriter, r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusUnsupportedMediaType)
		io.WriteString(w, "Unsupported Media Type: send application/json\n") //nolint:errcheck // best effort.
		return false
	}
	return true
}

func (rm *RM) handleSubmit(w http.ResponseWriter, r *http.Request) {
	if !requireJSON(w, r) {
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
	if err != nil {
		writeError(w, badRequest("reading the submission: %v", err))
		return
	}
	sub, werr := rm.validate(body)
	if werr != nil {
		writeError(w, werr)
		return
	}
	rm.submit(sub, userOf(r), rm.renewNewTokens(r.Context(), sub))
	w.Header().Set("Location", requestURL(r)+"/"+sub.sc.ApplicationID.String())
	w.WriteHeader(http.StatusAccepted)
}

func requestURL(r *http.Request) string {
	return "http://" + r.Host + r.URL.Path
}

// lookupApp finds the application of the {appid} path value, answering 400 or
// 404 itself when there is none. Callers hold rm.mu.
func (rm *RM) lookupApp(w http.ResponseWriter, r *http.Request) (*app, bool) {
	raw := r.PathValue("appid")
	id, err := yarn.ParseApplicationID(raw)
	if err != nil {
		writeError(w, badRequest("Invalid ApplicationId: %s", raw))
		return nil, false
	}
	a, ok := rm.apps[id]
	if !ok {
		writeError(w, notFound("app with id: %s not found", raw))
		return nil, false
	}
	return a, true
}

func (rm *RM) handleReport(w http.ResponseWriter, r *http.Request) {
	rm.mu.Lock()
	a, ok := rm.lookupApp(w, r)
	if !ok {
		rm.mu.Unlock()
		return
	}
	rep := rm.report(a)
	rm.mu.Unlock()
	writeJSON(w, http.StatusOK, yarn.AppReportEnvelope{App: rep})
}

func (rm *RM) handleGetState(w http.ResponseWriter, r *http.Request) {
	rm.mu.Lock()
	a, ok := rm.lookupApp(w, r)
	if !ok {
		rm.mu.Unlock()
		return
	}
	st := rmState(a) // RMWebServices.getAppState answers the RMAppState
	rm.mu.Unlock()
	writeJSON(w, http.StatusOK, yarn.AppStateBody{State: st})
}

func (rm *RM) handlePutState(w http.ResponseWriter, r *http.Request) {
	if !requireJSON(w, r) {
		return
	}
	if userOf(r) == StaticUser && !rm.opts.AnonymousAllowed {
		writeError(w, forbidden("The default static user cannot carry out this operation."))
		return
	}
	var body struct {
		State string `json:"state"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, maxRequestBody)).Decode(&body); err != nil {
		writeError(w, badRequest("Could not parse the target state: %v", err))
		return
	}
	if !strings.EqualFold(body.State, string(yarn.StateKilled)) {
		writeError(w, badRequest("java.lang.Exception: Only 'KILLED' is allowed as a target state."))
		return
	}
	rm.mu.Lock()
	a, ok := rm.lookupApp(w, r)
	rm.mu.Unlock()
	if !ok {
		return
	}
	st, done, err := rm.kill(a.id)
	if err != nil {
		writeError(w, notFound("app with id: %s not found", a.id))
		return
	}
	if done {
		writeJSON(w, http.StatusOK, yarn.AppStateBody{State: st})
		return
	}
	w.Header().Set("Location", requestURL(r))
	writeJSON(w, http.StatusAccepted, yarn.AppStateBody{State: st})
}

func (rm *RM) handleAttempts(w http.ResponseWriter, r *http.Request) {
	rm.mu.Lock()
	a, ok := rm.lookupApp(w, r)
	if !ok {
		rm.mu.Unlock()
		return
	}
	var env yarn.AppAttemptsEnvelope
	for _, at := range a.attempts {
		env.AppAttempts.AppAttempt = append(env.AppAttempts.AppAttempt, rm.attemptInfo(a, at))
	}
	rm.mu.Unlock()
	writeJSON(w, http.StatusOK, env)
}

func (rm *RM) handleProxy(w http.ResponseWriter, r *http.Request) {
	rm.mu.Lock()
	a, ok := rm.lookupApp(w, r)
	if !ok {
		rm.mu.Unlock()
		return
	}
	st, tracking := a.state, a.amTracking
	rm.mu.Unlock()
	// WebAppProxyServlet: without a tracking URL from the AM, the RM's
	// application page; for an ended application, the AM's URL itself.
	if tracking == "" || tracking == "N/A" {
		http.Redirect(w, r, "/cluster/app/"+a.id.String(), http.StatusFound)
		return
	}
	if st.Final() {
		http.Redirect(w, r, tracking, http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "application %s is %s\ntracking URL given by the AM: %s\n", a.id, st, tracking)
}

// cookieLifetime is how long a hadoop.auth cookie stays valid.
const cookieLifetime = 10 * time.Hour
