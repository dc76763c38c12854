package server

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/gozie/gozie/server/oozieapi"
)

// ContentTypeJSON is the content type of every JSON response, as Oozie sends it.
const ContentTypeJSON = "application/json;charset=UTF-8"

// jsonBuffers holds response buffers between requests (memory only: nothing of one
// answer is read by the next).
var jsonBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledBuffer bounds the buffers kept in jsonBuffers, so that one huge answer does
// not pin its memory.
const maxPooledBuffer = 1 << 20

// WriteJSON writes v as a JSON response with the given status. Characters such as '<' and
// '&' are not escaped, like Oozie's JSON. Oozie's documents (package oozieapi) are encoded
// straight into the response's buffer (oozieapi.AppendJSON), each member once; the whole
// answer is encoded before the status is sent, so an encoding error is still a 500.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	bp := jsonBuffers.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= maxPooledBuffer {
			jsonBuffers.Put(bp)
		}
	}()
	b, err := oozieapi.AppendJSON((*bp)[:0], v)
	if err != nil {
		return fmt.Errorf("encoding JSON response: %w", err)
	}
	b = append(b, '\n')
	*bp = b
	w.Header().Set("Content-Type", ContentTypeJSON)
	// With its length known the answer is sent as it is, not in chunks
	// (which a client must then take apart).
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("writing JSON response: %w", err)
	}
	return nil
}
