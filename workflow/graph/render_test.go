package graph

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/store"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// sample is a workflow with every kind of node, and a run of it that went
// through the fork, failed one path and was killed.
func sample(t *testing.T) *Graph {
	t.Helper()
	app := load(t, wf("prep", shellAction("prep", "split", "fail")+
		fork("split", "load", "check")+fsAction("load", "merge", "fail")+fsAction("check", "merge", "fail")+
		join("merge", "route")+decision("route", "end", "publish")+fsAction("publish", "end", "fail")+
		kill("fail")+end("end")))
	rows := []store.WorkflowAction{
		row(StartName, store.ActionOK, "prep"),
		row("prep", store.ActionOK, "split"),
		row("split", store.ActionOK, "load,check"),
		row("load", store.ActionRunning, ""),
		row("check", store.ActionUserRetry, ""),
	}
	return layout(t, app, rows, Options{Kill: KillAll, Title: `test-wf <run 1> & "more"`})
}

func TestSVGWellFormed(t *testing.T) {
	t.Parallel()
	g := sample(t)
	var b bytes.Buffer
	if err := SVG(&b, g); err != nil {
		t.Fatal(err)
	}
	// Well-formed: the decoder reads it to the end. Collect the text.
	dec := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	var texts []string
	var fills []string
	root := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, b.String())
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Space + " " + tok.Name.Local
			}
			for _, a := range tok.Attr {
				if a.Name.Local == "fill" {
					fills = append(fills, a.Value)
				}
			}
		case xml.CharData:
			texts = append(texts, string(tok))
		}
	}
	if root != "http://www.w3.org/2000/svg svg" {
		t.Errorf("root element %q", root)
	}
	all := strings.Join(texts, "\n")
	for _, n := range g.Nodes {
		if !strings.Contains(all, n.Label) {
			t.Errorf("SVG text lacks node %q", n.Label)
		}
	}
	if !strings.Contains(all, `test-wf <run 1> & "more"`) {
		t.Errorf("title not found unescaped in the decoded text")
	}
	// Each node's state colour fills something: the node and the legend.
	count := map[string]int{}
	for _, f := range fills {
		count[f]++
	}
	for _, n := range g.Nodes {
		if count[hex(n.State.Fill())] < 2 {
			t.Errorf("node %s: fill %s used %d times", n.Name, hex(n.State.Fill()), count[hex(n.State.Fill())])
		}
	}
	for _, s := range []State{StateDone, StateActive, StateWaiting, StateNotReached} {
		if count[hex(s.Fill())] < 2 {
			t.Errorf("state %v has no node drawn in %s", s, hex(s.Fill()))
		}
	}
}

// insideLeft is a point inside node n, left of its text and clear of its
// outline.
func insideLeft(n *Node) Point {
	inset := map[Shape]float64{ShapeBox: 4, ShapeBar: 4, ShapeEllipse: 8, ShapeOctagon: 5, ShapeDiamond: 12}[n.Shape]
	return Point{n.X - n.W/2 + inset, n.Y}
}

func TestPNG(t *testing.T) {
	t.Parallel()
	g := sample(t)
	var b bytes.Buffer
	if err := PNG(&b, g); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatalf("decoding the PNG: %v", err)
	}
	w, h := PNGSize(g)
	if got := img.Bounds().Size(); got != (image.Point{w, h}) || w != int(g.Width*DefaultPNGScale) || h != int(g.Height*DefaultPNGScale) {
		t.Errorf("PNG is %v, want %dx%d (%vx%v at scale %v)", got, w, h, g.Width, g.Height, DefaultPNGScale)
	}
	same := func(c color.Color, want color.RGBA) bool {
		r, gg, bb, _ := c.RGBA()
		return uint8(r>>8) == want.R && uint8(gg>>8) == want.G && uint8(bb>>8) == want.B
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		p := insideLeft(n)
		if c := img.At(int(p.X*DefaultPNGScale), int(p.Y*DefaultPNGScale)); !same(c, n.State.Fill()) {
			t.Errorf("node %s: pixel at %v is %v, want its fill %s", n.Name, p, c, hex(n.State.Fill()))
		}
		// Its name is written: text-coloured pixels in the middle.
		ink := 0
		for x := int((n.X - n.W/4) * DefaultPNGScale); x < int((n.X+n.W/4)*DefaultPNGScale); x++ {
			for y := int((n.Y - n.H/2) * DefaultPNGScale); y < int((n.Y+n.H/2)*DefaultPNGScale); y++ {
				if same(img.At(x, y), colorText) {
					ink++
				}
			}
		}
		if ink < 10 {
			t.Errorf("node %s: %d text pixels", n.Name, ink)
		}
	}
	// Taken edges are dark: some pixel of the start edge's route is.
	var start *Edge
	for i := range g.Edges {
		if g.Edges[i].From == StartName {
			start = &g.Edges[i]
		}
	}
	mid := lerp(start.Points[0], start.Points[1], 0.5)
	if c := img.At(int(mid.X*DefaultPNGScale), int(mid.Y*DefaultPNGScale)); !same(c, colorTaken) {
		t.Errorf("middle of the taken start edge is %v, want %s", c, hex(colorTaken))
	}
}

