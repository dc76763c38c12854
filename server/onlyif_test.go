package server

import (
	"net/http"
	"testing"

	"github.com/gozie/gozie/server/auth"
)

// A route narrowed with OnlyIf answers only the requests it accepts; the others get
// what the server answers without it (here Oozie's 404 E0301 for ContextPath itself,
// registered as "").
func TestOnlyIfNarrowsARoute(t *testing.T) {
	t.Parallel()
	withFlag := func(r *http.Request) bool { return r.Header.Get("X-Pick") == "yes" }
	f := setup(t, Config{}, func(s *Server) {
		s.Handle(http.MethodGet, "", auth.PermRead, func(w http.ResponseWriter, _ *http.Request) error {
			return WriteJSON(w, http.StatusOK, map[string]string{"picked": "yes"})
		}, OnlyIf(withFlag))
	})
	bare := setup(t, Config{})
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		resp, body := f.call(t, method, ContextPath)
		want, wantBody := bare.call(t, method, ContextPath)
		if resp.StatusCode != want.StatusCode || body != wantBody || resp.Header.Get(HeaderErrorCode) != "E0301" {
			t.Errorf("%s %s without the header: %d %s, want %d %s", method, ContextPath, resp.StatusCode, body, want.StatusCode, wantBody)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, f.http.URL+ContextPath, nil)
	req.Header.Set("X-Pick", "yes")
	resp, err := f.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s with the header: %s", ContextPath, resp.Status)
	}
	if _, ok := f.srv.Permissions()["GET "+ContextPath]; !ok {
		t.Errorf("the route of ContextPath itself is not listed: %v", f.srv.Permissions())
	}
}
