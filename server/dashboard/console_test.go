package dashboard_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/dashboard"
	"github.com/gozie/gozie/server/slaapi"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
)

// answer is what a client sees of one request.
type answer struct {
	status      int
	contentType string
	errorCode   string
	body        string
}

func fetch(t *testing.T, method, u, accept string) answer {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get(server.HeaderErrorCode), string(b)}
}

// TestConsoleRouting: a browser asking /oozie or /oozie/ for HTML gets the
// console; every other client gets exactly what a server without the
// console answers (Oozie's 404 E0301); REST paths answer JSON whatever the
// Accept header says.
func TestConsoleRouting(t *testing.T) {
	t.Parallel()
	withConsole := serve(t)
	bare := serveWithout(t)
	browserAccept := "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	for _, path := range []string{"", "/"} {
		for _, accept := range []string{"", "*/*", "application/json", "text/html;q=0", "text/plain"} {
			got, want := fetch(t, http.MethodGet, withConsole+path, accept), fetch(t, http.MethodGet, bare+path, accept)
			if got != want {
				t.Errorf("GET /oozie%s Accept %q: %+v, a server without the console answers %+v", path, accept, got, want)
			}
			if got.status != http.StatusNotFound || got.errorCode != "E0301" {
				t.Errorf("GET /oozie%s Accept %q: %+v, want Oozie's 404 E0301", path, accept, got)
			}
		}
		got := fetch(t, http.MethodGet, withConsole+path, browserAccept)
		if got.status != 200 || !strings.HasPrefix(got.contentType, "text/html") || !strings.Contains(got.body, "/oozie/console/console.js") {
			t.Errorf("browser GET /oozie%s: %d %s\n%.300s", path, got.status, got.contentType, got.body)
		}
		if got := fetch(t, http.MethodPost, withConsole+path, "*/*"); got != fetch(t, http.MethodPost, bare+path, "*/*") {
			t.Errorf("POST /oozie%s changed: %+v", path, got)
		}
	}
	rest := fetch(t, http.MethodGet, withConsole+"/v2/sla?filter=app_name=aggregator", browserAccept)
	if rest.status != 200 || !strings.HasPrefix(rest.contentType, "application/json") {
		t.Errorf("a browser's GET of a REST path: %d %s", rest.status, rest.contentType)
	}
	for _, asset := range []string{"console.js", "console.css"} {
		if a := fetch(t, http.MethodGet, withConsole+"/console/"+asset, ""); a.status != 200 || len(a.body) < 1000 {
			t.Errorf("%s: %d, %d bytes", asset, a.status, len(a.body))
		}
	}
	if a := fetch(t, http.MethodGet, withConsole+"/console/nope.js", ""); a.status != 404 || a.errorCode != "E0301" {
		t.Errorf("unknown asset: %+v", a)
	}
}

// serveWithout serves the SLA endpoint as serve(t) does, without the
// console, for comparing answers.
func serveWithout(t *testing.T) string {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv := server.New(server.Config{})
	if err := slaapi.Register(srv, slaapi.Deps{Store: st, Clock: clock.NewFake(t0)}); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs.URL + server.ContextPath
}

// TestLegacyDashboardRedirects: the old dashboard's links lead to the
// console's views.
func TestLegacyDashboardRedirects(t *testing.T) {
	t.Parallel()
	base := serve(t)
	for _, c := range []struct{ path, want string }{
		{"/dashboard", "/oozie/#/overview"},
		{"/dashboard/", "/oozie/#/overview"},
		{"/dashboard/?view=jobs", "/oozie/#/overview"},
		{"/dashboard/app.js", "/oozie/#/overview"},
		{"/dashboard/?view=coordinator&id=" + coordID, "/oozie/#/coordinator/" + coordID},
		{"/dashboard/?view=misses", "/oozie/#/sla"},
		{"/dashboard/?view=misses&app=aggregator&event=END_MISS&x=1", "/oozie/#/sla?app=aggregator&event=END_MISS"},
	} {
		req, _ := http.NewRequest(http.MethodGet, base+c.path, nil)
		resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != c.want {
			t.Errorf("GET %s: %s → %q, want %q", c.path, resp.Status, resp.Header.Get("Location"), c.want)
		}
	}
}

