package el

import (
	"encoding/xml"
	"errors"
	"html"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestBasicFunctions(t *testing.T) {
	t.Parallel()
	now := time.Date(2009, 9, 8, 23, 59, 30, 0, time.UTC)
	vars := map[string]any{
		"data":    map[string]string{"b": "B"},
		"special": map[string]string{"a": "x/y\n\"q\"", "k<": "'", "u": "\u2028\x01"},
		"props":   map[string]string{"a": "A", "b": "&", "k y": " v=1:#!\\", "t": "tab\there"},
		"nums":    map[string]any{"i": int64(1), "f": 0.5, "nan": 2.0, "n": nil, "l": []any{"x", true}},
		"conf":    map[string]string{"b": "B", "a": "a&b <c>", " pad ": "  ", "nl": "1\n2"},
		"none":    map[string]string{},
	}
	env := &Env{Vars: MapVars(vars), Now: func() time.Time { return now }}
	tests := []struct{ expr, want string }{
		// concat: null is "", numbers print as Java prints them.
		{"${concat('a', 'b')}", "ab"},
		{"${concat('a', null)}", "a"},
		{"${concat(null, null)}", ""},
		{"${concat(1, 2.0)}", "12.0"},
		{"${concat(true, '')}", "true"},

		// firstNotNull keeps the value (and its type).
		{"${firstNotNull('a', 'b')}", "a"},
		{"${firstNotNull(null, 'b')}", "b"},
		{"${firstNotNull(null, null)}", ""},
		{"${firstNotNull('', 'b')}", ""},

		// replaceAll: Java regular expressions and replacement syntax.
		{"${replaceAll('hello world', 'o', '0')}", "hell0 w0rld"},
		{`${replaceAll('a1b22', '\\d+', '#')}`, "a#b#"},
		{"${replaceAll('2009-01-31', '(\\\\d+)-(\\\\d+)-(\\\\d+)', '$3/$2/$1')}", "31/01/2009"},
		{"${replaceAll('ab', '(a)(b)', '$2$1')}", "ba"},
		{"${replaceAll('ab', '(a)(b)', '$12')}", "a2"},
		{"${replaceAll('ab', '(a)|(b)', '[$2]')}", "[][b]"},
		{"${replaceAll('ab', 'a', '\\\\$1')}", "$1b"},
		{"${replaceAll('ab', 'a', '\\\\\\\\')}", `\b`},
		{"${replaceAll('x12', '(?<n>\\\\d+)', '<${n}>')}", "x<12>"},
		{"${replaceAll('abc', 'x*', '-')}", "-a-b-c-"},
		{"${replaceAll('abc', 'z', '$9')}", "abc"}, // a bad replacement only fails on a match
		{"${replaceAll('abc', null, 'X')}", "XaXbXcX"},
		{"${replaceAll('abc', 'b', null)}", "ac"},
		{"${replaceAll(null, 'b', 'c')}", ""},

		// appendAll: Oozie's documented example and the edge cases of Java's split.
		{"${appendAll('/a/b/,/c/b/,/c/d/', 'ADD', ',')}", "/a/b/ADD,/c/b/ADD,/c/d/ADD"},
		{"${appendAll('a', 'X', ',')}", "aX"},
		{"${appendAll(',a,b', 'X', ',')}", "X,aX,bX"},
		{"${appendAll('a,b,,', 'X', ',')}", "aX,bX"},
		{"${appendAll('', 'X', ',')}", "X"},
		{"${appendAll(',', 'X', ',')}", ""},
		{"${appendAll('a,b', null, ',')}", "a,b"},
		{"${appendAll('ab', 'X', '')}", "XaXbX"},
		{"${appendAll('a1b22c', '!', '\\\\d+')}", `a!\d+b!\d+c!`},

		// trim removes characters <= ' ' at both ends.
		{"${trim('  a b \t')}", "a b"},
		{"${trim(null)}", ""},
		{"${trim(5)}", "5"},

		// urlEncode is Java's URLEncoder with UTF-8.
		{"${urlEncode('a b&c=d/é~*._-')}", "a+b%26c%3Dd%2F%C3%A9%7E*._-"},
		{"${urlEncode(null)}", ""},
		{"${urlEncode('%')}", "%25"},

		// timestamp uses the injected clock and the processing zone (UTC here).
		{"${timestamp()}", "2009-09-08T23:59Z"},

		// toJsonStr: json-simple output, XML-escaped.
		{"${toJsonStr(data)}", "{&quot;b&quot;:&quot;B&quot;}"},
		{"${toJsonStr(special)}", `{&quot;a&quot;:&quot;x\/y\n\&quot;q\&quot;&quot;,&quot;k&lt;&quot;:&quot;&#039;&quot;,&quot;u&quot;:&quot;\u2028\u0001&quot;}`},
		{"${toJsonStr(nums)}", "{&quot;f&quot;:0.5,&quot;i&quot;:1,&quot;l&quot;:[&quot;x&quot;,true],&quot;n&quot;:null,&quot;nan&quot;:2.0}"},
		{"${toJsonStr(none)}", "{}"},
		{"${toJsonStr(null)}", "null"},

		// toPropertiesStr: Properties.store format with the date line, XML-escaped.
		{"${toPropertiesStr(data)}", "#\n#Tue Sep 08 23:59:30 UTC 2009\nb=B\n"},
		{"${toPropertiesStr(props)}", "#\n#Tue Sep 08 23:59:30 UTC 2009\na=A\nb=&amp;\nk\\ y=\\ v\\=1\\:\\#\\!\\\\\nt=tab\\there\n"},

		// toConfigurationStr: JDOM pretty print of a Hadoop configuration, XML-escaped.
		{"${toConfigurationStr(data)}", "&lt;configuration&gt;\r\n  &lt;property&gt;\r\n    &lt;name&gt;b&lt;/name&gt;\r\n    &lt;value&gt;B&lt;/value&gt;\r\n  &lt;/property&gt;\r\n&lt;/configuration&gt;"},
		{"${toConfigurationStr(none)}", "&lt;configuration /&gt;"},
	}
	for _, tc := range tests {
		got, err := env.EvalString(tc.expr)
		if err != nil {
			t.Errorf("EvalString(%q): %v", tc.expr, err)
			continue
		}
		if got != tc.want {
			t.Errorf("EvalString(%q)\n got %q\nwant %q", tc.expr, got, tc.want)
		}
	}
}

func TestBasicFunctionErrors(t *testing.T) {
	t.Parallel()
	env := &Env{Vars: MapVars(map[string]any{
		"m":    map[string]string{"k": "\x01"},
		"nilv": map[string]any{"k": nil},
	})}
	for _, expr := range []string{
		"${replaceAll('abc', '(', 'x')}",
		"${replaceAll('abc', '(?=a)', 'x')}", // look-ahead is Java-only
		"${replaceAll('abc', 'b', '$')}",
		"${replaceAll('abc', 'b', '$9')}",
		"${replaceAll('abc', 'b', '${x}')}",
		"${replaceAll('abc', 'b', '${}')}",
		"${replaceAll('abc', 'b', '${x')}",
		"${replaceAll('abc', 'b', '$x')}",
		"${replaceAll('abc', 'b', '\\\\')}",
		"${appendAll('abc', 'b', '[')}",
		"${toJsonStr('text')}",
		"${toJsonStr(1)}",
		"${toPropertiesStr(null)}",
		"${toPropertiesStr(nilv)}",
		"${toConfigurationStr('')}",
		"${toConfigurationStr(1)}",
		"${toConfigurationStr(m)}", // a control character cannot be written in XML
		"${toConfigurationStr(nilv)}",
	} {
		_, err := env.Eval(expr)
		var elErr *Error
		if !errors.As(err, &elErr) || elErr.Pos != 2 {
			t.Errorf("Eval(%q) error = %v, want a function error at position 2", expr, err)
		}
	}
}

func TestTimestampZone(t *testing.T) {
	t.Parallel()
	now := time.Date(2009, 9, 8, 23, 59, 30, 0, time.UTC)
	tests := []struct {
		loc  *time.Location
		want string
	}{
		{nil, "2009-09-08T23:59Z"},
		{time.UTC, "2009-09-08T23:59Z"},
		{time.FixedZone("GMT+05:30", 5*3600+1800), "2009-09-09T05:29+0530"},
		{time.FixedZone("GMT-0700", -7*3600), "2009-09-08T16:59-0700"},
	}
	for _, tc := range tests {
		env := &Env{Now: func() time.Time { return now }, Location: tc.loc}
		got, err := env.EvalString("${timestamp()}")
		if err != nil || got != tc.want {
			t.Errorf("timestamp() in %v = %q, %v, want %q", tc.loc, got, err, tc.want)
		}
	}
}

// TestToConfigurationStrRoundTrip checks, like Oozie's own test, that the output un-escaped
// once is a Hadoop configuration holding the same (trimmed) entries.
func TestToConfigurationStrRoundTrip(t *testing.T) {
	t.Parallel()
	in := map[string]string{"a": "A", "b": "&", "c": "x <y> 'z' \"w\"", "multi": "1\n2", " k ": " v ", "emoji": "😀"}
	env := &Env{Vars: MapVars(map[string]any{"m": in})}
	out, err := env.EvalString("${toConfigurationStr(m)}")
	if err != nil {
		t.Fatal(err)
	}
	var conf struct {
		Props []struct {
			Name  string `xml:"name"`
			Value string `xml:"value"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal([]byte(html.UnescapeString(out)), &conf); err != nil {
		t.Fatalf("unmarshal %q: %v", out, err)
	}
	got := map[string]string{}
	for _, p := range conf.Props {
		got[p.Name] = p.Value
	}
	want := map[string]string{"a": "A", "b": "&", "c": "x <y> 'z' \"w\"", "multi": "1\n2", "k": "v", "emoji": "😀"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip = %q, want %q", got, want)
	}
	if !strings.Contains(out, "&amp;#x1f600;") {
		t.Errorf("characters above U+FFFF should be written as character references: %q", out)
	}
}

func TestConstants(t *testing.T) {
	t.Parallel()
	want := map[string]any{"KB": int64(1024), "MB": int64(1 << 20), "GB": int64(1 << 30), "TB": int64(1 << 40), "PB": int64(1 << 50)}
	if got := Constants(); !reflect.DeepEqual(got, want) {
		t.Errorf("Constants() = %v, want %v", got, want)
	}
	env := &Env{Vars: ChainVars(MapVars(SLAConstants()), MapVars(DateEchoConstants()))}
	for expr, want := range map[string]string{
		"${10 * MINUTES}":                              "10",
		"${2 * HOURS + DAYS}":                          "1560",
		"hdfs://nn/data/${YEAR}/${MONTH}/${DAY}":       "hdfs://nn/data/${YEAR}/${MONTH}/${DAY}",
		"/logs/${YEAR}${MONTH}${DAY}/${HOUR}${MINUTE}": "/logs/${YEAR}${MONTH}${DAY}/${HOUR}${MINUTE}",
	} {
		got, err := env.EvalString(expr)
		if err != nil || got != want {
			t.Errorf("EvalString(%q) = %q, %v, want %q", expr, got, err, want)
		}
	}
	// The echoed template binds once the date variables are known.
	later := &Env{Vars: MapVars(map[string]string{"YEAR": "2009", "MONTH": "08", "DAY": "09"})}
	got, err := later.EvalString("hdfs://nn/data/${YEAR}/${MONTH}/${DAY}")
	if err != nil || got != "hdfs://nn/data/2009/08/09" {
		t.Errorf("second evaluation = %q, %v", got, err)
	}
}

func TestSerializationEscapes(t *testing.T) {
	t.Parallel()
	vars := map[string]any{
		"ctl":    map[string]string{"k": "\b\f\r\t\\\u007f\u009f"},
		"nested": map[string]any{"m": map[string]string{"x": "1"}, "nums": []float64{1, math.NaN(), math.Inf(1)}},
		"intKey": map[int]string{2: "b", 1: "a"},
		"props":  map[string]string{"cr": "a\rb\fc", "lead": "  two"},
		"xml":    map[string]string{"t": "\ttab\t", "cr": "a\rb"},
	}
	env := &Env{Vars: MapVars(vars), Now: func() time.Time { return time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC) }}
	tests := []struct{ expr, want string }{
		{"${toJsonStr(ctl)}", `{&quot;k&quot;:&quot;\b\f\r\t\\\u007F\u009F&quot;}`},
		{"${toJsonStr(nested)}", "{&quot;m&quot;:{&quot;x&quot;:&quot;1&quot;},&quot;nums&quot;:[1.0,null,null]}"},
		{"${toJsonStr(intKey)}", "{&quot;1&quot;:&quot;a&quot;,&quot;2&quot;:&quot;b&quot;}"},
		{"${toPropertiesStr(props)}", "#\n#Thu Jan 02 03:04:05 UTC 2020\ncr=a\\rb\\fc\nlead=\\  two\n"},
		{"${toConfigurationStr(xml)}", "&lt;configuration&gt;\r\n  &lt;property&gt;\r\n    &lt;name&gt;cr&lt;/name&gt;\r\n    &lt;value&gt;a&amp;#xD;b&lt;/value&gt;\r\n  &lt;/property&gt;\r\n  &lt;property&gt;\r\n    &lt;name&gt;t&lt;/name&gt;\r\n    &lt;value&gt;tab&lt;/value&gt;\r\n  &lt;/property&gt;\r\n&lt;/configuration&gt;"},
	}
	for _, tc := range tests {
		got, err := env.EvalString(tc.expr)
		if err != nil || got != tc.want {
			t.Errorf("EvalString(%q)\n got %q, %v\nwant %q", tc.expr, got, err, tc.want)
		}
	}
}

func TestResultLengthLimit(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", maxResultLen/2+1)
	env := &Env{Vars: MapVars(map[string]any{"big": big})}
	for _, expr := range []string{"${concat(big, big)}", "${appendAll(big, big, 'y')}"} {
		if _, err := env.Eval(expr); err == nil || !strings.Contains(err.Error(), "64 MiB") {
			t.Errorf("Eval(%q) error = %v, want the length limit", expr, err)
		}
	}
}

func TestMatchLimit(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(",")
	if got, err := javaReplaceAll(re, "a,b,c", ";", 2); err != nil || got != "a;b;c" {
		t.Errorf("replace at the limit = %q, %v", got, err)
	}
	if _, err := javaReplaceAll(re, "a,b,c,d", ";", 2); !errors.Is(err, errTooManyMatches) {
		t.Errorf("replace over the limit: error = %v", err)
	}
	if got, err := javaSplit(re, "a,b,c", 2); err != nil || !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Errorf("split at the limit = %q, %v", got, err)
	}
	if _, err := javaSplit(re, "a,b,c,d", 2); !errors.Is(err, errTooManyMatches) {
		t.Errorf("split over the limit: error = %v", err)
	}
	// The functions apply maxMatches.
	env := &Env{Vars: MapVars(map[string]any{"over": strings.Repeat(",", maxMatches)})}
	if _, err := env.Eval("${replaceAll(over, '', '')}"); !errors.Is(err, errTooManyMatches) {
		t.Errorf("replaceAll over maxMatches: error = %v", err)
	}
}
