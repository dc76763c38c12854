package miniyarn_test

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// amContainer is the AM container of an application's first attempt and
// the place of its logs.
func (c *cluster) amContainer(t *testing.T, id yarn.ApplicationID) (yarn.ContainerID, yarn.LogPlace) {
	t.Helper()
	ats, err := c.client.Attempts(ctxT(t), id)
	if err != nil || len(ats) == 0 {
		t.Fatalf("Attempts(%s) = %v, %v", id, ats, err)
	}
	cid, err := yarn.ParseContainerID(ats[0].ContainerID)
	if err != nil {
		t.Fatal(err)
	}
	return cid, yarn.LogPlace{Node: ats[0].NodeHTTPAddress}
}

// waitRunning waits until the application's container runs (lenient mode
// reports RUNNING at launch).
func (c *cluster) waitRunning(t *testing.T, id yarn.ApplicationID) {
	t.Helper()
	c.waitApp(t, id, "RUNNING", func(r yarn.AppReport) bool { return r.State == yarn.StateRunning })
}

// waitLog polls a container log file until it holds want.
func (c *cluster) waitLog(t *testing.T, at yarn.LogPlace, cid yarn.ContainerID, file, want string) yarn.ContainerLog {
	t.Helper()
	var lf yarn.ContainerLog
	testwait.WaitForLast(t, waitTimeout, fmt.Sprintf("%s of %s to hold %q", file, cid, want), func() (bool, string) {
		var err error
		lf, err = c.client.ContainerLogFile(ctxT(t), at, cid, file, 0)
		return err == nil && strings.Contains(string(lf.Data), want), fmt.Sprintf("%q, %v", lf.Data, err)
	})
	return lf
}

const markerScript = "echo out-marker; echo err-marker >&2; head -c 5000 /dev/zero | tr '\\0' a; sleep 30"

func TestNMWebServicesServeLiveContainerLogs(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	id := c.submit(t, "bash -c \""+markerScript+"\" 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", nil)
	c.waitRunning(t, id)
	cid, at := c.amContainer(t, id)
	c.waitLog(t, at, cid, "stdout", "aaaa")
	lf := c.waitLog(t, at, cid, "stderr", "err-marker")
	if lf.AggregationType != yarn.LogsLocal || lf.Truncated() {
		t.Errorf("stderr: type %q, truncated %v, want LOCAL whole", lf.AggregationType, lf.Truncated())
	}
	infos, err := c.client.ContainerLogs(ctxT(t), at, cid)
	if err != nil {
		t.Fatalf("ContainerLogs: %v", err)
	}
	if len(infos) != 1 || infos[0].AggregationType != yarn.LogsLocal || infos[0].ContainerID != cid.String() {
		t.Fatalf("listing = %+v, want one LOCAL element for %s", infos, cid)
	}
	names := map[string]bool{}
	for _, f := range infos[0].Files {
		names[f.FileName] = true
	}
	if !names["stdout"] || !names["stderr"] {
		t.Errorf("listing names %v, want stdout and stderr", names)
	}
	// size: the last 100 bytes of a larger file, with its whole length.
	tail, err := c.client.ContainerLogFile(ctxT(t), at, cid, "stdout", -100)
	if err != nil {
		t.Fatal(err)
	}
	if len(tail.Data) != 100 || !tail.Truncated() || tail.Length < 5000 || strings.Trim(string(tail.Data), "a") != "" {
		t.Errorf("last 100 bytes: %d bytes of %d, truncated %v: %q", len(tail.Data), tail.Length, tail.Truncated(), tail.Data)
	}
	head, err := c.client.ContainerLogFile(ctxT(t), at, cid, "stdout", 11)
	if err != nil || string(head.Data) != "out-marker\n" {
		t.Errorf("first 11 bytes = %q, %v", head.Data, err)
	}
	// The raw answer is framed as LogToolUtils frames it, marked running.
	_, _, body := httpDo(t, http.MethodGet, "http://"+at.Node+"/ws/v1/node/containers/"+cid.String()+"/logs/stderr?user.name=alice", "", "")
	for _, want := range []string{"Container: " + cid.String() + " on ", "LogAggregationType: LOCAL", "LogType:stderr", "LogLength:11", "LogContents:\nerr-marker\n",
		"End of LogType:stderr.This log file belongs to a running container (" + cid.String() + ") and so may not be complete."} {
		if !strings.Contains(body, want) {
			t.Errorf("raw answer lacks %q:\n%s", want, body)
		}
	}
	if _, err := c.client.ContainerLogFile(ctxT(t), at, cid, "../stdout", 0); err == nil {
		t.Error("a path as file name was accepted")
	}
	if err := c.client.Kill(ctxT(t), id); err != nil {
		t.Fatal(err)
	}
}

