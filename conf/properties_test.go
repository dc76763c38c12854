package conf

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testapps"
)

// pairs flattens props into name, value, name, value...
func pairs(p *Properties) []string {
	var out []string
	for k, v := range p.All() {
		out = append(out, k, v)
	}
	return out
}

func TestReadProperties(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"equals", "a=b", []string{"a", "b"}},
		{"colon", "a:b", []string{"a", "b"}},
		{"blank separator", "a b", []string{"a", "b"}},
		{"blanks around separator", "a = b", []string{"a", "b"}},
		{"tab and form feed", "a\t=\fb", []string{"a", "b"}},
		{"trailing blanks kept", "a = b  ", []string{"a", "b  "}},
		{"key only", "a", []string{"a", ""}},
		{"empty value", "a=", []string{"a", ""}},
		{"second separator is value", "a = = b", []string{"a", "= b"}},
		{"blank then colon then equals", "a  :=b", []string{"a", "=b"}},
		{"blank then colon then blank", "a  :  b", []string{"a", "b"}},
		{"leading blanks skipped", "   a=b", []string{"a", "b"}},
		{"comments", "# one\n! two\n   # three\n\n  \nk=v", []string{"k", "v"}},
		{"continuation", "a=b\\\n   c", []string{"a", "bc"}},
		{"continuation crlf", "a=b\\\r\n  c\r\nd=e", []string{"a", "bc", "d", "e"}},
		{"continuation cr", "a=b\\\r  c\rd=e", []string{"a", "bc", "d", "e"}},
		{"continued key", "key\\\n  more=x", []string{"keymore", "x"}},
		{"even backslashes do not continue", "a=b\\\\\nc=d", []string{"a", `b\`, "c", "d"}},
		{"odd backslashes continue", "a=b\\\\\\\nc", []string{"a", `b\c`}},
		{"escapes", `a=\t\n\r\f\u0041\z\\`, []string{"a", "\t\n\r\fAz\\"}},
		{"escaped separators in key", `a\=b\:c=d`, []string{"a=b:c", "d"}},
		{"escaped blank in key", `a\ b c`, []string{"a b", "c"}},
		{"unicode escape in key", `a\u0020b=c`, []string{"a b", "c"}},
		{"escaped comment char", `\#a=b`, []string{"#a", "b"}},
		{"empty key", "=v", []string{"", "v"}},
		{"duplicate keeps first position", "a=1\nb=2\na=3", []string{"a", "3", "b", "2"}},
		{"comment never continues", "#c \\\na=b", []string{"a", "b"}},
		{"hash after continuation is text", "a=b\\\n#c", []string{"a", "b#c"}},
		{"blank line ends continuation", "a=b\\\n\nc=d", []string{"a", "b", "c", "d"}},
		{"blank-only line ends continuation", "a=b\\\n   \nc=d", []string{"a", "b", "c", "d"}},
		{"trailing backslash at end of input", "a=b\\", []string{"a", "b"}},
		{"lone backslash line at end of input", "a=b\n\\", []string{"a", "b", "", ""}},
		{"surrogate pair", `e=\uD83D\uDE00`, []string{"e", "😀"}},
		{"lone high surrogate", `e=\uD83Dx`, []string{"e", "\uFFFDx"}},
		{"lone low surrogate", `e=\uDE00`, []string{"e", "\uFFFD"}},
		{"utf-8 text", "é=ü ✓", []string{"é", "ü ✓"}},
		{"latin-1 fallback", "a=caf\xe9", []string{"a", "café"}},
		{"byte order mark", "\uFEFFa=b", []string{"a", "b"}},
		{"value with separators", "url=hdfs://nn:8020/a=b", []string{"url", "hdfs://nn:8020/a=b"}},
		{"el kept raw", "p=${nameNode}/user/${user.name}", []string{"p", "${nameNode}/user/${user.name}"}},
		{"empty input", "", nil},
		{"only comments", "# a\n! b\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := ReadProperties(strings.NewReader(tt.in), "job.properties")
			if err != nil {
				t.Fatalf("ReadProperties(%q): %v", tt.in, err)
			}
			if got := pairs(p); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ReadProperties(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestReadPropertiesLines(t *testing.T) {
	t.Parallel()
	in := "# header\n\na=1\nb=x\\\n  y\n\r\nc=3"
	p, err := ReadProperties(strings.NewReader(in), "job.properties")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"a": 3, "b": 4, "c": 7}
	for _, e := range p.Entries() {
		if e.Line != want[e.Name] {
			t.Errorf("%s: line %d, want %d", e.Name, e.Line, want[e.Name])
		}
	}
}

func TestReadPropertiesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		line int
		msg  string
	}{
		{"bad hex digit", "a=1\nb=\\u12G4", 2, `malformed \uxxxx escape "\u12G4"`},
		{"short escape", "a=\\u12", 1, `malformed \uxxxx escape "\u12"`},
		{"bad escape in key", "\\uXYZW=1", 1, `malformed \uxxxx escape "\uXYZW"`},
		{"escape on continued line", "# c\na=x\\\n  \\uZZZZ", 3, `malformed \uxxxx escape "\uZZZZ"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ReadProperties(strings.NewReader(tt.in), "job.properties")
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *conf.Error", err)
			}
			if ce.Source != "job.properties" || ce.Line != tt.line {
				t.Errorf("error at %s:%d, want job.properties:%d", ce.Source, ce.Line, tt.line)
			}
			if !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "job.properties:") {
				t.Errorf("error %q does not name the file and contain %q", err, tt.msg)
			}
		})
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadPropertiesReadError(t *testing.T) {
	t.Parallel()
	_, err := ReadProperties(failingReader{}, "job.properties")
	if err == nil || !strings.Contains(err.Error(), "job.properties") || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("error = %v, want the file name and the cause", err)
	}
}

func TestWritePropertiesRoundTrip(t *testing.T) {
	t.Parallel()
	p := NewProperties(
		"plain", "value",
		"key with blanks", " leading and trailing ",
		"sep=:#!", "a=b:c#d!e",
		"back\\slash", `C:\dir\`,
		"ctl", "tab\tnl\ncr\rff\f\x01",
		"unicode", "café ✓ 😀",
		"", "empty key",
		"empty", "",
	)
	var buf bytes.Buffer
	if err := WriteProperties(&buf, p); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, r := range out {
		if r > 0x7e || (r < 0x20 && r != '\n') {
			t.Fatalf("output has a raw non-ASCII or control character %q:\n%s", r, out)
		}
	}
	back, err := ReadProperties(&buf, "written")
	if err != nil {
		t.Fatalf("reading back %q: %v", out, err)
	}
	if got, want := pairs(back), pairs(p); !reflect.DeepEqual(got, want) {
		t.Errorf("round trip = %q, want %q\noutput:\n%s", got, want, out)
	}
}

func TestPropertiesMethods(t *testing.T) {
	t.Parallel()
	var p Properties
	if _, ok := p.Get("a"); ok || p.Len() != 0 || p.Keys() != nil {
		t.Fatal("zero Properties is not empty")
	}
	p.Set("a", "1")
	p.Set("b", "2")
	p.Put(Property{Name: "c", Value: "3", Final: true})
	p.Set("a", "10")
	p.Set("c", "30")
	if got := p.Keys(); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Errorf("Keys = %q", got)
	}
	if e, _ := p.Lookup("c"); e.Value != "30" || !e.Final {
		t.Errorf("Set lost the Final flag or value: %+v", e)
	}
	c := p.Clone()
	if !p.Delete("b") || p.Delete("b") {
		t.Error("Delete reported wrongly")
	}
	if got := p.Keys(); !reflect.DeepEqual(got, []string{"a", "c"}) {
		t.Errorf("Keys after delete = %q", got)
	}
	if v := p.Value("c"); v != "30" {
		t.Errorf("index not rebuilt after delete: c = %q", v)
	}
	if v, ok := c.Get("b"); !ok || v != "2" {
		t.Error("Clone shares state with the original")
	}
	c.Merge(NewProperties("d", "4", "a", "11"))
	if got := pairs(c); !reflect.DeepEqual(got, []string{"a", "11", "b", "2", "c", "30", "d", "4"}) {
		t.Errorf("Merge = %q", got)
	}
	if m := c.Map(); len(m) != 4 || m["d"] != "4" {
		t.Errorf("Map = %v", m)
	}
	tr := NewProperties(" x\t", "\n v \x00", "y", " 1 ", "x", "later").Trimmed()
	if got := pairs(tr); !reflect.DeepEqual(got, []string{"x", "later", "y", "1"}) {
		t.Errorf("Trimmed = %q", got)
	}
}

// TestReadPropertiesExamples reads every properties file of the example apps (gozie's own,
// and Oozie's when GOZIE_OOZIE_EXAMPLES names them).
func TestReadPropertiesExamples(t *testing.T) {
	t.Parallel()
	testapps.Each(t, readPropertiesExamples)
}

func readPropertiesExamples(t *testing.T, apps string) {
	files, err := filepath.Glob(filepath.Join(apps, "*", "*.properties"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example properties files: %v", err)
	}
	appPaths := []string{"oozie.wf.application.path", "oozie.coord.application.path", "oozie.bundle.application.path"}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ReadProperties(bytes.NewReader(data), filepath.Base(file))
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		// Every non-comment line holding '=' defines a key, so the count must match.
		defs := 0
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line != "" && !strings.HasPrefix(line, "#") && strings.Contains(line, "=") {
				defs++
			}
		}
		if p.Len() == 0 || p.Len() > defs {
			t.Errorf("%s: %d properties for %d definition lines", file, p.Len(), defs)
		}
		if strings.HasPrefix(filepath.Base(file), "job") {
			n := 0
			for _, k := range appPaths {
				if _, ok := p.Get(k); ok {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%s: %d application paths, want 1", file, n)
			}
		}
	}
}

// readFile returns a file's text.
func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}

func TestPropertiesFromMap(t *testing.T) {
	t.Parallel()
	p := PropertiesFromMap(map[string]string{"b": "2", "a": "1", "c": "3"})
	if got := pairs(p); !reflect.DeepEqual(got, []string{"a", "1", "b", "2", "c", "3"}) {
		t.Errorf("PropertiesFromMap = %q, want key order", got)
	}
}
