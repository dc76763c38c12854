package yarn_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// fakeNodeLogs is a NodeManager that has forgotten every container (307
// to the log server) and a log server that serves one, recording the
// queries it was sent.
func fakeNodeLogs(t *testing.T) (nm, logServer *httptest.Server, queries chan string) {
	t.Helper()
	queries = make(chan string, 10)
	logServer = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries <- r.URL.RawQuery
		switch r.URL.Path {
		case "/ws/v1/history/containers/container_1_0001_01_000001/logs":
			// Jersey's single-element list: an object, not an array.
			w.Write([]byte(`{"containerLogsInfo":{"containerLogInfo":[{"fileName":"stdout","fileSize":"6","lastModifiedTime":"x"}],` +
				`"logAggregationType":"AGGREGATED","containerId":"container_1_0001_01_000001","nodeId":"n:1"}}`))
		case "/ws/v1/history/containers/container_1_0001_01_000001/logs/stdout":
			w.Write([]byte("Container: container_1_0001_01_000001 on n:1\nLogAggregationType: AGGREGATED\n===\nLogType:stdout\n" +
				"LogLastModifiedTime:x\nLogLength:6\nLogContents:\nhello\nEnd of LogType:stdout.\n*****\n\n"))
		case "/ws/v1/history/containers/container_1_0001_01_000001/logs/stderr":
			w.Write([]byte("End of LogType:stderr.\n*****\n\n")) // an empty file: no header
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(logServer.Close)
	nm = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel := strings.TrimPrefix(r.URL.Path, "/ws/v1/node")
		http.Redirect(w, r, logServer.URL+"/ws/v1/history"+rel+"?"+r.URL.RawQuery+"&redirected_from_node=true", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(nm.Close)
	return nm, logServer, queries
}

func TestContainerLogsFollowTheNodeManagersRedirect(t *testing.T) {
	t.Parallel()
	nm, _, queries := fakeNodeLogs(t)
	c, err := yarn.NewClient(yarn.Config{Addresses: []string{nm.URL}, Auth: yarn.PseudoAuth{User: "gozie"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ctx = hadoop.AsUser(ctx, "alice")
	cid, _ := yarn.ParseContainerID("container_1_0001_01_000001")
	at := yarn.LogPlace{Node: strings.TrimPrefix(nm.URL, "http://")}
	infos, err := c.ContainerLogs(ctx, at, cid)
	if err != nil || len(infos) != 1 || infos[0].AggregationType != yarn.LogsAggregated || infos[0].Files[0].FileName != "stdout" {
		t.Fatalf("ContainerLogs = %+v, %v", infos, err)
	}
	if q := <-queries; !strings.Contains(q, "doAs=alice") || !strings.Contains(q, "user.name=gozie") {
		t.Errorf("the log server was asked without the job's identity: %q", q)
	}
	lf, err := c.ContainerLogFile(ctx, at, cid, "stdout", -1<<20)
	if err != nil || string(lf.Data) != "hello\n" || lf.Length != 6 || lf.Truncated() {
		t.Errorf("stdout = %+v, %v", lf, err)
	}
	if q := <-queries; !strings.Contains(q, "size=-1048576") {
		t.Errorf("size not sent: %q", q)
	}
	lf, err = c.ContainerLogFile(ctx, at, cid, "stderr", 0)
	if err != nil || len(lf.Data) != 0 || lf.Truncated() {
		t.Errorf("empty stderr = %+v, %v", lf, err)
	}
	_, err = c.ContainerLogFile(ctx, at, cid, "syslog", 0)
	var re *yarn.RemoteError
	if err == nil || !errors.As(err, &re) || re.StatusCode != http.StatusNotFound {
		t.Errorf("missing file: %v, want a 404 RemoteError", err)
	}
}
