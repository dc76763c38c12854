package dashboard_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gozie/gozie/internal/chromiumtest"
)

// browser is one headless Chromium tab on the console.
type browser struct {
	t    *testing.T
	ctx  context.Context
	base string // the server's /oozie URL
	page int    // counts full page loads, to make each URL new
}

// newBrowser starts Debian's Chromium (testreq: required under CI, where
// make test installs it) through chromedp, at 1280x800.
func newBrowser(t *testing.T, base string) *browser {
	t.Helper()
	return &browser{t: t, ctx: chromiumtest.Start(t, chromiumtest.Program(t)), base: base}
}

// do runs steps with a deadline and fails the test on an error.
func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("browser: %v\npage: %s", err, b.snippet())
	}
}

// run runs one action that returns a value.
func run[T any](b *browser, a chromedp.Action[T]) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		b.t.Fatalf("browser: %v\npage: %s", err, b.snippet())
	}
	return v
}

// snippet is the start of the console's view, for failure messages.
func (b *browser) snippet() string {
	return chromiumtest.PageText(b.ctx)
}

// open loads the console page at path (below /oozie, "/" for the console
// itself, "/dashboard/..." for an old link) and waits for sel.
func (b *browser) open(path, sel string) {
	b.t.Helper()
	b.page++
	u := b.base + path
	b.do(chromedp.Navigate(u), chromedp.WaitVisible(chromedp.CSS(sel)))
}

// view opens the console view of a fragment (#/workflows …) by a full load.
func (b *browser) view(fragment, sel string) {
	b.t.Helper()
	b.page++
	b.do(chromedp.Navigate(fmt.Sprintf("%s/?load=%d%s", b.base, b.page, fragment)), chromedp.WaitVisible(chromedp.CSS(sel)))
}

// text returns the visible text of the first element matching sel.
func (b *browser) text(sel string) string {
	b.t.Helper()
	return run(b, chromedp.Text(chromedp.CSS(sel)))
}

// click clicks sel and waits for then.
func (b *browser) click(sel, then string) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(sel)), chromedp.WaitVisible(chromedp.CSS(then)))
}

// screenshot keeps the viewport as testdata/screenshots/name.png.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	png := run(b, chromedp.CaptureScreenshot())
	if len(png) < 1000 || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		b.t.Fatalf("screenshot %s: %d bytes, not a PNG", name, len(png))
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "screenshots"))
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// setUser types name into the console's user field.
func (b *browser) setUser(name string) {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.CSS("#user-name"), name), chromedp.Click(chromedp.CSS("#user-set")),
		chromedp.Poll[chromedp.Void](`document.getElementById("message").textContent.includes(`+jsString("Acting as "+name)+`) &&
			document.body.dataset.loaded === "true"`))
}

// fitsWidth reports whether the page has no horizontal overflow.
func (b *browser) fitsWidth() (scrollWidth, innerWidth int) {
	b.t.Helper()
	v := run(b, chromedp.Evaluate[[]int](`[document.scrollingElement.scrollWidth, window.innerWidth]`))
	return v[0], v[1]
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
