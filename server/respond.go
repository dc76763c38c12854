package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
)

// ContentTypeJSON is the content type of every JSON response, as Oozie sends it.
const ContentTypeJSON = "application/json;charset=UTF-8"

// WriteJSON writes v as a JSON response with the given status. Characters such as '<' and
// '&' are not escaped, like Oozie's JSON.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encoding JSON response: %w", err)
	}
	w.Header().Set("Content-Type", ContentTypeJSON)
	w.WriteHeader(status)
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("writing JSON response: %w", err)
	}
	return nil
}
