package yarn

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// REST paths under the RM base URL.
const (
	pathCluster        = "/ws/v1/cluster"
	pathInfo           = pathCluster + "/info"
	pathApps           = pathCluster + "/apps"
	pathNewApplication = pathApps + "/new-application"
)

// maxKillChecks bounds how often Kill asks again while the RM reports the kill
// as under way.
const maxKillChecks = 40

// ClusterInfo returns the information of the active RM. A standby RM answers
// this call without redirecting, so the client moves on until it finds an RM
// whose haState is not STANDBY.
func (c *Client) ClusterInfo(ctx context.Context) (ClusterInfo, error) {
	resp, err := c.do(ctx, request{method: http.MethodGet, path: pathInfo, haProbe: true})
	if err != nil {
		return ClusterInfo{}, fmt.Errorf("getting cluster info: %w", err)
	}
	if resp.status != http.StatusOK {
		return ClusterInfo{}, fmt.Errorf("getting cluster info: %w", decodeRemoteError(http.MethodGet, resp.url, resp.status, resp.body))
	}
	var env ClusterInfoEnvelope
	if err := decodeJSON(resp, &env); err != nil {
		return ClusterInfo{}, fmt.Errorf("getting cluster info: %w", err)
	}
	return env.ClusterInfo, nil
}

// NewApplication reserves an application id.
func (c *Client) NewApplication(ctx context.Context) (NewApplication, error) {
	resp, err := c.do(ctx, request{method: http.MethodPost, path: pathNewApplication})
	if err != nil {
		return NewApplication{}, fmt.Errorf("reserving an application id: %w", err)
	}
	if resp.status != http.StatusOK {
		return NewApplication{}, fmt.Errorf("reserving an application id: %w", decodeRemoteError(http.MethodPost, resp.url, resp.status, resp.body))
	}
	var na NewApplication
	if err := decodeJSON(resp, &na); err != nil {
		return NewApplication{}, fmt.Errorf("reserving an application id: %w", err)
	}
	if na.ApplicationID.IsZero() {
		return NewApplication{}, fmt.Errorf("reserving an application id: answer of %s holds no application-id", resp.url)
	}
	return na, nil
}

// Submit submits an application whose id came from [Client.NewApplication].
// Tags are checked with [ValidateTags] and lower-cased first, as the RM stores
// them. Submitting the same id again is harmless: the RM answers success for an
// application it already has, which makes retries after a lost answer safe.
func (c *Client) Submit(ctx context.Context, sc ApplicationSubmissionContext) error {
	if sc.ApplicationID.IsZero() {
		return errors.New("submitting application: no application id")
	}
	if err := ValidateTags(sc.ApplicationTags); err != nil {
		return fmt.Errorf("submitting %s: %w", sc.ApplicationID, err)
	}
	sc.ApplicationTags = normalizeTags(sc.ApplicationTags)
	resp, err := c.do(ctx, request{method: http.MethodPost, path: pathApps, body: sc})
	if err != nil {
		return fmt.Errorf("submitting %s: %w", sc.ApplicationID, err)
	}
	if resp.status != http.StatusAccepted && resp.status != http.StatusOK {
		return fmt.Errorf("submitting %s: %w", sc.ApplicationID, decodeRemoteError(http.MethodPost, resp.url, resp.status, resp.body))
	}
	return nil
}

// App returns the report of one application. An application the RM does not
// know (never submitted, or forgotten) gives an error wrapping [ErrAppNotFound].
func (c *Client) App(ctx context.Context, id ApplicationID) (AppReport, error) {
	resp, err := c.do(ctx, request{method: http.MethodGet, path: appPath(id)})
	if err != nil {
		return AppReport{}, fmt.Errorf("getting report of %s: %w", id, err)
	}
	if err := appAnswerError(http.MethodGet, id, resp, http.StatusOK); err != nil {
		return AppReport{}, fmt.Errorf("getting report of %s: %w", id, err)
	}
	var env AppReportEnvelope
	if err := decodeJSON(resp, &env); err != nil {
		return AppReport{}, fmt.Errorf("getting report of %s: %w", id, err)
	}
	return env.App, nil
}

