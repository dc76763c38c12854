package graph

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/store"
)

var pictureDir = flag.String("picture-dir", "", "write the pictures of TestRenderFailedRun (PNG and SVG) to this directory, to look at")

// failedRun is a workflow with a decision, a fork and join and a kill
// node, and a run of it that took the decision's first case, forked, and
// failed in load through its error transition to "fail".
func failedRun(t *testing.T) (*Graph, []store.WorkflowAction, Options) {
	t.Helper()
	app := load(t, wf("prep", shellAction("prep", "route", "fail")+
		decision("route", "report", "split")+
		fork("split", "load", "check")+fsAction("load", "merge", "fail")+fsAction("check", "merge", "fail")+
		join("merge", "report")+shellAction("report", "end", "fail")+
		kill("fail")+end("end")))
	rows := []store.WorkflowAction{
		row(StartName, store.ActionOK, "prep"),
		row("prep", store.ActionOK, "route"),
		row("route", store.ActionOK, "split"),
		row("split", store.ActionOK, "load,check"),
		row("load", store.ActionError, "fail"),
		row("check", store.ActionKilled, ""),
		row("fail", store.ActionOK, ""),
	}
	opts := Options{Title: "failing-wf  0000007-250127091857123-gozie-test-W  KILLED"}
	return layout(t, app, rows, opts), rows, opts
}

