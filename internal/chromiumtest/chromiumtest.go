// Package chromiumtest starts the headless Chromium the console's browser
// tests drive through chromedp, in the server's tests and end to end.
package chromiumtest

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gozie/gozie/internal/testreq"
)

// Width and Height are the viewport of every browser test and screenshot:
// a common laptop screen.
const Width, Height = 1280, 800

// Program returns the path of Debian's Chromium (testreq: the test is
// skipped without it, and fails under CI, where make test installs it).
func Program(t testing.TB) string {
	t.Helper()
	return testreq.Program(t, "chromium", "chromium", "chromium-browser", "google-chrome")
}

// Start starts the Chromium at bin (see Program) headless at Width x
// Height and returns its tab's context, closed when the test ends.
func Start(t testing.TB, bin string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.Headless,
		chromedp.DisableGPU, chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(Width, Height))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first run starts the browser: it takes no deadline, which would
	// end the browser with it.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(Width, Height)); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	return ctx
}

// PageText is the start of the console's message and view, for failure
// messages.
func PageText(ctx context.Context) string {
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(c, chromedp.Evaluate[string](`(document.getElementById("message")||{}).outerHTML + (document.getElementById("view")||document.body).outerHTML`))
	if err != nil {
		return err.Error()
	}
	return s[:min(len(s), 3000)]
}
