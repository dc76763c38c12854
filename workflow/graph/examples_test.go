package graph

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/workflow"
)

// TestExamples draws every workflow of the example apps (gozie's own, and
// Oozie's when testapps.OozieEnv names them) in the three formats, with and
// without kill nodes.
func TestExamples(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, dir string) {
		t.Parallel()
		// gozie's seven workflow apps hold eight workflows; Oozie's tree
		// holds more than ten.
		min := 8
		if dir != testapps.Dir() {
			min = 10
		}
		drawExamples(t, dir, min)
	})
}

// drawExamples draws every workflow*.xml under dir, of which there must be
// at least min.
func drawExamples(t *testing.T, dir string, min int) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasPrefix(d.Name(), "workflow") && strings.HasSuffix(d.Name(), ".xml") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < min {
		t.Fatalf("found only %d example workflows under %s, want at least %d", len(files), dir, min)
	}
	for _, path := range files {
		rel, _ := filepath.Rel(dir, path)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			def, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			app, err := workflow.Parse(def)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			for _, kill := range []KillNodes{KillReached, KillNone, KillAll} {
				opts := Options{Kill: kill}
				g := layout(t, app, nil, opts)
				checkLayout(t, app, nil, g, opts)
				renderAll(t, g)
			}
		})
	}
}

// renderAll draws g in every format and checks that the SVG is well-formed
// XML and the PNG decodes to its announced size.
func renderAll(t *testing.T, g *Graph) {
	t.Helper()
	var svg, img, dot bytes.Buffer
	if err := SVG(&svg, g); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(&svg)
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
	}
	if err := PNG(&img, g); err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(&img)
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	if w, h := PNGSize(g); cfg.Width != w || cfg.Height != h {
		t.Errorf("PNG is %dx%d, want %dx%d", cfg.Width, cfg.Height, w, h)
	}
	if err := DOT(&dot, g); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(dot.String(), "digraph ") || !strings.HasSuffix(dot.String(), "}\n") {
		t.Errorf("DOT is not one digraph:\n%s", dot.String())
	}
}
