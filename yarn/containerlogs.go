package yarn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Paths of the container log web services (Hadoop 3): the NodeManager's
// NMWebServices under /ws/v1/node, and the log server's (the JobHistory
// server's HsWebServices, yarn.log.server.web-service.url) under its own
// base, /ws/v1/history on a JobHistory server.
const (
	nmWebServices = "/ws/v1/node"
	// LogServerURLKey is the yarn-site.xml key of the log server's web
	// service base URL, to which a NodeManager redirects requests for the
	// logs of containers it no longer has.
	LogServerURLKey = "yarn.log.server.web-service.url"
)

// Log aggregation types of [ContainerLogsInfo] (ContainerLogAggregationType).
const (
	LogsLocal      = "LOCAL"
	LogsAggregated = "AGGREGATED"
)

// maxLogRedirects bounds the redirects a log request follows (NodeManager
// to log server is one).
const maxLogRedirects = 2

// ContainerLogFile is one log file of a container (ContainerLogFileInfo).
type ContainerLogFile struct {
	// FileName is the file's name (stdout, stderr, syslog, ...).
	FileName string `json:"fileName"`
	// FileSize is the file's length in bytes, in decimal: Hadoop sends it as
	// a string.
	FileSize string `json:"fileSize"`
	// LastModifiedTime is the file's modification time as Hadoop formats it.
	LastModifiedTime string `json:"lastModifiedTime"`
}

// ContainerLogsInfo lists the log files of a container in one place
// (ContainerLogsInfo): the NodeManager's local directories (LOCAL) or the
// aggregated logs (AGGREGATED).
type ContainerLogsInfo struct {
	// Files are the log files.
	Files []ContainerLogFile `json:"containerLogInfo"`
	// AggregationType is LogsLocal or LogsAggregated.
	AggregationType string `json:"logAggregationType"`
	// ContainerID is the container.
	ContainerID string `json:"containerId"`
	// NodeID is the NodeManager that ran it.
	NodeID string `json:"nodeId"`
}

// ContainerLogsEnvelope is the body of GET .../containers/{id}/logs.
type ContainerLogsEnvelope struct {
	// ContainerLogsInfo holds one element per place the logs are in.
	ContainerLogsInfo containerLogsList `json:"containerLogsInfo"`
}

// containerLogsList decodes Jersey's list encoding, which writes a list of
// one element as that element.
type containerLogsList []ContainerLogsInfo

// UnmarshalJSON accepts an array or a single object.
func (l *containerLogsList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '{' {
		var one ContainerLogsInfo
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*l = containerLogsList{one}
		return nil
	}
	var many []ContainerLogsInfo
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*l = many
	return nil
}

// LogPlace says where a container's logs are served: the NodeManager that
// ran it (an application attempt's nodeHttpAddress) and, for logs that
// were aggregated, the log server.
type LogPlace struct {
	// Node is the NodeManager's web address, host:port or a URL.
	Node string
	// LogServer is yarn.log.server.web-service.url; empty when the cluster
	// names none. It is asked when the NodeManager cannot be reached.
	LogServer string
}

// ContainerLog is (the requested part of) one container log file.
type ContainerLog struct {
	// Data is the part of the file that was sent.
	Data []byte
	// Length is the whole file's length (LogLength); -1 when the answer
	// carried no header (an empty file).
	Length int64
	// AggregationType is LogsLocal or LogsAggregated.
	AggregationType string
}

// Truncated reports whether Data is less than the whole file.
func (l ContainerLog) Truncated() bool { return l.Length > int64(len(l.Data)) }

// ContainerLogs lists a container's log files, asking the NodeManager and
// following its redirect to the log server once the container is gone, as
// the job's user when ctx carries one (hadoop.AsUser).
func (c *Client) ContainerLogs(ctx context.Context, at LogPlace, id ContainerID) ([]ContainerLogsInfo, error) {
	rel := "/containers/" + url.PathEscape(id.String()) + "/logs"
	resp, err := c.getLog(ctx, at, nmWebServices+rel, rel, nil)
	if err != nil {
		return nil, fmt.Errorf("listing the logs of container %s: %w", id, err)
	}
	var env ContainerLogsEnvelope
	if err := decodeJSON(resp, &env); err != nil {
		// A bare array is what some Jersey setups write.
		var list containerLogsList
		if json.Unmarshal(resp.body, &list) != nil {
			return nil, fmt.Errorf("listing the logs of container %s: %w", id, err)
		}
		return list, nil
	}
	return env.ContainerLogsInfo, nil
}

// ContainerLogFile reads one log file of a container. size bounds what is
// sent as Hadoop's size parameter does: a positive size is the file's
// first bytes, a negative one its last, zero the whole file.
func (c *Client) ContainerLogFile(ctx context.Context, at LogPlace, id ContainerID, file string, size int64) (ContainerLog, error) {
	if file == "" || strings.ContainsAny(file, "/\\") || file == "." || file == ".." {
		return ContainerLog{}, fmt.Errorf("reading log %q of container %s: not a log file name", file, id)
	}
	q := url.Values{}
	if size != 0 {
		q.Set("size", strconv.FormatInt(size, 10))
	}
	nm := nmWebServices + "/containers/" + url.PathEscape(id.String()) + "/logs/" + url.PathEscape(file)
	ls := "/containerlogs/" + url.PathEscape(id.String()) + "/" + url.PathEscape(file)
	resp, err := c.getLog(ctx, at, nm, ls, q)
	if err != nil {
		return ContainerLog{}, fmt.Errorf("reading log %s of container %s: %w", file, id, err)
	}
	return parseContainerLog(resp.body, file, size), nil
}

