package yarn

import (
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

func TestActionTag(t *testing.T) {
	t.Parallel()
	keys := []string{"0000012-231121153000000-gozie-W@extract@1", "", "Ünïcode key", strings.Repeat("k", 10000)}
	seen := map[string]bool{}
	for _, k := range keys {
		tag := ActionTag(k)
		if tag != ActionTag(k) {
			t.Fatalf("ActionTag(%q) is not deterministic", k)
		}
		sum := sha512.Sum384([]byte(k))
		if want := "gozie-" + hex.EncodeToString(sum[:])[:64]; tag != want {
			t.Errorf("ActionTag(%q) = %q, want %q", k, tag, want)
		}
		if len(tag) > MaxTagLength || strings.ToLower(tag) != tag {
			t.Errorf("ActionTag(%q) = %q breaks YARN's rules", k, tag)
		}
		if err := ValidateTags([]string{tag}); err != nil {
			t.Errorf("ValidateTags(ActionTag(%q)): %v", k, err)
		}
		if seen[tag] {
			t.Errorf("two keys share tag %q", tag)
		}
		seen[tag] = true
	}
}

func TestValidateTags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		tags []string
		ok   bool
	}{
		{"none", nil, true},
		{"ten", strings.Split("a,b,c,d,e,f,g,h,i,j", ","), true},
		{"eleven", strings.Split("a,b,c,d,e,f,g,h,i,j,k", ","), false},
		{"100 chars", []string{strings.Repeat("x", 100)}, true},
		{"101 chars", []string{strings.Repeat("x", 101)}, false},
		{"upper case is fine", []string{"Gozie-X"}, true},
		{"space is printable", []string{"a b"}, true},
		{"tab", []string{"a\tb"}, false},
		{"non-ASCII", []string{"café"}, false},
		{"comma", []string{"a,b"}, false},
		{"empty", []string{""}, false},
	}
	for _, tc := range tests {
		err := ValidateTags(tc.tags)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrInvalidTag)) {
			t.Errorf("%s: ValidateTags = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

func TestChunkTags(t *testing.T) {
	t.Parallel()
	var tags []string
	for i := range 300 {
		tags = append(tags, ActionTag(strings.Repeat("k", i)))
	}
	chunks := chunkTags(tags)
	if len(chunks) < 2 {
		t.Fatalf("300 tags fit one chunk")
	}
	var all []string
	for _, c := range chunks {
		if n := len(strings.Join(c, ",")); n > maxTagQueryBytes {
			t.Errorf("chunk of %d bytes", n)
		}
		all = append(all, c...)
	}
	if strings.Join(all, ",") != strings.Join(tags, ",") {
		t.Error("chunks lost or reordered tags")
	}
}
