// Package nmlogs writes container logs as YARN's web services do, for
// the NodeManager (miniyarn) and the log server (minijhs) stand-ins.
package nmlogs

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gozie/gozie/yarn"
)

// LogTimeLayout is how Hadoop's Times.format writes a log file's
// modification time.
const LogTimeLayout = "Mon Jan 02 15:04:05 -0700 2006"

// List lists the regular files of dir as ContainerLogFileInfo,
// sorted by name.
func List(dir string) ([]yarn.ContainerLogFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading log directory: %w", err)
	}
	files := []yarn.ContainerLogFile{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, yarn.ContainerLogFile{FileName: e.Name(), FileSize: strconv.FormatInt(fi.Size(), 10),
			LastModifiedTime: fi.ModTime().Format(LogTimeLayout)})
	}
	slices.SortFunc(files, func(a, b yarn.ContainerLogFile) int { return strings.Compare(a.FileName, b.FileName) })
	return files, nil
}

// TextError writes a plain-text error answer, as Jersey writes a
// Response whose entity is a message.
func TextError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, msg) //nolint:errcheck // the client went away; nothing to do.
}

// ServeFile answers a request for one container log file as the
// NodeManager and the log server do (LogToolUtils.outputContainerLog and
// the "End of LogType" trailer): the size and format parameters are
// checked, a missing file is 404. The log server (minijhs) uses it too.
func ServeFile(w http.ResponseWriter, r *http.Request, path, containerID, nodeID, aggType string, running bool) {
	q := r.URL.Query()
	if f := q.Get("format"); f != "" && f != "text" && f != "octet-stream" {
		TextError(w, http.StatusBadRequest, "The valid values for the parameter : format are [text, octet-stream]")
		return
	}
	size := int64(0)
	if s := q.Get("size"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			TextError(w, http.StatusBadRequest, fmt.Sprintf("java.lang.NumberFormatException: For input string: %q", s))
			return
		}
		size = n
	}
	f, err := os.Open(path)
	if err != nil {
		TextError(w, http.StatusNotFound, "Cannot find this log on the local disk.")
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		TextError(w, http.StatusInternalServerError, err.Error())
		return
	}
	length := fi.Size()
	skip, n := int64(0), length
	switch {
	case size < 0 && -size < length:
		skip, n = length+size, -size
	case size > 0 && size < length:
		n = size
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	name := filepath.Base(path)
	if n > 0 {
		head := fmt.Sprintf("Container: %s on %s", containerID, nodeID)
		fmt.Fprintf(w, "%s\nLogAggregationType: %s\n%s\nLogType:%s\nLogLastModifiedTime:%s\nLogLength:%d\nLogContents:\n",
			head, aggType, strings.Repeat("=", len(head)), name, fi.ModTime().Format(LogTimeLayout), length)
		if _, err := f.Seek(skip, io.SeekStart); err != nil {
			return
		}
		if _, err := io.CopyN(w, f, n); err != nil {
			return
		}
	}
	end := "End of LogType:" + name
	tail := "\n"
	if running {
		tail = fmt.Sprintf("This log file belongs to a running container (%s) and so may not be complete.\n", containerID)
	}
	fmt.Fprintf(w, "%s.%s%s\n\n", end, tail, strings.Repeat("*", len(end)+50))
}
