package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gozie/gozie/oozieerr"
)

// FuzzAdminStatusQuery sends arbitrary query strings to PUT and GET admin/status: the answer
// is always a success or a well-formed Oozie 400 error, never a 500, and only a valid
// systemmode changes the mode. Seeds live in testdata/fuzz/FuzzAdminStatusQuery.
func FuzzAdminStatusQuery(f *testing.F) {
	f.Fuzz(func(t *testing.T, rawQuery string) {
		s := New(Config{})
		for _, method := range []string{http.MethodPut, http.MethodGet} {
			req := httptest.NewRequest(method, "/oozie/v2/admin/status", nil)
			req.URL.RawQuery = rawQuery
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, req)
			switch rec.Code {
			case http.StatusOK:
			case http.StatusBadRequest:
				//lint:ignore SA1008 writeError stores Oozie's lower-case header name verbatim
				code := rec.Header()[HeaderErrorCode]
				var body errorBody
				if len(code) != 1 || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.ErrorCode != code[0] {
					t.Fatalf("%s ?%s: malformed error response %v %q", method, rawQuery, rec.Header(), rec.Body)
				}
				switch code[0] {
				case oozieerr.E0302, oozieerr.E0303, oozieerr.E0305:
				default:
					t.Fatalf("%s ?%s: unexpected code %s", method, rawQuery, code[0])
				}
			default:
				t.Fatalf("%s ?%s: status %d", method, rawQuery, rec.Code)
			}
			if method == http.MethodPut {
				values := req.URL.Query()["systemmode"]
				want := ModeNormal
				if len(values) > 0 {
					if m, ok := ParseSystemMode(values[0]); ok {
						want = m
					}
				}
				if got := s.SystemMode(); got != want {
					t.Fatalf("PUT ?%s: mode %s, want %s", rawQuery, got, want)
				}
			}
		}
	})
}
