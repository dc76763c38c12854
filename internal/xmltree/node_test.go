package xmltree_test

import (
	"testing"

	"github.com/gozie/gozie/internal/xmltree"
)

func TestCheckAttrs(t *testing.T) {
	t.Parallel()
	const doc = "\n<e xmlns=\"uri:t\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"uri:t t.xsd\" " +
		"xsi:noNamespaceSchemaLocation=\"t.xsd\" name=\"n\" size=\"\"/>"
	tests := []struct {
		name               string
		required, optional []string
		msg                string // "" when the attributes are accepted
	}{
		{"all named", []string{"name"}, []string{"size"}, ""},
		{"all required", []string{"size", "name"}, nil, ""},
		{"extra attribute", []string{"name"}, nil, `attribute "size" is not allowed`},
		{"none allowed", nil, nil, `attribute "name" is not allowed`},
		{"missing required", []string{"name", "kind"}, []string{"size"}, `attribute "kind" is required`},
		{"optional may be absent", []string{"name"}, []string{"size", "kind"}, ""},
	}
	root := mustRead(t, doc)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := root.CheckAttrs(tt.required, tt.optional)
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("CheckAttrs: %v", err)
				}
				return
			}
			wantError(t, err, xmltree.Invalid, "line 2 <e>", tt.msg)
		})
	}
}

// TestCheckAttrsOtherNamespace: an attribute in a namespace other than the schema
// instance's is refused, named with its namespace, even where every unqualified attribute
// is allowed.
func TestCheckAttrsOtherNamespace(t *testing.T) {
	t.Parallel()
	root := mustRead(t, "<e xmlns:x=\"uri:x\"\n x:other=\"q\" name=\"n\"/>")
	wantError(t, root.CheckAttrs([]string{"name"}, nil), xmltree.Invalid, "line 1 <e>", `attribute "other" in namespace "uri:x" is not allowed`)
}

func TestAttr(t *testing.T) {
	t.Parallel()
	root := mustRead(t, `<e xmlns:x="uri:x" x:name="qualified" empty=""/>`)
	tests := []struct {
		name      string
		wantValue string
		wantOK    bool
	}{
		{"empty", "", true},
		{"name", "", false}, // only x:name exists, and Attr reads unqualified names
		{"missing", "", false},
	}
	for _, tt := range tests {
		if v, ok := root.Attr(tt.name); v != tt.wantValue || ok != tt.wantOK {
			t.Errorf("Attr(%q) = %q, %v; want %q, %v", tt.name, v, ok, tt.wantValue, tt.wantOK)
		}
	}
}

func TestTextAndElementsOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		doc          string
		text         string // want from Text, if textWhere is ""
		textWhere    string // where Text fails
		elementsOnly bool   // whether ElementsOnly accepts it
	}{
		{"kept as written", "<e>  a b\n</e>", "  a b\n", "", false},
		{"empty", "<e/>", "", "", true},
		{"blank", "<e> \n\t</e>", " \n\t", "", true},
		{"escaped", "<e>&lt;x&gt; &#65;</e>", "<x> A", "", false},
		{"child element", "<e>\n<f/></e>", "", "line 2 <f>", true},
		{"child and text", "<e>t<f/></e>", "", "line 1 <f>", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := mustRead(t, tt.doc)
			text, err := root.Text()
			if tt.textWhere == "" {
				if err != nil || text != tt.text {
					t.Errorf("Text() = %q, %v; want %q", text, err, tt.text)
				}
			} else {
				wantError(t, err, xmltree.Invalid, tt.textWhere, "no element is allowed inside <e>")
			}
			err = root.ElementsOnly()
			if tt.elementsOnly {
				if err != nil {
					t.Errorf("ElementsOnly: %v", err)
				}
			} else {
				wantError(t, err, xmltree.Invalid, "line 1 <e>", "text is not allowed inside <e>")
			}
		})
	}
}
