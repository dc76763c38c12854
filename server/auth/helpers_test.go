package auth_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
)

// whoamiPath is the test route that answers the identity the middleware stored.
const whoamiPath = server.ContextPath + "/v2/whoami"

// whoami is the JSON answer of whoamiPath.
type whoami struct {
	User     string `json:"user"`
	RealUser string `json:"realUser"`
	Stored   bool   `json:"stored"`
}

// testClock is a settable clock for token expiry.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newServer starts the real REST server with cfg's authentication and the whoami route on
// a loopback port.
func newServer(t *testing.T, cfg auth.Config) *httptest.Server {
	t.Helper()
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatalf("auth.New: %v", err)
	}
	srv := server.New(server.Config{Authenticator: a})
	srv.Handle(http.MethodGet, "/v2/whoami", auth.PermRead, func(w http.ResponseWriter, r *http.Request) error {
		id, ok := auth.FromContext(r.Context())
		return server.WriteJSON(w, http.StatusOK, whoami{User: auth.User(r), RealUser: id.RealUser, Stored: ok})
	})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

// response is what a test looks at in an answer.
type response struct {
	status  int
	code    string // oozie-error-code
	message string // oozie-error-message
	negot   string // WWW-Authenticate
	cookie  *http.Cookie
	who     whoami
}

// get sends a GET with the query and request options and reads the answer.
func get(t *testing.T, rawURL string, query url.Values, opts ...func(*http.Request)) response {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	u.RawQuery = query.Encode()
	req, err := http.NewRequest(http.MethodGet, u.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range opts {
		o(req)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := response{
		status: resp.StatusCode, code: resp.Header.Get(server.HeaderErrorCode),
		message: resp.Header.Get(server.HeaderErrorMessage), negot: resp.Header.Get("WWW-Authenticate"),
	}
	for _, c := range resp.Cookies() {
		if c.Name == auth.CookieName {
			out.cookie = c
		}
	}
	if resp.StatusCode == http.StatusOK && strings.HasSuffix(u.Path, "/whoami") {
		if err := json.Unmarshal(body, &out.who); err != nil {
			t.Fatalf("decoding %s: %v", body, err)
		}
	}
	return out
}

// withCookie sends the hadoop.auth cookie value v.
func withCookie(v string) func(*http.Request) {
	return func(r *http.Request) { r.AddCookie(&http.Cookie{Name: auth.CookieName, Value: v}) }
}

// withHeader sets a request header.
func withHeader(k, v string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set(k, v) }
}
