// Package client is a typed client of gozie's (and Oozie's) REST API, for the CLI and for
// tests. It decodes Oozie error responses into *Error values that carry the Oozie error code
// and message.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// APIVersion is the REST API version the client speaks.
const APIVersion = "v2"

// maxErrorBody bounds how much of an error response body is read.
const maxErrorBody = 64 << 10

// Client calls one server. Its zero value is not usable; create it with New.
type Client struct {
	base *url.URL
	http *http.Client
}

// New returns a client of the server at baseURL, which includes the context path, e.g.
// "http://localhost:11000/oozie" (what OOZIE_URL holds). A nil httpClient means
// http.DefaultClient.
func New(baseURL string, httpClient *http.Client) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil {
		return nil, fmt.Errorf("invalid server URL %q: %w", baseURL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("invalid server URL %q: want http(s)://host:port/oozie", baseURL)
	}
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	return &Client{base: u, http: httpClient}, nil
}

// Error is an error response of the server.
type Error struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Code is the Oozie error code (oozie-error-code), e.g. E0303; empty when the
	// response carried none.
	Code string
	// Message is the Oozie error message (oozie-error-message), or a description of the
	// response when it carried none.
	Message string
}

// Error formats the error as "E0303: Invalid parameter value, [systemmode] = [FOO] (HTTP 400)".
func (e *Error) Error() string {
	msg := e.Message
	if e.Code != "" && !strings.HasPrefix(msg, e.Code) {
		msg = e.Code + ": " + msg
	}
	return fmt.Sprintf("%s (HTTP %d)", msg, e.StatusCode)
}

// BuildVersion is the answer of admin/build-version.
type BuildVersion struct {
	// Version is the server's build version.
	Version string `json:"buildVersion"`
	// Info holds build.version, build.user, build.time, vc.revision and vc.url.
	Info map[string]string `json:"buildInfo"`
}

// Versions returns the REST API versions the server supports.
func (c *Client) Versions(ctx context.Context) ([]int, error) {
	var v []int
	if err := c.do(ctx, http.MethodGet, "versions", nil, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// Status returns the server's system mode: NORMAL, NOWEBSERVICE or SAFEMODE.
func (c *Client) Status(ctx context.Context) (string, error) {
	var v struct {
		SystemMode string `json:"systemMode"`
	}
	if err := c.do(ctx, http.MethodGet, APIVersion+"/admin/status", nil, &v); err != nil {
		return "", err
	}
	if v.SystemMode == "" {
		return "", errors.New("admin/status: no systemMode in the response")
	}
	return v.SystemMode, nil
}

// SetSystemMode changes the server's system mode.
func (c *Client) SetSystemMode(ctx context.Context, mode string) error {
	return c.do(ctx, http.MethodPut, APIVersion+"/admin/status", url.Values{"systemmode": {mode}}, nil)
}

// BuildVersion returns the server's build information.
func (c *Client) BuildVersion(ctx context.Context) (BuildVersion, error) {
	var v BuildVersion
	if err := c.do(ctx, http.MethodGet, APIVersion+"/admin/build-version", nil, &v); err != nil {
		return BuildVersion{}, err
	}
	return v, nil
}

// do sends one request to path (relative to the base URL) and decodes a JSON answer into
// out when out is not nil.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, out any) error {
	return c.call(ctx, request{method: method, path: path, query: query}, out)
}

// request is one call of the REST API.
type request struct {
	method, path string
	query        url.Values
	body         []byte // sent when not nil
	contentType  string // of body
}

// call sends req and decodes a JSON answer into out when out is not nil.
func (c *Client) call(ctx context.Context, req request, out any) error {
	resp, err := c.send(ctx, req, "application/json")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("%s %s: decoding response: %w", req.method, req.path, err)
	}
	return nil
}

// send sends req and returns a successful (2xx) response, whose body the caller closes;
// an error response becomes an *Error.
func (c *Client) send(ctx context.Context, req request, accept string) (*http.Response, error) {
	u := c.base.JoinPath(req.path)
	u.RawQuery = req.query.Encode()
	var body io.Reader
	if req.body != nil {
		body = bytes.NewReader(req.body)
	}
	hreq, err := http.NewRequestWithContext(ctx, req.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", req.method, req.path, err)
	}
	hreq.Header.Set("Accept", accept)
	if req.contentType != "" {
		hreq.Header.Set("Content-Type", req.contentType)
	}
	resp, err := c.http.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", req.method, req.path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, decodeError(resp)
	}
	return resp, nil
}

// decodeError builds an *Error from an error response: the Oozie headers first, then a
// JSON body with errorCode/errorMessage, then the status line and body text.
func decodeError(resp *http.Response) *Error {
	e := &Error{
		StatusCode: resp.StatusCode,
		Code:       resp.Header.Get("oozie-error-code"),
		Message:    resp.Header.Get("oozie-error-message"),
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if e.Code == "" || e.Message == "" {
		var b struct {
			Code    string `json:"errorCode"`
			Message string `json:"errorMessage"`
		}
		if json.Unmarshal(body, &b) == nil {
			if e.Code == "" {
				e.Code = b.Code
			}
			if e.Message == "" {
				e.Message = b.Message
			}
		}
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(resp.Status + " " + strings.TrimSpace(string(body)))
	}
	return e
}
