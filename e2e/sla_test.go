package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/internal/testwait"
)

// slaServer starts the local cluster and a gozie server (separate
// processes, so that the server can be killed and started again) whose SLA
// events go to a webhook of the test. It returns the environment, the
// server process, its arguments and the webhook's events.
func slaServer(t *testing.T) (*env, *proc, []string, <-chan map[string]any) {
	t.Helper()
	events := make(chan map[string]any, 100)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev map[string]any
		if err := json.NewDecoder(r.Body).Decode(&ev); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		events <- ev
	}))
	t.Cleanup(hook.Close)
	dir := t.TempDir()
	start(t, "local cluster started", "minicluster", "-data-dir", dir)
	addr := freeAddr(t)
	args := []string{"server", "-data-dir", dir, "-db", "sqlite:" + filepath.Join(dir, "gozie.db"), "-addr", addr,
		"-config-dir", t.TempDir(), "-engine.lease", "2s", "-sla.webhook.urls", hook.URL + "/sla",
		"-sla.webhook.events", "ALL", "-sla.email.enabled", "false"}
	server := start(t, "gozie server started", args...)
	e := &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
	return e, server, args, events
}

// slaProps writes a job.properties that runs the sla example's workflow
// (copied unchanged; gozie's and Oozie's take the same parameters) with the
// given nominal time and SLA minutes.
func (e *env) slaProps(t *testing.T, nominal time.Time, shouldStart, shouldEnd string) string {
	t.Helper()
	props := fmt.Sprintf(`nameNode=%s
resourceManager=%s
queueName=default
examplesRoot=examples
oozie.wf.application.path=${nameNode}/user/${user.name}/${examplesRoot}/apps/sla/workflow.xml
nominalTime=%s
shouldStart=%s
shouldEnd=%s
duration=5
notificationMsg=Notification Message
alertContact=alert@oozie.com
upstreamApps=application-a,application-b
`, e.cluster["nameNode"], e.cluster["resourceManager"], nominal.UTC().Format("2006-01-02T15:04Z"), shouldStart, shouldEnd)
	p := filepath.Join(t.TempDir(), "job.properties")
	if err := os.WriteFile(p, []byte(props), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// submit submits (without starting) a job and returns its id.
func (e *env) submit(t *testing.T, jobProps string) string {
	t.Helper()
	out, err := e.cli(t, "job", "-config", jobProps, "-submit")
	if err != nil {
		t.Fatalf("gozie job -submit: %v\n%s", err, out)
	}
	m := jobIDLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no job id in %q", out)
	}
	return m[1]
}

// summary is one entry of GET /v2/sla.
type summary struct {
	ID          string `json:"id"`
	AppName     string `json:"appName"`
	SLAStatus   string `json:"slaStatus"`
	EventStatus string `json:"eventStatus"`
	StartDelay  *int64 `json:"startDelay"`
	EndDelay    *int64 `json:"endDelay"`
	JobStatus   string `json:"jobStatus"`
}

// waitSLA polls GET /v2/sla?filter=id=<id> until cond holds.
func (e *env) waitSLA(t *testing.T, id string, what string, cond func(summary) bool) summary {
	t.Helper()
	var got summary
	// Polling the REST API as a monitor would.
	testwait.Poll{Timeout: 2 * time.Minute, Every: 200 * time.Millisecond}.WaitForLast(t, "the SLA of "+id+" to show "+what, func() (bool, string) {
		resp, err := http.Get(e.url + "/v2/sla?filter=" + url.QueryEscape("id="+id))
		if err != nil {
			return false, err.Error()
		}
		var l struct {
			List []summary `json:"slaSummaryList"`
		}
		err = json.NewDecoder(resp.Body).Decode(&l)
		resp.Body.Close()
		if err == nil && len(l.List) == 1 && cond(l.List[0]) {
			got = l.List[0]
			return true, ""
		}
		return false, fmt.Sprintf("%+v (%v)", l.List, err)
	})
	return got
}

func has(list, ev string) bool { return strings.Contains(","+list+",", ","+ev+",") }

// slaWorkflowNames are the names of the sla example's workflow of each source.
var slaWorkflowNames = map[string]string{testapps.Gozie: "sla-watched-wf", testapps.Oozie: "one-op-wf"}

// TestSLAExampleEndMiss runs the sla example's workflow (copied unchanged;
// gozie's, and Oozie's when GOZIE_OOZIE_EXAMPLES names it) past its
// should-end: the SLA API shows END_MISS with the lateness in minutes, the
// webhook receives the event, `gozie sla` lists it, and the dashboard shows
// the miss in red.
func TestSLAExampleEndMiss(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		testSLAEndMiss(t, apps, slaWorkflowNames[testapps.Source(apps)])
	})
}

