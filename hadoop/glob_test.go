package hadoop

import (
	"errors"
	"slices"
	"testing"
)

func TestExpandBraces(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{in: "/a/b", want: []string{"/a/b"}},
		{in: "/a/{b,c}/d", want: []string{"/a/b/d", "/a/c/d"}},
		{in: "/{a,b{c,d}}e", want: []string{"/ae", "/bce", "/bde"}},
		{in: "/x/{2024-01-0{1,2},2023-12-31}", want: []string{"/x/2024-01-01", "/x/2024-01-02", "/x/2023-12-31"}},
		{in: `/lit\{a,b\}`, want: []string{`/lit\{a,b\}`}},
		{in: "/[{]x", want: []string{"/[{]x"}},
		{in: "/{}", want: []string{"/"}},
		{in: "/{a,b", wantErr: true},
		{in: "/a,b}", wantErr: true},
	}
	for _, tt := range tests {
		got, err := expandBraces(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("expandBraces(%q) err = %v", tt.in, err)
			continue
		}
		if !tt.wantErr && !slices.Equal(got, tt.want) {
			t.Errorf("expandBraces(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	// Exponential patterns are cut off, not expanded.
	bomb := ""
	for range 20 {
		bomb += "{a,b}"
	}
	if _, err := expandBraces("/" + bomb); !errors.Is(err, ErrBadPattern) {
		t.Errorf("brace bomb: err = %v", err)
	}
}

func TestUnescape(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{`a\*b`: "a*b", `plain`: "plain", `x\\y`: `x\y`, `end\`: `end\`} {
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzExpandBraces(f *testing.F) {
	for _, s := range []string{"/a/{b,c}/d", "/{a,b{c,d}}e", `/\{x`, "/[{]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := expandBraces(s)
		if err != nil {
			return
		}
		if len(out) == 0 || len(out) > 2*maxGlobExpansions {
			t.Fatalf("expandBraces(%q) gave %d patterns", s, len(out))
		}
	})
}
