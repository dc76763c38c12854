package minihs2_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/beltran/gohive/hiveserver"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/minihs2"
)

// hive2Table is the table and column that a source's hive2 example script
// creates, as a SELECT * then describes them.
var hive2Table = map[string]struct{ table, column string }{
	testapps.Gozie: {"gozie_numbers", "gozie_numbers.n"},
	testapps.Oozie: {"test", "test.a"},
}

// The hive2 example's script (gozie's own, and Oozie's when
// testapps.OozieEnv names it), with its parameters substituted as the
// client does, over every transport gohive supports without Kerberos.
func TestExampleScriptOverEveryTransport(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		table := hive2Table[testapps.Source(apps)]
		exampleOverEveryTransport(t, readExample(t, apps, "script.q"), table.table, table.column)
	})
}

// exampleOverEveryTransport runs a hive2 example script, which must copy
// the integers under ${INPUT} into ${OUTPUT} in three statements through
// table, whose one column a SELECT * describes as column.
func exampleOverEveryTransport(t *testing.T, example, table, column string) {
	for _, tc := range []struct {
		name      string
		transport minihs2.Transport
		auth      minihs2.Auth
	}{
		{"binary-sasl-plain", minihs2.Binary, minihs2.AuthNone},
		{"binary-nosasl", minihs2.Binary, minihs2.AuthNoSASL},
		{"http", minihs2.HTTP, minihs2.AuthNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := startDFS(t)
			s := startServer(t, minihs2.Options{FS: fs, Transport: tc.transport, Auth: tc.auth})
			ctx := ctxT(t)
			in, out := "/user/alice/examples/input-data/table", "/user/alice/examples/output-data/hive2"
			if err := fs.WriteFile(ctx, in+"/data.txt", []byte("1\n2\n3\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			script := strings.NewReplacer("${INPUT}", in, "${OUTPUT}", out).Replace(example)
			conn := connect(t, s, tc.transport, tc.auth, "alice", nil)
			stmts := statements(script)
			if len(stmts) != 3 {
				t.Fatalf("example script split into %d statements: %q", len(stmts), stmts)
			}
			for _, st := range stmts {
				exec(t, conn, st)
			}
			got, err := fs.ReadFile(ctx, out+"/000000_0")
			if err != nil || string(got) != "1\n2\n3\n" {
				t.Fatalf("output file: %q, %v", got, err)
			}

			cur := exec(t, conn, "SELECT * FROM "+table)
			if d := cur.Description(); len(d) != 1 || d[0][0] != column || d[0][1] != "INT_TYPE" {
				t.Errorf("description %v", d)
			}
			if r := rows(t, cur); !slices.EqualFunc(r, [][]string{{"1"}, {"2"}, {"3"}}, slices.Equal) {
				t.Errorf("rows %v", r)
			}

			hist := s.Statements()
			if len(hist) != 4 {
				t.Fatalf("%d statements recorded: %+v", len(hist), hist)
			}
			for i, h := range hist {
				if h.User != "alice" || h.State != "FINISHED" || h.Database != "default" {
					t.Errorf("statement %d: %+v", i, h)
				}
			}
			if hist[2].Text != stmts[2] {
				t.Errorf("recorded text %q, want %q", hist[2].Text, stmts[2])
			}
		})
	}
}

func TestQueries(t *testing.T) {
	t.Parallel()
	fs := startDFS(t)
	s := startServer(t, minihs2.Options{FS: fs})
	ctx := ctxT(t)
	data := "1,ann,1.5,true\n2,bob,\\N,false\n3,cid,7,true\nx,dan,2.25,maybe\n"
	if err := fs.WriteFile(ctx, "/data/people/part-0", []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile(ctx, "/data/people/_SUCCESS", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	conn := connect(t, s, minihs2.Binary, minihs2.AuthNone, "bob", nil)
	exec(t, conn, "CREATE EXTERNAL TABLE people (id INT, name STRING COMMENT 'who', score DOUBLE, ok BOOLEAN)\n"+
		"ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '/data/people'")

	tests := []struct {
		sql   string
		cols  []string
		types []string
		want  [][]string
	}{
		{"SELECT * FROM people", []string{"people.id", "people.name", "people.score", "people.ok"},
			[]string{"INT_TYPE", "STRING_TYPE", "DOUBLE_TYPE", "BOOLEAN_TYPE"},
			[][]string{{"1", "ann", "1.5", "true"}, {"2", "bob", "NULL", "false"}, {"3", "cid", "7", "true"}, {"NULL", "dan", "2.25", "NULL"}}},
		{"SELECT id, name FROM people WHERE score > 1.6", []string{"id", "name"}, nil, [][]string{{"3", "cid"}, {"NULL", "dan"}}},
		{"SELECT name FROM people WHERE id IS NULL", nil, nil, [][]string{{"dan"}}},
		{"select name from people where ok = true and score < 5", nil, nil, [][]string{{"ann"}}},
		{"SELECT name FROM people WHERE id IN (1, 3)", nil, nil, [][]string{{"ann"}, {"cid"}}},
		{"SELECT name FROM people WHERE id NOT IN (1, 3)", nil, nil, [][]string{{"bob"}}},
		{"SELECT name FROM people WHERE NOT (id = 1)", nil, nil, [][]string{{"bob"}, {"cid"}}},
		{"SELECT name FROM people WHERE name <> 'bob' OR score IS NULL LIMIT 2", nil, nil, [][]string{{"ann"}, {"bob"}}},
		{"SELECT name FROM people WHERE id >= '2'", nil, nil, [][]string{{"bob"}, {"cid"}}},
		{"SELECT count(*) FROM people WHERE ok", []string{"_c0"}, []string{"BIGINT_TYPE"}, [][]string{{"2"}}},
		{"SELECT p.name AS who FROM people p WHERE p.id = 2", []string{"who"}, nil, [][]string{{"bob"}}},
		{"SELECT `name` FROM default.people LIMIT 0", nil, nil, nil},
		{"SELECT 1, 'x', -2.5", []string{"_c0", "_c1", "_c2"}, []string{"INT_TYPE", "STRING_TYPE", "DOUBLE_TYPE"}, [][]string{{"1", "x", "-2.5"}}},
		{"SHOW TABLES", []string{"tab_name"}, nil, [][]string{{"people"}}},
	}
	for _, tc := range tests {
		t.Run(tc.sql, func(t *testing.T) {
			cur := exec(t, conn, tc.sql)
			desc := cur.Description()
			for i, c := range tc.cols {
				if i >= len(desc) || desc[i][0] != c {
					t.Errorf("columns %v, want %v", desc, tc.cols)
					break
				}
			}
			for i, ty := range tc.types {
				if i >= len(desc) || desc[i][1] != ty {
					t.Errorf("types %v, want %v", desc, tc.types)
					break
				}
			}
			if got := rows(t, cur); !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("rows %v, want %v", got, tc.want)
			}
		})
	}
}

func TestInsertIntoTables(t *testing.T) {
	t.Parallel()
	fs := startDFS(t)
	s := startServer(t, minihs2.Options{FS: fs, Warehouse: "/wh"})
	ctx := ctxT(t)
	conn := connect(t, s, minihs2.Binary, minihs2.AuthNone, "carol", nil)
	exec(t, conn, "CREATE DATABASE IF NOT EXISTS sales")
	exec(t, conn, "USE sales")
	exec(t, conn, "CREATE TABLE t (id BIGINT, name VARCHAR(10))")
	exec(t, conn, "INSERT INTO t VALUES (1, 'a'), (2, NULL)")
	exec(t, conn, "INSERT INTO TABLE t SELECT id, name FROM t WHERE id = 1")
	entries, err := fs.ReadDir(ctx, "/wh/sales.db/t")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	if !slices.Equal(names, []string{"000000_0", "000000_0_copy_1"}) {
		t.Fatalf("table files %v", names)
	}
	if b, _ := fs.ReadFile(ctx, "/wh/sales.db/t/000000_0"); string(b) != "1\x01a\n2\x01\\N\n" {
		t.Errorf("first file %q", b)
	}
	if got := rows(t, exec(t, conn, "SELECT * FROM t")); !slices.EqualFunc(got, [][]string{{"1", "a"}, {"2", "NULL"}, {"1", "a"}}, slices.Equal) {
		t.Errorf("rows after INSERT INTO: %v", got)
	}
	exec(t, conn, "INSERT OVERWRITE TABLE t SELECT id, name FROM t WHERE id = 2")
	if got := rows(t, exec(t, conn, "SELECT count(*) FROM t")); !slices.EqualFunc(got, [][]string{{"1"}}, slices.Equal) {
		t.Errorf("count after INSERT OVERWRITE: %v", got)
	}
	exec(t, conn, "DROP TABLE t")
	if _, err := fs.Stat(ctx, "/wh/sales.db/t"); err == nil {
		t.Error("a dropped managed table keeps its data")
	}
	exec(t, conn, "USE default")
	exec(t, conn, "DROP DATABASE sales")
	if got := rows(t, exec(t, conn, "SHOW DATABASES")); !slices.EqualFunc(got, [][]string{{"default"}}, slices.Equal) {
		t.Errorf("databases %v", got)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	s := startServer(t, minihs2.Options{})
	conn := connect(t, s, minihs2.Binary, minihs2.AuthNone, "dave", nil)
	exec(t, conn, "CREATE TABLE t (a INT)")
	tests := []struct {
		sql     string
		code    int
		compile bool // reported by ExecuteStatement; else by the operation's ERROR state
		msg     string
	}{
		{"SELEC 1", 40000, true, "ParseException line 1:0 cannot recognize input near 'SELEC' '1' '<EOF>'"},
		{"SELECT * FROM t;", 40000, true, "ParseException line 1:15 cannot recognize input near ';' '<EOF>' '<EOF>'"},
		{"SELECT * FROM nosuch", 10001, true, "[Error 10001]: Line 1:14 Table not found 'nosuch'"},
		{"SELECT b FROM t", 10004, true, "Invalid table alias or column reference 'b': (possible column names are: a)"},
		{"USE nosuch", 10072, true, "Database does not exist: nosuch"},
		{"INSERT INTO t VALUES (1, 2)", 10044, true, "Table insclause-0 has 1 columns, but query has 2 columns"},
		{"CREATE TABLE t (a INT)", 1, false, "AlreadyExistsException(message:Table hive.default.t already exists)"},
		{"CREATE TABLE p (a INT) PARTITIONED BY (a STRING)", 10035, true, "Column repeated in partitioning columns"},
		{"INSERT INTO t PARTITION (d='1') VALUES (1)", 40000, true, "table is not partitioned but partition spec exists: {d=1}"},
	}
	for _, tc := range tests {
		t.Run(tc.sql, func(t *testing.T) {
			cur := conn.Cursor()
			cur.Execute(ctxT(t), tc.sql, true)
			if tc.compile {
				if hiveCode(cur.Err) != tc.code {
					t.Fatalf("error %v (code %d), want code %d", cur.Err, hiveCode(cur.Err), tc.code)
				}
				if !strings.Contains(errMessage(cur.Err), tc.msg) {
					t.Errorf("message %q lacks %q", errMessage(cur.Err), tc.msg)
				}
				return
			}
			if cur.Err != nil {
				t.Fatalf("execute: %v", cur.Err)
			}
			st := poll(t, cur)
			if st.GetOperationState() != hiveserver.TOperationState_ERROR_STATE || int(st.GetErrorCode()) != tc.code ||
				st.GetSqlState() != "08S01" || !strings.Contains(st.GetErrorMessage(), tc.msg) {
				t.Errorf("status %v code %d state %q message %q", st.GetOperationState(), st.GetErrorCode(), st.GetSqlState(), st.GetErrorMessage())
			}
		})
	}
	// DROP TABLE of a missing table is fine by default
	// (hive.exec.drop.ignorenonexistent), an error when that is off.
	exec(t, conn, "DROP TABLE nosuch")
	exec(t, conn, "SET hive.exec.drop.ignorenonexistent=false")
	cur := conn.Cursor()
	cur.Exec(ctxT(t), "DROP TABLE nosuch")
	if hiveCode(cur.Err) != 10001 {
		t.Errorf("DROP TABLE nosuch with ignorenonexistent=false: %v", cur.Err)
	}
}

func TestFailNextAndHangNext(t *testing.T) {
	t.Parallel()
	s := startServer(t, minihs2.Options{Transport: minihs2.HTTP})
	conn := connect(t, s, minihs2.HTTP, minihs2.AuthNone, "erin", nil)

	s.FailNext(2, "Error while processing statement: FAILED: Execution Error, return code 2 from org.apache.hadoop.hive.ql.exec.tez.TezTask")
	cur := conn.Cursor()
	cur.Execute(ctxT(t), "CREATE TABLE f (a INT)", true)
	if cur.Err != nil {
		t.Fatal(cur.Err)
	}
	st := poll(t, cur)
	if st.GetOperationState() != hiveserver.TOperationState_ERROR_STATE || st.GetErrorCode() != 2 ||
		!strings.Contains(st.GetErrorMessage(), "return code 2") {
		t.Fatalf("injected failure: state %v code %d message %q", st.GetOperationState(), st.GetErrorCode(), st.GetErrorMessage())
	}
	exec(t, conn, "CREATE TABLE f (a INT)") // the failure was used up and did not create the table

	s.HangNext()
	cur = conn.Cursor()
	cur.Execute(ctxT(t), "SELECT * FROM f", true)
	if cur.Err != nil {
		t.Fatal(cur.Err)
	}
	if st := cur.Poll(false); cur.Err != nil || st.GetOperationState() != hiveserver.TOperationState_RUNNING_STATE {
		t.Fatalf("hanging statement: %v %v", st.GetOperationState(), cur.Err)
	}
	if s.Running() != 1 {
		t.Fatalf("%d running operations, want 1", s.Running())
	}
	cur.Cancel()
	if cur.Err != nil {
		t.Fatal(cur.Err)
	}
	if st := poll(t, cur); st.GetOperationState() != hiveserver.TOperationState_CANCELED_STATE {
		t.Fatalf("after cancel: %v", st.GetOperationState())
	}
	hist := s.Statements()
	if last := hist[len(hist)-1]; last.State != "CANCELED" || last.User != "erin" {
		t.Errorf("history: %+v", last)
	}

	// A hanging statement is cancelled when its session closes.
	other := connect(t, s, minihs2.HTTP, minihs2.AuthNone, "erin", nil)
	s.HangNext()
	cur = other.Cursor()
	cur.Execute(ctxT(t), "SELECT * FROM f", true)
	if cur.Err != nil {
		t.Fatal(cur.Err)
	}
	sessions := s.Sessions()
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	testwait.WaitFor(t, testwait.Timeout, "the session's operation to be cancelled", func() bool { return s.Running() == 0 })
	if s.Sessions() != sessions-1 {
		t.Errorf("%d sessions after closing one of %d", s.Sessions(), sessions)
	}
}

func TestBinaryDisconnectCancels(t *testing.T) {
	t.Parallel()
	s := startServer(t, minihs2.Options{Auth: minihs2.AuthNoSASL})
	conn := connect(t, s, minihs2.Binary, minihs2.AuthNoSASL, "frank", nil)
	exec(t, conn, "CREATE TABLE f (a INT)")
	s.HangNext()
	cur := conn.Cursor()
	cur.Execute(ctxT(t), "SELECT count(*) FROM f", true)
	if cur.Err != nil {
		t.Fatal(cur.Err)
	}
	// Closing the server's side of every connection ends the hang, as
	// HiveServer2 closes the sessions of a dropped connection.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.Running() != 0 || s.Sessions() != 0 {
		t.Errorf("after Close: %d running, %d sessions", s.Running(), s.Sessions())
	}
	if hist := s.Statements(); hist[len(hist)-1].State != "CANCELED" {
		t.Errorf("hanging statement ended %s", hist[len(hist)-1].State)
	}
}

func TestOperationLog(t *testing.T) {
	t.Parallel()
	s := startServer(t, minihs2.Options{})
	conn := connect(t, s, minihs2.Binary, minihs2.AuthNone, "gina", nil)
	cur := conn.Cursor()
	cur.Execute(ctxT(t), "CREATE TABLE l (a INT)", true)
	if cur.Err != nil {
		t.Fatal(cur.Err)
	}
	poll(t, cur)
	logs := strings.Join(cur.FetchLogs(), "\n")
	for _, want := range []string{"INFO  : Compiling command(queryId=hive_", "INFO  : Executing command(queryId=hive_", "): CREATE TABLE l (a INT)", "INFO  : OK"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
	if again := cur.FetchLogs(); len(again) != 0 {
		t.Errorf("FETCH_NEXT repeated lines: %q", again)
	}
}

func TestSessionConfiguration(t *testing.T) {
	t.Parallel()
	s := startServer(t, minihs2.Options{})
	admin := connect(t, s, minihs2.Binary, minihs2.AuthNone, "hank", nil)
	exec(t, admin, "CREATE DATABASE etl")
	conn := connect(t, s, minihs2.Binary, minihs2.AuthNone, "hank", map[string]string{
		"use:database":                       "etl",
		"set:hiveconf:hive.execution.engine": "tez",
		"set:hiveconf:tez.application.tags":  "gozie-abc",
		"mapreduce.job.tags":                 "gozie-abc",
		"set:hivevar:day":                    "2024-01-01",
	})
	cur := exec(t, conn, "SET tez.application.tags")
	if got := rows(t, cur); !slices.EqualFunc(got, [][]string{{"tez.application.tags=gozie-abc"}}, slices.Equal) {
		t.Errorf("SET tez.application.tags: %v", got)
	}
	if got := rows(t, exec(t, conn, "SET hivevar:day")); !slices.EqualFunc(got, [][]string{{"hivevar:day=2024-01-01"}}, slices.Equal) {
		t.Errorf("SET hivevar:day: %v", got)
	}
	exec(t, conn, "SET hive.execution.engine=mr")
	exec(t, conn, "CREATE TABLE c (a INT)")
	hist := s.Statements()
	last := hist[len(hist)-1]
	if last.Database != "etl" || last.Conf["hive.execution.engine"] != "mr" || !slices.Equal(last.Tags, []string{"gozie-abc"}) {
		t.Errorf("last statement: %+v", last)
	}
	if got := rows(t, exec(t, conn, "SHOW TABLES")); !slices.EqualFunc(got, [][]string{{"c"}}, slices.Equal) {
		t.Errorf("tables of etl: %v", got)
	}
}

func TestOptionsValidation(t *testing.T) {
	t.Parallel()
	fs := startDFS(t)
	for _, opts := range []minihs2.Options{
		{},
		{FS: fs, Transport: minihs2.HTTP, Auth: minihs2.AuthNoSASL},
		{FS: fs, Transport: "carrier-pigeon"},
		{FS: fs, Auth: "KERBEROS"},
	} {
		if s, err := minihs2.Start(ctxT(t), opts); err == nil {
			s.Close()
			t.Errorf("Start(%+v) succeeded", opts)
		}
	}
}
