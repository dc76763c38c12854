package clustertools

import (
	"slices"
	"testing"
	"time"
)

func TestIntegerSplits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		min, max int64
		n        int
		want     []string
	}{
		{1, 4, 2, []string{"i >= 1 AND i < 2", "i >= 2 AND i <= 4"}},
		{1, 10, 3, []string{"i >= 1 AND i < 4", "i >= 4 AND i < 7", "i >= 7 AND i <= 10"}},
		{5, 5, 4, []string{"i >= 5 AND i <= 5"}},
		{0, 2, 4, []string{"i >= 0 AND i < 1", "i >= 1 AND i <= 2"}},
	}
	for _, tt := range tests {
		if got := integerSplits("i", tt.min, tt.max, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("integerSplits(%d, %d, %d) = %q, want %q", tt.min, tt.max, tt.n, got, tt.want)
		}
	}
}

func TestPostgresDSN(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url, user, password string
		want                string
		wantErr             bool
	}{
		{"jdbc:postgresql://db:6432/sales?sslmode=disable", "bob", "", "host='db' port='6432' dbname='sales' user='bob' sslmode='disable'", false},
		{"jdbc:postgresql://db/sales?user=ann&password=x&ssl=true", "", "", "host='db' port='5432' dbname='sales' user='ann' password='x' sslmode='require'", false},
		{"jdbc:postgresql:sales", "", "it's", `host='localhost' port='5432' dbname='sales' password='it\'s' sslmode='prefer'`, false},
		{"jdbc:hsqldb:file:db.hsqldb", "", "", "", true},
	}
	for _, tt := range tests {
		got, err := postgresDSN(tt.url, tt.user, tt.password)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("postgresDSN(%q) = %q, %v; want %q (error %v)", tt.url, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestFormatField(t *testing.T) {
	t.Parallel()
	ts := time.Date(2024, 3, 1, 10, 4, 5, 120000000, time.UTC)
	tests := []struct {
		v      any
		dbType string
		want   string
	}{
		{nil, "VARCHAR", "S"},
		{nil, "INT4", "N"},
		{int64(7), "INT4", "7"},
		{float64(2), "FLOAT8", "2.0"},
		{2.5, "FLOAT8", "2.5"},
		{true, "BOOL", "true"},
		{[]byte("12.50"), "NUMERIC", "12.50"},
		{ts, "DATE", "2024-03-01"},
		{ts, "TIMESTAMP", "2024-03-01 10:04:05.12"},
		{ts.Truncate(time.Second), "TIMESTAMP", "2024-03-01 10:04:05.0"},
	}
	for _, tt := range tests {
		if got := formatField(tt.v, tt.dbType, "S", "N"); got != tt.want {
			t.Errorf("formatField(%v, %s) = %q, want %q", tt.v, tt.dbType, got, tt.want)
		}
	}
}
