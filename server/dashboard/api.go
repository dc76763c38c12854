package dashboard

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/slaapi"
	"github.com/gozie/gozie/store"
)

// Coordinator is a coordinator job in the overview.
type Coordinator struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"`
	Status   string         `json:"status"`
	BundleID string         `json:"bundleId,omitempty"`
	Counts   map[string]int `json:"counts"` // actions by status
	Misses   int            `json:"misses"` // actions whose SLA is MISS
}

// Bundle is a bundle job with its coordinators.
type Bundle struct {
	ID           string        `json:"id"`
	Name         string        `json:"name"`
	Status       string        `json:"status"`
	Coordinators []Coordinator `json:"coordinators"`
}

// Workflow is a workflow job in the overview.
type Workflow struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Status   string `json:"status"`
	ParentID string `json:"parentId,omitempty"`
	Created  int64  `json:"createdTime"`
}

// Overview is the response of /dashboard/api/overview.
type Overview struct {
	Bundles      []Bundle      `json:"bundles"`
	Coordinators []Coordinator `json:"coordinators"` // those of no bundle
	Workflows    []Workflow    `json:"workflows"`    // the newest
}

// overviewLimit bounds each list of the overview.
const overviewLimit = 200

func (u *ui) overview(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	out := Overview{Bundles: []Bundle{}, Coordinators: []Coordinator{}, Workflows: []Workflow{}}
	err := u.Store.View(ctx, func(x store.Tx) error {
		bundles, _, err := x.ListBundleJobs(ctx, store.JobFilter{Limit: overviewLimit})
		if err != nil {
			return err
		}
		coords, _, err := x.ListCoordJobs(ctx, store.JobFilter{Limit: overviewLimit})
		if err != nil {
			return err
		}
		byBundle := map[string][]Coordinator{}
		for _, c := range coords {
			cv, err := coordinatorView(ctx, x, c)
			if err != nil {
				return err
			}
			if c.BundleID != "" {
				byBundle[c.BundleID] = append(byBundle[c.BundleID], cv)
			} else {
				out.Coordinators = append(out.Coordinators, cv)
			}
		}
		for _, b := range bundles {
			bv := Bundle{ID: b.ID, Name: b.AppName, Status: string(b.Status), Coordinators: byBundle[b.ID]}
			if bv.Coordinators == nil {
				bv.Coordinators = []Coordinator{}
			}
			out.Bundles = append(out.Bundles, bv)
		}
		wfs, _, err := x.ListWorkflowJobs(ctx, store.JobFilter{Limit: overviewLimit})
		if err != nil {
			return err
		}
		for _, j := range wfs {
			out.Workflows = append(out.Workflows, Workflow{ID: j.ID, Name: j.AppName, Status: string(j.Status),
				ParentID: j.ParentID, Created: j.CreatedTime.UnixMilli()})
		}
		return nil
	})
	if err != nil {
		return err
	}
	return server.WriteJSON(w, http.StatusOK, out)
}

func coordinatorView(ctx context.Context, x store.Tx, c store.CoordJob) (Coordinator, error) {
	counts, err := x.CountCoordActions(ctx, c.ID)
	if err != nil {
		return Coordinator{}, err
	}
	cv := Coordinator{ID: c.ID, Name: c.AppName, Status: string(c.Status), BundleID: c.BundleID, Counts: map[string]int{}}
	for s, n := range counts {
		cv.Counts[string(s)] = n
	}
	misses, err := x.ListSLAs(ctx, store.SLAFilter{ParentIDs: []string{c.ID}, SLAStatuses: []store.SLAStatus{store.SLAMiss},
		Limit: 10000})
	if err != nil {
		return Coordinator{}, err
	}
	cv.Misses = len(misses)
	return cv, nil
}

// Action is one coordinator action with its run and SLA.
type Action struct {
	ID          string          `json:"id"`
	Number      int             `json:"actionNumber"`
	Status      string          `json:"status"`
	NominalTime int64           `json:"nominalTime"`
	WorkflowID  string          `json:"workflowId,omitempty"`
	StartTime   *int64          `json:"startTime"`
	EndTime     *int64          `json:"endTime"`
	ConsoleURL  string          `json:"consoleUrl,omitempty"`
	JobURL      string          `json:"jobUrl"`
	SLA         *slaapi.Summary `json:"sla"`
}

// CoordinatorDetail is the response of /dashboard/api/coordinator/{id}.
type CoordinatorDetail struct {
	Coordinator
	// Now is the server's time (epoch ms): running actions' bars end there.
	Now     int64    `json:"now"`
	Actions []Action `json:"actions"`
}

func ms(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	v := t.UnixMilli()
	return &v
}

// jobURL is the REST info URL of a job or action.
func jobURL(id string) string {
	return server.ContextPath + "/v2/job/" + url.PathEscape(id)
}