func TestPNGOfHugeGraphIsBounded(t *testing.T) {
	t.Parallel()
	g := layout(t, load(t, chainApp(150)), nil, Options{Kill: KillAll})
	if g.Height*DefaultPNGScale <= MaxPNGSide {
		t.Fatalf("a %vx%v drawing does not test scaling down", g.Width, g.Height)
	}
	img := Raster(g)
	size := img.Bounds().Size()
	if size.X > MaxPNGSide || size.Y > MaxPNGSide || size.X*size.Y > MaxPNGPixels || size.X < 1 || size.Y < 1 {
		t.Errorf("PNG of a %vx%v drawing is %v", g.Width, g.Height, size)
	}
	// Something was drawn: node fills among the pixels.
	grey := StateNotReached.Fill()
	found := false
	for i := 0; i+3 < len(img.Pix) && !found; i += 4 {
		found = img.Pix[i] == grey.R && img.Pix[i+1] == grey.G && img.Pix[i+2] == grey.B
	}
	if !found {
		t.Error("no node colour in the scaled-down PNG")
	}
}

func TestDOTGolden(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := DOT(&b, sample(t)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "sample.dot")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("DOT differs from %s (run with -update to rewrite it)\n got:\n%s", path, b.String())
	}
}

func TestDOTQuoting(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`plain`:        `"plain"`,
		`say "hi"`:     `"say \"hi\""`,
		`back\slash`:   `"back\\slash"`,
		"two\nlines":   `"two\nlines"`,
		"crlf\r\nline": `"crlf\nline"`,
	} {
		if got := quote(in); got != want {
			t.Errorf("quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestRenderersReportWriteErrors(t *testing.T) {
	t.Parallel()
	g := sample(t)
	for name, render := range map[string]func(io.Writer, *Graph) error{"svg": SVG, "png": PNG, "dot": DOT} {
		if err := render(failingWriter{}, g); !errors.Is(err, errWrite) {
			t.Errorf("%s: error %v, want one wrapping the writer's", name, err)
		}
	}
}

var errWrite = errors.New("disk full")

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestLabelsKeepApart(t *testing.T) {
	t.Parallel()
	g := sample(t)
	var boxes []box
	for _, e := range g.Edges {
		if e.Label == "" {
			continue
		}
		// Two units of room around each, so labels never touch.
		w, h := labelBox(e.Label)
		boxes = append(boxes, box{e.LabelAt.X - w/2, e.LabelAt.Y - h/2, e.LabelAt.X + w/2, e.LabelAt.Y + h/2})
	}
	if len(boxes) < 5 {
		t.Fatalf("only %d labels", len(boxes))
	}
	for i, a := range boxes {
		for _, b := range boxes[i+1:] {
			if a.overlaps(b) {
				t.Errorf("labels at %v and %v overlap", a, b)
			}
		}
		for _, n := range g.Nodes {
			if a.overlaps(box{n.X - n.W/2, n.Y - n.H/2, n.X + n.W/2, n.Y + n.H/2}) {
				t.Errorf("label at %v covers node %s", a, n.Name)
			}
		}
	}
}
