package hive2

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/spnego"
)

// spnegoRelay lets gohive's HTTP transport, which can only send basic
// authentication without cgo, reach a Kerberized HiveServer2: gohive
// dials it (an in-memory pipe) instead of the server, and each request
// it reads there is sent on to the server with a fresh "Authorization:
// Negotiate" header in place of gohive's, and doAs=<user> in the query
// (how Hive's HTTP transport names the user to act for), over a client
// that does the TLS of ssl=true itself.
type spnegoRelay struct {
	ctx    context.Context
	base   string // scheme://host:port
	client *http.Client
	krb    *krbclient.Client
	spn    string
	doAs   string

	mu      sync.Mutex
	lastErr error // why the last request failed, for connect's error
}

// err returns why the last relayed request failed, if it did.
func (r *spnegoRelay) err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastErr
}

// newSPNEGORelay builds a relay to addr; dial opens its TCP connections.
func newSPNEGORelay(ctx context.Context, addr string, tlsConf *tls.Config, dial func(context.Context, string, string) (net.Conn, error),
	krb *krbclient.Client, principal, doAs string) *spnegoRelay {
	scheme := "http"
	if tlsConf != nil {
		scheme = "https"
	}
	spn, _ := splitPrincipal(principal)
	tr := &http.Transport{DialContext: dial, TLSClientConfig: tlsConf}
	return &spnegoRelay{ctx: ctx, base: scheme + "://" + addr, client: &http.Client{Transport: tr},
		krb: krb, spn: spn, doAs: doAs}
}

// dial is gohive's DialContext: the relay serves the other end of a pipe.
func (r *spnegoRelay) dial(context.Context, string, string) (net.Conn, error) {
	near, far := net.Pipe()
	go r.serve(far)
	return near, nil
}

// serve relays the requests read on c until either side closes it.
func (r *spnegoRelay) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		resp, err := r.forward(req)
		r.mu.Lock()
		r.lastErr = err
		r.mu.Unlock()
		if err != nil {
			resp = &http.Response{StatusCode: http.StatusBadGateway, ProtoMajor: 1, ProtoMinor: 1,
				Header: http.Header{"Content-Type": {"text/plain"}}, Body: io.NopCloser(bytes.NewBufferString(err.Error()))}
			resp.ContentLength = int64(len(err.Error()))
		}
		werr := resp.Write(c)
		resp.Body.Close()
		if werr != nil || err != nil {
			return
		}
	}
}

// forward sends one request to the server with SPNEGO authentication.
func (r *spnegoRelay) forward(in *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(in.Body)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(r.base + in.URL.RequestURI())
	if err != nil {
		return nil, err
	}
	if r.doAs != "" {
		q := u.Query()
		q.Set("doAs", r.doAs)
		u.RawQuery = q.Encode()
	}
	out, err := http.NewRequestWithContext(r.ctx, in.Method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, vs := range in.Header {
		if k != "Authorization" {
			out.Header[k] = vs
		}
	}
	if err := spnego.SetSPNEGOHeader(r.krb, out, r.spn); err != nil {
		return nil, fmt.Errorf("SPNEGO for %s: %w", r.spn, err)
	}
	resp, err := r.client.Do(out)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized {
		resp.Body.Close()
		return nil, fmt.Errorf("HiveServer2 refused SPNEGO authentication as %s (HTTP 401)", r.krb.Credentials.CName().PrincipalNameString())
	}
	return resp, nil
}
