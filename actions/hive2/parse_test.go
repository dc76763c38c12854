package hive2

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestParseJDBCURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url  string
		want JDBCURL
	}{
		{"jdbc:hive2://localhost:10000/default", JDBCURL{Hosts: []string{"localhost:10000"}, Database: "default",
			TransportMode: "binary", HTTPPath: "cliservice", Auth: "NONE"}},
		{"jdbc:hive2://h1,h2:10001/sales;transportMode=http;httpPath=/gateway/hive;ssl=true;user=bob;password=x?hive.exec.parallel=true;a=b#d=1;e=2",
			JDBCURL{Hosts: []string{"h1:10000", "h2:10001"}, Database: "sales", TransportMode: "http", HTTPPath: "gateway/hive",
				Auth: "NONE", SSL: true, User: "bob", Password: "x",
				HiveConf: map[string]string{"hive.exec.parallel": "true", "a": "b"}, HiveVars: map[string]string{"d": "1", "e": "2"}}},
		{"JDBC:HIVE2://[::1]:10000/;auth=noSasl", JDBCURL{Hosts: []string{"[::1]:10000"}, Database: "default",
			TransportMode: "binary", HTTPPath: "cliservice", Auth: "NOSASL"}},
		{"jdbc:hive2://h:10001;transportMode=HTTP", JDBCURL{Hosts: []string{"h:10001"}, Database: "default",
			TransportMode: "http", HTTPPath: "cliservice", Auth: "NONE"}},
		{"jdbc:hive2://h:10001/db?hive.server2.transport.mode=http;hive.server2.thrift.http.path=hs2", JDBCURL{Hosts: []string{"h:10001"},
			Database: "db", TransportMode: "http", HTTPPath: "hs2", Auth: "NONE",
			HiveConf: map[string]string{"hive.server2.transport.mode": "http", "hive.server2.thrift.http.path": "hs2"}}},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			got, err := ParseJDBCURL(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			w := tc.want
			if !slices.Equal(got.Hosts, w.Hosts) || got.Database != w.Database || got.TransportMode != w.TransportMode ||
				got.HTTPPath != w.HTTPPath || got.Auth != w.Auth || got.SSL != w.SSL || got.User != w.User || got.Password != w.Password {
				t.Errorf("got %+v, want %+v", got, w)
			}
			if len(w.HiveConf) > 0 && !maps.Equal(got.HiveConf, w.HiveConf) || len(w.HiveVars) > 0 && !maps.Equal(got.HiveVars, w.HiveVars) {
				t.Errorf("conf %v vars %v, want %v %v", got.HiveConf, got.HiveVars, w.HiveConf, w.HiveVars)
			}
		})
	}
}

func TestParseJDBCURLErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url         string
		unsupported bool
	}{
		{"jdbc:mysql://h/db", false},
		{"jdbc:hive2://h:port/db", false},
		{"jdbc:hive2://h:99999/db", false},
		{"jdbc:hive2://h/db;transportMode=carrier", false},
		{"jdbc:hive2://h/db;auth=noSasl;transportMode=http", false},
		{"jdbc:hive2://h/db;novalue", false},
		{"jdbc:hive2:///db", true},
		{"jdbc:hive2://h/db;principal=hive/_HOST@EXAMPLE.COM;sasl.qop=auth-conf", true},
		{"jdbc:hive2://h/db;principal=hive/_HOST@EXAMPLE.COM;auth=noSasl", false},
		{"jdbc:hive2://h/db;auth=kerberos", false},
		{"jdbc:hive2://zk:2181/;serviceDiscoveryMode=zooKeeper;zooKeeperNamespace=hiveserver2", true},
		{"jdbc:hive2://h/db;auth=delegationToken", true},
	}
	for _, tc := range tests {
		_, err := ParseJDBCURL(tc.url)
		if errors.Is(err, errUnsupportedURL) != tc.unsupported || !tc.unsupported && !errors.Is(err, ErrJDBCURL) {
			t.Errorf("ParseJDBCURL(%q) = %v, want unsupported=%v", tc.url, err, tc.unsupported)
		}
	}
}

