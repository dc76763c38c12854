package launcher

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestNotifyRetriesUntilTheServerAnswers(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	var status atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 3 {
			http.Error(w, "not yet", http.StatusServiceUnavailable)
			return
		}
		status.Store(r.URL.Query().Get("status"))
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := notify(ctx, srv.Client(), srv.URL+"/callback?id=a&status=", StatusSucceeded); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 3 || status.Load() != StatusSucceeded {
		t.Errorf("%d calls, status %v", calls.Load(), status.Load())
	}
}

func TestNotifyGivesUpWithItsContext(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	if err := notify(ctx, srv.Client(), srv.URL+"/?status=", StatusFailed); err == nil {
		t.Fatal("notify succeeded against a failing server")
	}
}
