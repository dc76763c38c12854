package sla

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/store"
)

// WebhookPayload is the JSON document a webhook receives for one event.
// Times are RFC 3339 in UTC (null when unset); durations are milliseconds.
// SLAStatus, JobStatus and the expected and actual times are those of the
// event's judgment, not of the registration at delivery.
type WebhookPayload struct {
	Seq              int64      `json:"seq"`
	ID               string     `json:"id"`
	ParentID         string     `json:"parentId,omitempty"`
	AppName          string     `json:"appName"`
	AppType          string     `json:"appType"`
	User             string     `json:"user"`
	EventStatus      string     `json:"eventStatus"`
	SLAStatus        string     `json:"slaStatus"`
	JobStatus        string     `json:"jobStatus"`
	EventTime        *time.Time `json:"eventTime"`
	NominalTime      *time.Time `json:"nominalTime"`
	ExpectedStart    *time.Time `json:"expectedStart"`
	ExpectedEnd      *time.Time `json:"expectedEnd"`
	ActualStart      *time.Time `json:"actualStart"`
	ActualEnd        *time.Time `json:"actualEnd"`
	ExpectedDuration int64      `json:"expectedDuration"`
	ActualDuration   int64      `json:"actualDuration"`
	// LatenessMs is actual minus expected for this event; LatenessMinutes
	// the same in whole minutes (negative: early).
	LatenessMs      int64  `json:"latenessMs"`
	LatenessMinutes int64  `json:"latenessMinutes"`
	NotificationMsg string `json:"notificationMsg,omitempty"`
	UpstreamApps    string `json:"upstreamApps,omitempty"`
	AlertContact    string `json:"alertContact,omitempty"`
}

// PayloadOf builds the webhook document of n: the statuses and times are
// the event's, as it was judged.
func PayloadOf(n Notification) WebhookPayload {
	t := func(v time.Time) *time.Time {
		if v.IsZero() {
			return nil
		}
		u := v.UTC()
		return &u
	}
	s, e := n.SLA, n.Event
	return WebhookPayload{Seq: e.Seq, ID: s.ID, ParentID: s.ParentID, AppName: s.AppName, AppType: string(s.AppType),
		User: s.User, EventStatus: string(e.EventStatus), SLAStatus: string(e.SLAStatus), JobStatus: e.JobStatus,
		EventTime: t(e.EventTime), NominalTime: t(s.NominalTime), ExpectedStart: t(e.ExpectedStart),
		ExpectedEnd: t(e.ExpectedEnd), ActualStart: t(e.ActualStart), ActualEnd: t(e.ActualEnd),
		ExpectedDuration: e.ExpectedDuration, ActualDuration: e.ActualDuration,
		LatenessMs: e.Lateness.Milliseconds(), LatenessMinutes: int64(e.Lateness / time.Minute),
		NotificationMsg: s.NotificationMsg, UpstreamApps: s.UpstreamApps, AlertContact: s.AlertContact}
}

// Webhook posts events as JSON to one URL.
type Webhook struct {
	// URL receives POST requests with a WebhookPayload body.
	URL string
	// Events are the events sent; empty means the three misses.
	Events []store.SLAEventStatus
	// Client sends the requests; default a client with a 10s timeout.
	Client *http.Client
	// Retry says how failed deliveries (network errors, 5xx, 429) are
	// retried; other 4xx answers are not.
	Retry Retry
}

// Name returns "webhook".
func (w *Webhook) Name() string { return "webhook" }

// Wants reports whether the event is one of w.Events.
func (w *Webhook) Wants(n Notification) bool {
	if len(w.Events) == 0 {
		return IsMiss(n.Event.EventStatus)
	}
	for _, e := range w.Events {
		if e == n.Event.EventStatus {
			return true
		}
	}
	return false
}

// Notify posts the event, retrying with backoff. The request carries the
// event's sequence number in X-Gozie-Event-Seq, so that a receiver can drop
// the duplicates an at-least-once delivery may bring.
func (w *Webhook) Notify(ctx context.Context, n Notification) error {
	body, err := json.Marshal(PayloadOf(n))
	if err != nil {
		return fmt.Errorf("webhook payload: %w", err)
	}
	client := w.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	return w.Retry.do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
		if err != nil {
			return permanent{fmt.Errorf("webhook %s: %w", w.URL, err)}
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Gozie-Event-Seq", strconv.FormatInt(n.Event.Seq, 10))
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("webhook %s: %w", w.URL, err)
		}
		defer resp.Body.Close()
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		switch {
		case resp.StatusCode < 300:
			return nil
		case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
			return fmt.Errorf("webhook %s: %s: %s", w.URL, resp.Status, strings.TrimSpace(string(msg)))
		}
		return permanent{fmt.Errorf("webhook %s: %s: %s", w.URL, resp.Status, strings.TrimSpace(string(msg)))}
	})
}

// ParseEvents reads a comma list of event statuses; "ALL" means every
// event and empty means none given.
func ParseEvents(v string) ([]store.SLAEventStatus, error) {
	var out []store.SLAEventStatus
	for _, p := range strings.Split(v, ",") {
		p = strings.ToUpper(strings.TrimSpace(p))
		if p == "" {
			continue
		}
		if p == "ALL" {
			return append([]store.SLAEventStatus(nil), store.SLAEventStatuses...), nil
		}
		e := store.SLAEventStatus(p)
		ok := false
		for _, k := range store.SLAEventStatuses {
			ok = ok || k == e
		}
		if !ok {
			return nil, fmt.Errorf("unknown SLA event %q", p)
		}
		out = append(out, e)
	}
	return out, nil
}
