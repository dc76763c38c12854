// Package slaapi serves the SLA endpoints of the REST API:
//
//	GET /oozie/v2/sla?filter=...&timezone=&len=&offset=&sortby=&order=   SLA summaries (Oozie's API)
//	GET /oozie/v2/sla/events?app_name=&event_status=&from=&to=&len=      the event history (gozie)
//
// The summary list follows Oozie: filter is required (400 E0305 without
// it), an invalid filter, sortby or order is 400 E0303, len defaults to
// 1000. Times are epoch milliseconds, or RFC 822 strings in the zone the
// timezone parameter names. Each summary carries its delays in minutes
// (startDelay, endDelay, durationDelay, omitted when there is none),
// computed at the time of the request.
package slaapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
)

// DefaultLen is how many summaries a request returns when len is not given.
const DefaultLen = 1000

// Deps is what the SLA endpoints need.
type Deps struct {
	// Store is read for the summaries. Required.
	Store store.Store
	// Clock gives "now" for the delays of jobs still waiting; default real.
	Clock clock.Clock
	// ParseTime reads filter datetimes; default Oozie's UTC mask.
	ParseTime func(string) (time.Time, error)
	// Logger receives warnings; default discards.
	Logger *slog.Logger
}

type api struct{ Deps }

// Route templates, relative to server.ContextPath.
const (
	slaPath    = "/v2/sla"
	eventsPath = "/v2/sla/events"
)

