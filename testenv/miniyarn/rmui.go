package miniyarn

import (
	"fmt"
	"html/template"
	"net/http"
	"time"

	"github.com/gozie/gozie/yarn"
)

// webUI adds the RM web UI's application pages to mux: /cluster/apps
// lists the applications the caller may view, /cluster/app/{id} shows one
// (RmController's app and apps pages).
func (rm *RM) webUI(mux *http.ServeMux) {
	mux.HandleFunc("GET /cluster", rm.handleAppsPage)
	mux.HandleFunc("GET /cluster/{$}", rm.handleAppsPage)
	mux.HandleFunc("GET /cluster/apps", rm.handleAppsPage)
	mux.HandleFunc("GET /cluster/app/{appid}", rm.handleAppPage)
}

// appPage is what the application page shows.
type appPage struct {
	Report     yarn.AppReport
	RMState    yarn.AppState
	Started    string
	Finished   string
	Tracking   string
	Attempts   []attemptRow
	AppsURL    string
	LogsAPIURL string
}

// attemptRow is one attempt on the application page.
type attemptRow struct {
	ID, Container, Node, State, Started, LogsLink, LogsAPI, Diagnostics string
}

// appListRow is one application on the applications page.
type appListRow struct {
	Report            yarn.AppReport
	Started, Finished string
}

// uiTime formats a time as the RM web UI does; the zero time is "N/A".
func uiTime(t time.Time) string {
	if t.IsZero() {
		return "N/A"
	}
	return t.Format("Mon Jan 2 15:04:05 -0700 2006")
}

// handleAppPage is GET /cluster/app/{id}: the application's state, final
// status, user, queue, name, tags, times, diagnostics, tracking URL and
// attempts with links to their NodeManager logs. A caller who may not
// view the application (yarn.acl.enable) gets AppBlock's refusal.
func (rm *RM) handleAppPage(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("appid")
	id, err := yarn.ParseApplicationID(raw)
	if err != nil {
		uiText(w, http.StatusBadRequest, "Invalid Application ID: "+raw)
		return
	}
	rm.mu.Lock()
	a, ok := rm.apps[id]
	if !ok {
		rm.mu.Unlock()
		uiText(w, http.StatusNotFound, "Application not found: "+raw)
		return
	}
	if user := userOf(r); !rm.mayView(user, a.user, a.sc.AMContainerSpec.ApplicationACLs["VIEW_APP"]) {
		rm.mu.Unlock()
		uiText(w, http.StatusForbidden, fmt.Sprintf("You (User %s) are not authorized to view application %s", user, id))
		return
	}
	p := appPage{Report: rm.report(a), RMState: rmState(a), AppsURL: "/cluster/apps"}
	for _, at := range a.attempts {
		p.Attempts = append(p.Attempts, attemptRow{ID: at.id.String(), Container: at.container.String(), Node: rm.nmAddr,
			State: at.state, Started: uiTime(at.started), LogsLink: rm.logsURL(at.container, a.user),
			LogsAPI: rm.nmLogsURL(at.container), Diagnostics: at.diagnostics})
	}
	rm.mu.Unlock()
	p.Started, p.Finished = uiTime(p.Report.StartedTime), uiTime(p.Report.FinishedTime)
	p.Tracking = p.Report.TrackingURL
	writePage(w, appPageTemplate, p)
}

// handleAppsPage is GET /cluster/apps: the applications the caller may
// view, newest first.
func (rm *RM) handleAppsPage(w http.ResponseWriter, r *http.Request) {
	user := userOf(r)
	rm.mu.Lock()
	var rows []appListRow
	for i := len(rm.order) - 1; i >= 0; i-- {
		a, ok := rm.apps[rm.order[i]]
		if !ok || !rm.mayView(user, a.user, a.sc.AMContainerSpec.ApplicationACLs["VIEW_APP"]) {
			continue
		}
		rep := rm.report(a)
		rows = append(rows, appListRow{Report: rep, Started: uiTime(rep.StartedTime), Finished: uiTime(rep.FinishedTime)})
	}
	rm.mu.Unlock()
	writePage(w, appsPageTemplate, rows)
}

