package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/slaapi"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
)

// slaServer serves GET /v2/sla on a store with one late and one met
// registration.
func slaServer(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	n := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	err = st.Tx(ctx, func(x store.Tx) error {
		for _, r := range []store.SLA{
			{ID: "0000001-260301100000000-gozie-joe-W", AppName: "late-app", AppType: store.AppWorkflowJob, NominalTime: n,
				ExpectedStart: n.Add(5 * time.Minute), ActualStart: n.Add(7 * time.Minute), ExpectedEnd: n.Add(30 * time.Minute),
				ActualEnd: n.Add(42 * time.Minute), ExpectedDuration: -1, ActualDuration: 35 * 60000, JobStatus: "SUCCEEDED",
				SLAStatus: store.SLAMiss, EventStatus: "START_MISS,END_MISS", CreatedTime: n},
			{ID: "0000002-260301100000000-gozie-joe-W", AppName: "ok-app", AppType: store.AppWorkflowJob, NominalTime: n,
				ExpectedEnd: n.Add(30 * time.Minute), ActualStart: n, ActualEnd: n.Add(10 * time.Minute), ExpectedDuration: -1,
				ActualDuration: 600000, JobStatus: "SUCCEEDED", SLAStatus: store.SLAMet, EventStatus: "END_MET", CreatedTime: n},
		} {
			if err := x.InsertSLA(ctx, &r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{})
	if err := slaapi.Register(srv, slaapi.Deps{Store: st, Clock: clock.NewFake(n.Add(time.Hour))}); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs.URL + server.ContextPath
}

func runCLI(url string, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errOut, HTTPClient: http.DefaultClient,
		Getenv: func(k string) string {
			if k == "OOZIE_URL" {
				return url
			}
			return ""
		}}
	code := Run(context.Background(), args, env)
	return out.String(), errOut.String(), code
}

func TestSLACommand(t *testing.T) {
	t.Parallel()
	url := slaServer(t)
	out, errOut, code := runCLI(url, "sla", "-filter", "event_status=END_MISS")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "Job ID") ||
		!strings.Contains(lines[2], "0000001-260301100000000-gozie-joe-W") || !strings.Contains(lines[2], "late-app") ||
		!strings.Contains(lines[2], "2026-03-01 10:00 GMT") || !strings.Contains(lines[2], "START_MISS,END_MISS") ||
		!strings.Contains(lines[2], "2 min") || !strings.Contains(lines[2], "12 min") {
		t.Fatalf("table:\n%s", out)
	}
	out, _, code = runCLI(url, "sla", "-filter", "app_name=ok-app", "-json")
	if code != 0 || !strings.Contains(out, `"slaSummaryList"`) || !strings.Contains(out, `"eventStatus":"END_MET"`) {
		t.Fatalf("json (%d):\n%s", code, out)
	}
	out, _, _ = runCLI(url, "sla", "-filter", "app_name=none")
	if strings.TrimSpace(out) != "No SLA records match your criteria!" {
		t.Fatalf("empty listing: %q", out)
	}
	_, errOut, code = runCLI(url, "sla", "-filter", "bogus=1")
	if code == 0 || !strings.Contains(errOut, "Error: E0303 : E0303: Invalid parameter value, [filter]") {
		t.Fatalf("bad filter (%d): %s", code, errOut)
	}
	if _, _, code = runCLI(url, "sla"); code != 2 {
		t.Fatalf("missing -filter exits %d, want 2", code)
	}
}
