package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
)

func TestSLACommands(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	f.StartEngine(t)
	app := f.WriteCoordApp(t, "sla", jobstest.SLACoordApp(f.noOp))
	props := f.writeFile(t, "coord.properties", "oozie.coord.application.path="+app+"\n")
	id := strings.TrimSpace(strings.TrimPrefix(f.mustRun(t, "job", "-config", props, "-run"), "job: "))
	f.waitStatus(t, id, "SUCCEEDED")

	alerts := func() map[string]bool {
		out := map[string]bool{}
		err := f.Store.Tx(context.Background(), func(x store.Tx) error {
			regs, err := x.ListSLAs(context.Background(), store.SLAFilter{ParentIDs: []string{id}})
			for _, r := range regs {
				out[strings.TrimPrefix(r.ID, id)] = r.AlertsEnabled
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	f.mustRun(t, "job", "-sladisable", id, "-action", "2-3")
	got := alerts()
	for n, want := range map[string]bool{"@1": true, "@2": false, "@3": false, "@4": true, "@5": true} {
		if got[n] != want {
			t.Errorf("after -sladisable -action 2-3: %s alerts %v, want %v", n, got[n], want)
		}
	}
	f.mustRun(t, "job", "-slaenable", id, "-date", "2025-01-27T01:00Z")
	if got := alerts(); !got["@2"] || got["@3"] {
		t.Errorf("after -slaenable -date of action 2: %v", got)
	}
	_, errOut, code := f.run(t, "job", "-slachange", id)
	if code == 0 || !strings.Contains(errOut, "-value option is required") {
		t.Errorf("-slachange without -value: exit %d, %q", code, errOut)
	}
	_, errOut, code = f.run(t, "job", "-slachange", id, "-value", "sla-should-end=later")
	if code != 255 || !strings.HasPrefix(errOut, "Error: E1015 : ") {
		t.Errorf("bad -slachange: exit %d, %q", code, errOut)
	}
	f.mustRun(t, "job", "-slachange", id, "-action", "1", "-value", "sla-should-end=45")
}
