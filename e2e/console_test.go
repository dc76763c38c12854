package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gozie/gozie/internal/chromiumtest"
	"github.com/gozie/gozie/internal/testwait"
)

// napApp runs one shell action that sleeps long enough to be killed.
var napApp = shellApp("console-nap", "nap", "nap failed", "bash", "-c", "echo napping; sleep 600")

// TestConsoleOnTheLocalCluster runs the README's nightly pipeline on `gozie
// server -local` and follows it in the web console in headless Chromium, as
// a newcomer would: /oozie/ in a browser, the pipeline found by name, its
// page with its three actions OK, its graph, the report action's log with
// the shell script's output; then a sleeping workflow is refused to a
// stranger, with the server's message, and killed by its owner. Screenshots
// go to server/dashboard/testdata/screenshots/e2e-*.png.
func TestConsoleOnTheLocalCluster(t *testing.T) {
	t.Parallel()
	bin := chromiumtest.Program(t)
	e := localServer(t)
	app := e.copyApp(t, filepath.Join("..", "examples", "nightly-hive"), "nightly-hive")
	id := e.run(t, filepath.Join(app, "job.properties"), "jdbcURL="+e.cluster["hive2JdbcUrl"])
	if status, info := e.waitJob(t, id, 2*time.Minute); status != "SUCCEEDED" {
		t.Fatalf("nightly-hive ended %s:\n%s", status, info)
	}
	nap := e.run(t, e.writeApp(t, "console-nap", napApp))
	waitAction(t, e, nap, "nap", "RUNNING", 2*time.Minute)

	b := chromiumtest.Start(t, bin)
	step := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		ctx, cancel := context.WithTimeout(b, 90*time.Second)
		defer cancel()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, chromiumtest.PageText(b))
		}
	}
	text := func(sel string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(b, 30*time.Second)
		defer cancel()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v\n%s", sel, err, chromiumtest.PageText(b))
		}
		return s
	}
	shot := func(name string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(b, 30*time.Second)
		defer cancel()
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("..", "server", "dashboard", "testdata", "screenshots")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "e2e-"+name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	loaded := chromedp.Poll[chromedp.Void](`document.body.dataset.loaded === "true"`)
	setUser := func(name string) {
		t.Helper()
		step("setting the user "+name, chromedp.SetValue(chromedp.CSS("#user-name"), name), chromedp.Click(chromedp.CSS("#user-set")),
			chromedp.Poll[chromedp.Void](`document.getElementById("message").textContent.includes("Acting as `+name+`") &&
				document.body.dataset.loaded === "true"`))
	}

	step("opening the console", chromedp.Navigate(e.url+"/"), chromedp.WaitVisible(chromedp.CSS(`#jobs`)), loaded)
	setUser(e.user)
	step("searching nightly-hive", chromedp.SendKeys(chromedp.CSS("#f-text"), "nightly-hive"), chromedp.Click(chromedp.CSS("#f-apply")),
		chromedp.Poll[chromedp.Void](`location.hash.includes("text=nightly-hive") && document.body.dataset.loaded === "true"`),
		chromedp.WaitVisible(chromedp.CSS(`#jobs tr[data-id="`+id+`"]`)))
	shot("workflows")
	step("opening its page", chromedp.Click(chromedp.CSS(`#jobs tr[data-id="`+id+`"] a.job-link`)),
		chromedp.WaitVisible(chromedp.CSS(`#actions tr[data-name="report"]`)))
	for _, name := range []string{"aggregate", "publish", "report"} {
		if got := text(`#actions tr[data-name="` + name + `"] .status`); got != "OK" {
			t.Errorf("action %s shows %q, want OK", name, got)
		}
	}
	if got := text("#title .status"); got != "SUCCEEDED" {
		t.Errorf("the pipeline shows %q", got)
	}
	shot("workflow")

	step("opening the report's log", chromedp.Click(chromedp.CSS(`#actions tr[data-name="report"] button.log`)),
		chromedp.WaitVisible(chromedp.CSS("#action-log")))
	if log := text("#action-log"); !strings.Contains(log, "rows=4") {
		t.Errorf("the report's log lacks the script's output rows=4:\n%s", log)
	}
	shot("action-log")

	step("opening the graph", chromedp.Click(chromedp.CSS("#tab-graph")), chromedp.WaitVisible(chromedp.CSS("#graph svg")))
	ctx, cancel := context.WithTimeout(b, 30*time.Second)
	svg, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("#graph svg")))
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"aggregate", "publish", "report"} {
		if !strings.Contains(svg, `data-name="`+name+`"`) {
			t.Errorf("the graph has no node %s", name)
		}
	}
	shot("graph")

	step("opening the sleeping workflow", chromedp.Navigate(e.url+"/?nap#/workflow/"+nap),
		chromedp.WaitVisible(chromedp.CSS(`#actions tr[data-name="nap"][data-status="RUNNING"]`)))
	setUser("mallory")
	step("mallory's kill", chromedp.Click(chromedp.CSS(`button[data-command="kill"]`)), chromedp.WaitVisible(chromedp.CSS("#confirm-yes")),
		chromedp.Click(chromedp.CSS("#confirm-yes")), chromedp.WaitVisible(chromedp.CSS("#message.error")))
	if msg := text("#message"); !strings.Contains(msg, "User [mallory] not authorized for WF job ["+nap+"]") {
		t.Errorf("mallory's kill shows %q", msg)
	}
	shot("kill-refused")
	setUser(e.user)
	step("the owner's kill", chromedp.Click(chromedp.CSS(`button[data-command="kill"]`)), chromedp.WaitVisible(chromedp.CSS("#confirm-yes")),
		chromedp.Click(chromedp.CSS("#confirm-yes")), chromedp.WaitVisible(chromedp.CSS(`#title .status.KILLED`)))
	if status, _ := e.waitJob(t, nap, time.Minute); status != "KILLED" {
		t.Errorf("after the console's kill the job is %s", status)
	}
	shot("killed")
}

// waitAction polls the REST API until workflow id's action name has status.
func waitAction(t *testing.T, e *env, id, name, status string, timeout time.Duration) {
	t.Helper()
	testwait.WaitForLast(t, timeout, "action "+name+" of "+id+" to be "+status, func() (bool, string) {
		j := e.jobInfo(t, id)
		for _, a := range j.Actions {
			if a.Name == name && a.Status == status {
				return true, ""
			}
		}
		return false, fmt.Sprintf("%+v", j.Actions)
	})
}
