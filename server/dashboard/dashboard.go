// Package dashboard serves gozie's SLA dashboard: a web UI embedded in the
// binary (plain HTML, CSS and JavaScript, no CDN, so it works with no
// internet) under /oozie/dashboard/, and the small read API it needs beyond
// Oozie's:
//
//	GET /oozie/dashboard/                     the page (views: jobs, coordinator timeline, SLA misses)
//	GET /oozie/dashboard/api/overview         bundles → coordinators (with action counts), other coordinators, recent workflows
//	GET /oozie/dashboard/api/coordinator/{id} a coordinator's actions with their workflows and SLA summaries
//	GET /oozie/dashboard/api/sla?filter=...   GET /v2/sla's summaries plus each job's info and YARN tracking URLs
//
// The page reads its view and filters from the query string (?view=misses&
// app=...&event=END_MISS&from=...&to=..., ?view=coordinator&id=...), so that
// a link (or a headless browser) opens it filtered, and refreshes itself
// every few seconds.
package dashboard

import (
	"embed"
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/gorilla/mux"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/store"
)

//go:embed assets
var assets embed.FS

// Deps is what the dashboard needs.
type Deps struct {
	// Store is read for jobs and SLA summaries. Required.
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
	rootPath   = "/dashboard"
	filePath   = "/dashboard/{file}"
	apiPrefix  = "/dashboard/api"
	overview   = apiPrefix + "/overview"
	coordPath  = apiPrefix + "/coordinator/{id}"
	slaAPIPath = apiPrefix + "/sla"
)

// Register adds the dashboard to srv.
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
	srv.Handle(http.MethodGet, rootPath, auth.PermRead, u.redirect)
	srv.Handle(http.MethodGet, rootPath+"/", auth.PermRead, u.file)
	srv.Handle(http.MethodGet, filePath, auth.PermRead, u.file)
	return nil
}

// redirect sends /dashboard to /dashboard/ so that relative asset paths
// resolve.
func (u *ui) redirect(w http.ResponseWriter, r *http.Request) error {
	target := server.ContextPath + rootPath + "/"
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, target, http.StatusFound)
	return nil
}

// file serves one embedded asset; the directory means index.html.
func (u *ui) file(w http.ResponseWriter, r *http.Request) error {
	name := mux.Vars(r)["file"]
	if name == "" {
		name = "index.html"
	}
	if strings.Contains(name, "..") || strings.Contains(name, "/") {
		return server.ErrInvalidResource(name)
	}
	b, err := fs.ReadFile(u.files, name)
	if err != nil {
		return server.NewError(http.StatusNotFound, server.CodeInvalidResource, "Invalid resource [%s]", name)
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
