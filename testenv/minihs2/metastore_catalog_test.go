package minihs2_test

import (
	"context"
	"errors"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/beltran/gohive"
	hms "github.com/beltran/gohive/hive_metastore"
	"github.com/gozie/gozie/testenv/minihs2"
)

// startMetastore starts a metastore without Kerberos over s's catalog and
// connects gohive's metastore client to it as user (set_ugi).
func startMetastore(t *testing.T, s *minihs2.Server, user string) (*minihs2.Metastore, *hms.ThriftHiveMetastoreClient) {
	t.Helper()
	ms, err := minihs2.StartMetastore(context.Background(), minihs2.MetastoreOptions{Hive: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ms.Close() })
	host, port, _ := net.SplitHostPort(ms.Addr())
	p, _ := strconv.Atoi(port)
	cl, err := gohive.ConnectToMetastore(host, p, "NOSASL", gohive.NewMetastoreConnectConfiguration())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	if _, err := cl.Client.SetUgi(ctxT(t), user, nil); err != nil {
		t.Fatal(err)
	}
	return ms, cl.Client
}

func partitionValues(parts []*hms.Partition) [][]string {
	var out [][]string
	for _, p := range parts {
		out = append(out, p.Values)
	}
	return out
}

// TestPartitionedTables: PARTITIONED BY, ALTER TABLE ... ADD PARTITION
// (a directory per partition), INSERT ... PARTITION, and SELECT seeing the
// partition columns.
func TestPartitionedTables(t *testing.T) {
	t.Parallel()
	fs := startDFS(t)
	s := startServer(t, minihs2.Options{FS: fs, Warehouse: "/wh"})
	ctx := ctxT(t)
	conn := connect(t, s, minihs2.Binary, minihs2.AuthNone, "carol", nil)
	exec(t, conn, "CREATE TABLE invites (foo INT, bar STRING) PARTITIONED BY (ds STRING, region STRING)")
	exec(t, conn, "ALTER TABLE invites ADD PARTITION (region='us', ds='2010-01-01')")
	if info, err := fs.Stat(ctx, "/wh/invites/ds=2010-01-01/region=us"); err != nil || !info.IsDir {
		t.Fatalf("partition directory: %+v, %v", info, err)
	}
	exec(t, conn, "INSERT INTO TABLE invites PARTITION (ds='2010-01-01', region='us') VALUES (1, 'a')")
	exec(t, conn, "INSERT INTO invites PARTITION (ds='2010-01-02', region='eu') VALUES (2, 'b')")
	got := rows(t, exec(t, conn, "SELECT foo, ds FROM invites WHERE (ds='2010-01-02' AND region='eu')"))
	if !slices.EqualFunc(got, [][]string{{"2", "2010-01-02"}}, slices.Equal) {
		t.Errorf("rows %v", got)
	}
	if got := rows(t, exec(t, conn, "SELECT count(*) FROM invites")); !slices.EqualFunc(got, [][]string{{"2"}}, slices.Equal) {
		t.Errorf("count %v", got)
	}
	for _, tc := range []struct {
		sql     string
		code    int
		compile bool
		msg     string
	}{
		{"ALTER TABLE invites ADD PARTITION (ds='2010-01-01', region='us')", 1, false,
			"AlreadyExistsException(message:Partition already exists: Partition(values:[2010-01-01, us], dbName:default, tableName:invites))"},
		{"ALTER TABLE invites ADD PARTITION (ds='x', hour='1')", 40000, true, "contains non-partition columns"},
		{"ALTER TABLE invites ADD PARTITION (ds='x')", 10006, true, "no value for partition column region"},
		{"INSERT INTO invites VALUES (3, 'c')", 10062, true, "Need to specify partition columns"},
		{"ALTER TABLE nosuch ADD PARTITION (ds='x')", 10001, true, "Table not found nosuch"},
	} {
		cur := conn.Cursor()
		cur.Execute(ctx, tc.sql, true)
		if !tc.compile && cur.Err == nil {
			st := poll(t, cur)
			if int(st.GetErrorCode()) != tc.code || !strings.Contains(st.GetErrorMessage(), tc.msg) {
				t.Errorf("%s: code %d message %q, want code %d with %q", tc.sql, st.GetErrorCode(), st.GetErrorMessage(), tc.code, tc.msg)
			}
			continue
		}
		if hiveCode(cur.Err) != tc.code || !strings.Contains(errMessage(cur.Err), tc.msg) {
			t.Errorf("%s: error %v (code %d), want code %d with %q", tc.sql, cur.Err, hiveCode(cur.Err), tc.code, tc.msg)
		}
	}
	exec(t, conn, "ALTER TABLE invites ADD IF NOT EXISTS PARTITION (ds='2010-01-01', region='us')")
}

