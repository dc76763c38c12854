package miniyarn

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/gozie/gozie/yarn"
)

// nmHandler serves the NodeManager's container log pages:
// /node/containerlogs/<container>/<user> lists the log files, and
// /node/containerlogs/<container>/<user>/<file>[?start=N] returns one file
// (a negative start counts from the end, as on the NM); and the container
// log web services of nmws.go.
func (rm *RM) nmHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /node/containerlogs/{container}/{user}", rm.handleLogList)
	mux.HandleFunc("GET /node/containerlogs/{container}/{user}/{$}", rm.handleLogList)
	mux.HandleFunc("GET /node/containerlogs/{container}/{user}/{file}", rm.handleLogFile)
	mux.HandleFunc("GET /node/containerlogs/{container}/{user}/{file}/", rm.handleLogFile)
	rm.nmWebServices(mux)
	return mux
}

// containerLogDir returns the log directory of a known container.
func (rm *RM) containerLogDir(r *http.Request) (string, bool) {
	cid, err := yarn.ParseContainerID(r.PathValue("container"))
	if err != nil {
		return "", false
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	a, ok := rm.apps[cid.Attempt.App]
	if !ok || a.user != r.PathValue("user") {
		return "", false
	}
	for _, at := range a.attempts {
		if at.container == cid && at.logDir != "" {
			return at.logDir, true
		}
	}
	return "", false
}

func (rm *RM) handleLogList(w http.ResponseWriter, r *http.Request) {
	dir, ok := rm.containerLogDir(r)
	if !ok {
		http.Error(w, "Unknown container or user", http.StatusNotFound)
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		http.Error(w, "reading log directory: "+err.Error(), http.StatusInternalServerError)
		return
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintln(w, "<html><body><ul>")
	for _, n := range names {
		fmt.Fprintf(w, "<li><a href=\"%s/%s/?start=-4096\">%s</a></li>\n", html.EscapeString(r.URL.Path), html.EscapeString(n), html.EscapeString(n))
	}
	fmt.Fprintln(w, "</ul></body></html>")
}

func (rm *RM) handleLogFile(w http.ResponseWriter, r *http.Request) {
	dir, ok := rm.containerLogDir(r)
	if !ok {
		http.Error(w, "Unknown container or user", http.StatusNotFound)
		return
	}
	name := r.PathValue("file")
	if name != filepath.Base(name) || name == "." || name == ".." {
		http.Error(w, "bad log file name", http.StatusBadRequest)
		return
	}
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		http.Error(w, "no such log file", http.StatusNotFound)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	start := int64(0)
	if s := r.URL.Query().Get("start"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			http.Error(w, "bad start", http.StatusBadRequest)
			return
		}
		start = n
	}
	if start < 0 {
		start = max(fi.Size()+start, 0)
	}
	start = min(start, fi.Size())
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.Copy(w, f) //nolint:errcheck // the client went away; nothing to do.
}
