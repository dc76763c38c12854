package minihs2

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestParseStatements(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sql   string
		check func(t *testing.T, st statement)
	}{
		{"CREATE EXTERNAL TABLE test (a INT) STORED AS TEXTFILE LOCATION '/user/a/in'", func(t *testing.T, st statement) {
			c := st.(*createTableStmt)
			if !c.external || c.name.table != "test" || len(c.cols) != 1 || c.cols[0] != (columnDef{"a", "int"}) ||
				c.storedAs != "TEXTFILE" || c.location != "/user/a/in" {
				t.Errorf("%+v", c)
			}
		}},
		{"create temporary table if not exists db.t (d DECIMAL(10,2), m map<string,array<int>>, `select` string)\n" +
			"row format delimited fields terminated by '\\001' null defined as '' tblproperties ('a'='b')", func(t *testing.T, st statement) {
			c := st.(*createTableStmt)
			want := []columnDef{{"d", "decimal(10,2)"}, {"m", "map<string,array<int>>"}, {"select", "string"}}
			if !c.temporary || !c.ifNotExists || c.name.db != "db" || len(c.cols) != 3 || c.format.fieldDelim != "\x01" ||
				c.format.nullFormat != "" || !c.format.set {
				t.Errorf("%+v", c)
			}
			for i, w := range want {
				if c.cols[i] != w {
					t.Errorf("column %d: %+v, want %+v", i, c.cols[i], w)
				}
			}
		}},
		{"DROP TABLE IF EXISTS test PURGE", func(t *testing.T, st statement) {
			if d := st.(*dropTableStmt); !d.ifExists || d.name.table != "test" {
				t.Errorf("%+v", d)
			}
		}},
		{"INSERT OVERWRITE DIRECTORY '/out' ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\t' SELECT * FROM test", func(t *testing.T, st statement) {
			i := st.(*insertDirStmt)
			if i.dir != "/out" || i.format.fieldDelim != "\t" || i.query.from.table != "test" || !i.query.items[0].star {
				t.Errorf("%+v", i)
			}
		}},
		{"insert into t values (1, 'a'), (-2, null)", func(t *testing.T, st statement) {
			i := st.(*insertTableStmt)
			if i.overwrite || len(i.values) != 2 || len(i.values[1]) != 2 {
				t.Errorf("%+v", i)
			}
		}},
		{"SELECT a, b AS c, count(*) x FROM t tt WHERE (a = 1 OR b <> 'x') AND c IS NOT NULL AND d NOT IN (1, 2.5) LIMIT 10", func(t *testing.T, st statement) {
			s := st.(*selectStmt)
			if len(s.items) != 3 || s.items[1].alias != "c" || !s.items[2].count || s.items[2].alias != "x" || s.alias != "tt" || s.limit != 10 {
				t.Errorf("%+v", s)
			}
			and, ok := s.where.(*binaryExpr)
			if !ok || and.op != "and" {
				t.Fatalf("where %#v", s.where)
			}
			in, ok := and.r.(*inExpr)
			if !ok || !in.not || len(in.list) != 2 {
				t.Errorf("NOT IN: %#v", and.r)
			}
		}},
		{"SET hive.execution.engine = tez", func(t *testing.T, st statement) {
			if s := st.(*setStmt); s.key != "hive.execution.engine" || s.value != "tez" || !s.hasValue {
				t.Errorf("%+v", s)
			}
		}},
		{"-- a comment\nset tez.application.tags=a,b--c", func(t *testing.T, st statement) {
			if s := st.(*setStmt); s.key != "tez.application.tags" || s.value != "a,b--c" {
				t.Errorf("%+v", s)
			}
		}},
		{"SET", func(t *testing.T, st statement) {
			if s := st.(*setStmt); s.key != "" || s.hasValue {
				t.Errorf("%+v", s)
			}
		}},
		{"use `etl`", func(t *testing.T, st statement) {
			if u := st.(*useStmt); u.db != "etl" {
				t.Errorf("%+v", u)
			}
		}},
		{"CREATE SCHEMA IF NOT EXISTS s LOCATION '/s'", func(t *testing.T, st statement) {
			if c := st.(*createDatabaseStmt); c.name != "s" || c.location != "/s" || !c.ifNotExists {
				t.Errorf("%+v", c)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.sql, func(t *testing.T) {
			st, err := parseStatement(tc.sql)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			tc.check(t, st)
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ sql, msg string }{
		{"FOO BAR", "line 1:0 cannot recognize input near 'FOO' 'BAR' '<EOF>'"},
		{"SELECT a FROM", "line 1:13 cannot recognize input near '<EOF>' '<EOF>' '<EOF>'"},
		{"CREATE TABLE t (a INT", "line 1:21 cannot recognize input near '<EOF>'"},
		{"SELECT 'abc", "line 1:7 character ''' not supported here"},
		{"SELECT a\nFROM t WHERE", "line 2:12 cannot recognize input near '<EOF>'"},
		{"CREATE TABLE t (a INT) ROW FORMAT DELIMITED LINES TERMINATED BY ';'", "[Error 10064]"},
		{"INSERT OVERWRITE TABLE t VALUES (1)", "cannot recognize input near 'VALUES'"},
		{"SELECT a FROM t LIMIT -1", "cannot recognize input near '-'"},
	}
	for _, tc := range tests {
		t.Run(tc.sql, func(t *testing.T) {
			_, err := parseStatement(tc.sql)
			var he *hiveError
			if !errors.As(err, &he) {
				t.Fatalf("error %v, want a Hive error", err)
			}
			if !strings.Contains(he.msg, tc.msg) {
				t.Errorf("message %q lacks %q", he.msg, tc.msg)
			}
			if !strings.Contains(tc.msg, "[Error") && (he.code != CodeGeneric || he.sqlState != sqlStateSyntax) {
				t.Errorf("code %d state %s, want 40000 42000", he.code, he.sqlState)
			}
		})
	}
}

func TestJavaDouble(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{1: "1.0", 0.5: "0.5", 1e7: "1.0E7", 1.5e-4: "1.5E-4", -2.25: "-2.25", 123456.789: "123456.789", 0: "0.0"} {
		if got := javaDouble(in); got != want {
			t.Errorf("javaDouble(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestParseField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, typ string
		want    any
	}{
		{"12", "int", int64(12)},
		{"2147483648", "int", nil},
		{"2147483648", "bigint", int64(2147483648)},
		{"300", "tinyint", nil},
		{"abc", "int", nil},
		{`\N`, "string", nil},
		{"", "string", ""},
		{"1.5", "double", 1.5},
		{"TRUE", "boolean", true},
		{"yes", "boolean", nil},
		{"2024-01-01", "date", "2024-01-01"},
	}
	for _, tc := range tests {
		if got := parseField(tc.in, tc.typ, defaultNullFormat); got != tc.want {
			t.Errorf("parseField(%q, %s) = %#v, want %#v", tc.in, tc.typ, got, tc.want)
		}
	}
}

func TestBuildColumnsNulls(t *testing.T) {
	t.Parallel()
	rows := make([][]any, 10)
	for i := range rows {
		rows[i] = []any{int64(i), "s"}
	}
	rows[0][0], rows[9][0], rows[3][1] = nil, nil, nil
	cols := buildColumns([]string{"int", "string"}, rows)
	ints := cols[0].I32Val
	if ints == nil || len(ints.Values) != 10 || ints.Values[5] != 5 || len(ints.Nulls) != 2 || ints.Nulls[0] != 0b1 || ints.Nulls[1] != 0b10 {
		t.Errorf("int column %+v", ints)
	}
	if strs := cols[1].StringVal; strs == nil || strs.Nulls[0] != 0b1000 || strs.Values[3] != "" {
		t.Errorf("string column %+v", strs)
	}
	empty := buildColumns([]string{"int", "string"}, nil)
	if len(empty) != 2 || empty[0].I32Val == nil || len(empty[0].I32Val.Values) != 0 || empty[1].StringVal == nil {
		t.Errorf("empty row set %+v", empty)
	}
}

func TestSASLPlainHandshake(t *testing.T) {
	t.Parallel()
	msg := func(status byte, payload string) []byte {
		var b bytes.Buffer
		writeSASLMessage(&b, status, []byte(payload))
		return b.Bytes()
	}
	tests := []struct {
		name     string
		in       []byte
		user     string
		response byte
	}{
		{"ok", append(msg(saslStart, "PLAIN"), msg(saslOK, "\x00alice\x00pw")...), "alice", saslComplete},
		{"complete status", append(msg(saslStart, "PLAIN"), msg(saslComplete, "authz\x00bob\x00")...), "bob", saslComplete},
		{"other mechanism", msg(saslStart, "GSSAPI"), "", saslBad},
		{"no start", msg(saslOK, "PLAIN"), "", saslError},
		{"empty user", append(msg(saslStart, "PLAIN"), msg(saslOK, "\x00\x00pw")...), "", saslBad},
		{"truncated", []byte{saslStart, 0, 0, 0, 9, 'P'}, "", 0},
		{"too long", []byte{saslStart, 0xff, 0xff, 0xff, 0xff}, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			user, err := plainServer.saslHandshake(struct {
				io.Reader
				io.Writer
			}{bytes.NewReader(tc.in), &out}, "")
			if user != tc.user || (err == nil) != (tc.user != "") {
				t.Fatalf("user %q err %v, want %q", user, err, tc.user)
			}
			if tc.response == 0 {
				if out.Len() != 0 {
					t.Errorf("answered %q to a broken message", out.Bytes())
				}
				return
			}
			if out.Len() < 5 || out.Bytes()[0] != tc.response {
				t.Errorf("answer %q, want status %d", out.Bytes(), tc.response)
			}
		})
	}
}

func FuzzParseStatement(f *testing.F) {
	for _, s := range []string{
		"DROP TABLE IF EXISTS test",
		"CREATE EXTERNAL TABLE test (a INT) STORED AS TEXTFILE LOCATION '/x'",
		"INSERT OVERWRITE DIRECTORY '/o' SELECT * FROM test",
		"SELECT a, count(*) FROM t WHERE a IN (1,2) AND NOT b IS NULL LIMIT 3",
		"SET a=b",
		"select 'a\\u0041\\001', `q` from x.y z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		st, err := parseStatement(sql)
		if err != nil {
			var he *hiveError
			if !errors.As(err, &he) || he.code == 0 {
				t.Fatalf("parse error %v is not a Hive error with a code", err)
			}
			return
		}
		if st == nil {
			t.Fatal("nil statement without an error")
		}
	})
}

func FuzzSASLPlainHandshake(f *testing.F) {
	f.Add([]byte("\x01\x00\x00\x00\x05PLAIN\x02\x00\x00\x00\x07\x00a\x00pass"))
	f.Add([]byte("\x01\x00\x00\x00\x06GSSAPI"))
	f.Fuzz(func(t *testing.T, in []byte) {
		user, err := plainServer.saslHandshake(struct {
			io.Reader
			io.Writer
		}{bytes.NewReader(in), io.Discard}, "")
		if err == nil && user == "" {
			t.Fatal("accepted an empty user")
		}
	})
}

// plainServer negotiates SASL as an AuthNone server.
var plainServer = &Server{opts: Options{Auth: AuthNone}}