// getLog asks the NodeManager for nmPath, following redirects (to the log
// server); when the NodeManager cannot be reached it asks the log server
// for lsPath under its base directly.
func (c *Client) getLog(ctx context.Context, at LogPlace, nmPath, lsPath string, q url.Values) (*response, error) {
	base, err := parseNodeBase(at.Node)
	if err != nil {
		return nil, err
	}
	u := *base
	u.Path = base.Path + nmPath
	u.RawQuery = q.Encode()
	resp, err := c.getFollowing(ctx, &u)
	if err == nil || at.LogServer == "" || ctx.Err() != nil {
		return resp, err
	}
	var rerr *RemoteError
	if errors.As(err, &rerr) {
		return nil, err // the NodeManager answered: its answer stands
	}
	ls, perr := parseNodeBase(at.LogServer)
	if perr != nil {
		return nil, fmt.Errorf("%w; log server: %w", err, perr)
	}
	v := *ls
	v.Path = ls.Path + lsPath
	v.RawQuery = q.Encode()
	resp, lerr := c.getFollowing(ctx, &v)
	if lerr != nil {
		return nil, fmt.Errorf("%w; log server: %w", err, lerr)
	}
	return resp, nil
}

// parseNodeBase makes a base URL of a web address (host:port or URL).
func parseNodeBase(addr string) (*url.URL, error) {
	addr = strings.TrimSpace(addr)
	if addr == "" {
		return nil, errors.New("no web address")
	}
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	u, err := url.Parse(addr)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("web address %q is not an http(s) host:port", addr)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// getFollowing GETs u with the client's authentication and the effective
// user of ctx, following up to maxLogRedirects redirects; an answer other
// than 200 is a [*RemoteError].
func (c *Client) getFollowing(ctx context.Context, u *url.URL) (*response, error) {
	for hop := 0; ; hop++ {
		resp, err := c.getOnce(ctx, u)
		if err != nil {
			return nil, err
		}
		switch {
		case resp.status == http.StatusOK:
			return resp, nil
		case resp.status >= 300 && resp.status < 400 && resp.header.Get("Location") != "" && hop < maxLogRedirects:
			next, err := u.Parse(resp.header.Get("Location"))
			if err != nil {
				return nil, fmt.Errorf("GET %s: bad redirect: %w", resp.url, err)
			}
			u = next
		default:
			return nil, decodeRemoteError(http.MethodGet, resp.url, resp.status, resp.body)
		}
	}
}

// getOnce makes one authenticated GET of u (see send for the RM's).
func (c *Client) getOnce(ctx context.Context, u *url.URL) (*response, error) {
	v := *u
	v.RawQuery = c.doAs(ctx, v.Query()).Encode()
	do := func() (*response, bool, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.String(), nil)
		if err != nil {
			return nil, false, fmt.Errorf("building GET %s: %w", redact(&v), err)
		}
		req.Header.Set("Accept", "application/json, text/plain")
		if c.auth != nil {
			if err := c.auth.Authenticate(req); err != nil {
				return nil, false, fmt.Errorf("authenticating GET %s: %w", redact(&v), err)
			}
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, false, fmt.Errorf("GET %s: %w", redact(&v), err)
		}
		defer resp.Body.Close()
		retry := false
		if s, ok := c.auth.(SessionAuthenticator); ok {
			retry = s.Answered(req, resp)
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
		if err != nil {
			return nil, false, fmt.Errorf("reading answer of GET %s: %w", redact(&v), err)
		}
		return &response{status: resp.StatusCode, header: resp.Header, body: b, url: redact(&v)}, retry, nil
	}
	resp, retry, err := do()
	if err != nil || !retry {
		return resp, err
	}
	resp, _, err = do()
	return resp, err
}

// parseContainerLog takes the file's bytes out of a log answer, which
// LogToolUtils frames as "Container: … on …", "LogAggregationType: …", a
// rule, "LogType:", "LogLastModifiedTime:", "LogLength:<whole file>",
// "LogContents:", the bytes, then "End of LogType:<file>…". An empty part
// has no header at all. size is the size parameter that was sent.
func parseContainerLog(body []byte, file string, size int64) ContainerLog {
	out := ContainerLog{Length: -1}
	const contents = "LogContents:\n"
	i := bytes.Index(body, []byte(contents))
	if i < 0 {
		return out
	}
	head := string(body[:i])
	for _, line := range strings.Split(head, "\n") {
		if v, ok := strings.CutPrefix(line, "LogLength:"); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				out.Length = n
			}
		}
		if v, ok := strings.CutPrefix(line, "LogAggregationType:"); ok {
			out.AggregationType = strings.TrimSpace(v)
		}
	}
	rest := body[i+len(contents):]
	n := int64(len(rest))
	if out.Length >= 0 {
		n = out.Length
		if size != 0 {
			n = min(n, abs64(size))
		}
		n = min(n, int64(len(rest)))
	} else if j := bytes.LastIndex(rest, []byte("End of LogType:"+file)); j >= 0 {
		n = int64(j)
	}
	out.Data = rest[:n]
	return out
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