// State returns only the state of one application.
func (c *Client) State(ctx context.Context, id ApplicationID) (AppState, error) {
	resp, err := c.do(ctx, request{method: http.MethodGet, path: appPath(id) + "/state"})
	if err != nil {
		return "", fmt.Errorf("getting state of %s: %w", id, err)
	}
	if err := appAnswerError(http.MethodGet, id, resp, http.StatusOK); err != nil {
		return "", fmt.Errorf("getting state of %s: %w", id, err)
	}
	var body AppStateBody
	if err := decodeJSON(resp, &body); err != nil {
		return "", fmt.Errorf("getting state of %s: %w", id, err)
	}
	return body.State, nil
}

// Attempts returns the attempts of one application.
func (c *Client) Attempts(ctx context.Context, id ApplicationID) ([]AppAttempt, error) {
	resp, err := c.do(ctx, request{method: http.MethodGet, path: appPath(id) + "/appattempts"})
	if err != nil {
		return nil, fmt.Errorf("getting attempts of %s: %w", id, err)
	}
	if err := appAnswerError(http.MethodGet, id, resp, http.StatusOK); err != nil {
		return nil, fmt.Errorf("getting attempts of %s: %w", id, err)
	}
	var env AppAttemptsEnvelope
	if err := decodeJSON(resp, &env); err != nil {
		return nil, fmt.Errorf("getting attempts of %s: %w", id, err)
	}
	return env.AppAttempts.AppAttempt, nil
}

// Kill kills an application and returns once the RM reports it in a final
// state. The RM answers 202 while the kill is under way; Kill then asks again
// with backoff, bounded by ctx. Killing an application that already ended
// succeeds. An unknown application gives an error wrapping [ErrAppNotFound].
func (c *Client) Kill(ctx context.Context, id ApplicationID) error {
	for check := 1; ; check++ {
		resp, err := c.do(ctx, request{
			method: http.MethodPut, path: appPath(id) + "/state",
			body: AppStateBody{State: StateKilled},
		})
		if err != nil {
			return fmt.Errorf("killing %s: %w", id, err)
		}
		if err := appAnswerError(http.MethodPut, id, resp, http.StatusOK, http.StatusAccepted); err != nil {
			return fmt.Errorf("killing %s: %w", id, err)
		}
		var body AppStateBody
		if err := decodeJSON(resp, &body); err != nil {
			return fmt.Errorf("killing %s: %w", id, err)
		}
		if resp.status == http.StatusOK { // done: final, or FINISHING (final state stored)
			return nil
		}
		if check >= maxKillChecks {
			return fmt.Errorf("killing %s: still %s after %d checks", id, body.State, check)
		}
		if err := c.pause(ctx, min(check, 6)); err != nil {
			return fmt.Errorf("killing %s: waiting for the kill to complete: %w", id, err)
		}
	}
}

// appAnswerError turns an unexpected status into an error; 404 also wraps
// ErrAppNotFound.
func appAnswerError(method string, id ApplicationID, resp *response, ok ...int) error {
	for _, s := range ok {
		if resp.status == s {
			return nil
		}
	}
	rerr := decodeRemoteError(method, resp.url, resp.status, resp.body)
	if resp.status == http.StatusNotFound {
		return fmt.Errorf("%w: %w", ErrAppNotFound, rerr)
	}
	return rerr
}

func appPath(id ApplicationID) string { return pathApps + "/" + url.PathEscape(id.String()) }

// AppsFilter selects applications for [Client.Apps]. Zero fields do not filter.
// Tags match any of the list (the RM's rule), compared in lower case.
type AppsFilter struct {
	// Tags selects apps carrying any of these tags.
	Tags []string
	// States selects apps in any of these states.
	States []AppState
	// FinalStatus selects apps with this final status.
	FinalStatus FinalStatus
	// User selects apps of this user.
	User string
	// Queue selects apps in this queue.
	Queue string
	// ApplicationTypes selects apps of any of these types.
	ApplicationTypes []string
	// StartedTimeBegin and StartedTimeEnd bound the start time (inclusive).
	StartedTimeBegin, StartedTimeEnd time.Time
	// FinishedTimeBegin and FinishedTimeEnd bound the finish time (inclusive).
	FinishedTimeBegin, FinishedTimeEnd time.Time
	// Limit caps the number of reports; 0 means no cap.
	Limit int
}

