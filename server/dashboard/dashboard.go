// Package dashboard serves gozie's web console: a single-page UI embedded in
// the binary (plain HTML, CSS and JavaScript, no CDN and no build step, so it
// works with no internet) that reads and drives jobs through Oozie's own REST
// API, plus the small read API it needs beyond Oozie's:
//
//	GET /oozie, /oozie/                       the console, to a browser (Accept names text/html); other clients keep Oozie's answers
//	GET /oozie/console/{file}                 its assets (console.js, console.css)
//	GET /oozie/dashboard/…                    the old SLA dashboard's pages: redirected to the console's views
//	GET /oozie/dashboard/api/overview         bundles → coordinators (with action counts), other coordinators, recent workflows
//	GET /oozie/dashboard/api/coordinator/{id} a coordinator's actions with their workflows and SLA summaries
//	GET /oozie/dashboard/api/sla?filter=...   GET /v2/sla's summaries plus each job's info and YARN tracking URLs
//
// The console routes in the URL's fragment (/oozie/#/workflow/<id>,
// /oozie/#/sla?app=…), so that no console page can be mistaken for a REST
// path and every view is a link a person or a headless browser can open.
// It sends every request with the caller's identity as the CLI does: under
// simple authentication the user.name parameter (a field the page keeps in
// localStorage; cookies are left out so that the field, not an old
// hadoop.auth cookie, names the user), under Kerberos the browser's SPNEGO
// and the hadoop.auth cookie it earns.
package dashboard

import (
	"embed"
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/gorilla/mux"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/store"
)

//go:embed assets
var assets embed.FS

// Deps is what the console needs.
type Deps struct {
	// Store is read for the overview, coordinator timelines and SLA summaries. Required.
	Store store.Store
	// Clock gives "now" for delays; default the real clock.
	Clock clock.Clock
}

type ui struct {
	Deps
	files fs.FS
}

// Route templates, relative to server.ContextPath.
const (
	consoleDir = "/console"
	consoleAt  = consoleDir + "/{file}"
	legacyRoot = "/dashboard"
	legacyFile = legacyRoot + "/{file}"
	apiPrefix  = "/dashboard/api"
	overview   = apiPrefix + "/overview"
	coordPath  = apiPrefix + "/coordinator/{id}"
	slaAPIPath = apiPrefix + "/sla"
)

// Register adds the console, its assets, the old dashboard's redirects and
// the console's read API to srv.
func Register(srv *server.Server, d Deps) error {
	if d.Store == nil {
		return errors.New("dashboard: Deps.Store is required")
	}
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	files, err := fs.Sub(assets, "assets")
	if err != nil {
		return err
	}
	u := &ui{Deps: d, files: files}
	srv.Handle(http.MethodGet, overview, auth.PermRead, u.overview)
	srv.Handle(http.MethodGet, coordPath, auth.PermReadJob, u.coordinator)
	srv.Handle(http.MethodGet, slaAPIPath, auth.PermRead, u.sla)
	browser := server.OnlyIf(WantsHTML)
	srv.Handle(http.MethodGet, "", auth.PermRead, u.index, browser)
	srv.Handle(http.MethodGet, "/", auth.PermRead, u.index, browser)
	srv.Handle(http.MethodGet, consoleAt, auth.PermRead, u.file)
	srv.Handle(http.MethodGet, legacyRoot, auth.PermRead, u.legacy)
	srv.Handle(http.MethodGet, legacyRoot+"/", auth.PermRead, u.legacy)
	srv.Handle(http.MethodGet, legacyFile, auth.PermRead, u.legacy)
	return nil
}

// WantsHTML reports whether r asks for an HTML page: its Accept header names
// text/html (with a non-zero quality), as a browser's navigation does and
// API clients (Accept */*, application/json, none) do not.
func WantsHTML(r *http.Request) bool {
	for _, accept := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(accept, ",") {
			media, params, _ := strings.Cut(part, ";")
			if !strings.EqualFold(strings.TrimSpace(media), "text/html") {
				continue
			}
			if q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok && strings.Trim(q, "0.") == "" {
				continue // text/html;q=0 refuses HTML
			}
			return true
		}
	}
	return false
}

// index serves the console's page.
func (u *ui) index(w http.ResponseWriter, r *http.Request) error {
	return u.serveFile(w, r, "index.html")
}

// file serves one embedded asset under /oozie/console/.
func (u *ui) file(w http.ResponseWriter, r *http.Request) error {
	return u.serveFile(w, r, mux.Vars(r)["file"])
}

func (u *ui) serveFile(w http.ResponseWriter, r *http.Request, name string) error {
	if name == "" || strings.Contains(name, "..") || strings.Contains(name, "/") {
		return server.ErrInvalidResource(name)
	}
	b, err := fs.ReadFile(u.files, name)
	if err != nil {
		return server.NewError(http.StatusNotFound, oozieerr.E0301, "Invalid resource [%s]", name)
	}
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	_, err = w.Write(b)
	return err
}

// legacy redirects the old dashboard's pages (/oozie/dashboard/?view=…) to
// the console view that replaced each.
func (u *ui) legacy(w http.ResponseWriter, r *http.Request) error {
	http.Redirect(w, r, LegacyTarget(r.URL.Query()), http.StatusFound)
	return nil
}

// LegacyTarget is the console URL for the old dashboard's query: view=jobs
// (the default) → #/overview, view=coordinator&id=X → #/coordinator/X,
// view=misses&app=…&event=…&from=…&to=… → #/sla with the same filters.
func LegacyTarget(q url.Values) string {
	root := server.ContextPath + "/#/"
	switch q.Get("view") {
	case "coordinator":
		if id := q.Get("id"); id != "" {
			return root + "coordinator/" + url.PathEscape(id)
		}
	case "misses":
		keep := url.Values{}
		for _, k := range []string{"app", "event", "from", "to"} {
			if v := q.Get(k); v != "" {
				keep.Set(k, v)
			}
		}
		if len(keep) == 0 {
			return root + "sla"
		}
		return root + "sla?" + keep.Encode()
	}
	return root + "overview"
}