func TestNMWebServicesRefuseUnknownContainers(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	base := "http://" + c.rm.NodeManagerAddr() + "/ws/v1/node"
	unknown := fmt.Sprintf("container_%d_9999_01_000001", 1700000000000)
	status, _, body := httpDo(t, http.MethodGet, base+"/containers/"+unknown+"/logs?user.name=alice", "", "")
	if re := remoteException(t, body); status != http.StatusNotFound || re.Exception != "NotFoundException" || !strings.Contains(re.Message, "Unknown container") {
		t.Errorf("listing of an unknown container: %d %+v", status, re)
	}
	status, _, body = httpDo(t, http.MethodGet, base+"/containers/"+unknown+"/logs/stdout?user.name=alice", "", "")
	if status != http.StatusNotFound || !strings.Contains(body, "Unknown container") {
		t.Errorf("file of an unknown container: %d %q", status, body)
	}
	status, _, body = httpDo(t, http.MethodGet, base+"/containers/not-a-container/logs?user.name=alice", "", "")
	if re := remoteException(t, body); status != http.StatusBadRequest || !strings.Contains(re.Message, "invalid container id") {
		t.Errorf("listing of a malformed id: %d %+v", status, re)
	}
	// Authentication applies as on the RM: no user.name, no anonymous access.
	strict := setup(t, miniyarn.Options{Lenient: true})
	status, _, _ = httpDo(t, http.MethodGet, "http://"+strict.rm.NodeManagerAddr()+"/ws/v1/node/containers/"+unknown+"/logs", "", "")
	if status != http.StatusUnauthorized {
		t.Errorf("anonymous listing: %d, want 401", status)
	}
}

func TestNMWebServicesCheckViewACL(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true, Conf: map[string]string{
		miniyarn.ACLEnableKey: "true", miniyarn.AdminACLKey: "yarn",
	}})
	id := c.submit(t, "echo secret 1><LOG_DIR>/stdout; sleep 30", func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.ApplicationACLs = yarn.EntryMap[string]{"VIEW_APP": "carol"}
	})
	c.waitRunning(t, id)
	cid, at := c.amContainer(t, id)
	c.waitLog(t, at, cid, "stdout", "secret")
	file := "http://" + at.Node + "/ws/v1/node/containers/" + cid.String() + "/logs/stdout?user.name="
	for user, want := range map[string]int{"alice": 200, "yarn": 200, "carol": 200, "bob": 500} {
		status, _, body := httpDo(t, http.MethodGet, file+user, "", "")
		if status != want {
			t.Errorf("%s reading the logs: %d %q, want %d", user, status, body, want)
		}
		if want == 500 && !strings.Contains(body, "User [bob] is not authorized to view the logs for application "+id.String()) {
			t.Errorf("refusal text %q", body)
		}
	}
	status, _, body := httpDo(t, http.MethodGet, "http://"+at.Node+"/ws/v1/node/containers/"+cid.String()+"/logs?user.name=bob", "", "")
	if status != http.StatusNotFound || !strings.Contains(body, "not authorized") {
		t.Errorf("bob listing the logs: %d %q", status, body)
	}
	if err := c.client.Kill(ctxT(t), id); err != nil {
		t.Fatal(err)
	}
}

