package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
)

// PurgeOptions are the parameters of admin/purge. A nil field is left out,
// and the server takes its configuration for it.
type PurgeOptions struct {
	// WorkflowDays, CoordDays and BundleDays are the ages, in days, after
	// which finished jobs of each kind are purged.
	WorkflowDays, CoordDays, BundleDays *int
	// Limit is the number of jobs per batch.
	Limit *int
	// OldCoordAction also purges the old finished actions of running
	// coordinators.
	OldCoordAction *bool
}

// PurgeCounts are the jobs a gozie server purged (Oozie reports none).
type PurgeCounts struct {
	Workflows    int `json:"workflows"`
	CoordActions int `json:"coordActions"`
	Coordinators int `json:"coordinators"`
	Bundles      int `json:"bundles"`
}

// PurgeResult is the answer of admin/purge.
type PurgeResult struct {
	// Message is the server's message, "Purge command executed successfully".
	Message string `json:"purge"`
	// Purged is what went; nil from a server that does not say (Oozie).
	Purged *PurgeCounts `json:"purged"`
}

// Purge runs a purge on the server (PUT admin/purge) and returns its answer.
func (c *Client) Purge(ctx context.Context, o PurgeOptions) (PurgeResult, error) {
	q := url.Values{}
	for name, v := range map[string]*int{"wf": o.WorkflowDays, "coord": o.CoordDays, "bundle": o.BundleDays, "limit": o.Limit} {
		if v != nil {
			q.Set(name, strconv.Itoa(*v))
		}
	}
	if o.OldCoordAction != nil {
		q.Set("oldcoordaction", strconv.FormatBool(*o.OldCoordAction))
	}
	var r PurgeResult
	if err := c.do(ctx, http.MethodPut, APIVersion+"/admin/purge", q, &r); err != nil {
		return PurgeResult{}, err
	}
	if r.Message == "" {
		return PurgeResult{}, errors.New("admin/purge: no purge message in the response")
	}
	return r, nil
}
