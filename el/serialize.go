package el

import (
	"errors"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gozie/gozie/oozietime"
)

// The serializations of toJsonStr, toPropertiesStr and toConfigurationStr reproduce Oozie's
// output (json-simple, java.util.Properties.store, Hadoop Configuration pretty-printed by
// JDOM) except for the order of entries: Java iterates hash tables in hash order, we sort the
// keys, which every reader of these formats accepts.

// stringMap returns the entries of a map argument with string keys, sorted by key. A nil
// value or "" (what EL passes for a missing map) gives ok == false.
func stringMap(fn string, v any) (keys []string, vals []any, ok bool, err error) {
	switch m := v.(type) {
	case nil:
		return nil, nil, false, nil
	case string:
		if m == "" {
			return nil, nil, false, nil
		}
	case map[string]string:
		keys = sortedKeys(m)
		vals = make([]any, len(keys))
		for i, k := range keys {
			vals[i] = m[k]
		}
		return keys, vals, true, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil, nil, false, errors.New(fn + " needs a map, got " + describe(v))
	}
	mk := rv.MapKeys()
	sort.Slice(mk, func(i, j int) bool { return mk[i].String() < mk[j].String() })
	keys = make([]string, len(mk))
	vals = make([]any, len(mk))
	for i, k := range mk {
		keys[i] = k.String()
		vals[i] = rv.MapIndex(k).Interface()
	}
	return keys, vals, true, nil
}