func TestRenderFailedRun(t *testing.T) {
	t.Parallel()
	g, rows, opts := failedRun(t)
	checkLayout(t, load(t, wf("prep", shellAction("prep", "route", "fail")+
		decision("route", "report", "split")+
		fork("split", "load", "check")+fsAction("load", "merge", "fail")+fsAction("check", "merge", "fail")+
		join("merge", "report")+shellAction("report", "end", "fail")+
		kill("fail")+end("end"))), rows, g, opts)

	// The Graph: the kill node, failed; into it only the error edge the
	// run took; the taken path through the decision and the fork.
	var fail *Node
	for i := range g.Nodes {
		if g.Nodes[i].Name == "fail" {
			fail = &g.Nodes[i]
		}
	}
	if fail == nil || fail.State != StateFailed || fail.Status != store.ActionOK {
		t.Fatalf("kill node: %+v", fail)
	}
	var taken, into []string
	for _, e := range g.Edges {
		if e.Taken {
			taken = append(taken, e.From+"->"+e.To)
		}
		if e.To == "fail" {
			into = append(into, e.From+"->"+e.To+":"+string(e.Kind))
		}
	}
	slices.Sort(taken)
	if want := []string{":start:->prep", "load->fail", "prep->route", "route->split", "split->check", "split->load"}; !slices.Equal(taken, want) {
		t.Errorf("taken edges %v, want %v", taken, want)
	}
	if want := []string{"load->fail:error"}; !slices.Equal(into, want) {
		t.Errorf("edges into the kill node %v, want %v", into, want)
	}

	// The SVG says the same in its markup.
	var b bytes.Buffer
	if err := SVG(&b, g); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, want := range []string{
		`<g class="node" data-name="fail" data-kind="kill" data-status="OK" data-state="failed"><title>fail (kill): OK</title>`,
		`<g class="node" data-name="load" data-kind="action" data-type="fs" data-status="ERROR" data-state="failed"><title>load (fs): ERROR</title>`,
		`<g class="node" data-name="report" data-kind="action" data-type="shell" data-status="" data-state="not-reached"><title>report (shell): not reached</title>`,
		`<g class="edge" data-from="load" data-to="fail" data-kind="error" data-taken="true"><title>load → fail (error)</title>`,
		`<g class="edge" data-from="route" data-to="split" data-kind="case" data-taken="true">`,
		`<g class="edge" data-from="route" data-to="report" data-kind="default" data-taken="false">`,
		`stroke="` + hex(colorErrTaken) + `" stroke-width="2.2" stroke-linejoin="round" stroke-dasharray="5,3"/>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %s", want)
		}
	}
	if strings.Contains(svg, `data-from="check" data-to="fail"`) {
		t.Errorf("svg draws an error edge into the kill node that the run did not take")
	}

	// The PNG: the kill node filled red, the taken error edge dark red.
	img := Raster(g)
	s := PNGScale(g)
	if c := img.RGBAAt(int(insideLeft(fail).X*s), int(insideLeft(fail).Y*s)); c != StateFailed.Fill() {
		t.Errorf("kill node's pixel %v, want %s", c, hex(StateFailed.Fill()))
	}
	if n := countColor(img, colorErrTaken); n < 20 {
		t.Errorf("%d pixels of the taken error edge's colour", n)
	}
	if *pictureDir != "" {
		for name, img := range map[string]*image.RGBA{"failed-run.png": img, "sample.png": Raster(sample(t))} {
			var out bytes.Buffer
			if err := png.Encode(&out, img); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(*pictureDir, name), out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(*pictureDir, "failed-run.svg"), []byte(svg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// countColor counts the pixels of img that are exactly c.
func countColor(img *image.RGBA, c interface{ RGBA() (r, g, b, a uint32) }) int {
	r0, g0, b0, _ := c.RGBA()
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		if uint32(img.Pix[i])*0x101 == r0 && uint32(img.Pix[i+1])*0x101 == g0 && uint32(img.Pix[i+2])*0x101 == b0 {
			n++
		}
	}
	return n
}

func TestSVGForEmbedding(t *testing.T) {
	t.Parallel()
	g, _, _ := failedRun(t)
	var b bytes.Buffer
	if err := SVG(&b, g); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "<svg ") {
		t.Errorf("svg starts %.40q; inline SVG needs no XML declaration", b.String())
	}
	// Nothing external: no links, no style sheets, no fonts to fetch; no
	// ids to clash with a page's.
	for _, bad := range []string{"href", "url(", "@import", "<style", "<script", ` id="`} {
		if strings.Contains(b.String(), bad) {
			t.Errorf("svg contains %q", bad)
		}
	}
	dec := xml.NewDecoder(&b)
	nodes, edges := map[string]bool{}, map[string]bool{}
	var open []string // data-name or data-from->data-to of the groups being read
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("svg is not well-formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch {
			case tok.Name.Local == "svg":
				if attr["viewBox"] == "" || attr["width"] == "" || attr["height"] == "" || attr["font-family"] != svgFontFamily {
					t.Errorf("root attributes %v", attr)
				}
			case tok.Name.Local == "g" && attr["class"] == "node":
				nodes[attr["data-name"]] = true
				open = append(open, "node "+attr["data-name"]+" "+attr["data-status"])
				continue
			case tok.Name.Local == "g" && attr["class"] == "edge":
				if attr["data-taken"] != "true" && attr["data-taken"] != "false" {
					t.Errorf("edge %v: data-taken %q", attr, attr["data-taken"])
				}
				edges[attr["data-from"]+"->"+attr["data-to"]] = true
				open = append(open, "edge")
				continue
			case tok.Name.Local == "title" && len(open) > 0 && strings.HasPrefix(open[len(open)-1], "node "):
				var title string
				if err := dec.DecodeElement(&title, &tok); err != nil {
					t.Fatal(err)
				}
				f := strings.Fields(open[len(open)-1])
				if !strings.HasPrefix(title, f[1]+" (") {
					t.Errorf("node %s has the title %q", f[1], title)
				}
				open[len(open)-1] = "titled"
				continue
			}
			open = append(open, tok.Name.Local)
		case xml.EndElement:
			if len(open) > 0 {
				if last := open[len(open)-1]; strings.HasPrefix(last, "node ") {
					t.Errorf("%s has no <title>", last)
				}
				open = open[:len(open)-1]
			}
		}
	}
	for _, n := range g.Nodes {
		if !nodes[n.Name] {
			t.Errorf("no <g class=\"node\" data-name=%q>", n.Name)
		}
	}
	for _, e := range g.Edges {
		if !edges[e.From+"->"+e.To] {
			t.Errorf("no <g class=\"edge\"> for %s->%s", e.From, e.To)
		}
	}
}
