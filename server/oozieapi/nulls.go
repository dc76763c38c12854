package oozieapi

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// marshalNullingEmpty encodes v (a struct) as a JSON object whose empty-string members are
// null, as Oozie's JSON has them. HTML characters are not escaped, like Oozie's JSON: a
// configuration or an action's XML stays readable.
func marshalNullingEmpty(v any) ([]byte, error) {
	raw, err := encodeRaw(v)
	if err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return nil, fmt.Errorf("re-reading %T: %w", v, err)
	}
	for k, m := range members {
		if bytes.Equal(m, []byte(`""`)) {
			members[k] = json.RawMessage("null")
		}
	}
	return encodeRaw(members)
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
