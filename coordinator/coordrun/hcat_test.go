package coordrun

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/beltran/gohive"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hcat/metastore"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/testenv/minihs2"
)

// hcatWorld is a HiveServer2 and its metastore beside the harness, and the
// server's hcat checker.
type hcatWorld struct {
	*world
	ms   *minihs2.Metastore
	ds   *metastore.Datasets
	conn *gohive.Connection
}

func setupHCat(t *testing.T, schemes []string) *hcatWorld {
	t.Helper()
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	hs2, err := minihs2.Start(bg, minihs2.Options{FS: fs, Warehouse: "file://" + t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hs2.Close() })
	ms, err := minihs2.StartMetastore(bg, minihs2.MetastoreOptions{Hive: hs2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ms.Close() })
	cl, err := metastore.New(metastore.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ds := metastore.NewDatasets(cl, time.Hour, nil)
	w := setup(t, options{now: time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC), auto: true, schemes: schemes, hcat: ds})
	ds.SetNotify(w.coords.Notify)
	host, port, _ := net.SplitHostPort(hs2.Addr())
	p, _ := strconv.Atoi(port)
	cfg := gohive.NewConnectConfiguration()
	cfg.Username, cfg.Password, cfg.PollIntervalInMillis = "carol", "x", 10
	conn, err := gohive.Connect(host, p, "NONE", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	hw := &hcatWorld{world: w, ms: ms, ds: ds, conn: conn}
	hw.hive("CREATE TABLE invites (foo INT) PARTITIONED BY (ds STRING, hour STRING)")
	return hw
}

func (w *hcatWorld) hive(sql string) {
	w.t.Helper()
	cur := w.conn.Cursor()
	defer cur.Close()
	cur.Exec(context.Background(), sql)
	if cur.Err != nil {
		w.t.Fatalf("%s: %v", sql, cur.Err)
	}
}

// hcatCoordXML is an hourly coordinator over an hcat dataset of
// default.invites, with the HCatalog EL in its workflow configuration.
func hcatCoordXML(template string) string {
	return fmt.Sprintf(`<coordinator-app name="hcat-coord" frequency="${coord:hours(1)}" start="2010-01-01T00:00Z" end="2010-01-01T01:00Z"
    timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="invites" frequency="${coord:hours(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>%s</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="in" dataset="invites"><instance>${coord:current(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>${wfApp}</app-path>
    <configuration>
      <property><name>FILTER</name><value>${coord:dataInPartitionFilter('in', 'hive')}</value></property>
      <property><name>TABLE</name><value>${coord:databaseIn('in')}.${coord:tableIn('in')}</value></property>
    </configuration>
  </workflow></action>
</coordinator-app>`, template)
}

// TestHCatInputWaitsForPartition: an action over an hcat dataset waits
// (no done-flag appended) until its partition is added through
// HiveServer2, is woken by the metastore's ADD_PARTITION event without its
// next input check coming due, and starts with the HCatalog EL resolved;
// the metastore was asked as the job's user.
func TestHCatInputWaitsForPartition(t *testing.T) {
	t.Parallel()
	w := setupHCat(t, []string{"file", "hcat"})
	node := "hcat://" + w.ms.Addr()
	app := w.app("hcat", hcatCoordXML("${hcatNode}/default/invites/ds=${YEAR}-${MONTH}-${DAY};hour=${HOUR}"))
	id := w.submit(w.props(app, "hcatNode", node))
	w.settle()
	a1 := ActionIDOf(id, 1)
	uri := node + "/default/invites/ds=2010-01-01;hour=00"
	if a := w.action(a1); a.Status != store.CoordActionWaiting || a.MissingDependencies != uri {
		t.Fatalf("action %s, missing %q; want WAITING on %s", a.Status, a.MissingDependencies, uri)
	}
	due, _ := w.triggerDue(KindInputCheck, a1)
	w.hive("ALTER TABLE invites ADD PARTITION (ds='2010-01-01', hour='00')")
	w.ds.Poll(hadoop.AsUser(bg, "alice"))
	a := w.waitActionStatus(a1, store.CoordActionSucceeded)
	if !w.clock.Now().Before(due) {
		t.Fatalf("the clock reached the next input check (%v)", due)
	}
	for _, want := range []string{"(ds=&#39;2010-01-01&#39; AND hour=&#39;00&#39;)", "default.invites"} {
		if !strings.Contains(a.ActionXML, want) {
			t.Errorf("action XML lacks %q:\n%s", want, a.ActionXML)
		}
	}
	if calls := w.ms.Calls(); !slices.Contains(calls, minihs2.MetastoreCall{Method: "get_partitions_by_filter", User: "alice"}) {
		t.Errorf("metastore calls %v, want get_partitions_by_filter as alice", calls)
	}
}

// TestHCatUnknownTableKeepsWaiting: a dataset on a table the metastore
// does not know waits, showing the metastore's NoSuchObjectException.
func TestHCatUnknownTableKeepsWaiting(t *testing.T) {
	t.Parallel()
	w := setupHCat(t, []string{"file", "hcat"})
	w.allowErrors = true
	app := w.app("nosuch", hcatCoordXML("${hcatNode}/default/nosuch/ds=${YEAR}-${MONTH}-${DAY}"))
	id := w.submit(w.props(app, "hcatNode", "hcat://"+w.ms.Addr()))
	w.settle()
	a := w.action(ActionIDOf(id, 1))
	if a.Status != store.CoordActionWaiting || !strings.Contains(a.ErrorMessage, "hive.default.nosuch table not found") {
		t.Fatalf("action %s %s %q", a.Status, a.ErrorCode, a.ErrorMessage)
	}
}

// TestHCatSchemeRefused: without hcat in gozie.filesystems.supported an
// hcat dataset is refused at submission with E0904, as Oozie refuses a URI
// no URIHandlerService handler supports.
func TestHCatSchemeRefused(t *testing.T) {
	t.Parallel()
	w := setupHCat(t, []string{"file"})
	app := w.app("refused", hcatCoordXML("${hcatNode}/default/invites/ds=${YEAR}"))
	_, err := w.coords.Submit(bg, w.props(app, "hcatNode", "hcat://"+w.ms.Addr()), SubmitOptions{})
	if ErrorCode(err) != "E0904" || !strings.Contains(err.Error(), "Scheme [hcat] not supported in uri [hcat://") {
		t.Fatalf("submit: %v", err)
	}
}

// TestHCatRerunDropsOutputPartition: rerunning an action drops the
// partitions of its hcat:// output through the metastore, as the job's
// user, as Oozie's rerun does (HCatURIHandler.delete); -nocleanup keeps
// them.
func TestHCatRerunDropsOutputPartition(t *testing.T) {
	t.Parallel()
	w := setupHCat(t, []string{"file", "hcat"})
	w.hive("CREATE TABLE invites_out (foo INT) PARTITIONED BY (ds STRING, hour STRING)")
	w.hive("ALTER TABLE invites ADD PARTITION (ds='2010-01-01', hour='00')")
	node := "hcat://" + w.ms.Addr()
	xml := strings.Replace(hcatCoordXML("${hcatNode}/default/invites/ds=${YEAR}-${MONTH}-${DAY};hour=${HOUR}"),
		"</datasets>", `  <dataset name="out" frequency="${coord:hours(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>${hcatNode}/default/invites_out/ds=${YEAR}-${MONTH}-${DAY};hour=${HOUR}</uri-template>
    </dataset>
  </datasets>`, 1)
	xml = strings.Replace(xml, "<action>", `<output-events>
    <data-out name="out" dataset="out"><instance>${coord:current(0)}</instance></data-out>
  </output-events>
  <action>`, 1)
	app := w.app("rerun", xml)
	id := w.submit(w.props(app, "hcatNode", node))
	w.settle()
	a1 := ActionIDOf(id, 1)
	w.waitActionStatus(a1, store.CoordActionSucceeded)
	// The workflow's output, as its hive action would have written it.
	w.hive("INSERT INTO invites_out PARTITION (ds='2010-01-01', hour='00') VALUES (1)")
	out := node + "/default/invites_out/ds=2010-01-01;hour=00"
	ctx := hadoop.AsUser(bg, "alice")
	if ok, err := w.ds.Exists(ctx, out); err != nil || !ok {
		t.Fatalf("output partition: %v, %v", ok, err)
	}
	if _, err := w.coords.Rerun(bg, id, RerunOptions{Type: ScopeAction, Scope: "1", NoCleanup: true}); err != nil {
		t.Fatal(err)
	}
	w.waitActionStatus(a1, store.CoordActionSucceeded)
	if ok, err := w.ds.Exists(ctx, out); err != nil || !ok {
		t.Fatalf("-nocleanup dropped the output partition: %v, %v", ok, err)
	}
	if _, err := w.coords.Rerun(bg, id, RerunOptions{Type: ScopeAction, Scope: "1"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := w.ds.Exists(ctx, out); err != nil || ok {
		t.Fatalf("the rerun left the output partition: %v, %v", ok, err)
	}
	if calls := w.ms.Calls(); !slices.Contains(calls, minihs2.MetastoreCall{Method: "drop_partition", User: "alice"}) {
		t.Errorf("metastore calls %v, want drop_partition as alice", calls)
	}
	w.waitActionStatus(a1, store.CoordActionSucceeded)
}
