package graph

import "testing"

func TestFontCoversPrintableASCII(t *testing.T) {
	t.Parallel()
	if len(glyphs) != len(glyphArt) {
		t.Errorf("%d of %d glyphs parse", len(glyphs), len(glyphArt))
	}
	seen := map[glyph]rune{}
	for r := rune(' '); r <= '~'; r++ {
		g, ok := glyphs[r]
		if !ok {
			t.Errorf("no glyph for %q", r)
			continue
		}
		blank := g == glyph{}
		if blank != (r == ' ') {
			t.Errorf("glyph %q blank: %v", r, blank)
		}
		if other, dup := seen[g]; dup {
			t.Errorf("glyphs %q and %q are the same", r, other)
		}
		seen[g] = r
	}
	if glyphFor('é') != fallback || fallback == (glyph{}) {
		t.Error("characters outside the font should get the box")
	}
}

func TestParseGlyph(t *testing.T) {
	t.Parallel()
	tests := []struct {
		art string
		ok  bool
	}{
		{"#.... .#... ..#.. ...#. ....# ..... #####", true},
		{"#.... .#... ..#.. ...#. ....# .....", false},             // six rows
		{"#.... .#... ..#.. ...#. ....# ..... ##### .....", false}, // eight rows
		{"#... .#... ..#.. ...#. ....# ..... #####", false},        // a short row
		{"#.... .#... ..#.. ...#. ....# ..x.. #####", false},       // a stray cell
	}
	for _, tt := range tests {
		g, ok := parseGlyph(tt.art)
		if ok != tt.ok {
			t.Errorf("parseGlyph(%q) ok = %v", tt.art, ok)
		}
		if ok && (g[0] != 0b10000 || g[4] != 0b00001 || g[5] != 0 || g[6] != 0b11111) {
			t.Errorf("parseGlyph(%q) = %05b", tt.art, g)
		}
	}
}