// Register adds the SLA endpoints to srv.
func Register(srv *server.Server, d Deps) error {
	if d.Store == nil {
		return errors.New("slaapi: Deps.Store is required")
	}
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	if d.ParseTime == nil {
		d.ParseTime = oozietime.UTC.Parse
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	a := &api{Deps: d}
	srv.Handle(http.MethodGet, slaPath, auth.PermRead, a.list)
	srv.Handle(http.MethodGet, eventsPath, auth.PermRead, a.events)
	return nil
}

// Summary is one SLA summary in Oozie's JSON. Time fields hold epoch
// milliseconds (int64), an RFC 822 string, or nil.
type Summary struct {
	ID               string `json:"id"`
	ParentID         string `json:"parentId,omitempty"`
	AppName          string `json:"appName"`
	AppType          string `json:"appType"`
	User             string `json:"user"`
	NominalTime      any    `json:"nominalTime"`
	ExpectedStart    any    `json:"expectedStart"`
	ActualStart      any    `json:"actualStart"`
	StartDelay       *int64 `json:"startDelay,omitempty"`
	ExpectedEnd      any    `json:"expectedEnd"`
	ActualEnd        any    `json:"actualEnd"`
	EndDelay         *int64 `json:"endDelay,omitempty"`
	ExpectedDuration int64  `json:"expectedDuration"`
	ActualDuration   int64  `json:"actualDuration"`
	DurationDelay    *int64 `json:"durationDelay,omitempty"`
	JobStatus        string `json:"jobStatus"`
	SLAStatus        string `json:"slaStatus"`
	EventStatus      string `json:"eventStatus"`
	LastModified     any    `json:"lastModified"`
	SLAAlertStatus   string `json:"slaAlertStatus"`
	// gozie additions for the dashboard.
	AlertContact    string `json:"alertContact,omitempty"`
	NotificationMsg string `json:"notificationMsg,omitempty"`
	UpstreamApps    string `json:"upstreamApps,omitempty"`
}

// List is the response of GET /v2/sla.
type List struct {
	SLASummaryList []Summary `json:"slaSummaryList"`
}

// timeWriter writes times as epoch milliseconds, or RFC 822 in loc.
type timeWriter struct{ loc *time.Location }

func (w timeWriter) t(v time.Time) any {
	if v.IsZero() {
		return nil
	}
	if w.loc == nil {
		return v.UnixMilli()
	}
	return v.In(w.loc).Format(oozieapi.DateLayout)
}

// SummaryOf renders one registration at now.
func SummaryOf(r store.SLA, now time.Time, loc *time.Location) Summary {
	tw := timeWriter{loc}
	d := sla.DelaysOf(r, now)
	opt := func(v int64, ok bool) *int64 {
		if !ok {
			return nil
		}
		return &v
	}
	actual := r.ActualDuration
	if actual < 0 && !r.ActualStart.IsZero() && r.ActualEnd.IsZero() {
		actual = now.Sub(r.ActualStart).Milliseconds() // running: elapsed so far
	}
	alerts := "Disabled"
	if r.AlertsEnabled {
		alerts = "Enabled"
	}
	return Summary{ID: r.ID, ParentID: r.ParentID, AppName: r.AppName, AppType: string(r.AppType), User: r.User,
		NominalTime: tw.t(r.NominalTime), ExpectedStart: tw.t(r.ExpectedStart), ActualStart: tw.t(r.ActualStart),
		StartDelay: opt(d.Start, d.StartOK), ExpectedEnd: tw.t(r.ExpectedEnd), ActualEnd: tw.t(r.ActualEnd),
		EndDelay: opt(d.End, d.EndOK), ExpectedDuration: r.ExpectedDuration, ActualDuration: actual,
		DurationDelay: opt(d.Duration, d.DurationOK), JobStatus: r.JobStatus, SLAStatus: string(r.SLAStatus),
		EventStatus: r.EventStatus, LastModified: tw.t(r.LastModified), SLAAlertStatus: alerts,
		AlertContact: r.AlertContact, NotificationMsg: r.NotificationMsg, UpstreamApps: r.UpstreamApps}
}

// Query is a parsed GET /v2/sla request.
type Query struct {
	Filter store.SLAFilter
	// Loc is the zone of the timezone parameter; nil means epoch millis.
	Loc *time.Location
}

// ParseQuery reads the parameters of GET /v2/sla; parse reads filter
// datetimes (nil: Oozie's UTC mask).
func ParseQuery(q url.Values, parse func(string) (time.Time, error)) (Query, error) {
	var out Query
	if parse == nil {
		parse = oozietime.UTC.Parse
	}
	if !q.Has("filter") {
		return out, server.ErrMissingParam("filter")
	}
	f, err := ParseFilter(q.Get("filter"), parse)
	if err != nil {
		return out, err
	}
	f.Limit = DefaultLen
	if v := q.Get("len"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return out, server.ErrInvalidParamValue("len", v)
		}
		f.Limit = n
	}
	if v := q.Get("offset"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return out, server.ErrInvalidParamValue("offset", v)
		}
		f.Offset = n - 1
	}
	if v := q.Get("sortby"); v != "" {
		if !oneOf(v, store.SLASortKeys) {
			return out, server.ErrInvalidParamValue("sortby", v)
		}
		f.SortBy = v
	}
	switch v := q.Get("order"); strings.ToLower(v) {
	case "", "asc":
	case "desc":
		f.Desc = true
	default:
		return out, server.ErrInvalidParamValue("order", v)
	}
	if v := q.Get("timezone"); v != "" {
		loc, err := oozietime.LoadZone(v)
		if err != nil {
			return out, server.ErrInvalidParamValue("timezone", v)
		}
		if v == "GMT" {
			loc = oozieapi.GMT
		}
		out.Loc = loc
	}
	out.Filter = f
	return out, nil
}

// Values parses a raw query with '&' as the only separator: Oozie's SLA
// filter separates its pairs with ';', which clients often send unescaped,
// and which url.ParseQuery would drop.
func Values(raw string) url.Values {
	v := url.Values{}
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		k, val, _ := strings.Cut(part, "=")
		uk, err1 := url.QueryUnescape(k)
		uv, err2 := url.QueryUnescape(val)
		if err1 != nil || err2 != nil {
			uk, uv = k, val
		}
		v.Add(uk, uv)
	}
	return v
}

// list serves GET /v2/sla.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	q, err := ParseQuery(Values(r.URL.RawQuery), a.ParseTime)
	if err != nil {
		return err
	}
	var rows []store.SLA
	err = a.Store.View(r.Context(), func(x store.Tx) (err error) { rows, err = x.ListSLAs(r.Context(), q.Filter); return })
	if err != nil {
		return err
	}
	now := a.Clock.Now()
	out := List{SLASummaryList: make([]Summary, 0, len(rows))}
	for _, row := range rows {
		out.SLASummaryList = append(out.SLASummaryList, SummaryOf(row, now, q.Loc))
	}
	return server.WriteJSON(w, http.StatusOK, out)
}

