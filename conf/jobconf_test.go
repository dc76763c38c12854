package conf

import (
	"slices"
	"strings"
	"testing"
)

func TestPropertiesOfKeepsFirstPositionAndLastValue(t *testing.T) {
	t.Parallel()
	p := PropertiesOf(Property{Name: "a", Value: "1"}, Property{Name: "b", Value: "2"}, Property{Name: "a", Value: "3"})
	if got, want := pairs(p), []string{"a", "3", "b", "2"}; !slices.Equal(got, want) {
		t.Fatalf("PropertiesOf = %q, want %q", got, want)
	}
}

func TestPlainDropsFinalAndLine(t *testing.T) {
	t.Parallel()
	p := PropertiesOf(Property{Name: "a", Value: "1", Final: true, Line: 7}, Property{Name: "b", Value: "2"})
	plain := p.Plain()
	want := []Property{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}}
	if got := plain.Entries(); !slices.Equal(got, want) {
		t.Fatalf("Plain = %+v, want %+v", got, want)
	}
	if e, _ := p.Lookup("a"); !e.Final {
		t.Fatal("Plain changed its receiver")
	}
}

func TestParseConfigurationXML(t *testing.T) {
	t.Parallel()
	for _, blank := range []string{"", " \n\t"} {
		p, err := ParseConfigurationXML(blank, "job conf")
		if err != nil || p == nil || p.Len() != 0 {
			t.Fatalf("ParseConfigurationXML(%q) = %v, %v; want an empty set", blank, p, err)
		}
	}
	p, err := ParseConfigurationXML(`<configuration><property><name>a</name><value>1</value><final>true</final></property></configuration>`, "job conf")
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := p.Lookup("a"); e != (Property{Name: "a", Value: "1"}) {
		t.Fatalf("entry = %+v, want a plain a=1", e)
	}
	if _, err := ParseConfigurationXML("<configuration><prop/></configuration>", "job conf"); err == nil ||
		!strings.HasPrefix(err.Error(), "reading job conf: ") {
		t.Fatalf("bad document: error %v, want one naming the document", err)
	}
}

func TestConfigurationXMLRoundTripsWithoutFinal(t *testing.T) {
	t.Parallel()
	p := PropertiesOf(Property{Name: "b", Value: "x<y"}, Property{Name: "a", Value: "", Final: true})
	text, err := p.ConfigurationXML()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "<final>") {
		t.Fatalf("final flag written:\n%s", text)
	}
	back, err := ParseConfigurationXML(text, "written")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pairs(back), []string{"b", "x<y", "a", ""}; !slices.Equal(got, want) {
		t.Fatalf("read back %q, want %q", got, want)
	}
}

func TestSorted(t *testing.T) {
	t.Parallel()
	p := PropertiesOf(Property{Name: "b", Value: "2", Final: true, Line: 3}, Property{Name: "a", Value: "1"})
	got := p.Sorted()
	if keys := got.Keys(); !slices.Equal(keys, []string{"a", "b"}) {
		t.Errorf("Sorted keys = %q, want [a b]", keys)
	}
	if e, _ := got.Lookup("b"); e != (Property{Name: "b", Value: "2"}) {
		t.Errorf("Sorted b = %+v, want a plain entry", e)
	}
	if keys := p.Keys(); !slices.Equal(keys, []string{"b", "a"}) {
		t.Errorf("Sorted changed its receiver: %q", keys)
	}
	if (*Properties)(nil).Sorted().Len() != 0 {
		t.Error("nil Sorted is not empty")
	}
}