func TestLogAggregationMovesLogsToTheLogServer(t *testing.T) {
	t.Parallel()
	const logServer = "http://127.0.0.1:1/ws/v1/history"
	c := setup(t, miniyarn.Options{Lenient: true, LogAggregation: true, LogServerURL: logServer})
	id := c.submit(t, "echo done-marker 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", nil)
	c.waitDone(t, id)
	cid, at := c.amContainer(t, id)
	testwait.Poll{Timeout: waitTimeout, Every: 10 * time.Millisecond}.WaitForLast(t,
		"the NodeManager to redirect to the aggregated logs after the application ended", func() (bool, string) {
			status, _, _ := httpDo(t, http.MethodGet, "http://"+at.Node+"/ws/v1/node/containers/"+cid.String()+"/logs?user.name=alice", "", "")
			return status == http.StatusTemporaryRedirect, strconv.Itoa(status)
		})
	agg, err := c.rm.AggregatedLogs().Find(cid.String())
	if err != nil || agg.Owner != testUser || agg.Node != c.rm.NodeManagerAddr() {
		t.Errorf("aggregated: %+v, %v", agg, err)
	}
	if _, err := c.rm.AggregatedLogs().Find(fmt.Sprintf("container_%d_9999_01_000001", id.ClusterTimestamp)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an unknown container's aggregated logs: %v, want fs.ErrNotExist", err)
	}
	// The NodeManager has forgotten the container: 307 to the log server.
	for _, p := range []string{"/logs", "/logs/stdout"} {
		status, h, _ := httpDo(t, http.MethodGet, "http://"+at.Node+"/ws/v1/node/containers/"+cid.String()+p+"?user.name=alice&nm.id=x", "", "")
		want := logServer + "/containers/" + cid.String() + p + "?"
		loc := h.Get("Location")
		if status != http.StatusTemporaryRedirect || !strings.HasPrefix(loc, want) || !strings.Contains(loc, "redirected_from_node=true") || strings.Contains(loc, "nm.id") {
			t.Errorf("%s after aggregation: %d Location %q, want 307 to %s…", p, status, loc, want)
		}
	}
	// The old log pages read the aggregated copy.
	r, _ := c.client.App(ctxT(t), id)
	if status, _, body := httpDo(t, http.MethodGet, r.AMContainerLogs+"/stdout", "", ""); status != 200 || !strings.Contains(body, "done-marker") {
		t.Errorf("log page after aggregation: %d %q", status, body)
	}
	// Without a log server, the NodeManager answers 404.
	c2 := setup(t, miniyarn.Options{Lenient: true, LogAggregation: true})
	id2 := c2.submit(t, "echo x 1><LOG_DIR>/stdout", nil)
	c2.waitDone(t, id2)
	cid2, at2 := c2.amContainer(t, id2)
	testwait.Poll{Timeout: waitTimeout, Every: 10 * time.Millisecond}.WaitForLast(t,
		"a 404 after aggregation without a log server", func() (bool, string) {
			status, _, _ := httpDo(t, http.MethodGet, "http://"+at2.Node+"/ws/v1/node/containers/"+cid2.String()+"/logs/stdout?user.name=alice", "", "")
			return status == http.StatusNotFound, strconv.Itoa(status)
		})
	if site := c.rm.YarnSite(); site["yarn.log-aggregation-enable"] != "true" || site[yarn.LogServerURLKey] != logServer {
		t.Errorf("yarn-site.xml lacks the log settings: %v", site)
	}
}

func TestRMWebUIApplicationPage(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true, AnonymousAllowed: true, Conf: map[string]string{
		miniyarn.ACLEnableKey: "true", miniyarn.AdminACLKey: " ",
	}})
	id := c.submit(t, "echo hi 1><LOG_DIR>/stdout", func(sc *yarn.ApplicationSubmissionContext) {
		sc.ApplicationTags = yarn.Tags{"gozie-tag-1"}
		sc.Queue = "default"
	})
	r := c.waitDone(t, id)
	// The proxy (the Console URL) leads to the RM's application page when
	// the AM gave no tracking URL.
	status, h, _ := httpDo(t, http.MethodGet, r.TrackingURL+"?user.name=alice", "", "")
	if status != http.StatusFound || h.Get("Location") != "/cluster/app/"+id.String() {
		t.Fatalf("proxy: %d Location %q", status, h.Get("Location"))
	}
	status, _, body := httpDo(t, http.MethodGet, c.rm.WebURL()+"/cluster/app/"+id.String()+"?user.name=alice", "", "")
	for _, want := range []string{"Application " + id.String(), "<td>alice</td>", "<td>FINISHED</td>", "<td>SUCCEEDED</td>",
		"gozie-tag-1", "<td>default</td>", "appattempt_", "/node/containerlogs/container_", "/ws/v1/node/containers/container_"} {
		if status != 200 || !strings.Contains(body, want) {
			t.Errorf("app page (%d) lacks %q:\n%s", status, want, body)
		}
	}
	status, _, body = httpDo(t, http.MethodGet, c.rm.WebURL()+"/cluster/apps?user.name=alice", "", "")
	if status != 200 || !strings.Contains(body, `href="/cluster/app/`+id.String()+`"`) {
		t.Errorf("apps page: %d %q", status, body)
	}
	// Another user may not see it (yarn.acl.enable, nobody an admin).
	status, _, body = httpDo(t, http.MethodGet, c.rm.WebURL()+"/cluster/app/"+id.String()+"?user.name=bob", "", "")
	if status != http.StatusForbidden || !strings.Contains(body, "You (User bob) are not authorized to view application "+id.String()) {
		t.Errorf("bob's app page: %d %q", status, body)
	}
	if _, _, body = httpDo(t, http.MethodGet, c.rm.WebURL()+"/cluster/apps?user.name=bob", "", ""); strings.Contains(body, id.String()) {
		t.Errorf("bob's apps page lists %s", id)
	}
	unknown := fmt.Sprintf("application_%d_9999", id.ClusterTimestamp)
	if status, _, _ = httpDo(t, http.MethodGet, c.rm.WebURL()+"/cluster/app/"+unknown, "", ""); status != http.StatusNotFound {
		t.Errorf("unknown application page: %d, want 404", status)
	}
}
