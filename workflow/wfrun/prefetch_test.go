package wfrun_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// txProbeFS is a filesystem that notes, at each Stat and Glob, whether a
// store transaction is open: on SQLite (one connection), a transaction of
// its own cannot begin while another is open.
type txProbeFS struct {
	hadoop.FileSystem
	st store.Store

	mu          sync.Mutex
	calls, inTx int
}

func (f *txProbeFS) probe(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	err := f.st.Tx(ctx, func(store.Tx) error { return nil })
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if err != nil {
		f.inTx++
	}
}

func (f *txProbeFS) Stat(ctx context.Context, p string) (hadoop.FileInfo, error) {
	f.probe(ctx)
	return f.FileSystem.Stat(ctx, p)
}

func (f *txProbeFS) Glob(ctx context.Context, p string) ([]string, error) {
	f.probe(ctx)
	return f.FileSystem.Glob(ctx, p)
}

const fsDecisionsApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="flags">
  <start to="gate"/>
  <decision name="gate">
    <switch>
      <case to="extract">${fs:isDir(inDir)}</case>
      <default to="end"/>
    </switch>
  </decision>
  <action name="extract">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>extract.sh</exec>
    </shell>
    <ok to="check"/><error to="fail"/>
  </action>
  <decision name="check">
    <switch>
      <case to="load">${fs:exists(concat(inDir, '/_SUCCESS'))}</case>
      <default to="end"/>
    </switch>
  </decision>
  <action name="load">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>load.sh</exec>
    </shell>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>`

// Decisions on fs: functions ask the filesystem outside the store's
// transactions, both at the start of a job and after an action's end, and
// take the branch the filesystem's answers say.
func TestFSDecisionsAskOutsideTransactions(t *testing.T) {
	var probe *txProbeFS
	w := setupFS(t, false, func(st store.Store, fs hadoop.FileSystem) hadoop.FileSystem {
		probe = &txProbeFS{FileSystem: fs, st: st}
		return probe
	})
	in := filepath.Join(t.TempDir(), "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "_SUCCESS"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	id, err := w.submit(t, w.app(t, "flags", fsDecisionsApp), true, "inDir", "file://"+in)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@extract")
	w.exec.complete(id+"@extract", actions.Status{Outcome: workflow.OutcomeOK, ExternalStatus: "SUCCEEDED"})
	if err := w.runner.Callback(context.Background(), id+"@extract", "SUCCEEDED"); err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@load")
	probe.mu.Lock()
	defer probe.mu.Unlock()
	if probe.calls < 2 || probe.inTx != 0 {
		t.Fatalf("%d filesystem calls, %d of them inside a store transaction; want both decisions' calls, none inside",
			probe.calls, probe.inTx)
	}
	_, acts := w.job(t, id)
	if !strings.Contains(acts["gate"].Transition+acts["check"].Transition, "extractload") {
		t.Errorf("transitions gate=%s check=%s", acts["gate"].Transition, acts["check"].Transition)
	}
}
