package conf

import (
	"maps"
	"testing"
)

// TestParseOutputProperties reads an action's captured output: the syntax of
// ReadProperties, with a malformed \uXXXX escape kept as written instead of failing.
func TestParseOutputProperties(t *testing.T) {
	t.Parallel()
	text := "# comment\n! also\nplain=1\ncolon:2\nspace 3\n  indented = 4 \nmulti=a\\\n   b\\\n c\n" +
		"esc=tab\\there\\nline\nuni=\\u00e9\\uD83D\\uDE00\nkey\\ with\\=odd=5\nempty=\nlonely\ncrlf=6\r\n" +
		"bad=\\u12G4 and \\u00\nplain=7\n"
	got := ParseOutputProperties(text).Map()
	want := map[string]string{
		"plain": "7", "colon": "2", "space": "3", "indented": "4 ", "multi": "abc",
		"esc": "tab\there\nline", "uni": "é😀", "key with=odd": "5", "empty": "", "lonely": "", "crlf": "6",
		"bad": `\u12G4 and \u00`,
	}
	if !maps.Equal(got, want) {
		t.Errorf("ParseOutputProperties = %q, want %q", got, want)
	}
	if _, err := parseProperties([]rune("bad=\\u12G4\n"), "out", false); err == nil {
		t.Error("strict parse of a malformed escape succeeded")
	}
}

// TestParseOutputPropertiesJavaQuirks pins the cases where Java's Properties.load (and so
// wf:actionData in Oozie) reads a line differently from a naive line splitter.
func TestParseOutputPropertiesJavaQuirks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text, key, value string
		absent           []string
	}{
		// A '#' opening a logical line after a lone continuation starts a comment.
		{"\\\n#x=y\nk=v\n", "k", "v", []string{"#x"}},
		// A '#' inside a continued value is text.
		{"k=a\\\n#b\n", "k", "a#b", []string{"#b"}},
		// A blank line ends a continuation.
		{"k=a\\\n\nj=b\n", "k", "a", nil},
		// A byte-order mark is text, as for Properties.load(Reader).
		{"\uFEFFk=v\n", "\uFEFFk", "v", []string{"k"}},
		// A lone continuation followed by a blank line defines nothing.
		{"k=a\n \\\n\n", "k", "a", []string{""}},
	} {
		got := ParseOutputProperties(tc.text)
		if v, ok := got.Get(tc.key); !ok || v != tc.value {
			t.Errorf("%q: %s = %q (set %v), want %q; all %q", tc.text, tc.key, v, ok, tc.value, got.Map())
		}
		for _, name := range tc.absent {
			if _, ok := got.Get(name); ok {
				t.Errorf("%q: %q is defined; all %q", tc.text, name, got.Map())
			}
		}
	}
}
