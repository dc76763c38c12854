package minijhs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path/filepath"
	"regexp"

	"github.com/gozie/gozie/testenv/internal/nmlogs"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/gozie/gozie/yarn"
)

// Configuration keys of Options.Conf the container log resources read
// (the same yarn-site.xml keys as the NodeManager's).
const (
	// YarnACLEnableKey is yarn.acl.enable: on, only the application's
	// owner, the administrators and its VIEW_APP ACL may read its logs.
	YarnACLEnableKey = "yarn.acl.enable"
	// YarnAdminACLKey is yarn.admin.acl (Hadoop's default "*").
	YarnAdminACLKey = "yarn.admin.acl"
)

// WebServicePath is the base of the server's web services, what
// yarn.log.server.web-service.url names on a cluster whose log server is
// the JobHistory server.
const WebServicePath = "/ws/v1/history"

// Container log resources of HsWebServices (Hadoop 3): the listing, and
// one file under either of its two paths.
var (
	containerLogsPath = regexp.MustCompile(`^/ws/v1/history/containers/([^/]+)/logs/?$`)
	containerFilePath = regexp.MustCompile(`^/ws/v1/history/(?:containers/([^/]+)/logs|containerlogs/([^/]+))/([^/]+)$`)
)

// LogServerURL is the server's yarn.log.server.web-service.url.
func (s *Server) LogServerURL() string { return s.URL() + WebServicePath }

// serveContainerLogs serves the container log resources from the
// aggregated logs (Options.Logs) and reports whether r was one of them.
func (s *Server) serveContainerLogs(w http.ResponseWriter, r *http.Request) bool {
	list := containerLogsPath.FindStringSubmatch(r.URL.Path)
	file := containerFilePath.FindStringSubmatch(r.URL.Path)
	if list == nil && file == nil {
		return false
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return true
	}
	user, ok := s.authenticate(w, r)
	if !ok {
		return true
	}
	cid := ""
	if list != nil {
		cid = list[1]
	} else {
		cid = file[1] + file[2]
	}
	if _, err := yarn.ParseContainerID(cid); err != nil {
		writeRemote(w, &remoteError{status: http.StatusBadRequest, exception: "BadRequestException",
			class: "org.apache.hadoop.yarn.webapp.BadRequestException", message: "invalid container id, " + cid})
		return true
	}
	agg, err := s.findLogs(cid)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			writeRemote(w, notFound("Can not find logs for container:%s", cid))
		} else {
			writeRemote(w, &remoteError{status: http.StatusInternalServerError, exception: "IOException", class: "java.io.IOException", message: err.Error()})
		}
		return true
	}
	if !s.mayViewLogs(user, agg) {
		writeRemote(w, &remoteError{status: http.StatusForbidden, exception: "ForbiddenException",
			class:   "org.apache.hadoop.yarn.webapp.ForbiddenException",
			message: fmt.Sprintf("User [%s] is not authorized to view the logs for container %s", user, cid)})
		return true
	}
	if list != nil {
		files, err := nmlogs.List(agg.Dir)
		if err != nil {
			writeRemote(w, &remoteError{status: http.StatusInternalServerError, exception: "IOException", class: "java.io.IOException", message: err.Error()})
			return true
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(map[string][]yarn.ContainerLogsInfo{"containerLogsInfo": {{ //nolint:errcheck // the client went away.
			Files: files, AggregationType: yarn.LogsAggregated, ContainerID: cid, NodeID: agg.Node}}})
		return true
	}
	name := file[3]
	if name != filepath.Base(name) || name == "." || name == ".." {
		nmlogs.TextError(w, http.StatusNotFound, "Can not find log file "+name+" for container "+cid)
		return true
	}
	nmlogs.ServeFile(w, r, filepath.Join(agg.Dir, name), cid, agg.Node, yarn.LogsAggregated, false)
	return true
}

// findLogs finds a container's aggregated logs; fs.ErrNotExist without a
// store.
func (s *Server) findLogs(cid string) (nmlogs.Aggregated, error) {
	if s.opts.Logs == nil {
		return nmlogs.Aggregated{}, fs.ErrNotExist
	}
	return s.opts.Logs.Find(cid)
}

// mayViewLogs is ApplicationACLsManager.checkAccess(VIEW_APP) for the
// aggregated logs: with yarn.acl.enable off everyone; otherwise the
// owner, the administrators of yarn.admin.acl and the application's
// VIEW_APP ACL.
func (s *Server) mayViewLogs(user string, agg nmlogs.Aggregated) bool {
	if s.opts.Conf[YarnACLEnableKey] != "true" || user == agg.Owner {
		return true
	}
	admins, ok := s.opts.Conf[YarnAdminACLKey]
	if !ok {
		admins = "*"
	}
	groups := s.groups.Of(ugi.ShortName(user))
	return ugi.ParseACL(admins).Allows(user, groups) || (agg.ViewACL != "" && ugi.ParseACL(agg.ViewACL).Allows(user, groups))
}
