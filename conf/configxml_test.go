package conf

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestReadConfigurationXML(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		want  []string
		final []string
	}{
		{
			name: "basic",
			in: `<?xml version="1.0" encoding="UTF-8"?>
<configuration>
  <property><name>user.name</name><value>joe</value></property>
  <property>
    <name>oozie.wf.application.path</name>
    <value>hdfs://nn:8020/apps/wf</value>
    <description>where the app lives</description>
  </property>
</configuration>`,
			want: []string{"user.name", "joe", "oozie.wf.application.path", "hdfs://nn:8020/apps/wf"},
		},
		{
			name: "names trimmed values kept",
			in:   "<configuration><property><name>\n  a \t</name><value>  b \n</value></property></configuration>",
			want: []string{"a", "  b \n"},
		},
		{
			name: "entities cdata and comments",
			in: `<configuration><!-- c --><property><name>q</name>` +
				`<value>a &lt; b &amp;&amp; c &gt; d &#x41;<![CDATA[<raw>&]]></value></property></configuration>`,
			want: []string{"q", "a < b && c > d A<raw>&"},
		},
		{
			name:  "final and override",
			in:    `<configuration><property><name>f</name><value>1</value><final>true</final></property><property><name>f</name><value>2</value></property><property><name>g</name><value>1</value></property><property><name>g</name><value>2</value></property></configuration>`,
			want:  []string{"f", "1", "g", "2"},
			final: []string{"f"},
		},
		{
			name: "nested configuration",
			in:   `<configuration><property><name>a</name><value>1</value></property><configuration><property><name>b</name><value>2</value></property></configuration></configuration>`,
			want: []string{"a", "1", "b", "2"},
		},
		{
			name:  "attribute form",
			in:    `<configuration><property name=" a " value="1" final="true"/></configuration>`,
			want:  []string{"a", "1"},
			final: []string{"a"},
		},
		{
			name: "empty value and missing value",
			in:   `<configuration><property><name>e</name><value/></property><property><name>m</name><description>no value</description></property></configuration>`,
			want: []string{"e", ""},
		},
		{
			name: "unknown property children ignored",
			in:   `<configuration><property><name>a</name><value>1</value><source>core-site.xml</source><tag>x</tag></property></configuration>`,
			want: []string{"a", "1"},
		},
		{
			name: "namespaced root",
			in:   `<c:configuration xmlns:c="urn:x"><c:property><c:name>a</c:name><c:value>1</c:value></c:property></c:configuration>`,
			want: []string{"a", "1"},
		},
		{
			name: "latin-1 declaration",
			in:   "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><configuration><property><name>a</name><value>caf\xe9</value></property></configuration>",
			want: []string{"a", "café"},
		},
		{
			name: "empty configuration",
			in:   "<configuration/>",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := ReadConfigurationXML(strings.NewReader(tt.in), "job.xml")
			if err != nil {
				t.Fatalf("ReadConfigurationXML: %v", err)
			}
			if got := pairs(p); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			var final []string
			for _, e := range p.Entries() {
				if e.Final {
					final = append(final, e.Name)
				}
			}
			if !reflect.DeepEqual(final, tt.final) {
				t.Errorf("final = %q, want %q", final, tt.final)
			}
		})
	}
}

func TestReadConfigurationXMLErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		line int
		msg  string
	}{
		{"wrong root", "<?xml version=\"1.0\"?>\n<conf/>", 2, "top-level element <conf> is not <configuration>"},
		{"not a property", "<configuration>\n<property><name>a</name><value>1</value></property>\n<prop/>\n</configuration>", 3, "element <prop> is not <property>"},
		{"no name", "<configuration>\n<property>\n<value>1</value></property></configuration>", 2, "<property> without a <name>"},
		{"blank name", "<configuration><property><name> </name><value>1</value></property></configuration>", 1, "<property> without a <name>"},
		{"doctype", "<?xml version=\"1.0\"?>\n<!DOCTYPE configuration [<!ENTITY x \"y\">]>\n<configuration/>", 2, "XML directive <!DOCTYPE> is not allowed"},
		{"syntax", "<configuration>\n<property><name>a</name><value>1</valu></property>\n</configuration>", 2, "invalid XML"},
		{"element in value", "<configuration><property><name>a</name><value><b/></value></property></configuration>", 1, "unexpected element <b> inside <value>"},
		{"text outside", "<configuration/>\ntrailing", 2, "text outside the <configuration> element"},
		{"second root", "<configuration/>\n<configuration/>", 2, "element <configuration> after the <configuration> element"},
		{"empty", "", 0, "no <configuration> element"},
		{"truncated", "<configuration>\n<property><name>a</name>", 2, "unexpected EOF"},
		{"unknown entity", "<configuration><property><name>a</name><value>&nope;</value></property></configuration>", 1, "invalid XML"},
		{"unsupported encoding", "<?xml version=\"1.0\" encoding=\"EBCDIC\"?><configuration/>", 0, "unsupported encoding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ReadConfigurationXML(strings.NewReader(tt.in), "job.xml")
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *conf.Error", err)
			}
			if ce.Source != "job.xml" || ce.Line != tt.line {
				t.Errorf("error at %s:%d, want job.xml:%d (%v)", ce.Source, ce.Line, tt.line, err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
		})
	}
}

func TestConfigurationXMLLines(t *testing.T) {
	t.Parallel()
	in := "<configuration>\n  <property>\n    <name>a</name><value>1</value>\n  </property>\n  <property><name>b</name><value>2</value></property>\n</configuration>"
	p, err := ReadConfigurationXML(strings.NewReader(in), "x.xml")
	if err != nil {
		t.Fatal(err)
	}
	for name, line := range map[string]int{"a": 2, "b": 5} {
		if e, _ := p.Lookup(name); e.Line != line {
			t.Errorf("%s: line %d, want %d", name, e.Line, line)
		}
	}
}

func TestWriteConfigurationXMLRoundTrip(t *testing.T) {
	t.Parallel()
	p := NewProperties(
		"a", "plain",
		"markup", `<tag attr="x">&amp; 'q'</tag>`,
		"blanks", "  lead\n\ttab\r\ncrlf  ",
		"unicode", "café ✓ 😀",
		"empty", "",
	)
	p.Put(Property{Name: "locked", Value: "v", Final: true})
	var buf bytes.Buffer
	if err := WriteConfigurationXML(&buf, p); err != nil {
		t.Fatal(err)
	}
	back, err := ReadConfigurationXML(bytes.NewReader(buf.Bytes()), "written")
	if err != nil {
		t.Fatalf("reading back:\n%s\n%v", buf.String(), err)
	}
	strip := func(es []Property) []Property {
		for i := range es {
			es[i].Line = 0
		}
		return es
	}
	if got, want := strip(back.Entries()), strip(p.Entries()); !reflect.DeepEqual(got, want) {
		t.Errorf("round trip = %+v\nwant %+v\ndocument:\n%s", got, want, buf.String())
	}
}