func TestSplitStatements(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script string
		want   []string
	}{
		{"DROP TABLE IF EXISTS test;\nCREATE EXTERNAL TABLE test (a INT) LOCATION '${INPUT}';\nINSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT * FROM test;\n",
			[]string{"DROP TABLE IF EXISTS test", "CREATE EXTERNAL TABLE test (a INT) LOCATION '${INPUT}'", "INSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT * FROM test"}},
		{"-- licence; header\n--\nSELECT 1; -- trailing; comment\n\n;;  SELECT 2", []string{"SELECT 1", "SELECT 2"}},
		{"SELECT 'a;b', \"c;d\", `e;f` FROM t", []string{"SELECT 'a;b', \"c;d\", `e;f` FROM t"}},
		{`SELECT 'it\'s; fine' FROM t; SELECT '--not a comment'`, []string{`SELECT 'it\'s; fine' FROM t`, `SELECT '--not a comment'`}},
		{"SELECT 1 -- no semicolon at the end", []string{"SELECT 1"}},
		{"", nil},
	}
	for _, tc := range tests {
		if got := SplitStatements(tc.script); !slices.Equal(got, tc.want) {
			t.Errorf("SplitStatements(%q) = %q, want %q", tc.script, got, tc.want)
		}
	}
}

func TestSubstitute(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"INPUT": "/in", "a": "${b}", "b": "B", "loop": "${loop}"}
	conf := map[string]string{"q": "default", "INPUT": "conf-loses"}
	tests := map[string]string{
		"LOCATION '${INPUT}'":                "LOCATION '/in'",
		"${hivevar:INPUT} ${hiveconf:INPUT}": "/in conf-loses",
		"${a}":                               "B",
		"${q} ${unknown} ${env:HOME} ${system:user.name}": "default ${unknown} ${env:HOME} ${system:user.name}",
		"${loop}":        "${loop}",
		"${unclosed":     "${unclosed",
		"$INPUT {INPUT}": "$INPUT {INPUT}",
	}
	for in, want := range tests {
		if got := Substitute(in, vars, conf); got != want {
			t.Errorf("Substitute(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStatementClasses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		stmt              string
		session, rerunnab bool
	}{
		{"SET hive.exec.parallel=true", true, true},
		{"use etl", true, true},
		{"ADD JAR hdfs:///lib/udf.jar", true, true},
		{"CREATE TEMPORARY FUNCTION f AS 'x.Y'", true, true},
		{"SELECT count(*) FROM t", false, true},
		{"INSERT OVERWRITE DIRECTORY '/o' SELECT * FROM t", false, true},
		{"insert overwrite table t select * from s", false, true},
		{"INSERT INTO t VALUES (1)", false, false},
		{"WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", false, false},
		{"FROM s INSERT OVERWRITE TABLE t SELECT *", false, true},
		{"DROP TABLE IF EXISTS t", false, true},
		{"DROP TABLE t", false, false},
		{"CREATE EXTERNAL TABLE IF NOT EXISTS t (a INT)", false, true},
		{"CREATE TABLE t (a INT)", false, false},
		{"ALTER TABLE t ADD IF NOT EXISTS PARTITION (d='1')", false, true},
		{"LOAD DATA INPATH '/x' OVERWRITE INTO TABLE t", false, true},
		{"LOAD DATA INPATH '/x' INTO TABLE t", false, false},
		{"MSCK REPAIR TABLE t", false, true},
	}
	for _, tc := range tests {
		if sessionScoped(tc.stmt) != tc.session || rerunnable(tc.stmt) != tc.rerunnab {
			t.Errorf("%q: session %v rerunnable %v, want %v %v", tc.stmt, sessionScoped(tc.stmt), rerunnable(tc.stmt), tc.session, tc.rerunnab)
		}
	}
}

func TestParseArguments(t *testing.T) {
	t.Parallel()
	vars, conf, ignored := parseArguments([]string{"--hivevar", "a=1", "-d", "b=2", "--define=c=3", "--hiveconf", "x=y=z",
		"--hiveconf=mapreduce.job.queuename=etl", "-n", "someone", "--silent=true", "--hivevar", "broken"})
	if !maps.Equal(vars, map[string]string{"a": "1", "b": "2", "c": "3"}) {
		t.Errorf("vars %v", vars)
	}
	if !maps.Equal(conf, map[string]string{"x": "y=z", "mapreduce.job.queuename": "etl"}) {
		t.Errorf("conf %v", conf)
	}
	if want := []string{"-n someone", "--silent=true", "--hivevar broken"}; !slices.Equal(ignored, want) {
		t.Errorf("ignored %q, want %q", ignored, want)
	}
}

func TestOpLogKeepsTheTail(t *testing.T) {
	t.Parallel()
	l := newOpLog(nil, 100)
	for i := range 20 {
		l.server([]string{strings.Repeat("x", 10) + string(rune('a'+i))})
	}
	l.server([]string{"INFO  : Executing on YARN cluster with App id application_1_0002", "Ended Job = job_1_0003"})
	content, changed := l.snapshot()
	if !changed || !strings.HasPrefix(string(content), "[... ") || !strings.HasSuffix(string(content), "Ended Job = job_1_0003\n") {
		t.Errorf("log content %q", content)
	}
	if _, again := l.snapshot(); again {
		t.Error("an unchanged log asks to be written again")
	}
	if apps := l.childApps(); !slices.Equal(apps, []string{"application_1_0002", "application_1_0003"}) {
		t.Errorf("child applications %v", apps)
	}
}

func FuzzParseJDBCURL(f *testing.F) {
	for _, s := range []string{
		"jdbc:hive2://localhost:10000/default",
		"jdbc:hive2://h1,h2:10001/db;transportMode=http;httpPath=cliservice?a=b#c=d",
		"jdbc:hive2://[::1]/;auth=noSasl",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseJDBCURL(s)
		if err != nil {
			if !errors.Is(err, ErrJDBCURL) && !errors.Is(err, errUnsupportedURL) {
				t.Fatalf("error %v wraps neither sentinel", err)
			}
			return
		}
		if len(u.Hosts) == 0 || u.Auth == "NOSASL" && u.TransportMode == "http" {
			t.Fatalf("accepted an unusable URL: %+v", u)
		}
	})
}

