package conf

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzReadProperties checks that any input either parses or fails with a located *Error,
// that whatever parses survives WriteProperties and a second read unchanged, and that
// ParseOutputProperties reads the same whenever ReadProperties does (for UTF-8 without a
// byte-order mark, which only files decode).
// Seeds live in testdata/fuzz/FuzzReadProperties.
func FuzzReadProperties(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadProperties(bytes.NewReader(data), "fuzz.properties")
		lenient := ParseOutputProperties(string(data))
		plain := utf8.Valid(data) && !bytes.HasPrefix(data, []byte("\uFEFF"))
		if err == nil && plain && !reflect.DeepEqual(pairs(lenient), pairs(p)) {
			t.Fatalf("ParseOutputProperties = %q, ReadProperties = %q", pairs(lenient), pairs(p))
		}
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || ce.Source != "fuzz.properties" || ce.Line < 1 {
				t.Fatalf("error %v is not located", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteProperties(&buf, p); err != nil {
			t.Fatal(err)
		}
		back, err := ReadProperties(bytes.NewReader(buf.Bytes()), "written")
		if err != nil {
			t.Fatalf("reading written %q: %v", buf.String(), err)
		}
		if got, want := pairs(back), pairs(p); !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip = %q, want %q (written %q)", got, want, buf.String())
		}
	})
}

// FuzzReadConfigurationXML checks that any input either parses or fails with an *Error
// naming the source, and that whatever parses survives WriteConfigurationXML and a second
// read unchanged. Seeds live in testdata/fuzz/FuzzReadConfigurationXML.
func FuzzReadConfigurationXML(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadConfigurationXML(bytes.NewReader(data), "fuzz.xml")
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || ce.Source != "fuzz.xml" {
				t.Fatalf("error %v does not name the source", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteConfigurationXML(&buf, p); err != nil {
			t.Fatal(err)
		}
		back, err := ReadConfigurationXML(bytes.NewReader(buf.Bytes()), "written")
		if err != nil {
			t.Fatalf("reading written %q: %v", buf.String(), err)
		}
		strip := func(es []Property) []Property {
			for i := range es {
				es[i].Line = 0
			}
			return es
		}
		if got, want := strip(back.Entries()), strip(p.Entries()); !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip = %+v, want %+v (written %q)", got, want, buf.String())
		}
	})
}
