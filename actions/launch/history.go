package launch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// Defaults of the JobHistory client.
const (
	// DefaultHistoryTimeout bounds one request to the JobHistory server.
	DefaultHistoryTimeout = 30 * time.Second
	// maxHistoryBody bounds an answer (a job's counters are a few KB).
	maxHistoryBody = 8 << 20
)

// ErrJobNotInHistory means the JobHistory server does not know the job:
// it has not picked up the job's history files yet (it scans the
// intermediate done directory when asked), or the job wrote none.
var ErrJobNotInHistory = errors.New("job not found by the JobHistory server")

// JobHistory is a client of the MapReduce JobHistory server's REST API
// (HsWebServices, under /ws/v1/history on mapreduce.jobhistory.webapp.address),
// where a real cluster keeps an ended job's counters; Oozie reads the same
// counters through JobClient, which asks the same server once the job's
// ApplicationMaster is gone.
type JobHistory struct {
	base *url.URL
	auth yarn.Authenticator
	hc   *http.Client
}

// NewJobHistory returns a client of the JobHistory server at addr (its web
// address, "host:19888" or a URL). auth authenticates each request as the
// server (simple: user.name; Kerberos: SPNEGO with the server's
// mapreduce.jobhistory.webapp.spnego-principal); nil sends none. hc nil
// means a client with DefaultHistoryTimeout.
func NewJobHistory(addr string, auth yarn.Authenticator, hc *http.Client) (*JobHistory, error) {
	raw := strings.TrimSpace(addr)
	if raw == "" {
		return nil, errors.New("JobHistory server: empty address")
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("JobHistory server address %q: %w", addr, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("JobHistory server address %q: want http(s)://host:port", addr)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	if hc == nil {
		hc = &http.Client{Timeout: DefaultHistoryTimeout}
	}
	return &JobHistory{base: u, auth: auth, hc: hc}, nil
}

// CounterGroup is one group of a job's counters as the JobHistory server
// writes it (CounterGroupInfo): the group's name, e.g.
// org.apache.hadoop.mapreduce.TaskCounter, and its counters.
type CounterGroup struct {
	Name     string    `json:"counterGroupName"`
	Counters []Counter `json:"counter"`
}

// Counter is one counter of a group (CounterInfo): its value for the whole
// job, and the parts of it counted by map and by reduce tasks.
type Counter struct {
	Name   string `json:"name"`
	Total  int64  `json:"totalCounterValue"`
	Map    int64  `json:"mapCounterValue"`
	Reduce int64  `json:"reduceCounterValue"`
}

// JobCounters is the answer of GET /ws/v1/history/mapreduce/jobs/{jobid}/counters
// (JobCounterInfo, under its root element "jobCounters").
type JobCounters struct {
	ID     string         `json:"id"`
	Groups []CounterGroup `json:"counterGroup"`
}

// jobCountersEnvelope wraps JobCounters as the server sends it.
type jobCountersEnvelope struct {
	JobCounters JobCounters `json:"jobCounters"`
}

// Counters returns the counters of the ended job jobID ("job_<cluster
// timestamp>_<sequence>"), asked for the effective user of ctx
// (hadoop.AsUser, sent as doAs, which a JobHistory server with proxy-user
// filtering honours). A job the server does not know is ErrJobNotInHistory.
func (h *JobHistory) Counters(ctx context.Context, jobID string) (JobCounters, error) {
	u := *h.base
	u.Path = h.base.Path + "/ws/v1/history/mapreduce/jobs/" + url.PathEscape(jobID) + "/counters"
	if user := hadoop.EffectiveUser(ctx); user != "" {
		if id, ok := h.auth.(yarn.Identity); !ok || id.AuthenticatedUser() != user {
			u.RawQuery = url.Values{"doAs": {user}}.Encode()
		}
	}
	status, body, err := h.get(ctx, &u)
	if err != nil {
		return JobCounters{}, err
	}
	where := h.base.Host
	switch {
	case status == http.StatusNotFound:
		return JobCounters{}, fmt.Errorf("counters of %s at %s: %w%s", jobID, where, ErrJobNotInHistory, remoteMessage(body))
	case status != http.StatusOK:
		return JobCounters{}, fmt.Errorf("counters of %s: JobHistory server %s answered %d %s%s",
			jobID, where, status, http.StatusText(status), remoteMessage(body))
	}
	var env jobCountersEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		return JobCounters{}, fmt.Errorf("counters of %s from %s: decoding the answer: %w", jobID, where, err)
	}
	return env.JobCounters, nil
}

// get sends one GET, once more when a session authenticator (SPNEGO) asks
// to authenticate afresh, and returns the status and body.
func (h *JobHistory) get(ctx context.Context, u *url.URL) (int, []byte, error) {
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return 0, nil, fmt.Errorf("building GET %s: %w", u.Path, err)
		}
		req.Header.Set("Accept", "application/json")
		if h.auth != nil {
			if err := h.auth.Authenticate(req); err != nil {
				return 0, nil, fmt.Errorf("authenticating to the JobHistory server %s: %w", u.Host, err)
			}
		}
		resp, err := h.hc.Do(req)
		if err != nil {
			return 0, nil, fmt.Errorf("GET %s%s: %w", u.Host, u.Path, err)
		}
		again := false
		if s, ok := h.auth.(yarn.SessionAuthenticator); ok && attempt == 0 {
			again = s.Answered(req, resp)
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxHistoryBody))
		resp.Body.Close()
		if err != nil {
			return 0, nil, fmt.Errorf("reading the answer of GET %s%s: %w", u.Host, u.Path, err)
		}
		if !again {
			return resp.StatusCode, body, nil
		}
	}
}

// remoteMessage is ": <exception>: <message>" of a RemoteException body
// (what Hadoop's web services write on errors), or "".
func remoteMessage(body []byte) string {
	var env yarn.RemoteExceptionEnvelope
	if json.Unmarshal(body, &env) != nil || env.RemoteException.Message == "" {
		return ""
	}
	return ": " + env.RemoteException.Exception + ": " + env.RemoteException.Message
}
