package storetest

import (
	"slices"
	"testing"

	"github.com/gozie/gozie/store"
)

// testListCoordActionsOmitXML: with OmitActionXML a page of actions has
// every column but the action XML; without it, the XML too.
func testListCoordActionsOmitXML(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		j := store.CoordJob{ID: "C7", Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: t0}
		if err := x.InsertCoordJob(ctx, &j); err != nil {
			return err
		}
		a := store.CoordAction{ID: "C7@1", JobID: "C7", ActionNumber: 1, Status: store.CoordActionWaiting,
			NominalTime: t0, CreatedTime: t0, LastModified: t0, CreatedConf: "<configuration/>", RunConf: "<run/>",
			ActionXML: "<coordinator-app/>", MissingDependencies: "hdfs://nn/a", ExternalID: "W1"}
		return x.InsertCoordAction(ctx, &a)
	})
	for _, omit := range []bool{false, true} {
		var acts []store.CoordAction
		tx(t, s, func(x store.Tx) (err error) {
			acts, _, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: "C7", OmitActionXML: omit})
			return
		})
		if len(acts) != 1 {
			t.Fatalf("omit %v: %d actions, want 1", omit, len(acts))
		}
		a, wantXML := acts[0], "<coordinator-app/>"
		if omit {
			wantXML = ""
		}
		if a.ActionXML != wantXML || a.CreatedConf != "<configuration/>" || a.RunConf != "<run/>" ||
			a.MissingDependencies != "hdfs://nn/a" || a.ExternalID != "W1" || a.Version != 1 || !a.NominalTime.Equal(t0) {
			t.Errorf("omit %v: got %+v", omit, a)
		}
	}
}

// testListJobsOmitDocuments: with OmitDocuments a listing's jobs have every
// column but their configuration and definitions; without it, those too.
func testListJobsOmitDocuments(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		w := store.WorkflowJob{ID: "W8", AppName: "wf", User: "u", Status: store.WorkflowRunning, Conf: "<c/>",
			Definition: "<workflow-app/>", CreatedTime: t0, LastModified: t0}
		if err := x.InsertWorkflowJob(ctx, &w); err != nil {
			return err
		}
		c := store.CoordJob{ID: "C8", AppName: "coord", User: "u", Status: store.JobRunning, ExecutionOrder: "FIFO",
			Conf: "<c/>", Definition: "<coordinator-app/>", OrigDefinition: "<orig/>", CreatedTime: t0}
		return x.InsertCoordJob(ctx, &c)
	})
	for _, omit := range []bool{false, true} {
		f := store.JobFilter{Users: []string{"u"}, OmitDocuments: omit}
		var (
			wfs    []store.WorkflowJob
			coords []store.CoordJob
		)
		tx(t, s, func(x store.Tx) (err error) {
			if wfs, _, err = x.ListWorkflowJobs(ctx, f); err != nil {
				return err
			}
			coords, _, err = x.ListCoordJobs(ctx, f)
			return err
		})
		if len(wfs) != 1 || len(coords) != 1 {
			t.Fatalf("omit %v: %d workflows, %d coordinators; want 1 each", omit, len(wfs), len(coords))
		}
		w, c := wfs[0], coords[0]
		if w.AppName != "wf" || w.Status != store.WorkflowRunning || w.Version != 1 || c.AppName != "coord" || c.ExecutionOrder != "FIFO" {
			t.Errorf("omit %v: other columns lost: %+v %+v", omit, w, c)
		}
		docs := []string{w.Conf, w.Definition, c.Conf, c.Definition, c.OrigDefinition}
		want := []string{"<c/>", "<workflow-app/>", "<c/>", "<coordinator-app/>", "<orig/>"}
		if omit {
			want = []string{"", "", "", "", ""}
		}
		if !slices.Equal(docs, want) {
			t.Errorf("omit %v: documents %q, want %q", omit, docs, want)
		}
	}
}
