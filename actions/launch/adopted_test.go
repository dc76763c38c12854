package launch_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// oozieLauncherType is the YARN application type of Oozie 5's launcher.
const oozieLauncherType = "Oozie Launcher"

// asOozieLauncher submits applications as Oozie submits its launcher: of
// Oozie's application type (the tag is the run's, Oozie's own here).
type asOozieLauncher struct{ next http.RoundTripper }

func (a asOozieLauncher) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/ws/v1/cluster/apps") && r.Body != nil {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		b = bytes.Replace(b, []byte(`"application-type":"`+launch.ApplicationType+`"`),
			[]byte(`"application-type":"`+oozieLauncherType+`"`), 1)
		r = r.Clone(r.Context())
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	}
	return a.next.RoundTrip(r)
}

// An action adopted from Oozie at the migration (recorded with Oozie's tag,
// oozie-<md5>) ends by its YARN application's final status alone, since
// Oozie's launcher writes no result file of gozie's: SUCCEEDED is OK, also
// when Oozie 4 recorded the launcher as a MapReduce job id; FAILED is an
// ERROR (JA018) with the ResourceManager's diagnostics; a launcher the RM
// forgot is failed with JA017.
func TestAdoptedOozieLauncherEndsByFinalStatus(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/exit.sh", "#!/bin/sh\nexit \"$1\"\n")
	client, err := yarn.NewClient(yarn.Config{
		Addresses: []string{c.rm.WebURL()}, Auth: yarn.PseudoAuth{User: testUser},
		HTTPClient: &http.Client{Transport: asOozieLauncher{http.DefaultTransport}, Timeout: 30 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	e := c.executor(t, "shell", func(cfg *launch.Config) { cfg.YARN = client })
	coordAction := "0000004-260101000000000-oozie-oozi-C@3"

	// launch submits a run as Oozie's launcher of node would be and waits
	// for its end; adopted is the attempt gozie checks after the import.
	launch := func(node, exit string) (adopted *actions.Attempt, rep yarn.AppReport) {
		run := c.run(t, "shell", node, "/app", shellBody(`<exec>exit.sh</exec><argument>`+exit+`</argument><file>/app/exit.sh</file>`))
		run.Tag = yarn.OozieTag(yarn.OozieLauncherTag(coordAction, run.ActionID, node))
		st, err := e.Start(ctxT(t), run)
		if err != nil {
			t.Fatalf("%s: Start: %v", node, err)
		}
		id, err := yarn.ParseApplicationID(st.ExternalID)
		if err != nil {
			t.Fatal(err)
		}
		rep = c.waitFinal(t, id)
		if rep.ApplicationType != oozieLauncherType || !rep.HasTag(run.Tag) {
			t.Fatalf("%s: not submitted as Oozie's launcher: %+v", node, rep)
		}
		// What the import records: Oozie's external id and tag; the
		// action directory is gozie's, where Oozie's launcher wrote nothing.
		return &actions.Attempt{ActionID: run.ActionID, JobID: run.JobID, Node: node, Type: "shell", Tag: run.Tag,
			User: testUser, ExternalID: st.ExternalID, ResourceManager: run.ResourceManager,
			ActionDir: run.ActionDir + "-gozie"}, rep
	}

	ok, rep := launch("ok", "0")
	ok.ExternalID = "job_" + strings.TrimPrefix(rep.ID.String(), "application_") // as Oozie 4 records it
	st, err := e.Check(ctxT(t), ok)
	if err != nil || !st.Done || st.Outcome != workflow.OutcomeOK || st.ExternalID != rep.ID.String() {
		t.Errorf("succeeded launcher: %+v, %v; want OK on %s", st, err, rep.ID)
	}

	failed, rep := launch("failed", "3")
	st, err = e.Check(ctxT(t), failed)
	want := fmt.Sprintf("Oozie launcher [%s] ended %s/%s", rep.ID, rep.State, rep.FinalStatus)
	if err != nil || !st.Done || st.Outcome != workflow.OutcomeError || st.ErrorCode != launcher.CodeException ||
		!strings.HasPrefix(st.ErrorMessage, want) || rep.Diagnostics == "" ||
		!strings.Contains(st.ErrorMessage, strings.TrimSpace(rep.Diagnostics)) {
		t.Errorf("failed launcher: %+v, %v; want ERROR %s %q with diagnostics %q", st, err, launcher.CodeException, want,
			rep.Diagnostics)
	}

	if err := c.rm.Forget(rep.ID); err != nil {
		t.Fatal(err)
	}
	st, err = e.Check(ctxT(t), failed)
	if err != nil || !st.Done || st.Outcome != workflow.OutcomeFailed || st.ErrorCode != "JA017" {
		t.Errorf("forgotten launcher: %+v, %v; want FAILED JA017", st, err)
	}
}
