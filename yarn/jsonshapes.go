package yarn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// EntryMap is a map in the shape the RM's Jersey JSON gives Java maps:
// {"entry":[{"key":"k","value":v},…]}. Entries are written in key order so
// that the same map always encodes to the same bytes. Decoding also accepts a
// single entry object instead of a list, which Jersey emits for one-entry maps.
type EntryMap[V any] map[string]V

type entry[V any] struct {
	Key   string `json:"key"`
	Value V      `json:"value"`
}

// MarshalJSON implements json.Marshaler.
func (m EntryMap[V]) MarshalJSON() ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	entries := make([]entry[V], 0, len(keys))
	for _, k := range keys {
		entries = append(entries, entry[V]{Key: k, Value: m[k]})
	}
	return json.Marshal(struct {
		Entry []entry[V] `json:"entry"`
	}{entries})
}

// UnmarshalJSON implements json.Unmarshaler.
func (m *EntryMap[V]) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		*m = nil
		return nil
	}
	var wire struct {
		Entry json.RawMessage `json:"entry"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		return fmt.Errorf("decoding entry map: %w", err)
	}
	var entries []entry[V]
	if err := decodeOneOrMany(wire.Entry, &entries); err != nil {
		return fmt.Errorf("decoding entry map: %w", err)
	}
	out := make(EntryMap[V], len(entries))
	for _, e := range entries {
		out[e.Key] = e.Value
	}
	*m = out
	return nil
}

// Tags is the list of application tags of a submission, encoded as
// {"tag":["a","b"]}.
type Tags []string

// MarshalJSON implements json.Marshaler; it always writes an array.
func (t Tags) MarshalJSON() ([]byte, error) {
	list := []string(t)
	if list == nil {
		list = []string{}
	}
	return json.Marshal(struct {
		Tag []string `json:"tag"`
	}{list})
}

// UnmarshalJSON implements json.Unmarshaler; it accepts a single string too.
func (t *Tags) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		*t = nil
		return nil
	}
	var wire struct {
		Tag json.RawMessage `json:"tag"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		return fmt.Errorf("decoding application-tags: %w", err)
	}
	var list []string
	if err := decodeOneOrMany(wire.Tag, &list); err != nil {
		return fmt.Errorf("decoding application-tags: %w", err)
	}
	*t = list
	return nil
}

// Commands is the command list of a container launch context, encoded as
// {"command":["…"]}. The NodeManager joins the entries with single spaces and
// runs the result with bash, so one complete shell command line is the usual
// content.
type Commands []string

// MarshalJSON implements json.Marshaler; it always writes an array.
func (c Commands) MarshalJSON() ([]byte, error) {
	list := []string(c)
	if list == nil {
		list = []string{}
	}
	return json.Marshal(struct {
		Command []string `json:"command"`
	}{list})
}

// UnmarshalJSON implements json.Unmarshaler; it accepts a single string too.
func (c *Commands) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		*c = nil
		return nil
	}
	var wire struct {
		Command json.RawMessage `json:"command"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		return fmt.Errorf("decoding commands: %w", err)
	}
	var list []string
	if err := decodeOneOrMany(wire.Command, &list); err != nil {
		return fmt.Errorf("decoding commands: %w", err)
	}
	*c = list
	return nil
}

// decodeOneOrMany decodes raw, a JSON array or a single element, into *out.
func decodeOneOrMany[T any](raw json.RawMessage, out *[]T) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || isNull(raw) {
		*out = nil
		return nil
	}
	if raw[0] == '[' {
		return json.Unmarshal(raw, out)
	}
	var one T
	if err := json.Unmarshal(raw, &one); err != nil {
		return err
	}
	*out = []T{one}
	return nil
}

func isNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

// jsonInt64 decodes a JSON number, a number in a JSON string, or null (as 0). A
// few of the RM's DAOs write numbers as strings.
type jsonInt64 int64

func (n *jsonInt64) UnmarshalJSON(b []byte) error {
	s, err := numberText(b)
	if err != nil || s == "" {
		*n = 0
		return err
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil {
			return fmt.Errorf("decoding integer %s: %w", b, err)
		}
		v = int64(f)
	}
	*n = jsonInt64(v)
	return nil
}

// jsonFloat is jsonInt64's floating-point twin.
type jsonFloat float64

func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	s, err := numberText(b)
	if err != nil || s == "" {
		*f = 0
		return err
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("decoding number %s: %w", b, err)
	}
	*f = jsonFloat(v)
	return nil
}

// jsonBool decodes true/false, "true"/"false" or null (as false).
type jsonBool bool

func (v *jsonBool) UnmarshalJSON(b []byte) error {
	s, err := numberText(b)
	if err != nil || s == "" {
		*v = false
		return err
	}
	p, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("decoding boolean %s: %w", b, err)
	}
	*v = jsonBool(p)
	return nil
}

// numberText returns the text of a JSON scalar, unquoting a string; "" for null.
func numberText(b []byte) (string, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || isNull(b) {
		return "", nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return "", fmt.Errorf("decoding quoted scalar: %w", err)
		}
		return s, nil
	}
	return string(b), nil
}