// uiText writes a web UI page holding one message.
func uiText(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	template.Must(template.New("m").Parse(`<!DOCTYPE html><html><head><title>{{.}}</title></head><body><p>{{.}}</p></body></html>`)).
		Execute(w, msg) //nolint:errcheck // the client went away; nothing to do.
}

func writePage(w http.ResponseWriter, t *template.Template, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	t.Execute(w, data) //nolint:errcheck // the client went away; nothing to do.
}

var appPageTemplate = template.Must(template.New("app").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Application {{.Report.ID}}</title></head>
<body>
<h1>Application {{.Report.ID}}</h1>
<p><a href="{{.AppsURL}}">All Applications</a></p>
<table id="overview">
<tr><th>User:</th><td>{{.Report.User}}</td></tr>
<tr><th>Name:</th><td>{{.Report.Name}}</td></tr>
<tr><th>Application Type:</th><td>{{.Report.ApplicationType}}</td></tr>
<tr><th>Application Tags:</th><td>{{range $i, $t := .Report.Tags}}{{if $i}},{{end}}{{$t}}{{end}}</td></tr>
<tr><th>Queue:</th><td>{{.Report.Queue}}</td></tr>
<tr><th>YarnApplicationState:</th><td>{{.RMState}}</td></tr>
<tr><th>FinalStatus Reported by AM:</th><td>{{.Report.FinalStatus}}</td></tr>
<tr><th>Started:</th><td>{{.Started}}</td></tr>
<tr><th>Finished:</th><td>{{.Finished}}</td></tr>
<tr><th>Elapsed:</th><td>{{.Report.Elapsed}}</td></tr>
<tr><th>Tracking URL:</th><td>{{if .Tracking}}<a href="{{.Tracking}}">{{.Report.TrackingUI}}</a>{{else}}UNASSIGNED{{end}}</td></tr>
<tr><th>Diagnostics:</th><td><pre>{{.Report.Diagnostics}}</pre></td></tr>
</table>
<h2>Application Attempts</h2>
<table id="attempts">
<tr><th>Attempt ID</th><th>Started</th><th>Node</th><th>State</th><th>Logs</th><th>Diagnostics</th></tr>
{{range .Attempts}}<tr><td>{{.ID}}</td><td>{{.Started}}</td><td>{{.Node}}</td><td>{{.State}}</td>
<td><a href="{{.LogsLink}}">Logs</a> (<a href="{{.LogsAPI}}">{{.Container}}</a>)</td><td><pre>{{.Diagnostics}}</pre></td></tr>
{{end}}</table>
</body></html>
`))

var appsPageTemplate = template.Must(template.New("apps").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>All Applications</title></head>
<body>
<h1>All Applications</h1>
<table id="apps">
<tr><th>ID</th><th>User</th><th>Name</th><th>Application Type</th><th>Queue</th><th>StartTime</th><th>FinishTime</th><th>State</th><th>FinalStatus</th><th>Tracking UI</th></tr>
{{range .}}<tr><td><a href="/cluster/app/{{.Report.ID}}">{{.Report.ID}}</a></td><td>{{.Report.User}}</td><td>{{.Report.Name}}</td>
<td>{{.Report.ApplicationType}}</td><td>{{.Report.Queue}}</td><td>{{.Started}}</td><td>{{.Finished}}</td>
<td>{{.Report.State}}</td><td>{{.Report.FinalStatus}}</td><td>{{if .Report.TrackingURL}}<a href="{{.Report.TrackingURL}}">{{.Report.TrackingUI}}</a>{{end}}</td></tr>
{{end}}</table>
</body></html>
`))