// TestMetastoreCatalog: the metastore serves HiveServer2's partitions
// over Thrift as the set_ugi user, refuses unknown tables and keys as Hive
// does, and logs an ADD_PARTITION event for partitions added through
// either server.
func TestMetastoreCatalog(t *testing.T) {
	t.Parallel()
	s := startServer(t, minihs2.Options{Warehouse: "/wh"})
	conn := connect(t, s, minihs2.Binary, minihs2.AuthNone, "carol", nil)
	exec(t, conn, "CREATE TABLE invites (foo INT) PARTITIONED BY (ds STRING, region STRING)")
	ms, cl := startMetastore(t, s, "alice")
	ctx := ctxT(t)

	cur, err := cl.GetCurrentNotificationEventId(ctx)
	if err != nil || cur.EventId != 0 {
		t.Fatalf("current event id %+v, %v", cur, err)
	}
	exec(t, conn, "ALTER TABLE invites ADD PARTITION (ds='2010-01-01', region='us')")
	parts, err := cl.GetPartitionsByFilter(ctx, "default", "INVITES", `ds="2010-01-01" and region="us"`, -1)
	if err != nil || !slices.EqualFunc(partitionValues(parts), [][]string{{"2010-01-01", "us"}}, slices.Equal) {
		t.Fatalf("get_partitions_by_filter: %v, %v", partitionValues(parts), err)
	}
	if loc := parts[0].Sd.Location; !strings.HasSuffix(loc, "/wh/invites/ds=2010-01-01/region=us") {
		t.Errorf("location %s", loc)
	}
	if parts, err := cl.GetPartitionsByFilter(ctx, "default", "invites", `ds='2010-01-02'`, -1); err != nil || len(parts) != 0 {
		t.Errorf("missing partition: %v, %v", partitionValues(parts), err)
	}
	if _, err := cl.GetPartition(ctx, "default", "invites", []string{"2010-01-01", "us"}); err != nil {
		t.Errorf("get_partition: %v", err)
	}
	var nso *hms.NoSuchObjectException
	if _, err := cl.GetPartition(ctx, "default", "invites", []string{"2010-01-01", "eu"}); !errors.As(err, &nso) ||
		nso.Message != "partition values=[2010-01-01, eu]" {
		t.Errorf("get_partition of a missing partition: %v", err)
	}
	if _, err := cl.GetPartitionsByFilter(ctx, "default", "nosuch", `ds="x"`, -1); !errors.As(err, &nso) ||
		nso.Message != "hive.default.nosuch table not found" {
		t.Errorf("unknown table: %v", err)
	}
	var me *hms.MetaException
	if _, err := cl.GetPartitionsByFilter(ctx, "default", "invites", `hour="1"`, -1); !errors.As(err, &me) ||
		me.Message != "Specified key <hour> is not a partitioning key for the table" {
		t.Errorf("filter on a non-partition key: %v", err)
	}

	np := &hms.Partition{DbName: "default", TableName: "invites", Values: []string{"2010-01-02", "us"}}
	if _, err := cl.AddPartition(ctx, np); err != nil {
		t.Fatalf("add_partition: %v", err)
	}
	var ae *hms.AlreadyExistsException
	if _, err := cl.AddPartition(ctx, np); !errors.As(err, &ae) {
		t.Errorf("add_partition again: %v", err)
	}
	if ok, err := cl.DropPartition(ctx, "default", "invites", []string{"2010-01-02", "us"}, true); err != nil || !ok {
		t.Errorf("drop_partition: %v, %v", ok, err)
	}
	if _, err := cl.DropPartition(ctx, "default", "invites", []string{"2010-01-02", "us"}, true); !errors.As(err, &nso) ||
		nso.Message != "partition values=[2010-01-02, us]" {
		t.Errorf("drop_partition of a dropped partition: %v", err)
	}
	if _, err := cl.AddPartition(ctx, np); err != nil {
		t.Fatalf("add_partition after the drop: %v", err)
	}
	var ioe *hms.InvalidObjectException
	if _, err := cl.AddPartition(ctx, &hms.Partition{DbName: "default", TableName: "nosuch", Values: []string{"x"}}); !errors.As(err, &ioe) {
		t.Errorf("add_partition to an unknown table: %v", err)
	}

	resp, err := cl.GetNextNotification(ctx, &hms.NotificationEventRequest{LastEvent: 0, MaxEvents: new(int32(2))})
	if err != nil || len(resp.Events) != 2 {
		t.Fatalf("get_next_notification: %+v, %v", resp, err)
	}
	for i, e := range resp.Events {
		if e.EventId != int64(i+1) || e.EventType != "ADD_PARTITION" || *e.TableName != "invites" || *e.MessageFormat != "json-0.2" {
			t.Errorf("event %d: %+v", i, e)
		}
	}
	if !strings.Contains(resp.Events[1].Message, `"partitions":[{"ds":"2010-01-02","region":"us"}]`) ||
		!strings.Contains(resp.Events[1].Message, `"server":"`+ms.URI()+`"`) {
		t.Errorf("message %s", resp.Events[1].Message)
	}
	one := int32(1)
	if resp, err := cl.GetNextNotification(ctx, &hms.NotificationEventRequest{LastEvent: 1, MaxEvents: &one}); err != nil ||
		len(resp.Events) != 1 || resp.Events[0].EventId != 2 {
		t.Errorf("events after 1: %+v, %v", resp, err)
	}
	if calls := ms.Calls(); len(calls) == 0 || calls[len(calls)-1] != (minihs2.MetastoreCall{Method: "get_next_notification", User: "alice"}) {
		t.Errorf("calls %v", calls)
	}
}