func FuzzSplitStatements(f *testing.F) {
	for _, s := range []string{"SELECT 1; SELECT 2", "SELECT ';' -- x;\n; SELECT `a;`", `'\'; ;'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, st := range SplitStatements(s) {
			if st == "" || st != strings.TrimSpace(st) {
				t.Fatalf("statement %q is empty or untrimmed", st)
			}
			// Splitting a statement again gives it back: its semicolons
			// are all inside quotes.
			if again := SplitStatements(st); len(again) != 1 {
				t.Fatalf("statement %q splits again into %q", st, again)
			}
		}
	})
}

func TestKerberosURL(t *testing.T) {
	t.Parallel()
	u, err := ParseJDBCURL("jdbc:hive2://gw1:10000/db;principal=hive/_HOST@EXAMPLE.COM;sasl.qop=auth;transportMode=http")
	if err != nil {
		t.Fatal(err)
	}
	if u.Auth != "KERBEROS" || u.Principal != "hive/_HOST@EXAMPLE.COM" || u.TransportMode != "http" {
		t.Errorf("parsed %+v", u)
	}
	for _, tc := range [][3]string{
		{"hive/_HOST@EXAMPLE.COM", "GW1.example.com", "hive/gw1.example.com@EXAMPLE.COM"},
		{"hive/hs2.example.com@EXAMPLE.COM", "gw1", "hive/hs2.example.com@EXAMPLE.COM"},
		{"hive/_HOST", "gw1", "hive/gw1"},
		{"hive", "gw1", "hive"},
	} {
		if got := ServicePrincipal(tc[0], tc[1]); got != tc[2] {
			t.Errorf("ServicePrincipal(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}
