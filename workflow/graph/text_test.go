package graph

import (
	"image"
	"math"
	"testing"

	"golang.org/x/image/font"
)

// inkBounds returns the columns and rows of img that hold a pixel other
// than the background, and how many such pixels there are.
func inkBounds(img *image.RGBA) (r image.Rectangle, n int) {
	first := true
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			i := img.PixOffset(x, y)
			if img.Pix[i] == colorBackground.R && img.Pix[i+1] == colorBackground.G && img.Pix[i+2] == colorBackground.B {
				continue
			}
			n++
			p := image.Rect(x, y, x+1, y+1)
			if first {
				r, first = p, false
			} else {
				r = r.Union(p)
			}
		}
	}
	return r, n
}

// drawText draws s alone in st on a fresh canvas at scale, starting at x
// = 10 units, and returns the image.
func drawText(st textStyle, scale float64, s string) *image.RGBA {
	w := int((st.width(s) + 20) * scale)
	c := newCanvas(w, int(4*st.size*scale), scale, colorBackground)
	c.text(st, 10, 2*st.size, s, colorText, alignStart)
	return c.img
}

func TestPNGGlyphsAreReal(t *testing.T) {
	t.Parallel()
	// The old bitmap font drew g like 9. In the Go font they differ: in
	// shape, and g reaches below the baseline.
	g, nine := drawText(nameText, DefaultPNGScale, "g"), drawText(nameText, DefaultPNGScale, "9")
	gb, gn := inkBounds(g)
	nb, nn := inkBounds(nine)
	if gn == 0 || nn == 0 {
		t.Fatalf("no ink: g %d pixels, 9 %d pixels", gn, nn)
	}
	diff := 0
	for i := range g.Pix {
		if g.Pix[i] != nine.Pix[i] {
			diff++
		}
	}
	if diff < 40 {
		t.Errorf("g and 9 differ in %d bytes", diff)
	}
	baseline := int(math.Round((2*nameText.size + nameText.capHeight()/2) * DefaultPNGScale))
	if gb.Max.Y <= baseline+2 || nb.Max.Y > baseline+1 {
		t.Errorf("g ink ends at row %d and 9 at row %d; the baseline is row %d: g should descend, 9 not", gb.Max.Y, nb.Max.Y, baseline)
	}
	if gb.Min.Y <= nb.Min.Y {
		t.Errorf("g's top (row %d) is not below 9's (row %d): x-height against figure height", gb.Min.Y, nb.Min.Y)
	}
	// Bold is another font, and wider.
	if b, r := (textStyle{bold: true, size: 11}).width("mkdir"), nameText.width("mkdir"); b <= r {
		t.Errorf("bold mkdir %v wide, regular %v", b, r)
	}
}

func TestPNGTextInkMatchesMeasure(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		st textStyle
		s  string
	}{
		{nameText, "mkdir-load"},
		{nameText, "HIVE2 WWW"},
		{typeText, "shell"},
		{titleText, "nightly-hive  0000001-250127091857123-gozie-test-W  KILLED"},
	} {
		const scale = DefaultPNGScale
		img := drawText(tc.st, scale, tc.s)
		ink, n := inkBounds(img)
		if n == 0 {
			t.Fatalf("%q: no ink", tc.s)
		}
		// What the font says the ink spans, from its glyph outlines.
		face, err := tc.st.face(scale)
		if err != nil {
			t.Fatal(err)
		}
		bounds, adv := font.BoundString(face, tc.s)
		wantInk := float64(bounds.Max.X-bounds.Min.X) / 64
		measured := tc.st.width(tc.s) * scale
		t.Logf("%q: ink %d pixels wide from column %d, font bounds %.2f, measured advance %.2f",
			tc.s, ink.Dx(), ink.Min.X, wantInk, measured)
		if d := math.Abs(float64(ink.Dx()) - wantInk); d > 2 {
			t.Errorf("%q: ink %d pixels wide, the font's bounds %.1f", tc.s, ink.Dx(), wantInk)
		}
		// The layout's measure is the font's advance; the ink is narrower
		// only by the side bearings of the end letters.
		if d := math.Abs(float64(adv)/64 - measured); d > 0.5 {
			t.Errorf("%q: measured %.2f pixels, the face advances %.2f", tc.s, measured, float64(adv)/64)
		}
		if d := measured - float64(ink.Dx()); d < -1 || d > 2.5 {
			t.Errorf("%q: ink %d pixels wide, measured advance %.1f", tc.s, ink.Dx(), measured)
		}
		if left := float64(ink.Min.X) - 10*scale; left < -1 || left > 2.5 {
			t.Errorf("%q: ink starts %.1f pixels from the pen", tc.s, left)
		}
	}
}

func TestLayoutTextWidths(t *testing.T) {
	t.Parallel()
	if w := nameText.width(""); w != 0 {
		t.Errorf("empty text %v wide", w)
	}
	// A proportional font: i is narrower than m, and widths add up.
	if i, m := nameText.width("iiii"), nameText.width("mmmm"); i >= m/2 {
		t.Errorf("iiii %v wide, mmmm %v", i, m)
	}
	if a, b, ab := nameText.width("load"), nameText.width("-data"), nameText.width("load-data"); math.Abs(a+b-ab) > 0.5 {
		t.Errorf("load %v + -data %v != load-data %v", a, b, ab)
	}
	// Width scales with size.
	if a, b := (textStyle{size: 10}).width("shell"), (textStyle{size: 20}).width("shell"); math.Abs(2*a-b) > 1e-9 {
		t.Errorf("shell at 10: %v, at 20: %v", a, b)
	}
	// Runes outside the font still take room (the missing-glyph box).
	if w := nameText.width("作业"); w <= 0 {
		t.Errorf("CJK text %v wide", w)
	}
	if h := nameText.capHeight(); h < 0.6*nameText.size || h > 0.8*nameText.size {
		t.Errorf("cap height %v of a %v font", h, nameText.size)
	}
}

func TestLayoutNodesFitTheirLabels(t *testing.T) {
	t.Parallel()
	g := sample(t)
	for _, n := range g.Nodes {
		room := n.W - 8
		if n.Shape == ShapeDiamond {
			room = n.W * 0.8 // the label crosses the diamond's middle
		}
		if w := nameText.width(n.Label); w > room {
			t.Errorf("node %s: label %v wide in a %v wide %v", n.Name, w, n.W, n.Shape)
		}
		if w := typeText.width(n.Type); w > room {
			t.Errorf("node %s: type %v wide in a %v wide box", n.Name, w, n.W)
		}
	}
}
