package oozieapi

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// AppendJSON appends v's JSON document to dst: the bytes an encoding/json Encoder with
// HTML escaping off writes for v, without its trailing newline.
//
// The documents of this package (jobs, actions, listings) and their members are written
// straight into dst, each member once: encoding/json would call each document's
// MarshalJSON and then check and copy its output again at every level of nesting, which
// was most of the CPU of a coordinator's info with fifty actions. Values of other types
// go through encoding/json unchanged.
//
// A long string met again in one document (an action's configuration, the same in
// every action of a page) is escaped once and its escaped bytes copied after that.
func AppendJSON(dst []byte, v any) ([]byte, error) {
	var a appender
	return a.value(dst, reflect.ValueOf(v))
}

// appender writes one document. It keeps where it wrote the last long strings,
// to copy their escaped form when one comes again.
type appender struct {
	seen [2]seenString
	next int // the entry of seen to replace next
}

// seenString is a string and where its escaped form is in dst.
type seenString struct {
	s          string
	start, end int
}

// repeatMin is the length from which a string is looked up among the last ones:
// comparing shorter ones costs about what escaping them does.
const repeatMin = 128

// string appends s as appendString does, copying its escaped bytes if they were
// written into dst before.
func (a *appender) string(dst []byte, s string) []byte {
	if len(s) < repeatMin {
		return appendString(dst, s)
	}
	for _, r := range a.seen {
		if len(r.s) == len(s) && r.s == s {
			return append(dst, dst[r.start:r.end]...)
		}
	}
	start := len(dst)
	dst = appendString(dst, s)
	a.seen[a.next] = seenString{s: s, start: start, end: len(dst)}
	a.next = (a.next + 1) % len(a.seen)
	return dst
}

// document is a type of this package with its own JSON form. form returns the value to
// write member by member (of a type without methods, with nil lists made empty) and
// whether its empty strings are written as null, as Oozie's documents have them.
type document interface {
	form() (plain any, nullEmpty bool)
}

var (
	documentType      = reflect.TypeFor[document]()
	dateType          = reflect.TypeFor[Date]()
	stringType        = reflect.TypeFor[string]()
	intType           = reflect.TypeFor[int]()
	boolType          = reflect.TypeFor[bool]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// marshalDocument is the MarshalJSON of every document type.
func marshalDocument(d document) ([]byte, error) {
	return AppendJSON(nil, d)
}

// value appends the JSON of v (see AppendJSON).
func (a *appender) value(dst []byte, v reflect.Value) ([]byte, error) {
	if !v.IsValid() {
		return append(dst, "null"...), nil
	}
	t := v.Type()
	// The plain kinds without methods first: most members of Oozie's documents,
	// which need none of the method lookups below.
	switch t {
	case stringType:
		return a.string(dst, v.String()), nil
	case intType:
		return strconv.AppendInt(dst, v.Int(), 10), nil
	case boolType:
		return strconv.AppendBool(dst, v.Bool()), nil
	}
	switch {
	case t == dateType:
		return appendDate(dst, v.Interface().(Date)), nil
	case t.Implements(documentType):
		plain, nullEmpty := v.Interface().(document).form()
		pv := reflect.ValueOf(plain)
		if nullEmpty {
			return a.nullingObject(dst, pv)
		}
		return a.plainObject(dst, pv)
	case t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType):
		return appendEncoded(dst, v)
	case v.CanAddr() && (reflect.PointerTo(t).Implements(jsonMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)):
		// encoding/json calls a pointer method on what it can address (a list's element).
		return appendEncoded(dst, v.Addr())
	}
	switch t.Kind() {
	case reflect.String:
		return a.string(dst, v.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(dst, v.Int(), 10), nil
	case reflect.Bool:
		return strconv.AppendBool(dst, v.Bool()), nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return appendEncoded(dst, v) // base64, as encoding/json writes bytes
		}
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i := range v.Len() {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = a.value(dst, v.Index(i)); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	}
	return appendEncoded(dst, v)
}

// appendDate appends d as Date.MarshalJSON writes it, formatting in place.
func appendDate(dst []byte, d Date) []byte {
	if d.IsZero() {
		return append(dst, "null"...)
	}
	start := len(dst)
	dst = appendDateLayout(append(dst, '"'), d.Time)
	for _, c := range dst[start+1:] {
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			// A zone name strconv.Quote would escape: leave it to Date.MarshalJSON.
			return strconv.AppendQuote(dst[:start], d.Format(DateLayout))
		}
	}
	return append(dst, '"')
}