func (u *ui) coordinator(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id := mux.Vars(r)["id"]
	n := 100
	if v := r.URL.Query().Get("len"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			return server.ErrInvalidParamValue("len", v)
		}
		n = k
	}
	now := u.Clock.Now()
	out := CoordinatorDetail{Now: now.UnixMilli()}
	err := u.Store.View(ctx, func(x store.Tx) error {
		c, err := x.GetCoordJob(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return server.NewError(http.StatusNotFound, oozieerr.E0604, "Job does not exist [%s]", id)
		}
		if err != nil {
			return err
		}
		if out.Coordinator, err = coordinatorView(ctx, x, c); err != nil {
			return err
		}
		acts, _, err := x.ListCoordActions(ctx, store.CoordActionFilter{JobID: id, Desc: true, Limit: n})
		if err != nil {
			return err
		}
		regs, err := x.ListSLAs(ctx, store.SLAFilter{ParentIDs: []string{id}, Desc: true, Limit: 10 * n})
		if err != nil {
			return err
		}
		byID := map[string]store.SLA{}
		for _, s := range regs {
			byID[s.ID] = s
		}
		out.Actions = make([]Action, 0, len(acts))
		for i := len(acts) - 1; i >= 0; i-- { // oldest first, for the timeline
			a := acts[i]
			av := Action{ID: a.ID, Number: a.ActionNumber, Status: string(a.Status), NominalTime: a.NominalTime.UnixMilli(),
				WorkflowID: a.ExternalID, ConsoleURL: a.ConsoleURL, JobURL: jobURL(a.ID)}
			if a.ExternalID != "" {
				wf, err := x.GetWorkflowJob(ctx, a.ExternalID)
				if err == nil {
					if wf.Status != store.WorkflowPrep {
						av.StartTime = ms(wf.StartTime)
					}
					if wf.Status.Terminal() {
						av.EndTime = ms(wf.EndTime)
					}
					if av.ConsoleURL == "" {
						if av.ConsoleURL, err = workflowConsole(ctx, x, wf.ID); err != nil {
							return err
						}
					}
				} else if !errors.Is(err, store.ErrNotFound) {
					return err
				}
			}
			if s, ok := byID[a.ID]; ok {
				sum := slaapi.SummaryOf(s, now, nil)
				av.SLA = &sum
			}
			out.Actions = append(out.Actions, av)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return server.WriteJSON(w, http.StatusOK, out)
}

// workflowConsole is the YARN tracking URL of a workflow's latest action
// that has one.
func workflowConsole(ctx context.Context, x store.Tx, wfID string) (string, error) {
	acts, err := x.ListWorkflowActions(ctx, wfID)
	if err != nil {
		return "", err
	}
	url := ""
	for _, a := range acts {
		if a.ConsoleURL != "" {
			url = a.ConsoleURL
		}
	}
	return url, nil
}

// consoleOf finds the YARN tracking URL of what a registration watches.
func consoleOf(ctx context.Context, x store.Tx, s store.SLA) (string, error) {
	switch s.AppType {
	case store.AppWorkflowAction:
		a, err := x.GetWorkflowAction(ctx, s.ID)
		if errors.Is(err, store.ErrNotFound) {
			return "", nil
		}
		return a.ConsoleURL, err
	case store.AppWorkflowJob:
		return workflowConsole(ctx, x, s.ID)
	case store.AppCoordinatorAction:
		a, err := x.GetCoordAction(ctx, s.ID)
		if errors.Is(err, store.ErrNotFound) {
			return "", nil
		}
		if err != nil || a.ConsoleURL != "" || a.ExternalID == "" {
			return a.ConsoleURL, err
		}
		return workflowConsole(ctx, x, a.ExternalID)
	}
	return "", nil
}

// SLARow is one summary with its links.
type SLARow struct {
	slaapi.Summary
	JobURL     string `json:"jobUrl"`
	ConsoleURL string `json:"consoleUrl,omitempty"`
}

// SLAList is the response of /dashboard/api/sla.
type SLAList struct {
	SLASummaryList []SLARow `json:"slaSummaryList"`
}

func (u *ui) sla(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	q, err := slaapi.ParseQuery(slaapi.Values(r.URL.RawQuery), nil)
	if err != nil {
		return err
	}
	now := u.Clock.Now()
	out := SLAList{SLASummaryList: []SLARow{}}
	err = u.Store.View(ctx, func(x store.Tx) error {
		regs, err := x.ListSLAs(ctx, q.Filter)
		if err != nil {
			return err
		}
		for _, s := range regs {
			c, err := consoleOf(ctx, x, s)
			if err != nil {
				return err
			}
			out.SLASummaryList = append(out.SLASummaryList, SLARow{Summary: slaapi.SummaryOf(s, now, q.Loc),
				JobURL: jobURL(s.ID), ConsoleURL: c})
		}
		return nil
	})
	if err != nil {
		return err
	}
	return server.WriteJSON(w, http.StatusOK, out)
}
