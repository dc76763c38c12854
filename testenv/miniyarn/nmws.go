package miniyarn

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/gozie/gozie/testenv/internal/nmlogs"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/gozie/gozie/yarn"
)

// Configuration keys the NodeManager and the RM web UI read from
// Options.Conf for who may see an application (ApplicationACLsManager).
const (
	// ACLEnableKey is yarn.acl.enable: off (Hadoop's default), everyone
	// may view every application and its logs.
	ACLEnableKey = "yarn.acl.enable"
	// AdminACLKey is yarn.admin.acl, the administrators, who may view
	// everything; Hadoop's default is "*".
	AdminACLKey = "yarn.admin.acl"
)

// mayView is ApplicationACLsManager.checkAccess for VIEW_APP: with
// yarn.acl.enable off anyone; otherwise the owner, the administrators of
// yarn.admin.acl and the users and groups of the application's VIEW_APP
// ACL.
func (rm *RM) mayView(user, owner, viewACL string) bool {
	if rm.opts.Conf[ACLEnableKey] != "true" || user == owner {
		return true
	}
	admins, ok := rm.opts.Conf[AdminACLKey]
	if !ok {
		admins = "*"
	}
	groups := ugi.NewGroups(rm.opts.Conf).Of(user)
	return ugi.ParseACL(admins).Allows(user, groups) || (viewACL != "" && ugi.ParseACL(viewACL).Allows(user, groups))
}

// nmWebServices adds the NodeManager's container log web services
// (NMWebServices) to mux, behind the cluster's authentication.
func (rm *RM) nmWebServices(mux *http.ServeMux) {
	auth := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			user, _, ok := rm.authenticate(w, r)
			if !ok {
				return
			}
			h(w, r.WithContext(context.WithValue(r.Context(), ctxUser, user)))
		}
	}
	mux.HandleFunc("GET /ws/v1/node/containers/{container}/logs", auth(rm.handleNMLogList))
	mux.HandleFunc("GET /ws/v1/node/containers/{container}/logs/{file}", auth(rm.handleNMLogFile))
	mux.HandleFunc("GET /ws/v1/node/containerlogs/{container}/{file}", auth(rm.handleNMLogFile))
}

// nmContainer is what the NodeManager knows of a container whose logs are
// asked for.
type nmContainer struct {
	id      yarn.ContainerID
	owner   string
	viewACL string
	logDir  string
	running bool
}

// errBadContainerID is lookupContainer's answer to a malformed id.
const errBadContainerID = "invalid container id, "

// lookupContainer finds a container of an application the NodeManager
// still has (ContainerLogsUtils.getApplicationForContainer, checkState);
// otherwise it says why not: a malformed id (errBadContainerID), or a
// container the NodeManager does not (or no longer) have, for which the
// request goes to the log server when one is configured.
func (rm *RM) lookupContainer(raw string) (*nmContainer, string) {
	cid, err := yarn.ParseContainerID(raw)
	if err != nil {
		return nil, errBadContainerID + raw
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	a, ok := rm.apps[cid.Attempt.App]
	if !ok || a.aggregated {
		return nil, "Unknown container. Container either has not started or has already completed or doesn't belong to this node at all."
	}
	for _, at := range a.attempts {
		if at.container != cid {
			continue
		}
		if at.logDir == "" || (at.proc == nil && at.finished.IsZero()) {
			return nil, "Container is not yet running. Current state is LOCALIZING"
		}
		return &nmContainer{id: cid, owner: a.user, viewACL: a.sc.AMContainerSpec.ApplicationACLs["VIEW_APP"],
			logDir: at.logDir, running: at.proc != nil}, ""
	}
	return nil, "Cannot find this log on the local disk."
}

// redirectToLogServer answers 307 to the log server for rel when one is
// configured (NMWebServices.createRedirectResponse: the query without
// nm.id, plus redirected_from_node=true) and reports whether it did.
func (rm *RM) redirectToLogServer(w http.ResponseWriter, r *http.Request, rel string) bool {
	base := rm.logServerURL()
	if base == "" {
		return false
	}
	q := r.URL.Query()
	q.Del("nm.id")
	q.Set("redirected_from_node", "true")
	w.Header().Set("Location", base+rel+"?"+q.Encode())
	w.WriteHeader(http.StatusTemporaryRedirect)
	return true
}

// handleNMLogList is GET /ws/v1/node/containers/{id}/logs: the
// container's local log files (NMContainerLogsInfo).
func (rm *RM) handleNMLogList(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("container")
	c, why := rm.lookupContainer(raw)
	if why == "" && !rm.mayView(userOf(r), c.owner, c.viewACL) {
		why = fmt.Sprintf("User [%s] is not authorized to view the logs for application %s", userOf(r), c.id.Attempt.App)
	}
	switch {
	case strings.HasPrefix(why, errBadContainerID):
		writeError(w, badRequest("%s", why))
		return
	case why != "":
		if !rm.redirectToLogServer(w, r, "/containers/"+raw+"/logs") {
			writeError(w, notFound("%s", why))
		}
		return
	}
	files, err := nmlogs.List(c.logDir)
	if err != nil {
		writeError(w, &webError{status: http.StatusInternalServerError, exception: "IOException",
			class: "java.io.IOException", message: err.Error()})
		return
	}
	info := yarn.ContainerLogsInfo{Files: files, AggregationType: yarn.LogsLocal, ContainerID: c.id.String(), NodeID: rm.nmAddr}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	writeJSON(w, http.StatusOK, map[string]any{"containerLogsInfo": []yarn.ContainerLogsInfo{info}})
}

// handleNMLogFile is GET /ws/v1/node/containers/{id}/logs/{file} (and
// /containerlogs/{id}/{file}): one file, framed as LogToolUtils frames
// it, the size parameter giving its first (positive) or last (negative)
// bytes. As NMWebServices.getLogs answers: 404 with the message as text
// for a container it does not have (307 to the log server when one is
// configured), 500 with the message for a user who may not view the
// application.
func (rm *RM) handleNMLogFile(w http.ResponseWriter, r *http.Request) {
	raw, name := r.PathValue("container"), r.PathValue("file")
	c, why := rm.lookupContainer(raw)
	switch {
	case strings.HasPrefix(why, errBadContainerID):
		w.WriteHeader(http.StatusBadRequest)
		return
	case why != "":
		if !rm.redirectToLogServer(w, r, "/containers/"+raw+"/logs/"+name) {
			nmlogs.TextError(w, http.StatusNotFound, why)
		}
		return
	}
	if !rm.mayView(userOf(r), c.owner, c.viewACL) {
		nmlogs.TextError(w, http.StatusInternalServerError, fmt.Sprintf("User [%s] is not authorized to view the logs for application %s", userOf(r), c.id.Attempt.App))
		return
	}
	if name != filepath.Base(name) || name == "." || name == ".." {
		nmlogs.TextError(w, http.StatusNotFound, "Cannot find this log on the local disk.")
		return
	}
	nmlogs.ServeFile(w, r, filepath.Join(c.logDir, name), c.id.String(), rm.nmAddr, yarn.LogsLocal, c.running)
}

// nmLogsURL is a container's log listing on the NodeManager's web
// services.
func (rm *RM) nmLogsURL(c yarn.ContainerID) string {
	return fmt.Sprintf("http://%s/ws/v1/node/containers/%s/logs", rm.nmAddr, url.PathEscape(c.String()))
}