// jsonString renders v like json-simple's JSONValue.toJSONString: objects and arrays, strings
// quoted with "/" escaped, NaN and infinities as null, a missing map as null.
func jsonString(v any) (string, error) {
	if v == nil || v == "" { // EL passes "" for a missing map
		return "null", nil
	}
	if reflect.ValueOf(v).Kind() != reflect.Map {
		return "", errors.New("toJsonStr needs a map, got " + describe(v))
	}
	var b strings.Builder
	if err := writeJSON(&b, v, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writeJSON(b *strings.Builder, v any, depth int) error {
	if depth > maxDepth {
		return errors.New("toJsonStr: value nested too deeply")
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
		return nil
	case string:
		b.WriteByte('"')
		writeJSONEscaped(b, x)
		b.WriteByte('"')
		return nil
	case bool:
		b.WriteString(ToString(x))
		return nil
	case float64, float32:
		f, _ := ToFloat(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			b.WriteString("null")
			return nil
		}
		b.WriteString(ToString(x))
		return nil
	}
	if classify(v) == intNumber {
		b.WriteString(ToString(v))
		return nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map:
		keys, vals, _, err := stringMap("toJsonStr", v)
		if err != nil {
			// Non-string keys: use their string form, as json-simple does.
			keys, vals = anyKeyMap(rv)
		}
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('"')
			writeJSONEscaped(b, k)
			b.WriteString(`":`)
			if err := writeJSON(b, vals[i], depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	case reflect.Slice, reflect.Array:
		b.WriteByte('[')
		for i := 0; i < rv.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, rv.Index(i).Interface(), depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	// json-simple writes any other object with its toString, unquoted.
	b.WriteString(ToString(v))
	return nil
}

func anyKeyMap(rv reflect.Value) ([]string, []any) {
	mk := rv.MapKeys()
	type kv struct {
		k string
		v any
	}
	entries := make([]kv, len(mk))
	for i, k := range mk {
		entries[i] = kv{ToString(k.Interface()), rv.MapIndex(k).Interface()}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].k < entries[j].k })
	keys := make([]string, len(entries))
	vals := make([]any, len(entries))
	for i, e := range entries {
		keys[i], vals[i] = e.k, e.v
	}
	return keys, vals
}

// writeJSONEscaped escapes like json-simple: \" \\ \/ \b \f \n \r \t, and \uXXXX for
// U+0000..U+001F, U+007F..U+009F and U+2000..U+20FF.
func writeJSONEscaped(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '/':
			b.WriteString(`\/`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r <= 0x1f || (r >= 0x7f && r <= 0x9f) || (r >= 0x2000 && r <= 0x20ff) {
				b.WriteString(`\u`)
				b.WriteByte(hex[r>>12&15])
				b.WriteByte(hex[r>>8&15])
				b.WriteByte(hex[r>>4&15])
				b.WriteByte(hex[r&15])
			} else {
				b.WriteRune(r)
			}
		}
	}
}

// propertiesString renders a map like java.util.Properties.store(writer, ""): an empty
// comment line, a comment with the date (Java's Date.toString in zone of now), then key=value
// lines with Java's escapes.
func propertiesString(v any, now time.Time) (string, error) {
	keys, vals, ok, err := stringMap("toPropertiesStr", v)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errors.New("toPropertiesStr needs a map, got null")
	}
	var b strings.Builder
	b.WriteString("#\n#")
	b.WriteString(now.Format(oozietime.JavaDateLayout))
	b.WriteByte('\n')
	for i, k := range keys {
		if vals[i] == nil {
			return "", errors.New("toPropertiesStr: the value of " + strconv.Quote(k) + " is null")
		}
		writePropertiesEscaped(&b, k, true)
		b.WriteByte('=')
		writePropertiesEscaped(&b, ToString(vals[i]), false)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// writePropertiesEscaped escapes like Properties.store to a Writer: \\ \t \n \r \f, a backslash
// before = : # !, before every space of a key and before a leading space of a value; other
// characters are written as they are.
func writePropertiesEscaped(b *strings.Builder, s string, key bool) {
	for i, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case ' ':
			if i == 0 || key {
				b.WriteByte('\\')
			}
			b.WriteByte(' ')
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\f':
			b.WriteString(`\f`)
		case '=', ':', '#', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
}

// configurationString renders a map as Oozie pretty-prints a Hadoop Configuration with JDOM:
// "\r\n" line ends, two-space indent, names and values trimmed, empty elements as "<value />",
// and & < > escaped in text.
func configurationString(v any) (string, error) {
	keys, vals, ok, err := stringMap("toConfigurationStr", v)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errors.New("toConfigurationStr needs a map, got null")
	}
	if len(keys) == 0 {
		return "<configuration />", nil
	}
	var b strings.Builder
	b.WriteString("<configuration>")
	for i, k := range keys {
		if vals[i] == nil {
			return "", errors.New("toConfigurationStr: the value of " + strconv.Quote(k) + " is null")
		}
		b.WriteString("\r\n  <property>\r\n    ")
		if err := writeXMLElement(&b, "name", javaTrim(k)); err != nil {
			return "", err
		}
		b.WriteString("\r\n    ")
		if err := writeXMLElement(&b, "value", ToString(vals[i])); err != nil {
			return "", err
		}
		b.WriteString("\r\n  </property>")
	}
	b.WriteString("\r\n</configuration>")
	return b.String(), nil
}

func writeXMLElement(b *strings.Builder, name, text string) error {
	text = strings.Trim(text, " \t\r\n")
	if !utf8.ValidString(text) {
		return errors.New("toConfigurationStr: " + name + " " + strconv.Quote(text) + " is not valid UTF-8")
	}
	if text == "" {
		b.WriteString("<" + name + " />")
		return nil
	}
	b.WriteString("<" + name + ">")
	for _, r := range text {
		switch {
		case !isXMLChar(r):
			return errors.New("toConfigurationStr: character " + strconv.QuoteRune(r) + " is not allowed in XML")
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\r':
			b.WriteString("&#xD;")
		case r == '\n':
			b.WriteString("\r\n")
		case r > 0xffff:
			b.WriteString("&#x" + strconv.FormatInt(int64(r), 16) + ";")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString("</" + name + ">")
	return nil
}

// isXMLChar reports whether r is allowed in XML 1.0 character data.
func isXMLChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || (r >= 0x20 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// escapeXMLChars escapes text for XML like Oozie's XmlUtils.escapeCharsForXML:
// < > " ' & become &lt; &gt; &quot; &#039; &amp;.
func escapeXMLChars(s string) string {
	if !strings.ContainsAny(s, `<>"'&`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#039;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