// Event is one event of the history in JSON. SLAStatus and JobStatus are
// those of the event's judgment (a START_MISS judged with END_MISS keeps
// NOT_STARTED), not the registration's now.
type Event struct {
	Seq             int64  `json:"seq"`
	ID              string `json:"id"`
	AppName         string `json:"appName"`
	EventStatus     string `json:"eventStatus"`
	SLAStatus       string `json:"slaStatus"`
	JobStatus       string `json:"jobStatus"`
	LatenessMs      int64  `json:"latenessMs"`
	LatenessMinutes int64  `json:"latenessMinutes"`
	EventTime       any    `json:"eventTime"`
}

// EventList is the response of GET /v2/sla/events.
type EventList struct {
	Events []Event `json:"slaEvents"`
}

// events serves GET /v2/sla/events: app_name (comma list), event_status
// (comma list), from and to (datetimes, inclusive), len (default 1000),
// newest first.
func (a *api) events(w http.ResponseWriter, r *http.Request) error {
	q := Values(r.URL.RawQuery)
	f := store.SLAEventFilter{Desc: true, Limit: DefaultLen}
	f.AppNames = splitList(q.Get("app_name"))
	for _, s := range splitList(q.Get("event_status")) {
		e := store.SLAEventStatus(strings.ToUpper(s))
		if !oneOf(e, store.SLAEventStatuses) {
			return server.ErrInvalidParamValue("event_status", s)
		}
		f.Statuses = append(f.Statuses, e)
	}
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		if v := q.Get(p.name); v != "" {
			t, err := a.ParseTime(v)
			if err != nil {
				return server.ErrInvalidParamValue(p.name, v)
			}
			*p.dst = t
		}
	}
	if v := q.Get("len"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return server.ErrInvalidParamValue("len", v)
		}
		f.Limit = n
	}
	var loc *time.Location
	if v := q.Get("timezone"); v != "" {
		l, err := oozietime.LoadZone(v)
		if err != nil {
			return server.ErrInvalidParamValue("timezone", v)
		}
		loc = l
	}
	var evs []store.SLAEvent
	err := a.Store.View(r.Context(), func(x store.Tx) (err error) { evs, err = x.QuerySLAEvents(r.Context(), f); return })
	if err != nil {
		return err
	}
	tw := timeWriter{loc}
	out := EventList{Events: make([]Event, 0, len(evs))}
	for _, e := range evs {
		out.Events = append(out.Events, Event{Seq: e.Seq, ID: e.SLAID, AppName: e.AppName, EventStatus: string(e.EventStatus),
			SLAStatus: string(e.SLAStatus), JobStatus: e.JobStatus, LatenessMs: e.Lateness.Milliseconds(), LatenessMinutes: int64(e.Lateness / time.Minute), EventTime: tw.t(e.EventTime)})
	}
	return server.WriteJSON(w, http.StatusOK, out)
}

// Values of the action parameter of PUT /v2/job/<id> that belong to the SLA
// service.
const (
	ActionSLAEnable  = "sla-enable"
	ActionSLADisable = "sla-disable"
	ActionSLAChange  = "sla-change"
)

// Control applies an SLA command of PUT /v2/job/<id>: sla-enable and
// sla-disable switch the email alerts of the job's registrations (its own
// and its actions'), sla-change changes their expectations with value
// ("sla-should-end=30;sla-max-duration=${2 * HOURS}"). The job endpoint
// calls it for those actions; errors carry Oozie codes (E0604, E1015).
func Control(ctx context.Context, svc *sla.Service, id, action, value string) error {
	switch action {
	case ActionSLAEnable:
		return svc.SetAlerts(ctx, id, true)
	case ActionSLADisable:
		return svc.SetAlerts(ctx, id, false)
	case ActionSLAChange:
		return svc.Change(ctx, id, value)
	}
	return server.ErrInvalidParamValue("action", action)
}
