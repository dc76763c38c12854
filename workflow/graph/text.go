package graph

import (
	"fmt"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Text is set in the Go fonts (Go Regular and Go Bold), which ship inside
// golang.org/x/image. The layout measures every string with the same
// font's advance widths and kerning that the PNG renderer draws it with,
// and the SVG names the same family (svgFontFamily) and pins each text's
// length to that measure, so labels fit their boxes in both.

// svgFontFamily is the SVG's font-family: the Go font first, then fonts of
// similar width. The SVG also sets each text's textLength, so a fallback
// font is squeezed or stretched to the width the layout measured.
const svgFontFamily = "Go, DejaVu Sans, sans-serif"

// textStyle is a font and size text is drawn in.
type textStyle struct {
	bold bool
	// size is the em size in layout units.
	size float64
}

// The styles of the drawing's texts.
var (
	nameText   = textStyle{size: 11}             // node names
	typeText   = textStyle{size: 9.5}            // action types, under the name
	labelText  = textStyle{size: 9.5}            // edge labels
	legendText = textStyle{size: 10}             // legend entries
	titleText  = textStyle{bold: true, size: 12} // the title
)

// goFont is one parsed Go font with what measuring needs.
type goFont struct {
	f *sfnt.Font
	// upem is the font's units per em; metrics are read at that many
	// "pixels" per em, so that they come out in font units, unrounded.
	upem fixed.Int26_6
	// capHeight is the height of capital letters, in ems.
	capHeight float64
	// ascii holds the advances of runes below 128, in ems.
	ascii [128]float64
	// bufs holds sfnt.Buffers: a Font is safe for concurrent use as long
	// as each goroutine brings its own buffer.
	bufs sync.Pool
}

// goFonts parses the two fonts once, on first use. The fonts are part of
// the binary, so failing to parse them is a programming error.
var goFonts = sync.OnceValue(func() [2]*goFont {
	return [2]*goFont{mustParse("Go Regular", goregular.TTF), mustParse("Go Bold", gobold.TTF)}
})

// mustParse parses one embedded font and reads its metrics.
func mustParse(name string, ttf []byte) *goFont {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic(fmt.Sprintf("parsing the embedded %s font: %v", name, err))
	}
	gf := &goFont{f: f, upem: fixed.I(int(f.UnitsPerEm()))}
	gf.bufs.New = func() any { return new(sfnt.Buffer) }
	var buf sfnt.Buffer
	m, err := f.Metrics(&buf, gf.upem, font.HintingNone)
	if err != nil {
		panic(fmt.Sprintf("reading the metrics of the embedded %s font: %v", name, err))
	}
	gf.capHeight = gf.ems(m.CapHeight)
	for r := range gf.ascii {
		gf.ascii[r] = gf.advance(&buf, rune(r))
	}
	return gf
}

// ems converts a length read at upem pixels per em to ems.
func (gf *goFont) ems(v fixed.Int26_6) float64 { return float64(v) / float64(gf.upem) }

// advance is r's advance width in ems (the missing-glyph box's for runes
// the font lacks, as drawn).
func (gf *goFont) advance(buf *sfnt.Buffer, r rune) float64 {
	if r >= 0 && int(r) < len(gf.ascii) && gf.ascii[r] > 0 {
		return gf.ascii[r]
	}
	i, err := gf.f.GlyphIndex(buf, r)
	if err != nil {
		return 0
	}
	a, err := gf.f.GlyphAdvance(buf, i, gf.upem, font.HintingNone)
	if err != nil {
		return 0
	}
	return gf.ems(a)
}

// width is the advance width of s in ems, kerning included, as
// font.Drawer lays it out.
func (gf *goFont) width(s string) float64 {
	buf := gf.bufs.Get().(*sfnt.Buffer)
	defer gf.bufs.Put(buf)
	w := 0.0
	prev, first := sfnt.GlyphIndex(0), true
	for _, r := range s {
		w += gf.advance(buf, r)
		g, err := gf.f.GlyphIndex(buf, r)
		if err != nil {
			g = 0
		}
		if !first {
			if k, err := gf.f.Kern(buf, prev, g, gf.upem, font.HintingNone); err == nil {
				w += gf.ems(k)
			}
		}
		prev, first = g, false
	}
	return w
}

// font returns the parsed font of st.
func (st textStyle) font() *goFont {
	fs := goFonts()
	if st.bold {
		return fs[1]
	}
	return fs[0]
}

// width is the advance width of s in layout units.
func (st textStyle) width(s string) float64 { return st.font().width(s) * st.size }

// capHeight is the height of the style's capital letters in layout units:
// a line of text centred on y has its baseline at y + capHeight/2.
func (st textStyle) capHeight() float64 { return st.font().capHeight * st.size }

// face returns a face that draws st at scale pixels per layout unit. A face
// is not safe for concurrent use: each canvas makes its own.
func (st textStyle) face(scale float64) (font.Face, error) {
	face, err := opentype.NewFace(st.font().f, &opentype.FaceOptions{
		Size: st.size * scale, DPI: 72, Hinting: font.HintingNone,
	})
	if err != nil {
		return nil, fmt.Errorf("making a %v-pixel Go font face: %w", st.size*scale, err)
	}
	return face, nil
}
