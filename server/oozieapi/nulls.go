package oozieapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// marshalNullingEmpty encodes v (a struct) as a JSON object whose empty-string members are
// null, as Oozie's JSON has them, members in name order. HTML characters are not escaped,
// like Oozie's JSON: a configuration or an action's XML stays readable.
//
// It encodes each member once (the field list of a type is worked out once and cached),
// rather than encoding the whole struct, decoding it and encoding it again: job info
// answers with many actions spend most of their time here.
func marshalNullingEmpty(v any) ([]byte, error) {
	var a appender
	return a.nullingObject(nil, reflect.ValueOf(v))
}

// objectField is one member of a struct's JSON object.
type objectField struct {
	name      string
	key       []byte // "name": with the name JSON-quoted
	index     int
	kind      reflect.Kind
	omitEmpty bool
}

// fieldCache maps a struct type to its members in name order.
var fieldCache sync.Map

// objectFields lists the JSON members of a struct type as encoding/json
// names them (the json tag's name, or the field name), sorted by name as the
// encoding of a map sorts them; unexported and "-" fields are left out.
// Embedded structs are not used by these types and are refused.
func objectFields(t reflect.Type) ([]objectField, error) {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]objectField), nil
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("encoding %v: not a struct", t)
	}
	var fields []objectField
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return nil, fmt.Errorf("encoding %v: embedded field %s is not supported", t, sf.Name)
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		key, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		fields = append(fields, objectField{name: name, key: append(key, ':'), index: i, kind: sf.Type.Kind(),
			omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	sort.SliceStable(fields, func(a, b int) bool { return fields[a].name < fields[b].name })
	fieldCache.Store(t, fields)
	return fields, nil
}

// encodeRaw is json.Marshal without HTML escaping and without the trailing newline.
func encodeRaw(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding %T: %w", v, err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
