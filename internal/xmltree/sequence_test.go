package xmltree_test

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/xmltree"
)

// testRules is a schema sequence: one <a>, any number of <b>, an optional <c>, one <d>.
var testRules = []xmltree.Rule{
	{Name: "a", Min: 1, Max: 1},
	{Name: "b", Min: 0, Max: xmltree.Unbounded},
	{Name: "c", Min: 0, Max: 1},
	{Name: "d", Min: 1, Max: 1},
}

func TestSequence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		body  string         // children of <r xmlns="uri:t">, which starts on line 1
		want  map[string]int // group sizes on success
		where string         // where the error is, on failure
		msg   string
	}{
		{"minimal", "<a/><d/>", map[string]int{"a": 1, "d": 1}, "", ""},
		{"full", "<a/><b/><b/><b/><c/><d/>", map[string]int{"a": 1, "b": 3, "c": 1, "d": 1}, "", ""},
		{"white space and comments", "\n <a/> <!-- c -->\n<d/>\n", map[string]int{"a": 1, "d": 1}, "", ""},
		{"no children", "", nil, "line 1 <r>", "element <a> is missing in <r>"},
		{"last one missing", "<a/>\n<b/>", nil, "line 1 <r>", "element <d> is missing in <r>"},
		{"first one missing", "\n<b/><d/>", nil, "line 2 <b>", "element <a> is expected before <b>"},
		{"out of order", "<a/><c/>\n<b/><d/>", nil, "line 2 <b>", "element <d> is expected before <b>"},
		{"after the last rule", "<a/><d/>\n<b/>", nil, "line 2 <b>", "element <b> is not allowed here in <r>"},
		{"unknown element", "<a/><z/><d/>", nil, "line 1 <z>", "unexpected element <z> in <r>, expected <b>, <c> or <d>"},
		{"unknown element first", "\n<z/><d/>", nil, "line 2 <z>", "unexpected element <z> in <r>, expected <a>"},
		{"unknown element after a full optional", "<a/><c/><z/>", nil, "line 1 <z>", "unexpected element <z> in <r>, expected <d>"},
		{"unknown element last", "<a/><d/><z/>", nil, "line 1 <z>", "unexpected element <z> at the end of <r>"},
		{"too many", "<a/>\n<a/><d/>", nil, "line 2 <a>", "too many <a> elements in <r>"},
		{"too many optional", "<a/><c/>\n<c/><d/>", nil, "line 2 <c>", "too many <c> elements in <r>"},
		{"other namespace", "<a/>\n<d xmlns=\"uri:u\"/>", nil, "line 2 <d>", `element is in namespace "uri:u", expected "uri:t"`},
		{"text", "<a/>x<d/>", nil, "line 1 <r>", "text is not allowed inside <r>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := mustRead(t, `<r xmlns="uri:t">`+tt.body+`</r>`)
			groups, err := root.Sequence("uri:t", testRules)
			if tt.msg != "" {
				if groups != nil {
					t.Errorf("Sequence returned groups with its error")
				}
				wantError(t, err, xmltree.Invalid, tt.where, tt.msg)
				return
			}
			if err != nil {
				t.Fatalf("Sequence: %v", err)
			}
			total := 0
			for _, r := range testRules {
				nodes := groups[r.Name]
				if len(nodes) != tt.want[r.Name] {
					t.Errorf("%d <%s>, want %d", len(nodes), r.Name, tt.want[r.Name])
				}
				for _, n := range nodes {
					if n.Name().Local != r.Name {
						t.Errorf("<%s> grouped under %q", n.Name().Local, r.Name)
					}
				}
				if first := groups.First(r.Name); (first == nil) != (len(nodes) == 0) || (first != nil && first != nodes[0]) {
					t.Errorf("First(%q) = %v, group %v", r.Name, first, nodes)
				}
				total += len(nodes)
			}
			if total != len(root.Children()) {
				t.Errorf("%d children grouped, %d read", total, len(root.Children()))
			}
		})
	}
}

func TestSequenceKeepsDocumentOrder(t *testing.T) {
	t.Parallel()
	root := mustRead(t, `<r><a/><b>1</b><b>2</b><b>3</b><d/></r>`)
	groups, err := root.Sequence("", testRules)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range groups["b"] {
		s, _ := b.Text()
		got = append(got, s)
	}
	if strings.Join(got, ",") != "1,2,3" {
		t.Errorf("<b> texts %v, want 1,2,3", got)
	}
	if groups.First("c") != nil {
		t.Errorf("First of an absent element is not nil")
	}
}