// Query returns the filter as the RM's query parameters.
func (f AppsFilter) Query() url.Values {
	q := url.Values{}
	if len(f.Tags) > 0 {
		q.Set("applicationTags", strings.Join(normalizeTags(f.Tags), ","))
	}
	if len(f.States) > 0 {
		s := make([]string, len(f.States))
		for i, st := range f.States {
			s[i] = string(st)
		}
		q.Set("states", strings.Join(s, ","))
	}
	if f.FinalStatus != "" {
		q.Set("finalStatus", string(f.FinalStatus))
	}
	if f.User != "" {
		q.Set("user", f.User)
	}
	if f.Queue != "" {
		q.Set("queue", f.Queue)
	}
	if len(f.ApplicationTypes) > 0 {
		q.Set("applicationTypes", strings.Join(f.ApplicationTypes, ","))
	}
	setMillis(q, "startedTimeBegin", f.StartedTimeBegin)
	setMillis(q, "startedTimeEnd", f.StartedTimeEnd)
	setMillis(q, "finishedTimeBegin", f.FinishedTimeBegin)
	setMillis(q, "finishedTimeEnd", f.FinishedTimeEnd)
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	return q
}

func setMillis(q url.Values, key string, t time.Time) {
	if !t.IsZero() {
		q.Set(key, strconv.FormatInt(t.UnixMilli(), 10))
	}
}

// maxTagQueryBytes bounds the applicationTags parameter of one list query: the
// RM's web server refuses request lines much longer than 8 KiB.
const maxTagQueryBytes = 6000

// Apps lists applications. It is how the engine batches its polling: one query
// (by tags, states or start time) for all the applications it follows, instead
// of one report per application. A tag list too long for one request line is
// split into several queries whose results are merged (Limit then applies per
// query). No match gives an empty list.
func (c *Client) Apps(ctx context.Context, f AppsFilter) ([]AppReport, error) {
	for _, t := range f.Tags {
		if err := validateTag(t); err != nil {
			return nil, fmt.Errorf("listing applications: %w", err)
		}
	}
	chunks := chunkTags(f.Tags)
	if len(chunks) <= 1 {
		return c.appsOnce(ctx, f)
	}
	var out []AppReport
	seen := make(map[ApplicationID]bool)
	for _, chunk := range chunks {
		part := f
		part.Tags = chunk
		reports, err := c.appsOnce(ctx, part)
		if err != nil {
			return nil, err
		}
		for _, r := range reports {
			if !seen[r.ID] {
				seen[r.ID] = true
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// chunkTags splits tags into groups whose comma-joined length stays under
// maxTagQueryBytes.
func chunkTags(tags []string) [][]string {
	var chunks [][]string
	var cur []string
	size := 0
	for _, t := range tags {
		if len(cur) > 0 && size+1+len(t) > maxTagQueryBytes {
			chunks = append(chunks, cur)
			cur, size = nil, 0
		}
		cur = append(cur, t)
		size += len(t) + 1
	}
	if len(cur) > 0 {
		chunks = append(chunks, cur)
	}
	return chunks
}

func (c *Client) appsOnce(ctx context.Context, f AppsFilter) ([]AppReport, error) {
	resp, err := c.do(ctx, request{method: http.MethodGet, path: pathApps, query: f.Query()})
	if err != nil {
		return nil, fmt.Errorf("listing applications: %w", err)
	}
	if resp.status != http.StatusOK {
		return nil, fmt.Errorf("listing applications: %w", decodeRemoteError(http.MethodGet, resp.url, resp.status, resp.body))
	}
	var env AppListEnvelope
	if err := decodeJSON(resp, &env); err != nil {
		return nil, fmt.Errorf("listing applications: %w", err)
	}
	if env.Apps == nil {
		return nil, nil
	}
	return env.Apps.App, nil
}
