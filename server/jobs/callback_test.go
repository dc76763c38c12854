package jobs_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow/wfrun"
)

func TestCallback(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	// Launchers call back in every system mode.
	if err := f.Server.SetSystemMode(server.ModeSafe); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, action string
	}{
		{"GET", http.MethodGet, id + "@mkdir"},
		{"POST with data", http.MethodPost, id + "@mkdir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			if err := f.Store.Tx(ctx, func(x store.Tx) error { return x.Unschedule(ctx, wfrun.KindActionCheck, tt.action) }); err != nil {
				t.Fatal(err)
			}
			body := ""
			if tt.method == http.MethodPost {
				body = "key=value\n"
			}
			r := f.call(t, tt.method, "/oozie/callback?id="+tt.action+"&status=SUCCEEDED", "text/plain", body)
			if r.status != http.StatusOK || r.body != "" {
				t.Fatalf("callback: %d %s", r.status, r.body)
			}
			// The action is checked at once.
			err := f.Store.Tx(ctx, func(x store.Tx) error {
				trig, err := x.GetTrigger(ctx, wfrun.KindActionCheck, tt.action)
				if err == nil && trig.DueAt.After(f.Clock.Now()) {
					t.Errorf("check due at %s, after now %s", trig.DueAt, f.Clock.Now())
				}
				return err
			})
			if err != nil {
				t.Errorf("no action check scheduled: %v", err)
			}
		})
	}
}

func TestCallbackErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	tests := []struct {
		query     string
		status    int
		code, msg string
	}{
		{"", 400, "E0402", "E0402: Invalid callback ID []"},
		{"status=OK", 400, "E0402", "E0402: Invalid callback ID [status=OK]"},
		{"id=" + id + "@mkdir", 400, "E0402", "E0402: Invalid callback ID [id=" + id + "@mkdir]"},
		{"id=" + id + "@nope&status=OK", 404, "E0605", "E0605: Action does not exist [" + id + "@nope]"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			checkError(t, f.call(t, http.MethodGet, "/oozie/callback?"+tt.query, "", ""), tt.status, tt.code, tt.msg)
		})
	}
}
