package jobs_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gozie/gozie/workflow/graph"
)

// fill is the SVG/DOT colour of a state.
func fill(s graph.State) string {
	c := s.Fill()
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

func TestGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true) // :start: OK → mkdir PREP; end and the kill node "fail" not reached

	// SVG: well-formed, every node named, coloured by the run.
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=graph&format=svg", "", "")
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("svg: %d %q %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	texts := svgText(t, r.body)
	for _, want := range []string{"start", "mkdir", "fs", "end", id, "fs-wf", "RUNNING"} {
		if !strings.Contains(texts, want) {
			t.Errorf("svg text lacks %q:\n%s", want, texts)
		}
	}
	if strings.Contains(texts, "fail") {
		t.Errorf("svg shows the kill node without show-kill")
	}
	for _, want := range []string{
		`<title>:start: (start): OK</title><ellipse cx=`,
		`<title>mkdir (fs): PREP</title><rect`,
		`<title>end (end): not reached</title><ellipse`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("svg lacks %s", want)
		}
	}
	for _, s := range []graph.State{graph.StateDone, graph.StateActive, graph.StateNotReached} {
		if strings.Count(r.body, `fill="`+fill(s)+`"`) < 2 { // a node and the legend
			t.Errorf("svg has no node filled with %s (%v)", fill(s), s)
		}
	}

	// show-kill draws the kill node and the error transition into it.
	r = f.call(t, http.MethodGet, "/oozie/v1/job/"+id+"?show=graph&format=svg&show-kill=true", "", "")
	if r.status != http.StatusOK || !strings.Contains(svgText(t, r.body), "fail") ||
		!strings.Contains(r.body, "<title>mkdir → fail (error)</title>") {
		t.Errorf("svg with show-kill: %d\n%s", r.status, r.body)
	}

	// DOT: plain text for Graphviz.
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=graph&format=dot", "", "")
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/plain;charset=UTF-8" ||
		!strings.HasPrefix(r.body, `digraph "fs-wf" {`) || !strings.Contains(r.body, `":start:" -> "mkdir"`) ||
		!strings.Contains(r.body, `"mkdir" -> "end"`) || strings.Contains(r.body, `"fail"`) {
		t.Errorf("dot: %d %q\n%s", r.status, r.header.Get("Content-Type"), r.body)
	}
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=graph&format=dot&show-kill=TRUE", "", "")
	if !strings.Contains(r.body, `"mkdir" -> "fail" [`) {
		t.Errorf("dot with show-kill:\n%s", r.body)
	}

	// PNG is the default format.
	for _, q := range []string{"?show=graph", "?show=graph&format=png&show-kill=false"} {
		r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+q, "", "")
		if r.status != http.StatusOK || r.header.Get("Content-Type") != "image/png" {
			t.Fatalf("%s: %d %q", q, r.status, r.header.Get("Content-Type"))
		}
		img, err := png.Decode(strings.NewReader(r.body))
		if err != nil {
			t.Fatalf("%s: decoding the png: %v", q, err)
		}
		if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
			t.Errorf("%s: png of %v", q, b)
		}
	}

	// Once killed, the action is drawn as failed.
	if r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=kill", "", ""); r.status != http.StatusOK {
		t.Fatalf("kill: %d %s", r.status, r.body)
	}
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=graph&format=svg", "", "")
	if !strings.Contains(r.body, `<title>mkdir (fs): KILLED</title><rect`) ||
		!strings.Contains(r.body, `fill="`+fill(graph.StateFailed)+`" stroke`) || !strings.Contains(svgText(t, r.body), "KILLED") {
		t.Errorf("svg of the killed job:\n%s", r.body)
	}
}

func TestGraphErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, false)
	const ghost = "0000099-250127091857123-gozie-test-W"
	onlyWF := "E0302: Invalid parameter [show=graph is only for workflow jobs]"
	tests := []struct {
		path      string
		status    int
		code, msg string
	}{
		{"/oozie/v2/job/" + id + "?show=graph&format=gif", 400, "E0303", "E0303: Invalid parameter value, [format] = [gif]"},
		{"/oozie/v2/job/" + id + "?show=graph&show-kill=yes", 400, "E0303", "E0303: Invalid parameter value, [show-kill] = [yes]"},
		{"/oozie/v2/job/" + ghost + "?show=graph", 404, "E0604", "E0604: Job does not exist [" + ghost + "]"},
		{"/oozie/v1/job/not-an-id?show=graph&format=svg", 404, "E0604", "E0604: Job does not exist [not-an-id]"},
		{"/oozie/v2/job/0000001-250127091857123-gozie-test-C?show=graph", 400, "E0302", onlyWF},
		{"/oozie/v2/job/0000001-250127091857123-gozie-test-C@1?show=graph&format=svg", 400, "E0302", onlyWF},
		{"/oozie/v1/job/0000001-250127091857123-gozie-test-B?show=graph", 400, "E0302", onlyWF},
		{"/oozie/v2/job/" + id + "@mkdir?show=graph", 400, "E0302", onlyWF},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			checkError(t, f.call(t, http.MethodGet, tt.path, "", ""), tt.status, tt.code, tt.msg)
		})
	}

	// A submitted, not started job has its graph, nothing reached.
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=graph&format=svg", "", "")
	if r.status != http.StatusOK || !strings.Contains(r.body, "<title>:start: (start): not reached</title>") {
		t.Errorf("graph of a PREP job: %d\n%s", r.status, r.body)
	}
}

// svgText checks that body is well-formed XML and returns its character data.
func svgText(t *testing.T, body string) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader([]byte(body)))
	var b strings.Builder
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return b.String()
		}
		if err != nil {
			t.Fatalf("svg is not well-formed: %v\n%s", err, body)
		}
		if cd, ok := tok.(xml.CharData); ok {
			b.Write(cd)
			b.WriteByte('\n')
		}
	}
}
