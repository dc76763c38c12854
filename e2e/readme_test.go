package e2e

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gozie/gozie/internal/chromiumtest"
	"github.com/gozie/gozie/internal/testwait"
)

// readmeBlock returns the command lines (comments cut, continuations
// joined) of the first sh block after heading in README.md.
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no heading %q", heading)
	}
	_, block, ok := strings.Cut(section, "```sh\n")
	if !ok {
		t.Fatalf("README.md's %q has no sh block", heading)
	}
	block, _, _ = strings.Cut(block, "```")
	var lines []string
	var cur string
	for _, l := range strings.Split(block, "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		l = strings.TrimSpace(l)
		if c, ok := strings.CutSuffix(l, "\\"); ok {
			cur += c
			continue
		}
		if l = strings.TrimSpace(cur + l); l != "" {
			lines = append(lines, strings.Join(strings.Fields(l), " "))
		}
		cur = ""
	}
	return lines
}

// TestReadmeFirstHour follows README.md's first hour from the state a fresh
// clone is in: `make run` (as the Makefile runs it), the example pipeline
// section's commands in order (examples install, the nightly-hive line it
// printed, -info, -log of the report action), then the console page of the
// pipeline in a browser. No step outside the README's is taken: the test
// fails when the README's commands change without it.
func TestReadmeFirstHour(t *testing.T) {
	t.Parallel()
	mk, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^run: build .*\n\t\$\(BIN\) server -local -data-dir \$\(DATA_DIR\) \$\(ARGS\)$`).Match(mk) {
		t.Fatal("make run no longer runs `$(BIN) server -local -data-dir $(DATA_DIR)`; update this test")
	}
	steps := readmeBlock(t, "## The example pipeline: a nightly Hive job")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^bin/gozie examples install$`),
		regexp.MustCompile(`^bin/gozie job -oozie http://localhost:11000/oozie -config gozie-data/dfs/user/<you>/examples/apps/nightly-hive/job\.properties .* -run$`),
		regexp.MustCompile(`^bin/gozie job -info 0000000-\.\.\.-W$`),
		regexp.MustCompile(`^bin/gozie job -log 0000000-\.\.\.-W@report$`),
	}
	if len(steps) != len(want) {
		t.Fatalf("the README's example pipeline has %d commands, this test follows %d: %q", len(steps), len(want), steps)
	}
	for i, re := range want {
		if !re.MatchString(steps[i]) {
			t.Fatalf("README step %d %q does not match %s", i+1, steps[i], re)
		}
	}

	// make run: bin/gozie server -local -data-dir ./gozie-data, in the clone.
	clone := t.TempDir()
	if err := os.Mkdir(filepath.Join(clone, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(binary, filepath.Join(clone, "bin", "gozie")); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(clone, "gozie-data")
	_, addr := startServer(t, "-local", "-data-dir", dataDir, "-config-dir", t.TempDir())
	url := "http://" + addr + "/oozie"
	user := currentUser(t)
	// The README's commands run in the clone; the server is on a test port
	// instead of 11000, which the CLI takes from $GOZIE_URL.
	sh := func(line string) string {
		t.Helper()
		cmd := exec.Command("bash", "-c", line)
		cmd.Dir = clone
		cmd.Env = append(os.Environ(), "GOZIE_URL="+url, "USER="+user)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		return string(out)
	}
	out := sh(steps[0])
	var run string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "bin/gozie job ") && strings.Contains(l, "/nightly-hive/job.properties") {
			run = l
		}
	}
	if run == "" {
		t.Fatalf("examples install printed no nightly-hive command:\n%s", out)
	}
	m := jobIDLine.FindStringSubmatch(sh(run))
	if m == nil {
		t.Fatalf("%s printed no job id", run)
	}
	id := m[1]
	info := strings.ReplaceAll(steps[2], "0000000-...-W", id)
	succeeded := regexp.MustCompile(`(?m)^Status\s*:\s*SUCCEEDED`)
	testwait.Poll{Timeout: 2 * time.Minute, Every: 200 * time.Millisecond}.WaitForLast(t, "the pipeline to succeed",
		func() (bool, string) {
			out := sh(info)
			return succeeded.MatchString(out), "\n" + out
		})
	if log := sh(strings.ReplaceAll(steps[3], "0000000-...-W", id)); !strings.Contains(log, "rows=4") {
		t.Errorf("the report's log lacks rows=4:\n%s", log)
	}

	// "Then open http://localhost:11000/oozie/".
	req, _ := http.NewRequest(http.MethodGet, url+"/", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "console.js") {
		t.Fatalf("a browser at /oozie/ gets %d:\n%.500s", resp.StatusCode, page)
	}
	bin := chromiumtest.Program(t)
	b := chromiumtest.Start(t, bin)
	ctx, cancel := context.WithTimeout(b, 90*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/?user.name="+user+"#/workflow/"+id),
		chromedp.WaitVisible(chromedp.CSS(`#actions tr[data-name="report"]`))); err != nil {
		t.Fatalf("the pipeline's console page: %v\n%s", err, chromiumtest.PageText(b))
	}
	statuses, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`Object.fromEntries([...document.querySelectorAll(
		"#actions tr[data-name]")].map(r => [r.dataset.name, r.querySelector(".status").textContent]))`))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"aggregate", "publish", "report"} {
		if statuses[name] != "OK" {
			t.Errorf("the console shows %s %q, want OK (all: %v)", name, statuses[name], statuses)
		}
	}
}