// testSLAEndMiss runs the sla example's workflow of the apps under apps, named
// appName, past its should-end.
func testSLAEndMiss(t *testing.T, apps, appName string) {
	e, _, _, hooks := slaServer(t)
	e.copyApp(t, filepath.Join(apps, "sla"), "sla")
	// Nominal time 20 minutes ago: should-start (1) and should-end (10) have passed.
	nominal := time.Now().UTC().Truncate(time.Minute).Add(-20 * time.Minute)
	id := e.run(t, e.slaProps(t, nominal, "1", "10"))
	if status, info := e.waitJob(t, id, 2*time.Minute); status != "SUCCEEDED" {
		t.Fatalf("the sla example ended %s:\n%s", status, info)
	}
	s := e.waitSLA(t, id, "END_MISS", func(s summary) bool { return has(s.EventStatus, "END_MISS") && s.JobStatus == "SUCCEEDED" })
	if s.AppName != appName || s.SLAStatus != "MISS" || !has(s.EventStatus, "START_MISS") ||
		s.EndDelay == nil || *s.EndDelay < 10 || *s.EndDelay > 12 {
		t.Fatalf("summary: %+v, want app %s", s, appName)
	}
	// The filter by app name finds it too.
	resp, err := http.Get(e.url + "/v2/sla?filter=" + url.QueryEscape("app_name="+appName+";event_status=END_MISS"))
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		List []summary `json:"slaSummaryList"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&l)
	resp.Body.Close()
	if len(l.List) != 1 || l.List[0].ID != id {
		t.Fatalf("filter app_name=%s: %+v", appName, l.List)
	}
	// The webhook received the END_MISS.
	timeout := time.After(time.Minute)
	for got := false; !got; {
		select {
		case ev := <-hooks:
			got = ev["id"] == id && ev["eventStatus"] == "END_MISS" && ev["latenessMinutes"].(float64) >= 10
		case <-timeout:
			t.Fatal("the webhook never received the END_MISS")
		}
	}
	out, err := e.cli(t, "sla", "-filter", "app_name="+appName)
	if err != nil || !strings.Contains(out, id) || !strings.Contains(out, "START_MISS,DURATION_MET,END_MISS") {
		t.Fatalf("gozie sla: %v\n%s", err, out)
	}
	// A subtest, so that without Chromium only the dashboard's check is skipped.
	t.Run("dashboard", func(t *testing.T) {
		dom := headless(t, e.url+"/dashboard/?view=misses&app="+url.QueryEscape(appName))
		if !strings.Contains(dom, `<tr class="miss" data-id="`+id+`"`) {
			t.Fatalf("the dashboard does not show the miss in red:\n%s", dom)
		}
	})
}

// TestSLADeadlineSurvivesRestart: the sla example's workflow (gozie's, and
// Oozie's when GOZIE_OOZIE_EXAMPLES names it) submitted and never started
// shows START_MISS once should-start passes, even though the server that
// armed the deadline was killed and another started in its place.
func TestSLADeadlineSurvivesRestart(t *testing.T) {
	t.Parallel()
	testapps.Each(t, testSLADeadlineSurvivesRestart)
}

// testSLADeadlineSurvivesRestart is TestSLADeadlineSurvivesRestart on the
// sla example of the apps under apps.
func testSLADeadlineSurvivesRestart(t *testing.T, apps string) {
	e, server, args, _ := slaServer(t)
	e.copyApp(t, filepath.Join(apps, "sla"), "sla")
	now := time.Now().UTC()
	nominal := now.Truncate(time.Minute)
	// should-start 8 seconds from now, in (fractional) minutes.
	shouldStart := fmt.Sprintf("%.3f", (now.Sub(nominal) + 8*time.Second).Minutes())
	id := e.submit(t, e.slaProps(t, nominal, shouldStart, "60"))
	e.waitSLA(t, id, "its registration", func(s summary) bool { return s.SLAStatus == "NOT_STARTED" })
	server.kill9(t)
	start(t, "gozie server started", args...)
	s := e.waitSLA(t, id, "START_MISS", func(s summary) bool { return has(s.EventStatus, "START_MISS") })
	if s.SLAStatus != "NOT_STARTED" || s.JobStatus != "PREP" || s.StartDelay == nil {
		t.Fatalf("after the restart: %+v", s)
	}
}

// headless renders a page in headless Chromium and returns its DOM after
// its scripts ran. Without Chromium, t is skipped (failed under CI) through
// testreq.Program.
func headless(t *testing.T, u string) string {
	t.Helper()
	bin := testreq.Program(t, "chromium", "chromium", "chromium-browser", "google-chrome")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--user-data-dir="+t.TempDir(), "--virtual-time-budget=5000", "--dump-dom", u)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errOut.String())
	}
	return out.String()
}