func TestWantsHTML(t *testing.T) {
	t.Parallel()
	for accept, want := range map[string]bool{
		"": false, "*/*": false, "application/json": false, "text/plain, */*": false,
		"text/html": true, "TEXT/HTML; charset=utf-8": true, "application/json, text/html;q=0.5": true,
		"text/html;q=0": false, "text/html; q=0.0": false, "text/html;q=0.1": true,
		"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8": true,
	} {
		r, _ := http.NewRequest(http.MethodGet, "/oozie/", nil)
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		if got := dashboard.WantsHTML(r); got != want {
			t.Errorf("WantsHTML(Accept %q) = %v, want %v", accept, got, want)
		}
	}
}

func TestLegacyTarget(t *testing.T) {
	t.Parallel()
	if got := dashboard.LegacyTarget(url.Values{"view": {"coordinator"}}); got != "/oozie/#/overview" {
		t.Errorf("a coordinator view without an id: %s", got)
	}
}

// TestConsoleInChromium drives the console in headless Chromium against a
// server with authorization on: find alice's running nightly-etl by name,
// open its page (actions with statuses and YARN links, graph, definition,
// configuration, logs, an action's log), be refused its kill as mallory with
// the server's message, kill it as alice and see it KILLED; the failed run's
// error and retries; the coordinator (timeline, actions → workflows, missing
// dependencies), the bundle, the SLA view at 1280 px without horizontal
// overflow, the overview and the system pages. Screenshots at 1280x800 go
// to testdata/screenshots.
func TestConsoleInChromium(t *testing.T) {
	t.Parallel()
	env := newConsoleEnv(t)
	b := newBrowser(t, env.URL)
	wf := env.NightlyID

	// The list: search by name.
	b.open("/", `body[data-view="workflows"] #jobs`)
	b.setUser(owner)
	b.do(sendKeysTo("#f-text", "nightly"))
	b.do(chromedp.Click(chromedp.CSS("#f-apply")),
		chromedp.Poll[chromedp.Void](`location.hash.includes("text=nightly") && document.body.dataset.loaded === "true"`),
		chromedp.WaitVisible(chromedp.CSS(`#jobs tr[data-id="`+wf+`"]`)))
	if rows := run(b, countOf(`#jobs tbody tr`)); rows != 1 {
		t.Errorf("searching nightly lists %d workflows, want 1:\n%s", rows, b.snippet())
	}
	b.screenshot("workflows")

	// The workflow page.
	b.click(`#jobs tr[data-id="`+wf+`"] a.job-link`, `body[data-view="workflow"] #actions tr[data-name="transform"]`)
	for name, status := range map[string]string{"extract": "OK", "transform": "RUNNING"} {
		if got := b.text(`#actions tr[data-name="` + name + `"] .status`); got != status {
			t.Errorf("action %s shows %q, want %s", name, got, status)
		}
	}
	if href := run(b, chromedp.AttributeValue(chromedp.CSS(`#actions tr[data-name="transform"] a.console-link`), "href")); href.Value != rmAppURL {
		t.Errorf("transform's external id links to %+v, want %s", href, rmAppURL)
	}
	if got := b.text(`#title .status`); got != "RUNNING" {
		t.Errorf("workflow status %q", got)
	}
	b.screenshot("workflow")

	b.click(`#actions tr[data-name="transform"] button.log`, `#action-log`)
	if log := b.text("#action-log"); !strings.Contains(log, wf+"@transform") || !strings.Contains(log, "application_1_0007") {
		t.Errorf("the action's log panel shows %q", log)
	}
	b.screenshot("action-log")

	b.click("#tab-graph", "#graph svg")
	if svg := run(b, chromedp.OuterHTML(chromedp.CSS("#graph svg"))); !strings.Contains(svg, "transform") || !strings.Contains(svg, "extract") {
		t.Errorf("the graph names no actions:\n%.2000s", svg)
	}
	for name, status := range map[string]string{"extract": "OK", "transform": "RUNNING"} {
		if n := run(b, countOf(`#graph svg g.node[data-name="`+name+`"][data-status="`+status+`"]`)); n != 1 {
			t.Errorf("the graph has %d nodes %s with status %s, want 1", n, name, status)
		}
	}
	if n := run(b, countOf(`#graph svg g.node[data-name="fail"]`)); n != 1 {
		t.Errorf("the graph (show-kill=true) has %d kill nodes fail", n)
	}
	if n := run(b, countOf(`#graph svg script`)); n != 0 {
		t.Errorf("the inlined graph keeps %d scripts", n)
	}
	b.screenshot("workflow-graph")
	b.click("#tab-definition", "#definition")
	if def := b.text("#definition"); !strings.Contains(def, `<workflow-app xmlns="uri:oozie:workflow:1.0" name="nightly-etl">`) {
		t.Errorf("definition:\n%s", def)
	}
	b.click("#tab-configuration", "#configuration")
	if c := b.text("#configuration"); !strings.Contains(c, "oozie.wf.application.path") {
		t.Errorf("configuration:\n%s", c)
	}
	b.click("#tab-log", "#job-log")
	b.click("#tab-audit", "#audit-log")
	b.screenshot("workflow-audit")

	// Another user is refused, with the server's message.
	b.view("#/workflow/"+wf, `#actions tr[data-name="transform"]`)
	b.setUser(stranger)
	b.click(`button[data-command="kill"]`, "#confirm-yes")
	b.click("#confirm-yes", "#message.error")
	if msg := b.text("#message"); !strings.Contains(msg, "User ["+stranger+"] not authorized for WF job ["+wf+"]") {
		t.Errorf("mallory's kill shows %q", msg)
	}
	b.screenshot("kill-refused")
	if st := workflowStatus(t, env.Store, wf); st != store.WorkflowRunning {
		t.Fatalf("after mallory's refused kill the job is %s", st)
	}

	// Its owner suspends, resumes and kills it.
	b.setUser(owner)
	b.click(`button[data-command="suspend"]`, "#confirm-yes")
	b.click("#confirm-yes", `#title .status.SUSPENDED`)
	b.click(`button[data-command="resume"]`, "#confirm-yes")
	b.click("#confirm-yes", `#title .status.RUNNING`)
	if msg := b.text("#message"); !strings.Contains(msg, "resume of "+wf+" accepted") {
		t.Errorf("alice's resume shows %q", msg)
	}
	b.click(`button[data-command="kill"]`, "#confirm-yes")
	b.click("#confirm-yes", `#title .status.KILLED`)
	if msg := b.text("#message"); !strings.Contains(msg, "kill of "+wf+" accepted") {
		t.Errorf("alice's kill shows %q", msg)
	}
	if st := workflowStatus(t, env.Store, wf); st != store.WorkflowKilled {
		t.Errorf("after alice's kill the job is %s", st)
	}
	b.screenshot("killed")

	// The failed run: error code and message, retries.
	b.view("#/workflow/"+brokenID, `#actions tr[data-name="transform"][data-status="ERROR"]`)
	if code := b.text(`#actions tr[data-name="transform"] .error-code`); code != "JA018" {
		t.Errorf("error code %q", code)
	}
	if msg := b.text(`#actions tr[data-name="transform"] .error-message`); !strings.Contains(msg, "exit code [1]") {
		t.Errorf("error message %q", msg)
	}
	b.click(`#actions tr[data-name="transform"] button.retries`, "#retries")
	b.screenshot("workflow-failed")
	b.click(`button[data-command="rerun"]`, `#confirm-fields input[name="failnodes"]`)
	b.click("#confirm-yes", `#title .status.RUNNING`)
	if msg := b.text("#message"); !strings.Contains(msg, "rerun of "+brokenID+" accepted") {
		t.Errorf("the rerun shows %q", msg)
	}

	// The coordinator: timeline, actions → workflows, missing dependencies.
	b.view("#/coordinator/"+coordID, `#coord-actions tr[data-id="`+coordID+`@2"]`)
	b.do(chromedp.WaitVisible(chromedp.CSS(`#timeline svg g.action.miss[data-id="` + coordID + `@2"]`)))
	if n := run(b, countOf(`#coord-actions tbody tr`)); n != 3 {
		t.Errorf("coordinator shows %d actions, want 3", n)
	}
	b.screenshot("coordinator")
	wf2 := "0000012-260301100000000-gozie-test-W"
	b.click(`#coord-actions tr[data-id="`+coordID+`@2"] a.workflow-link`, `body[data-view="workflow"] #actions tr[data-name="action1"]`)
	if got := b.text("#info tr[data-key='Job id'] td"); got != wf2 {
		t.Errorf("the coordinator action's link opens %q, want %s", got, wf2)
	}
	b.view("#/coordinator/"+coordID+"?tab=missing", "#missing")
	if got := b.text("#missing"); got != "No action waits for data." {
		t.Errorf("missing dependencies: %q", got)
	}
	b.view("#/coordinator/"+coordID+"?tab=definition", "#definition")
	if got := b.text("#definition"); !strings.Contains(got, `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="aggregator"`) {
		t.Errorf("coordinator definition: %q", got)
	}

	// An administrator changes the coordinator's concurrency.
	b.setUser("admin")
	b.click(`button[data-command="change"]`, `#confirm-fields input[name="concurrency"]`)
	b.do(chromedp.SetValue(chromedp.CSS(`#confirm-fields input[name="concurrency"]`), "3"))
	b.click("#confirm-yes", `#info tr[data-key="Concurrency"]`)
	// The message before the change is the user's ("Acting as admin"): wait for the change's.
	b.do(chromedp.Poll[chromedp.Void](`document.getElementById("message").textContent.includes("change of ` + coordID + ` (concurrency=3) accepted")`))
	// The page shows the change once it has read the job again after the PUT.
	b.do(chromedp.Poll[chromedp.Void](`(document.querySelector('#info tr[data-key="Concurrency"] td')||{}).textContent === "3"`))
	b.click(`button[data-command="sla-disable"]`, "#confirm-yes")
	b.click("#confirm-yes", "#message")
	b.do(chromedp.Poll[chromedp.Void](`document.getElementById("message").textContent.includes("SLA alerts of ` + coordID + ` disabled")`))
	if alerts := slaAlerts(t, env.Store, coordID+"@2"); alerts {
		t.Errorf("after SLA disable the alerts of %s@2 are still on", coordID)
	}

	// The bundle.
	b.view("#/bundle/"+bundleID, `#bundle-coordinators tr[data-id="`+coordID+`"]`)
	b.screenshot("bundle")

	// SLA, through the old dashboard's link, fits 1280 px.
	b.open("/dashboard/?view=misses&app=aggregator&event=END_MISS", `#misses tr.miss[data-id="`+coordID+`@2"]`)
	if n := run(b, countOf(`#misses tbody tr`)); n != 1 {
		t.Errorf("the END_MISS filter shows %d rows, want 1", n)
	}
	if sw, iw := b.fitsWidth(); sw > iw {
		t.Errorf("the SLA view overflows at %d px: scrollWidth %d", iw, sw)
	}
	b.screenshot("sla-misses")
	b.view("#/sla?event=any", `#misses tr[data-id="`+otherID+`"]`)
	if sw, iw := b.fitsWidth(); sw > iw {
		t.Errorf("the SLA view of every record overflows at %d px: scrollWidth %d", iw, sw)
	}
	b.screenshot("sla")

	b.open("/dashboard/", `#bundles .card.bundle[data-id="`+bundleID+`"]`)
	if txt := b.text("#bundles"); !strings.Contains(txt, "1 SLA miss") {
		t.Errorf("overview: %s", txt)
	}
	b.screenshot("overview")

	for _, page := range []string{"status", "servers", "configuration", "metrics", "queue"} {
		b.view("#/system/"+page, "#system-"+page+"-panel")
		if n := run(b, countOf(`#system-`+page+`-panel .error`)); n != 0 {
			t.Errorf("system page %s: %s", page, b.text("#system-"+page+"-panel"))
		}
		b.screenshot("system-" + page)
	}
	if s := b.text("#system-queue-panel"); s == "" {
		t.Errorf("queue page is empty")
	}
	b.view("#/system/status", "#system-status-panel")
	if s := b.text("#system-status-panel"); !strings.Contains(s, "NORMAL") {
		t.Errorf("status page: %s", s)
	}
}

func countOf(sel string) chromedp.Action[int] {
	return chromedp.Evaluate[int](`document.querySelectorAll(` + jsString(sel) + `).length`)
}

func sendKeysTo(sel, text string) chromedp.Action[chromedp.Void] {
	return chromedp.SendKeys(chromedp.CSS(sel), text)
}

func workflowStatus(t *testing.T, st store.Store, id string) store.WorkflowStatus {
	t.Helper()
	var job store.WorkflowJob
	err := st.Tx(context.Background(), func(x store.Tx) error {
		var err error
		job, err = x.GetWorkflowJob(context.Background(), id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return job.Status
}

// slaAlerts reports whether the SLA registration id has its alerts enabled.
func slaAlerts(t *testing.T, st store.Store, id string) bool {
	t.Helper()
	var reg store.SLA
	err := st.Tx(context.Background(), func(x store.Tx) error {
		var err error
		reg, err = x.GetSLA(context.Background(), id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg.AlertsEnabled
}
