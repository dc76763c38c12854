package xmltree_test

import (
	"encoding/xml"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/xmltree"
)

// nested returns depth elements nested one per line: <e1>\n<e2>\n...</e2>\n</e1>.
func nested(depth int) string {
	var b strings.Builder
	for i := 1; i <= depth; i++ {
		b.WriteString("<e>\n")
	}
	for i := 1; i <= depth; i++ {
		b.WriteString("</e>\n")
	}
	return b.String()
}

func TestReadRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		doc      string
		maxDepth int
		where    string
		msg      string
	}{
		{"doctype", "<?xml version=\"1.0\"?>\n<!DOCTYPE a [<!ENTITY x \"y\">]>\n<a>&x;</a>", testDepth,
			"line 2", "DOCTYPE and other directives are not allowed"},
		{"one level too deep", nested(4), 3, "line 4", "elements nested too deeply"},
		{"far too deep", nested(200), 64, "line 65", "elements nested too deeply"},
		{"no depth at all", "<a/>", 0, "line 1", "elements nested too deeply"},
		{"two roots", "<a/>\n\n<b/>", testDepth, "line 3", "more than one root element"},
		{"text after the root", "<a/>\n x", testDepth, "line 1", "text outside the root element"},
		{"text before the root", "x<a/>", testDepth, "line 1", "text outside the root element"},
		{"no input", "", testDepth, "", "empty document"},
		{"only white space and a comment", " \n<!-- nothing -->\n", testDepth, "", "empty document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root, err := xmltree.Read([]byte(tt.doc), tt.maxDepth)
			if root != nil {
				t.Errorf("Read returned a root with its error")
			}
			wantError(t, err, xmltree.Malformed, tt.where, tt.msg)
		})
	}
}

func TestReadDepthLimitIsInclusive(t *testing.T) {
	t.Parallel()
	for _, depth := range []int{1, 2, 32, 64} {
		root, err := xmltree.Read([]byte(nested(depth)), depth)
		if err != nil {
			t.Fatalf("depth %d at limit %d: %v", depth, depth, err)
		}
		got := 1
		for n := root; len(n.Children()) > 0; n = n.Children()[0] {
			got++
		}
		if got != depth {
			t.Errorf("tree of %d levels read as %d", depth, got)
		}
		_, err = xmltree.Read([]byte(nested(depth+1)), depth)
		wantError(t, err, xmltree.Malformed, "line "+strconv.Itoa(depth+1), "elements nested too deeply")
	}
}

func TestReadDecoderErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		doc   string
		cause string // in the decoder's error text
	}{
		{"unclosed", "<a><b></a>", "element <b> closed by </a>"},
		{"truncated", "<a>", "unexpected EOF"},
		{"undefined entity", "<a>&nbsp;</a>", "invalid character entity"},
		{"bad attribute", "<a b=c/>", "unquoted or missing attribute value"},
		{"unknown encoding", "<?xml version=\"1.0\" encoding=\"EBCDIC\"?><a/>", `unsupported encoding "EBCDIC"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := xmltree.Read([]byte(tt.doc), testDepth)
			wantError(t, err, xmltree.Malformed, "", "malformed XML")
			if !strings.Contains(err.Error(), tt.cause) || !strings.HasPrefix(err.Error(), "malformed XML: ") {
				t.Errorf("error %q does not read as malformed XML: ...%s...", err, tt.cause)
			}
			if errors.Unwrap(err) == nil {
				t.Errorf("error %v hides the decoder's error", err)
			}
		})
	}
	var syntax *xml.SyntaxError
	if _, err := xmltree.Read([]byte("<a><b></a>"), testDepth); !errors.As(err, &syntax) || syntax.Line != 1 {
		t.Errorf("a syntax error unwraps to %v, want an *xml.SyntaxError on line 1", err)
	}
}

func TestReadTree(t *testing.T) {
	t.Parallel()
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment before the root -->
<r xmlns="uri:t" xmlns:s="uri:s">
  <a>one</a><?pi dropped?>
  <!-- dropped -->
  <s:b
     k="v"><![CDATA[<two>]]> &amp; three</s:b>
  <c/>
</r>
`
	root := mustRead(t, doc)
	type seen struct {
		space, local string
		line         int
	}
	want := []seen{{"uri:t", "r", 3}, {"uri:t", "a", 4}, {"uri:s", "b", 6}, {"uri:t", "c", 8}}
	got := []seen{{root.Name().Space, root.Name().Local, root.Line()}}
	for _, c := range root.Children() {
		got = append(got, seen{c.Name().Space, c.Name().Local, c.Line()})
	}
	if len(got) != len(want) {
		t.Fatalf("elements %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("element %d is %v, want %v", i, got[i], want[i])
		}
	}
	if w := root.Children()[1].Where(); w != "line 6 <b>" {
		t.Errorf("Where() = %q, want %q", w, "line 6 <b>")
	}
	text, err := root.Children()[1].Text()
	if err != nil || text != "<two> & three" {
		t.Errorf("Text() = %q, %v; want %q", text, err, "<two> & three")
	}
	if v, ok := root.Children()[1].Attr("k"); !ok || v != "v" {
		t.Errorf(`Attr("k") = %q, %v`, v, ok)
	}
}

func TestReadCharsets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  []byte
		want string
	}{
		{"no declaration", []byte("<a>caf\u00e9</a>"), "caf\u00e9"},
		{"utf-8", []byte("<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>caf\u00e9</a>"), "caf\u00e9"},
		{"us-ascii", []byte("<?xml version=\"1.0\" encoding=\"US-ASCII\"?><a>cafe</a>"), "cafe"},
		{"iso-8859-1", []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>caf\xe9 \xa3</a>"), "caf\u00e9 \u00a3"},
		{"latin1", []byte("<?xml version=\"1.0\" encoding=\"latin1\"?><a>\xfc</a>"), "\u00fc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root, err := xmltree.Read(tt.doc, testDepth)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := root.Text(); got != tt.want {
				t.Errorf("text %q, want %q", got, tt.want)
			}
		})
	}
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	cause := errors.New("cause")
	tests := []struct {
		err  *xmltree.Error
		want string
	}{
		{&xmltree.Error{Kind: xmltree.Invalid, Where: "line 2 <a>", Msg: "bad"}, "line 2 <a>: bad"},
		{&xmltree.Error{Kind: xmltree.Malformed, Msg: "empty document"}, "empty document"},
		{&xmltree.Error{Kind: xmltree.Malformed, Msg: "malformed XML", Err: cause}, "malformed XML: cause"},
		{&xmltree.Error{Kind: xmltree.Malformed, Where: "line 1", Msg: "m", Err: cause}, "line 1: m: cause"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	if !errors.Is(tests[2].err, cause) {
		t.Errorf("the cause is not reachable through Unwrap")
	}
	for k, want := range map[xmltree.Kind]string{xmltree.Malformed: "malformed", xmltree.Invalid: "invalid", 0: "unknown"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}
