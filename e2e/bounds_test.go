package e2e

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testwait"
)

// rangeCoord is a one-minute coordinator over a one-minute dataset whose one data-in spans
// start-instance to current(0).
func rangeCoord(startInstance string) string {
	return `<coordinator-app name="range" frequency="${coord:minutes(1)}" start="${start}" end="${end}"
    timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="minutely" frequency="${coord:minutes(1)}" initial-instance="2000-01-01T00:00Z" timezone="UTC">
      <uri-template>${nameNode}/data/minutely/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="minutely">
      <start-instance>` + startInstance + `</start-instance><end-instance>${coord:current(0)}</end-instance>
    </data-in>
  </input-events>
  <action><workflow><app-path>${appPath}</app-path></workflow></action>
</coordinator-app>`
}

// peakRSS returns the peak resident set of a process in bytes (VmHWM).
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/<pid>/status")
	return 0
}

// postJob submits (and starts) a coordinator through the REST API and returns the answer's
// status, Oozie error code and body.
func (e *env) postJob(t *testing.T, props map[string]string) (int, string, string) {
	t.Helper()
	p := conf.NewProperties()
	for k, v := range props {
		p.Set(k, v)
	}
	var body bytes.Buffer
	if err := conf.WriteConfigurationXML(&body, p); err != nil {
		t.Fatal(err)
	}
	q := url.Values{"action": {"start"}, "user.name": {e.user}}
	resp, err := http.Post(e.url+"/v2/jobs?"+q.Encode(), "application/xml;charset=UTF-8", &body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("oozie-error-code"), resp.Header.Get("oozie-error-message") + string(b)
}

// TestInstanceRangeAttack is the attack of issue 13 through the real binary: a coordinator
// whose data-in starts at ${coord:current(-3000000)} on a one-minute dataset took the server
// down with out-of-memory 10 s after its 201, and again after every restart. Now its
// submission is a 400 with E1010 naming the data-in, measured without expanding anything
// (the server's peak RSS stays under 300 MB). A job an older server stored with that range
// fails its materialization with E1010 when the server restarts, and the server stays up.
func TestInstanceRangeAttack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start(t, "local cluster started", "minicluster", "-data-dir", dir)
	addr := freeAddr(t)
	dbPath := filepath.Join(dir, "gozie.db")
	serverArgs := []string{"server", "-data-dir", dir, "-db", "sqlite:" + dbPath, "-addr", addr, "-config-dir", t.TempDir()}
	server := start(t, "gozie server started", serverArgs...)
	e := &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
	appDir := filepath.Join(e.dir, "dfs", "user", e.user, "examples", "apps", "range")
	if err := os.MkdirAll(appDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(appDir, "workflow.xml"), []byte(noopWorkflow), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(startInstance string) {
		if err := os.WriteFile(filepath.Join(appDir, "coordinator.xml"), []byte(rangeCoord(startInstance)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().UTC()
	props := map[string]string{
		"user.name":                    e.user,
		"nameNode":                     e.cluster["nameNode"],
		"oozie.coord.application.path": e.cluster["nameNode"] + "/user/" + e.user + "/examples/apps/range",
		"appPath":                      e.cluster["nameNode"] + "/user/" + e.user + "/examples/apps/range",
		"start":                        now.Add(-10 * time.Minute).Format(minuteFormat),
		"end":                          now.Add(24 * time.Hour).Format(minuteFormat),
	}

	// The attack: refused at submission, cheaply.
	write("${coord:current(-3000000)}")
	status, code, msg := e.postJob(t, props)
	if status != http.StatusBadRequest || code != "E1010" || !strings.Contains(msg, "data-in[input]") {
		t.Fatalf("the attack's submission answered %d %s: %s", status, code, msg)
	}
	if peak := peakRSS(t, server.cmd.Process.Pid); peak > 300<<20 {
		t.Fatalf("the server's peak RSS is %d MB", peak>>20)
	} else {
		t.Logf("the server's peak RSS after the attack: %d MB", peak>>20)
	}

	// A job an older server stored with the range: a benign one, poisoned in the database.
	write("${coord:current(-3)}")
	status, code, msg = e.postJob(t, props)
	if status != http.StatusCreated {
		t.Fatalf("the benign submission answered %d %s: %s", status, code, msg)
	}
	var created struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(msg), &created); err != nil || created.ID == "" {
		t.Fatalf("no id in %q: %v", msg, err)
	}
	id := created.ID
	e.waitCoord(t, id, time.Minute, "its first actions", func(status string, acts []coordAction) bool { return len(acts) > 0 })
	server.kill9(t)
	db, err := sql.Open("sqlite", "file:"+dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(`UPDATE coord_jobs SET definition = replace(definition, 'coord:current(-3)', 'coord:current(-3000000)'),
  status = 'RUNNING', done_materialization = FALSE, throttle = 100 WHERE id = ?`, id) // room for more actions
	if n, _ := res.RowsAffected(); err != nil || n != 1 {
		t.Fatalf("poisoning the job: %v (%d rows)", err, n)
	}
	if _, err := db.Exec(`INSERT INTO triggers (kind, entity_id, due_at, created_time) VALUES ('coord-materialize', ?, 0, 0)
ON CONFLICT (entity_id, kind) DO UPDATE SET due_at = 0`, id); err != nil {
		t.Fatal(err)
	}
	db.Close()

	server = start(t, "gozie server started", serverArgs...)
	st := e.waitCoordJSON(t, id, 2*time.Minute, func(c coordError) bool { return c.Status == "FAILED" })
	if st.ErrorCode != "E1010" || !strings.Contains(st.ErrorMessage, "data-in[input]") {
		t.Fatalf("the poisoned job failed with %s: %s", st.ErrorCode, st.ErrorMessage)
	}
	select {
	case <-server.done:
		t.Fatalf("the server exited after the restart:\n%s", server.log())
	default:
	}
	if peak := peakRSS(t, server.cmd.Process.Pid); peak > 300<<20 {
		t.Fatalf("the restarted server's peak RSS is %d MB", peak>>20)
	} else {
		t.Logf("the restarted server's peak RSS: %d MB", peak>>20)
	}
	if out, err := e.cli(t, "admin", "-status"); err != nil || !strings.Contains(out, "NORMAL") {
		t.Fatalf("the restarted server does not answer: %v\n%s", err, out)
	}
}

// coordError is the status and error of a coordinator job as GET /v2/job/<id> shows them.
type coordError struct {
	Status       string `json:"status"`
	ErrorCode    string `json:"errorCode"`
	ErrorMessage string `json:"errorMessage"`
}

// waitCoordJSON polls GET /v2/job/<id> until cond holds.
func (e *env) waitCoordJSON(t *testing.T, id string, timeout time.Duration, cond func(coordError) bool) coordError {
	t.Helper()
	var c coordError
	// Polling the REST API as a script would.
	testwait.Poll{Timeout: timeout, Every: 200 * time.Millisecond}.WaitForLast(t, "coordinator "+id, func() (bool, string) {
		c = coordError{}
		resp, err := http.Get(e.url + "/v2/job/" + id + "?show=info&len=0")
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&c)
			resp.Body.Close()
		}
		return err == nil && cond(c), fmt.Sprintf("%+v, %v", c, err)
	})
	return c
}

// TestSubstitutionAttack is the other memory attack of issue 13 through the real binary: a
// 1 MB property referenced 19 times by each of 50 others once took the server from 24 MB to
// 1.8 GB (and 2 MB killed it). Now the submission is a 400 naming a property, and the
// server's peak RSS stays under 300 MB.
func TestSubstitutionAttack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	server, addr := startServer(t, "-local", "-data-dir", dir, "-config-dir", t.TempDir())
	e := &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
	e.writeApp(t, "noop-sub", noopWorkflow)
	props := map[string]string{
		"user.name":                 e.user,
		"oozie.wf.application.path": e.cluster["nameNode"] + "/user/" + e.user + "/examples/apps/noop-sub",
		"big":                       strings.Repeat("x", 1<<20),
	}
	for i := range 50 {
		props[fmt.Sprintf("p%02d", i)] = strings.Repeat("${big}", 19)
	}
	status, code, msg := e.postJob(t, props)
	if status != http.StatusBadRequest || !strings.Contains(msg, "variable substitution result too large") {
		t.Fatalf("the attack's submission answered %d %s: %.300s", status, code, msg)
	}
	if !regexp.MustCompile(`p\d\d`).MatchString(msg) {
		t.Errorf("the refusal names no property: %.300s", msg)
	}
	if peak := peakRSS(t, server.cmd.Process.Pid); peak > 300<<20 {
		t.Fatalf("the server's peak RSS is %d MB", peak>>20)
	} else {
		t.Logf("the server's peak RSS after the attack: %d MB", peak>>20)
	}
}
