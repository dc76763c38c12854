package server

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/purge"
	"github.com/gozie/gozie/server/auth"
)

// PurgeRunner runs one whole purge on demand (package purge's Purger).
type PurgeRunner interface {
	Purge(ctx context.Context, req purge.Request) (purge.Counts, error)
}

// PurgeMessage is Oozie's answer to a purge.
const PurgeMessage = "Purge command executed successfully"

// Parameters of PUT admin/purge, as Oozie's client sends them. Oozie's
// documentation spells one of them oldCoordAction, so names are matched
// without regard to case.
const (
	purgeWorkflowParam  = "wf"
	purgeCoordParam     = "coord"
	purgeBundleParam    = "bundle"
	purgeLimitParam     = "limit"
	purgeOldActionParam = "oldcoordaction"
)

// Bounds of the purge parameters: ages in days that a time.Duration holds,
// and batches that stay short transactions.
const (
	maxPurgeDays  = 100_000
	maxPurgeLimit = 10_000
)

// purgeAnswer is the JSON answer: Oozie's message, and what went (a gozie
// addition Oozie's clients ignore).
type purgeAnswer struct {
	Purge  string       `json:"purge"`
	Purged purgedCounts `json:"purged"`
}

// purgedCounts are the jobs a purge removed.
type purgedCounts struct {
	Workflows    int `json:"workflows"`
	CoordActions int `json:"coordActions"`
	Coordinators int `json:"coordinators"`
	Bundles      int `json:"bundles"`
}

// RegisterPurge adds PUT /v2/admin/purge?wf=&coord=&bundle=&limit=&oldcoordaction=,
// which runs one whole purge with p before it answers
// {"purge":"Purge command executed successfully","purged":{"workflows":n,...}}.
// Ages are in days; a parameter left out takes the server's configuration.
// The purge goes on to its end when the client stops waiting, as Oozie's
// queued purge command does. Like the other admin endpoints it works in
// every system mode.
func (s *Server) RegisterPurge(p PurgeRunner) {
	s.Handle(http.MethodPut, "/v2/admin/purge", auth.PermAdmin, func(w http.ResponseWriter, r *http.Request) error {
		req, err := ParsePurgeRequest(r.URL.Query())
		if err != nil {
			return err
		}
		c, err := p.Purge(context.WithoutCancel(r.Context()), req)
		if err != nil {
			return err
		}
		return WriteJSON(w, http.StatusOK, purgeAnswer{Purge: PurgeMessage, Purged: purgedCounts{Workflows: c.Workflows,
			CoordActions: c.CoordActions, Coordinators: c.Coordinators, Bundles: c.Bundles}})
	}, AllowInSafeMode())
}

// ParsePurgeRequest reads the parameters of admin/purge; other parameters
// (user.name, doAs) are ignored. A bad value is 400 E0303.
func ParsePurgeRequest(q url.Values) (purge.Request, error) {
	var req purge.Request
	for _, name := range slices.Sorted(maps.Keys(q)) {
		values := q[name]
		if len(values) == 0 {
			continue
		}
		v := strings.TrimSpace(values[0])
		switch key := strings.ToLower(name); key {
		case purgeWorkflowParam, purgeCoordParam, purgeBundleParam:
			days, err := strconv.Atoi(v)
			if err != nil || days < 0 || days > maxPurgeDays {
				return purge.Request{}, ErrInvalidParamValue(name, values[0])
			}
			age := time.Duration(days) * 24 * time.Hour
			switch key {
			case purgeWorkflowParam:
				req.WorkflowAge = &age
			case purgeCoordParam:
				req.CoordAge = &age
			default:
				req.BundleAge = &age
			}
		case purgeLimitParam:
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > maxPurgeLimit {
				return purge.Request{}, ErrInvalidParamValue(name, values[0])
			}
			req.Limit = &n
		case purgeOldActionParam:
			var b bool
			switch strings.ToLower(v) {
			case "true":
				b = true
			case "false":
			default:
				return purge.Request{}, ErrInvalidParamValue(name, values[0])
			}
			req.OldCoordActions = &b
		}
	}
	return req, nil
}
