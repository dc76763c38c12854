package clustertools

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"/bin/cat", []string{"/bin/cat"}},
		{"  wc   -l ", []string{"wc", "-l"}},
		{`tr ' ' '\t'`, []string{"tr", " ", `\t`}},
		{`grep "a b"c`, []string{"grep", "a bc"}},
		{`echo ''`, []string{"echo", ""}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := splitArgs(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzSplitArgs checks that splitting never panics and that a command line
// without quotes splits exactly at its blanks.
func FuzzSplitArgs(f *testing.F) {
	f.Add(`tr ' ' '\t'`)
	f.Add(`sort -k1,1 "-t	"`)
	f.Add("python mapper.py --flag")
	f.Fuzz(func(t *testing.T, s string) {
		got := splitArgs(s)
		if strings.ContainsAny(s, `'"`) {
			return
		}
		want := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
		if !slices.Equal(got, want) {
			t.Fatalf("splitArgs(%q) = %q, want %q", s, got, want)
		}
	})
}
