package miniyarn_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// testUser is who the tests act as.
const testUser = "alice"

// waitTimeout bounds every wait on a condition.
const waitTimeout = 30 * time.Second

// cluster is a started RM with a client and the transitions it reported.
type cluster struct {
	rm     *miniyarn.RM
	client *yarn.Client

	mu          sync.Mutex
	transitions map[yarn.ApplicationID][]yarn.AppState
}

func setup(t *testing.T, opts miniyarn.Options) *cluster {
	t.Helper()
	c := &cluster{transitions: map[yarn.ApplicationID][]yarn.AppState{}}
	if opts.WorkDir == "" {
		opts.WorkDir = t.TempDir()
	}
	if opts.OnTransition == nil {
		opts.OnTransition = func(id yarn.ApplicationID, s yarn.AppState) {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.transitions[id] = append(c.transitions[id], s)
		}
	}
	if opts.KillGrace == 0 {
		opts.KillGrace = 100 * time.Millisecond
	}
	rm, err := miniyarn.Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := rm.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	client, err := yarn.NewClient(yarn.Config{
		Addresses: []string{rm.WebURL()},
		Auth:      yarn.PseudoAuth{User: testUser},
		Retry:     yarn.RetryPolicy{Rounds: 3, InitialBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond},
	})
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	c.rm, c.client = rm, client
	return c
}

func (c *cluster) states(id yarn.ApplicationID) []yarn.AppState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]yarn.AppState(nil), c.transitions[id]...)
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return ctx
}

// submit reserves an id and submits the shell command line with the given
// adjustments.
func (c *cluster) submit(t *testing.T, command string, adjust func(*yarn.ApplicationSubmissionContext)) yarn.ApplicationID {
	t.Helper()
	return c.submitBy(t, c.client, command, adjust)
}

// submitBy is submit through client (another user's).
func (c *cluster) submitBy(t *testing.T, client *yarn.Client, command string, adjust func(*yarn.ApplicationSubmissionContext)) yarn.ApplicationID {
	t.Helper()
	ctx := ctxT(t)
	na, err := client.NewApplication(ctx)
	if err != nil {
		t.Fatalf("NewApplication: %v", err)
	}
	sc := yarn.ApplicationSubmissionContext{
		ApplicationID:   na.ApplicationID,
		ApplicationName: "test:" + t.Name(),
		AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{command}},
		MaxAppAttempts:  1,
		Resource:        &yarn.Resource{MemoryMB: 256, VCores: 1},
		ApplicationType: "GOZIE",
	}
	if adjust != nil {
		adjust(&sc)
	}
	if err := client.Submit(ctx, sc); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	return na.ApplicationID
}

// waitFor polls the report until cond holds or the deadline passes.
func (c *cluster) waitApp(t *testing.T, id yarn.ApplicationID, what string, cond func(yarn.AppReport) bool) yarn.AppReport {
	t.Helper()
	var r yarn.AppReport
	testwait.WaitForLast(t, waitTimeout, id.String()+" to reach "+what, func() (bool, string) {
		var err error
		r, err = c.client.App(ctxT(t), id)
		if err != nil {
			t.Fatalf("App(%s): %v", id, err)
		}
		return cond(r), fmt.Sprintf("state=%s final=%s diag=%q", r.State, r.FinalStatus, r.Diagnostics)
	})
	return r
}

func (c *cluster) waitDone(t *testing.T, id yarn.ApplicationID) yarn.AppReport {
	t.Helper()
	return c.waitApp(t, id, "a final state", func(r yarn.AppReport) bool { return r.State.Final() })
}

// httpDo sends a raw request and returns the status, headers and body.
func httpDo(t *testing.T, method, url, contentType, body string) (int, http.Header, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctxT(t), method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading %s: %v", url, err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

var noRedirect = &http.Client{
	Timeout:       waitTimeout,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// remoteException decodes an RM error body.
func remoteException(t *testing.T, body string) yarn.RemoteException {
	t.Helper()
	var env yarn.RemoteExceptionEnvelope
	if err := json.Unmarshal([]byte(body), &env); err != nil {
		t.Fatalf("error body %q is not a RemoteException: %v", body, err)
	}
	return env.RemoteException
}
