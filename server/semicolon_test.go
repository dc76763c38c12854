package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gozie/gozie/server/auth"
)

// Oozie's clients send filters with raw semicolons (filter=status=RUNNING;name=x); the
// handlers must see the whole value, as a servlet container passes it.
func TestRawSemicolonsStayInValues(t *testing.T) {
	t.Parallel()
	f := setup(t, Config{}, func(s *Server) {
		s.Handle(http.MethodGet, "/v2/echo", auth.PermRead, func(w http.ResponseWriter, r *http.Request) error {
			q := r.URL.Query()
			return WriteJSON(w, http.StatusOK, map[string]string{"filter": q.Get("filter"), "len": q.Get("len")})
		})
	})
	for _, tt := range []struct{ query, want string }{
		{"filter=status=PREP;status=RUNNING&len=5", `{"filter":"status=PREP;status=RUNNING","len":"5"}`},
		{"filter=status%3DPREP%3Bname%3Dx&len=5", `{"filter":"status=PREP;name=x","len":"5"}`},
		{"len=5&filter=name=a;;user=b;", `{"filter":"name=a;;user=b;","len":"5"}`},
		{"filter=plain", `{"filter":"plain","len":""}`},
	} {
		resp, body := f.call(t, http.MethodGet, "/oozie/v2/echo?"+tt.query)
		if resp.StatusCode != http.StatusOK || strings.TrimSpace(body) != tt.want {
			t.Errorf("?%s: %d %s, want %s", tt.query, resp.StatusCode, body, tt.want)
		}
	}
}
