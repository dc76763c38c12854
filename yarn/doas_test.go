package yarn_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// TestDoAs: a request made for a user (hadoop.AsUser) carries
// doAs=<user> besides the authentication (user.name=<server> here); one for
// the authenticated user itself, or for no one, carries none.
func TestDoAs(t *testing.T) {
	t.Parallel()
	seen := make(chan url.Values, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.URL.Query()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"application-id":"application_1_0001","maximum-resource-capability":{"memory":1,"vCores":1}}`))
	}))
	defer srv.Close()
	c, err := yarn.NewClient(yarn.Config{Addresses: []string{srv.URL}, Auth: yarn.PseudoAuth{User: "gozie"}, Retry: fastRetry})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ as, doAs string }{{"bob", "bob"}, {"gozie", ""}, {"", ""}} {
		if _, err := c.NewApplication(hadoop.AsUser(ctxT(t), tt.as)); err != nil {
			t.Fatal(err)
		}
		q := <-seen
		if q.Get("user.name") != "gozie" || q.Get("doAs") != tt.doAs || (tt.doAs == "" && q.Has("doAs")) {
			t.Errorf("for %q: query %v, want user.name=gozie doAs=%q", tt.as, q, tt.doAs)
		}
	}
}
