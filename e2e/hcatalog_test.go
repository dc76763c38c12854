package e2e

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/beltran/gohive"
	"github.com/gozie/gozie/internal/testapps"
)

// hiveConn connects to the local cluster's HiveServer2 as the cluster's
// user.
func (e *env) hiveConn(t *testing.T) *gohive.Connection {
	t.Helper()
	u, err := url.Parse(strings.TrimPrefix(e.cluster["hive2JdbcUrl"], "jdbc:"))
	if err != nil {
		t.Fatalf("hive2JdbcUrl %q: %v", e.cluster["hive2JdbcUrl"], err)
	}
	host, port, _ := net.SplitHostPort(u.Host)
	p, _ := strconv.Atoi(port)
	cfg := gohive.NewConnectConfiguration()
	cfg.Username, cfg.Password, cfg.PollIntervalInMillis = e.user, "x", 50
	conn, err := gohive.Connect(host, p, "NONE", cfg)
	if err != nil {
		t.Fatalf("connecting to HiveServer2: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// hiveExec runs statements on HiveServer2, failing the test on an error.
func hiveExec(t *testing.T, conn *gohive.Connection, stmts ...string) {
	t.Helper()
	for _, sql := range stmts {
		cur := conn.Cursor()
		cur.Exec(context.Background(), sql)
		err := cur.Err
		cur.Close()
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
}

// hivePairs runs a query of two columns and returns its rows as "a,b".
func hivePairs(t *testing.T, conn *gohive.Connection, sql string) []string {
	t.Helper()
	ctx := context.Background()
	cur := conn.Cursor()
	defer cur.Close()
	cur.Exec(ctx, sql)
	var out []string
	for cur.Err == nil && cur.HasMore(ctx) {
		var a int32
		var b string
		cur.FetchOne(ctx, &a, &b)
		if cur.Err == nil {
			out = append(out, fmt.Sprintf("%d,%s", a, b))
		}
	}
	if cur.Err != nil {
		t.Fatalf("%s: %v", sql, cur.Err)
	}
	slices.Sort(out)
	return out
}

// TestHCatalogExampleWaitsForThePartition runs gozie's hcatalog example
// unchanged with local-cluster.properties' hcatNode: the coordinator's
// action WAITS on the partition ds=2010-01-01;region=us of default.invites
// (no done-flag), and once the partition is added through HiveServer2 the
// metastore's ADD_PARTITION event wakes it. The input-check interval is an
// hour, so only the notification can start the action within the test's
// deadline; the hive action then copies the partition's rows into
// invites_copy's partition named by the HCatalog EL.
//
// Oozie's hcatalog example needs pig with HCatLoader/HCatStorer; it runs
// only through gozie's own app here.
func TestHCatalogExampleWaitsForThePartition(t *testing.T) {
	t.Parallel()
	e := localServerWith(t, "-coord.input-check.min-interval", "1h", "-coord.input-check.max-interval", "1h")
	if e.cluster["hcatNode"] == "" {
		t.Fatalf("local-cluster.properties names no hcatNode: %v", e.cluster)
	}
	conn := e.hiveConn(t)
	hiveExec(t, conn,
		"CREATE TABLE invites (foo INT, bar STRING) PARTITIONED BY (ds STRING, region STRING)",
		"CREATE TABLE invites_copy (foo INT, bar STRING) PARTITIONED BY (ds STRING, region STRING)",
		// Another region's partition wakes nothing.
		"INSERT INTO invites PARTITION (ds='2010-01-01', region='eu') VALUES (9, 'z')")
	app := e.copyApp(t, testapps.App(t, "hcatalog"), "hcatalog")
	id := e.run(t, filepath.Join(app, "job.properties"), "hcatNode="+e.cluster["hcatNode"])

	want := e.cluster["hcatNode"] + "/default/invites/ds=2010-01-01;region=us"
	e.waitCoord(t, id, time.Minute, "a waiting action", func(_ string, acts []coordAction) bool {
		return len(acts) == 1 && acts[0].Status == "WAITING" && acts[0].FirstMissing == want
	})
	// The action has been checked and waits for its next check, an hour
	// away, or for the notification.
	hiveExec(t, conn, "INSERT INTO invites PARTITION (ds='2010-01-01', region='us') VALUES (1, 'a'), (2, 'b')")
	status, acts := e.waitCoord(t, id, 3*time.Minute, "the job's end", func(status string, _ []coordAction) bool {
		return coordTerminal(status)
	})
	if status != "SUCCEEDED" || acts[0].Status != "SUCCEEDED" {
		t.Fatalf("coordinator %s ended %s, action %+v", id, status, acts[0])
	}
	conf := e.wfConf(t, acts[0].ExtID)
	for k, v := range map[string]string{"DB": "default", "TABLE": "invites", "FILTER": "(ds='2010-01-01' AND region='us')",
		"OUTPUT_PARTITION": "'ds=2010-01-01,region=us'", "OUTPUT_TABLE": "invites_copy", "OUTPUT_DS": "2010-01-01"} {
		if conf[k] != v {
			t.Errorf("workflow configuration %s=%q, want %q", k, conf[k], v)
		}
	}
	got := hivePairs(t, conn, "SELECT foo, bar FROM invites_copy WHERE ds='2010-01-01' AND region='us'")
	if !slices.Equal(got, []string{"1,a", "2,b"}) {
		t.Errorf("copied rows %v, want 1,a and 2,b", got)
	}
}