// appendEncoded appends v as encoding/json writes it (HTML escaping off).
func appendEncoded(dst []byte, v reflect.Value) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v.Interface()); err != nil {
		return nil, fmt.Errorf("encoding %v: %w", v.Type(), err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// nullingObject appends the struct v as a JSON object whose empty-string members are
// null, members in name order (as Oozie's JSON objects, which are maps, have them).
func (a *appender) nullingObject(dst []byte, v reflect.Value) ([]byte, error) {
	fields, err := objectFields(v.Type())
	if err != nil {
		return nil, err
	}
	dst = append(dst, '{')
	first := true
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && fv.IsZero() {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, f.key...)
		start := len(dst)
		if dst, err = a.value(dst, fv); err != nil {
			return nil, fmt.Errorf("encoding %v.%s: %w", v.Type(), f.name, err)
		}
		if string(dst[start:]) == `""` {
			dst = append(dst[:start], "null"...)
		}
	}
	return append(dst, '}'), nil
}

// plainField is one member of a struct as encoding/json writes it.
type plainField struct {
	name      string
	key       []byte // "name": with the name JSON-quoted
	index     int
	omitEmpty bool
}

// plainFieldCache maps a struct type to its members in declaration order, or to nil when
// encoding/json must write it itself (a tag option this package does not write).
var plainFieldCache sync.Map

// plainFields lists the members of a struct type as encoding/json writes them, in
// declaration order; ok is false for a struct this package leaves to encoding/json.
func plainFields(t reflect.Type) (fields []plainField, ok bool) {
	if f, ok := plainFieldCache.Load(t); ok {
		return f.([]plainField), f.([]plainField) != nil
	}
	ok = true
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous || strings.Contains(","+opts+",", ",string,") || strings.Contains(","+opts+",", ",omitzero,") {
			ok = false
			break
		}
		if name == "" {
			name = sf.Name
		}
		fields = append(fields, plainField{name: name, key: append(appendString(nil, name), ':'), index: i,
			omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	if !ok {
		fields = nil
	}
	plainFieldCache.Store(t, fields)
	return fields, ok
}

// plainObject appends the struct v as encoding/json writes a struct: members in
// declaration order, omitempty as encoding/json reads it.
func (a *appender) plainObject(dst []byte, v reflect.Value) ([]byte, error) {
	fields, ok := plainFields(v.Type())
	if !ok {
		return appendEncoded(dst, v)
	}
	dst = append(dst, '{')
	first := true
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, f.key...)
		var err error
		if dst, err = a.value(dst, fv); err != nil {
			return nil, fmt.Errorf("encoding %v.%s: %w", v.Type(), f.name, err)
		}
	}
	return append(dst, '}'), nil
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// appendString appends s as a JSON string as encoding/json writes it with HTML escaping
// off: quotes, backslashes and control characters escaped, invalid UTF-8 as U+FFFD, and
// U+2028 and U+2029 escaped.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && plain8(s[i:i+8]) {
			i += 8
			continue
		}
		b := s[i]
		if b >= 0x20 && b != '"' && b != '\\' && b < utf8.RuneSelf {
			i++
			continue
		}
		if b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plain8 reports whether none of the 8 bytes of s needs escaping or decoding:
// each is ASCII, not a control character, not a quote and not a backslash. The
// tests are on the 8 bytes at once (a byte is below n when subtracting n from
// it borrows into its high bit; equal to c when its XOR with c is below 1).
func plain8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	below := func(x, n uint64) uint64 { return (x - ones*n) & ^x & highs }
	return (x&highs)|below(x, 0x20)|below(x^(ones*'"'), 1)|below(x^(ones*'\\'), 1) == 0
}

// appendDateLayout appends t in DateLayout, as t.AppendFormat(dst, DateLayout)
// does, without interpreting the layout: the dates of a page of actions are
// most of its formatting.
func appendDateLayout(dst []byte, t time.Time) []byte {
	zone, _ := t.Zone()
	year, month, day := t.Date()
	if zone == "" || year < 1000 || year > 9999 {
		return t.AppendFormat(dst, DateLayout)
	}
	hour, min, sec := t.Clock()
	two := func(dst []byte, n int) []byte { return append(dst, byte('0'+n/10), byte('0'+n%10)) }
	dst = append(dst, t.Weekday().String()[:3]...)
	dst = append(dst, ',', ' ')
	dst = two(dst, day)
	dst = append(dst, ' ')
	dst = append(dst, month.String()[:3]...)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(year), 10)
	dst = append(dst, ' ')
	dst = two(dst, hour)
	dst = append(dst, ':')
	dst = two(dst, min)
	dst = append(dst, ':')
	dst = two(dst, sec)
	dst = append(dst, ' ')
	return append(dst, zone...)
}
