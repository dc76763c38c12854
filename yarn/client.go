package yarn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gozie/gozie/hadoop"
)

// Defaults of [Config].
const (
	DefaultRetryRounds    = 6
	DefaultInitialBackoff = 100 * time.Millisecond
	DefaultMaxBackoff     = 5 * time.Second
	DefaultRequestTimeout = 30 * time.Second
	// maxBody bounds a response body (a list of many reports is the largest).
	maxBody = 64 << 20
)

// standbyText is what a standby RM writes in the body of its redirect.
const standbyText = "This is standby RM"

// Config configures a [Client].
type Config struct {
	// Addresses are the ResourceManager web app base URLs, one per RM of an HA
	// setup ("http://rm1.example:8088"). A bare host:port gets "http://".
	// Required.
	Addresses []string
	// Auth authenticates requests; nil sends none (an RM without security then
	// treats the caller as its static user, dr.who).
	Auth Authenticator
	// HTTPClient sends the requests; nil means a client with a
	// DefaultRequestTimeout timeout. Its redirect policy is replaced: the client
	// handles the standby RM's 307 itself.
	HTTPClient *http.Client
	// Retry bounds retries of transient failures.
	Retry RetryPolicy
	// Logger receives debug lines about failovers and retries; nil discards them.
	Logger *slog.Logger
}

// RetryPolicy says how often and how patiently transient failures (refused
// connections, network errors, standby answers, 5xx) are retried. One round
// tries every RM once, starting with the one that answered last; rounds are
// separated by an exponential backoff with jitter. The context bounds it all.
type RetryPolicy struct {
	// Rounds is the number of rounds; 0 means DefaultRetryRounds.
	Rounds int
	// InitialBackoff is the pause after the first round; 0 means
	// DefaultInitialBackoff.
	InitialBackoff time.Duration
	// MaxBackoff caps the pause; 0 means DefaultMaxBackoff.
	MaxBackoff time.Duration
}

// Client talks to the ResourceManager REST API. It is safe for concurrent use.
type Client struct {
	bases  []*url.URL
	auth   Authenticator
	hc     *http.Client
	retry  RetryPolicy
	log    *slog.Logger
	active atomic.Int32 // index into bases of the RM that answered last
}

// NewClient returns a client for the RMs in cfg.
func NewClient(cfg Config) (*Client, error) {
	if len(cfg.Addresses) == 0 {
		return nil, errors.New("yarn client: no ResourceManager address configured")
	}
	c := &Client{auth: cfg.Auth, retry: cfg.Retry, log: cfg.Logger}
	for _, a := range cfg.Addresses {
		u, err := parseBase(a)
		if err != nil {
			return nil, fmt.Errorf("yarn client: %w", err)
		}
		c.bases = append(c.bases, u)
	}
	if c.retry.Rounds <= 0 {
		c.retry.Rounds = DefaultRetryRounds
	}
	if c.retry.InitialBackoff <= 0 {
		c.retry.InitialBackoff = DefaultInitialBackoff
	}
	if c.retry.MaxBackoff <= 0 {
		c.retry.MaxBackoff = DefaultMaxBackoff
	}
	if c.retry.MaxBackoff < c.retry.InitialBackoff {
		c.retry.MaxBackoff = c.retry.InitialBackoff
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	hc := &http.Client{Timeout: DefaultRequestTimeout}
	if cfg.HTTPClient != nil {
		copied := *cfg.HTTPClient
		hc = &copied
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c.hc = hc
	return c, nil
}

func parseBase(addr string) (*url.URL, error) {
	addr = strings.TrimSpace(addr)
	if addr == "" {
		return nil, errors.New("empty ResourceManager address")
	}
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	u, err := url.Parse(addr)
	if err != nil {
		return nil, fmt.Errorf("ResourceManager address %q: %w", addr, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("ResourceManager address %q: scheme must be http or https", addr)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("ResourceManager address %q: no host", addr)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// Addresses returns the RM base URLs, the one that answered last first.
func (c *Client) Addresses() []string {
	n := len(c.bases)
	start := int(c.active.Load())
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, c.bases[(start+i)%n].String())
	}
	return out
}

// request is one REST call.
type request struct {
	method string
	path   string // under the base URL, starting with /ws/v1/cluster
	query  url.Values
	body   any // marshalled as JSON when not nil
	// haProbe marks the cluster info call: a standby RM answers it (no redirect)
	// with haState STANDBY, which counts as a standby answer here.
	haProbe bool
}

// response is a completed exchange with an RM.
type response struct {
	status int
	header http.Header
	body   []byte
	url    string
}

// do sends r to the active RM, failing over and retrying as the policy allows.
// Any answer below 500 that is not a standby answer is returned as is.
func (c *Client) do(ctx context.Context, r request) (*response, error) {
	var payload []byte
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return nil, fmt.Errorf("encoding %s %s body: %w", r.method, r.path, err)
		}
		payload = b
	}
	n := len(c.bases)
	var lastErr error
	for round := range c.retry.Rounds {
		if round > 0 {
			if err := c.pause(ctx, round); err != nil {
				return nil, fmt.Errorf("%s %s: %w (last failure: %w)", r.method, r.path, err, lastErr)
			}
		}
		start := int(c.active.Load())
		for i := range n {
			idx := (start + i) % n
			resp, err := c.once(ctx, c.bases[idx], r, payload)
			if err != nil {
				var permanent *permanentError
				if errors.As(err, &permanent) {
					return nil, permanent.err
				}
				if ctx.Err() != nil {
					return nil, fmt.Errorf("%s %s: %w", r.method, r.path, ctx.Err())
				}
				c.log.DebugContext(ctx, "yarn: ResourceManager unreachable", "rm", c.bases[idx].Host, "err", err)
				lastErr = err
				continue
			}
			if isStandby(resp, r.haProbe) {
				c.log.DebugContext(ctx, "yarn: ResourceManager is standby", "rm", c.bases[idx].Host)
				lastErr = fmt.Errorf("%s is a standby ResourceManager", c.bases[idx].Host)
				continue
			}
			if resp.status >= 500 {
				rerr := decodeRemoteError(r.method, resp.url, resp.status, resp.body)
				c.log.DebugContext(ctx, "yarn: ResourceManager error, will retry", "rm", c.bases[idx].Host, "status", resp.status)
				lastErr = rerr
				continue
			}
			c.active.Store(int32(idx))
			return resp, nil
		}
	}
	var rerr *RemoteError
	if errors.As(lastErr, &rerr) {
		return nil, fmt.Errorf("%s %s: giving up after %d rounds: %w", r.method, r.path, c.retry.Rounds, lastErr)
	}
	return nil, fmt.Errorf("%s %s: %w after %d rounds over %d ResourceManagers: %w",
		r.method, r.path, ErrNoActiveRM, c.retry.Rounds, n, lastErr)
}

// permanentError marks a failure that retrying cannot fix (bad request setup,
// authentication failure on our side).
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }

