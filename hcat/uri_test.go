package hcat

import (
	"errors"
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     URI
		err      string
	}{
		{name: "two partitions", in: "hcat://hcat.example.com:11002/mydb/clicks/datastamp=12;region=us",
			want: URI{Scheme: "hcat", Server: "hcat.example.com:11002", DB: "mydb", Table: "clicks",
				Partitions: []Partition{{"datastamp", "12"}, {"region", "us"}}}},
		{name: "trailing slash tolerated", in: "hcat://h:9083/db/t/ds=1/",
			want: URI{Scheme: "hcat", Server: "h:9083", DB: "db", Table: "t", Partitions: []Partition{{"ds", "1"}}}},
		{name: "empty pairs skipped", in: "hcat://h:9083/db/t/;ds=1;;",
			want: URI{Scheme: "hcat", Server: "h:9083", DB: "db", Table: "t", Partitions: []Partition{{"ds", "1"}}}},
		{name: "repeated key keeps its place", in: "hcat://h:9083/db/t/a=1;b=2;a=3",
			want: URI{Scheme: "hcat", Server: "h:9083", DB: "db", Table: "t", Partitions: []Partition{{"a", "3"}, {"b", "2"}}}},
		{name: "several metastores", in: "hcat://h1:9083,h2:9083/db/t/ds=1",
			want: URI{Scheme: "hcat", Server: "h1:9083,h2:9083", DB: "db", Table: "t", Partitions: []Partition{{"ds", "1"}}}},
		{name: "escapes decoded", in: "hcat://h:9083/db/t/ds=2010-01-01%2000",
			want: URI{Scheme: "hcat", Server: "h:9083", DB: "db", Table: "t", Partitions: []Partition{{"ds", "2010-01-01 00"}}}},
		{name: "no authority", in: "hcat:///db/t/ds=1", err: "Server host and port are missing: hcat:///db/t/ds=1"},
		{name: "no scheme", in: "/db/t/ds=1", err: "Server host and port are missing: /db/t/ds=1"},
		{name: "no partitions", in: "hcat://h:9083/db/t", err: "URI path is not in expected format: hcat://h:9083/db/t"},
		{name: "too deep", in: "hcat://h:9083/db/t/ds=1/x", err: "URI path is not in expected format: hcat://h:9083/db/t/ds=1/x"},
		{name: "no db", in: "hcat://h:9083//t/ds=1", err: "DB name is missing: hcat://h:9083//t/ds=1"},
		{name: "no table", in: "hcat://h:9083/db//ds=1", err: "Table name is missing: hcat://h:9083/db//ds=1"},
		{name: "value missing", in: "hcat://h:9083/db/t/ds=",
			err: "Partition key value pair is not specified properly in (ds=): hcat://h:9083/db/t/ds="},
		{name: "two equals", in: "hcat://h:9083/db/t/ds=1=2",
			err: "Partition key value pair is not specified properly in (ds=1=2): hcat://h:9083/db/t/ds=1=2"},
		{name: "no equals", in: "hcat://h:9083/db/t/ds",
			err: "Partition key value pair is not specified properly in (ds): hcat://h:9083/db/t/ds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.in)
			if tt.err != "" {
				var se *SyntaxError
				if err == nil || err.Error() != tt.err || !errors.As(err, &se) || se.ErrorCode() != "E0906" {
					t.Fatalf("Parse(%q) = %+v, %v; want error %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			tt.want.Raw = tt.in
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestFormats(t *testing.T) {
	t.Parallel()
	u, err := Parse("hcat://h1:9083,h2:9083/db/clicks/ds=2010-01-01;region=us")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ got, want string }{
		{u.PartitionFilter("pig"), "(ds=='2010-01-01' AND region=='us')"},
		{u.PartitionFilter("PIG"), "(ds=='2010-01-01' AND region=='us')"},
		{u.PartitionFilter("hive"), "(ds='2010-01-01' AND region='us')"},
		{u.PartitionFilter("java"), "(ds='2010-01-01' AND region='us')"},
		{u.PartitionString(), "'ds=2010-01-01,region=us'"},
		{u.MetastoreFilter(), `ds="2010-01-01" and region="us"`},
		{Format("h:1", "db", "t", u.Partitions), "hcat://h:1/db/t/ds=2010-01-01;region=us"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if got := u.Metastores(); !reflect.DeepEqual(got, []string{"h1:9083", "h2:9083"}) {
		t.Errorf("Metastores = %v", got)
	}
	if v, ok := u.Value("region"); !ok || v != "us" {
		t.Errorf("Value(region) = %q, %v", v, ok)
	}
	for _, c := range []struct {
		db, table string
		values    map[string]string
		want      bool
	}{
		{"DB", "Clicks", map[string]string{"ds": "2010-01-01", "region": "us"}, true},
		{"db", "clicks", map[string]string{"DS": "2010-01-01", "region": "us", "hour": "01"}, true},
		{"db", "clicks", map[string]string{"ds": "2010-01-01", "region": "eu"}, false},
		{"db", "clicks", map[string]string{"ds": "2010-01-01"}, false},
		{"db", "other", map[string]string{"ds": "2010-01-01", "region": "us"}, false},
	} {
		if got := u.Matches(c.db, c.table, c.values); got != c.want {
			t.Errorf("Matches(%s, %s, %v) = %v", c.db, c.table, c.values, got)
		}
	}
	if !IsURI("HCAT://h/db/t/a=1") || IsURI("hdfs://nn/a") || IsURI("hcat:/x") {
		t.Error("IsURI")
	}
}
