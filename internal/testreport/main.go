// Command testreport runs `go test -json` with its arguments and prints what
// a plain `go test` prints (a line per package, the output of failing tests),
// then the list of skipped tests grouped by their reason, so a green run says
// what it did not run. It exits with go test's status.
//
//	go run ./internal/testreport -race ./...
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

// key names a test of a package; Test is "" for the package itself.
type key struct{ pkg, test string }

// report accumulates the output of tests still running.
type report struct {
	out     io.Writer
	pending map[key][]string
	skips   map[string][]string // reason → tests
	failed  []string
}

func main() {
	args := append([]string{"test", "-json"}, os.Args[1:]...)
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	r := &report{out: os.Stdout, pending: map[key][]string{}, skips: map[string][]string{}}
	r.read(stdout)
	waitErr := cmd.Wait()
	r.summary()
	var exit *exec.ExitError
	switch {
	case errors.As(waitErr, &exit):
		os.Exit(exit.ExitCode())
	case waitErr != nil:
		fmt.Fprintln(os.Stderr, "testreport:", waitErr)
		os.Exit(2)
	case len(r.failed) > 0:
		os.Exit(1)
	}
}

// read consumes the event stream; a line that is not an event is printed as
// it is.
func (r *report) read(in io.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var ev event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || ev.Action == "" {
			fmt.Fprintln(r.out, sc.Text())
			continue
		}
		r.handle(ev)
	}
}

func (r *report) handle(ev event) {
	k := key{ev.Package, ev.Test}
	switch ev.Action {
	case "build-output":
		fmt.Fprint(r.out, ev.Output)
	case "output":
		r.pending[k] = append(r.pending[k], ev.Output)
	case "pass", "fail", "skip":
		lines := r.pending[k]
		delete(r.pending, k)
		if ev.Test == "" {
			r.packageDone(ev.Action, lines)
			return
		}
		switch ev.Action {
		case "fail":
			r.failed = append(r.failed, ev.Package+"."+ev.Test)
			for _, l := range lines {
				fmt.Fprint(r.out, l)
			}
		case "skip":
			reason := skipReason(lines)
			r.skips[reason] = append(r.skips[reason], shortPackage(ev.Package)+"."+ev.Test)
		}
	}
}

// packageDone prints a package's own output: all of it when it failed (a
// panic, a timeout, a failing TestMain), else its closing "ok" line.
func (r *report) packageDone(action string, lines []string) {
	if action == "fail" {
		for _, l := range lines {
			fmt.Fprint(r.out, l)
		}
		return
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "?") {
			fmt.Fprint(r.out, l)
		}
	}
}

// location is the "file_test.go:12: " that testing puts before a message.
var location = regexp.MustCompile(`^\s*[\w.-]+\.go:\d+: `)

// skipReason is what the test said when it skipped, without the framing
// lines and source locations, so that skips for the same reason group.
func skipReason(lines []string) string {
	var said []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		said = append(said, strings.TrimSpace(location.ReplaceAllString(l, "")))
	}
	if len(said) == 0 {
		return "(no reason given)"
	}
	return said[len(said)-1]
}

func shortPackage(p string) string { return strings.TrimPrefix(p, "github.com/gozie/gozie/") }

// summary prints the skipped tests by reason, most frequent first, and the
// failed tests.
func (r *report) summary() {
	reasons := make([]string, 0, len(r.skips))
	total := 0
	for reason, tests := range r.skips {
		reasons = append(reasons, reason)
		total += len(tests)
	}
	sort.Slice(reasons, func(i, j int) bool {
		a, b := r.skips[reasons[i]], r.skips[reasons[j]]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return reasons[i] < reasons[j]
	})
	fmt.Fprintln(r.out)
	if total == 0 {
		fmt.Fprintln(r.out, "skipped: nothing")
	} else {
		fmt.Fprintf(r.out, "skipped: %d tests\n", total)
		for _, reason := range reasons {
			tests := r.skips[reason]
			sort.Strings(tests)
			names := strings.Join(tests, ", ")
			if len(tests) > 3 {
				names = strings.Join(tests[:3], ", ") + fmt.Sprintf(", and %d more", len(tests)-3)
			}
			fmt.Fprintf(r.out, "  %4d  %s\n        (%s)\n", len(tests), reason, names)
		}
	}
	if len(r.failed) > 0 {
		sort.Strings(r.failed)
		fmt.Fprintf(r.out, "failed: %d tests\n", len(r.failed))
		for _, f := range r.failed {
			fmt.Fprintln(r.out, "  "+f)
		}
	}
}