// once sends r to one RM, for the effective user of ctx (see doAs). A
// [SessionAuthenticator] sees the answer and may have the request sent
// once more, authenticated afresh.
func (c *Client) once(ctx context.Context, base *url.URL, r request, payload []byte) (*response, error) {
	resp, retry, err := c.send(ctx, base, r, payload)
	if err != nil || !retry {
		return resp, err
	}
	resp, _, err = c.send(ctx, base, r, payload)
	return resp, err
}

// send makes one HTTP exchange; retry says the authenticator asked for
// another.
func (c *Client) send(ctx context.Context, base *url.URL, r request, payload []byte) (*response, bool, error) {
	u := *base
	u.Path = base.Path + r.path
	u.RawQuery = c.doAs(ctx, r.query).Encode()
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, false, &permanentError{fmt.Errorf("building %s %s: %w", r.method, r.path, err)}
	}
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.auth != nil {
		if err := c.auth.Authenticate(req); err != nil {
			return nil, false, &permanentError{fmt.Errorf("authenticating %s %s: %w", r.method, r.path, err)}
		}
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, false, fmt.Errorf("%s %s: %w", r.method, redact(&u), err)
	}
	defer resp.Body.Close()
	retry := false
	if s, ok := c.auth.(SessionAuthenticator); ok {
		retry = s.Answered(req, resp)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, false, fmt.Errorf("reading answer of %s %s: %w", r.method, redact(&u), err)
	}
	return &response{status: resp.StatusCode, header: resp.Header, body: b, url: redact(&u)}, retry, nil
}

// doAs adds Hadoop's doAs parameter to a request made for a user
// (hadoop.AsUser): the RM then acts for that user, if its proxy-user rules
// (hadoop.proxyuser.<authenticated user>.*) let the authenticated user do
// so, as it does for Oozie. It is independent of how the request
// authenticates: with simple authentication the request carries
// user.name=<server>&doAs=<user>, with SPNEGO the ticket names the server. A
// request for the authenticated user itself carries none.
func (c *Client) doAs(ctx context.Context, q url.Values) url.Values {
	u := hadoop.EffectiveUser(ctx)
	if u == "" {
		return q
	}
	if id, ok := c.auth.(Identity); ok && id.AuthenticatedUser() == u {
		return q
	}
	out := make(url.Values, len(q)+1)
	for k, v := range q {
		out[k] = v
	}
	out.Set("doAs", u)
	return out
}

// redact drops the query (it may hold user.name or delegation tokens).
func redact(u *url.URL) string {
	v := *u
	v.RawQuery = ""
	v.User = nil
	return v.String()
}

// isStandby recognises a standby RM's answer: a 307 redirect (with or without
// Location), its "This is standby RM" text, or, for the HA probe, haState STANDBY.
func isStandby(resp *response, haProbe bool) bool {
	if resp.status == http.StatusTemporaryRedirect {
		return true
	}
	if resp.status >= 300 && resp.status < 400 && bytes.Contains(resp.body, []byte(standbyText)) {
		return true
	}
	if haProbe && resp.status == http.StatusOK {
		var env ClusterInfoEnvelope
		if json.Unmarshal(resp.body, &env) == nil && env.ClusterInfo.HAState == HAStandby {
			return true
		}
	}
	return false
}

// pause waits the backoff before round (≥1): InitialBackoff·2^(round-1), capped
// at MaxBackoff, of which a random half is jitter.
func (c *Client) pause(ctx context.Context, round int) error {
	d := c.retry.InitialBackoff
	for i := 1; i < round && d < c.retry.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, c.retry.MaxBackoff)
	half := d / 2
	if half > 0 {
		d = half + rand.N(half+1)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// decodeJSON decodes an answer body into out.
func decodeJSON(resp *response, out any) error {
	if err := json.Unmarshal(resp.body, out); err != nil {
		return fmt.Errorf("decoding answer of %s: %w", resp.url, err)
	}
	return nil
}
