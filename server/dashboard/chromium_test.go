package dashboard_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testreq"
)

// chromium finds Debian's headless browser (testreq: required under CI, where
// make test installs it).
func chromium(t *testing.T) string {
	t.Helper()
	return testreq.Program(t, "chromium", "chromium", "chromium-browser", "google-chrome")
}

// browse runs headless Chromium on url with the extra flags and returns its
// standard output. JavaScript runs until the page's network and timers are
// idle or the virtual time budget is spent.
func browse(t *testing.T, bin, url string, flags ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--user-data-dir=" + t.TempDir(), "--virtual-time-budget=5000",
		"--window-size=1400,900"}, flags...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, errOut.String())
	}
	return out.String()
}

// TestDashboardInChromium renders the dashboard in a real headless browser:
// the jobs view shows the bundle and its coordinator with its miss, the
// coordinator's timeline draws the late action in red, and the misses view
// lists the miss and honours its filters. A screenshot of the misses view is
// kept under testdata/screenshots.
func TestDashboardInChromium(t *testing.T) {
	t.Parallel()
	bin := chromium(t)
	base := serve(t) + "/dashboard/"

	dom := browse(t, bin, base+"?view=jobs", "--dump-dom")
	for _, want := range []string{`data-loaded="true"`, `class="card bundle" data-id="` + bundleID + `"`, "nightly",
		`href="?view=coordinator&amp;id=` + coordID + `"`, "aggregator", `class="badge miss"`, "1 SLA miss", otherID} {
		if !strings.Contains(dom, want) {
			t.Errorf("jobs view lacks %q", want)
		}
	}

	dom = browse(t, bin, base+"?view=coordinator&id="+coordID, "--dump-dom")
	for _, want := range []string{`<svg`, `class="action met" data-id="` + coordID + `@1"`,
		`class="action miss" data-id="` + coordID + `@2"`, `fill="#c62828"`, "+15 min",
		`<tr class="miss" data-id="` + coordID + `@2"`, `href="` + yarnURL + `"`} {
		if !strings.Contains(dom, want) {
			t.Errorf("coordinator view lacks %q", want)
		}
	}

	dom = browse(t, bin, base+"?view=misses&app=aggregator&event=END_MISS", "--dump-dom")
	if !strings.Contains(dom, `<tr class="miss" data-id="`+coordID+`@2"`) || !strings.Contains(dom, "+15 min") ||
		!strings.Contains(dom, `href="/oozie/v2/job/`+coordID+`@2"`) {
		t.Errorf("the misses view does not show the END_MISS of aggregator:\n%s", excerpt(dom, "misses"))
	}
	if strings.Contains(dom, `data-id="`+otherID+`"`) || strings.Contains(dom, `data-id="`+coordID+`@1"`) {
		t.Errorf("the misses view ignores its filter:\n%s", excerpt(dom, "misses"))
	}

	dom = browse(t, bin, base+"?view=misses&app=other", "--dump-dom")
	if !strings.Contains(dom, `data-id="`+otherID+`"`) || strings.Contains(dom, `data-id="`+coordID+`@2"`) {
		t.Errorf("filtering by app other:\n%s", excerpt(dom, "misses"))
	}
	dom = browse(t, bin, base+"?view=misses&app=aggregator&event=DURATION_MISS", "--dump-dom")
	if !strings.Contains(dom, `id="misses-empty"`) || strings.Contains(dom, `id="misses-empty" hidden`) {
		t.Errorf("no DURATION_MISS should show the empty note:\n%s", excerpt(dom, "misses"))
	}

	dir, err := filepath.Abs(filepath.Join("testdata", "screenshots"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "misses.png")
	os.Remove(shot)
	browse(t, bin, base+"?view=misses", "--screenshot="+shot)
	png, err := os.ReadFile(shot)
	if err != nil || len(png) < 1000 || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("no screenshot at %s (%d bytes, %v)", shot, len(png), err)
	}
	coordShot := filepath.Join(dir, "coordinator.png")
	browse(t, bin, base+"?view=coordinator&id="+coordID, "--screenshot="+coordShot)
	t.Logf("screenshots: %s, %s", shot, coordShot)
}

// excerpt returns the part of a DOM dump around a marker, for messages.
func excerpt(dom, marker string) string {
	i := strings.Index(dom, `id="`+marker+`"`)
	if i < 0 {
		return dom
	}
	end := min(len(dom), i+3000)
	return dom[i:end]
}
