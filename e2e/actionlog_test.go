package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// markerShellApp echoes its marker argument to stdout and to stderr.
var markerShellApp = shellApp("action-log", "say", "say failed", "bash", "-c", `echo "out-${marker}"; echo "err-${marker}" >&amp;2`)

// TestActionLogOnTheLocalCluster runs a shell action on `gozie server
// -local` and reads what it wrote through `gozie job -log <wf>@<action>`
// (the NodeManager's or the log server's container log web services), and
// opens the action's Console URL, which leads to the RM's application
// page.
func TestActionLogOnTheLocalCluster(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	marker := fmt.Sprintf("m%d", time.Now().UnixNano())
	id := e.run(t, e.writeApp(t, "action-log", markerShellApp), "marker="+marker)
	if status, info := e.waitJob(t, id, 2*time.Minute); status != "SUCCEEDED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	act := e.restAction(t, id, "say")
	if !strings.HasPrefix(act.ExternalID, "application_") || act.ConsoleURL == "" {
		t.Fatalf("the action has external id %q and console URL %q", act.ExternalID, act.ConsoleURL)
	}
	out, err := e.cli(t, "job", "-log", id+"@say")
	if err != nil {
		t.Fatalf("gozie job -log %s@say: %v\n%s", id, err, out)
	}
	t.Logf("gozie job -log %s@say:\n%s", id, out)
	for _, want := range []string{"external id=" + act.ExternalID, "==> Application " + act.ExternalID,
		"--- stdout", "out-" + marker + "\n", "--- stderr", "err-" + marker + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("gozie job -log lacks %q:\n%s", want, out)
		}
	}
	resp, err := http.Get(act.ConsoleURL)
	if err != nil {
		t.Fatalf("GET the console URL %s: %v", act.ConsoleURL, err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	t.Logf("the console URL %s led to %s", act.ConsoleURL, resp.Request.URL)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), act.ExternalID) {
		t.Errorf("the console URL %s led to %s (%d) without %s:\n%s", act.ConsoleURL, resp.Request.URL, resp.StatusCode, act.ExternalID, page)
	}
}

// restAction is one action of a workflow as GET job/<id>?show=info gives it.
type restAction struct {
	Name       string `json:"name"`
	ExternalID string `json:"externalId"`
	ConsoleURL string `json:"consoleUrl"`
}

// restAction reads the action name of workflow id through the REST API.
func (e *env) restAction(t *testing.T, id, name string) restAction {
	t.Helper()
	resp, err := http.Get(e.url + "/v2/job/" + id + "?show=info&user.name=" + e.user)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var job struct {
		Actions []restAction `json:"actions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&job); err != nil {
		t.Fatal(err)
	}
	for _, a := range job.Actions {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("workflow %s has no action %s", id, name)
	return restAction{}
}
