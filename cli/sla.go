package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/server/client"
	"github.com/gozie/gozie/server/slaapi"
)

// slaRow is the table row format of `gozie sla`.
const slaRow = "%-42s%-20s%-20s%-19s%-13s%-34s%-12s%-12s\n"

// runSLA is `gozie sla -filter 'app_name=x;event_status=END_MISS'`: the SLA
// summaries of GET /v2/sla as a table (or the server's JSON with -json).
func runSLA(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("sla", env)
	var c common
	c.register(fs)
	filter := fs.String("filter", "", "`name=value;...` with app_name, id, parent_id, bundle, app_type, user_name, job_status, "+
		"sla_status, event_status, nominal_start, nominal_end, created_time_start, created_time_end, ... (required)")
	length := fs.Int("len", 0, "number of summaries shown (default the server's, 1000)")
	offset := fs.Int("offset", 0, "first summary shown (1-based)")
	sortBy := fs.String("sortby", "", "sort key, e.g. nominalTimeTS (default), expectedEndTS, appName")
	order := fs.String("order", "", "asc (default) or desc")
	asJSON := fs.Bool("json", false, "print the server's JSON")
	timezone := fs.String("timezone", "", "show dates in the time zone `ID` (default $OOZIE_TIMEZONE, then GMT)")
	localtime := fs.Bool("localtime", false, "show dates in the local time zone (overrides -timezone)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *filter == "" {
		fmt.Fprintln(env.Stderr, "sla: -filter is required, e.g. -filter 'app_name=my-app;event_status=END_MISS'")
		return errUsage
	}
	loc, err := displayZone(env, *timezone, *localtime)
	if err != nil {
		return err
	}
	q := url.Values{"filter": {*filter}}
	if *length > 0 {
		q.Set("len", strconv.Itoa(*length))
	}
	if *offset > 0 {
		q.Set("offset", strconv.Itoa(*offset))
	}
	if *sortBy != "" {
		q.Set("sortby", *sortBy)
	}
	if *order != "" {
		q.Set("order", *order)
	}
	if env.HTTPClient, err = c.auth.httpClient(env, c.url(env)); err != nil {
		return err
	}
	body, err := getSLA(ctx, env, strings.TrimSuffix(c.url(env), "/")+"/v2/sla?"+q.Encode())
	if err != nil {
		return err
	}
	if *asJSON {
		_, err := env.Stdout.Write(body)
		return err
	}
	var l slaapi.List
	if err := json.Unmarshal(body, &l); err != nil {
		return fmt.Errorf("reading the SLA summaries: %w", err)
	}
	return printSLA(env.Stdout, l.SLASummaryList, loc)
}

// getSLA fetches an SLA URL, turning an Oozie error response into a
// *client.Error.
func getSLA(ctx context.Context, env Env, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	hc := env.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("requesting SLA summaries: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading SLA summaries: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		msg := resp.Header.Get("oozie-error-message")
		if msg == "" {
			msg = resp.Status
		}
		return nil, &client.Error{StatusCode: resp.StatusCode, Code: resp.Header.Get("oozie-error-code"), Message: msg}
	}
	return body, nil
}

// printSLA prints summaries as a table; dates are epoch milliseconds from
// the server, shown in loc.
func printSLA(out io.Writer, rows []slaapi.Summary, loc *time.Location) error {
	if len(rows) == 0 {
		_, err := fmt.Fprintln(out, "No SLA records match your criteria!")
		return err
	}
	fmt.Fprintf(out, slaRow, "Job ID", "App Name", "App Type", "Nominal Time", "SLA Status", "Events", "Start Delay",
		"End Delay")
	fmt.Fprintln(out, strings.Repeat("-", 172))
	for _, s := range rows {
		fmt.Fprintf(out, slaRow, s.ID, s.AppName, s.AppType, slaTime(s.NominalTime, loc), s.SLAStatus,
			maskIfNull(s.EventStatus), minutes(s.StartDelay), minutes(s.EndDelay))
	}
	return nil
}

func slaTime(v any, loc *time.Location) string {
	ms, ok := v.(float64)
	if !ok {
		return "-"
	}
	t := time.UnixMilli(int64(ms)).In(loc)
	return t.Format("2006-01-02 15:04") + " " + shortZone(t)
}

// shortZone names a time's zone as the CLI's dates do (GMT, -07:00).
func shortZone(t time.Time) string {
	name, off := t.Zone()
	if off == 0 {
		return "GMT"
	}
	if name != "" && !strings.HasPrefix(name, "+") && !strings.HasPrefix(name, "-") {
		return name
	}
	return t.Format("-07:00")
}

func minutes(p *int64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatInt(*p, 10) + " min"
}
