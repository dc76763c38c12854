package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

func TestAnonymousPlaceholders(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)", "SELECT * FROM t WHERE a = ? AND b IN (?, ?)"},
		{"INSERT INTO t VALUES ($1, $2), ($3, $4)", "INSERT INTO t VALUES (?, ?), (?, ?)"},
		{"UPDATE t SET a = $2 WHERE id = $1", "UPDATE t SET a = $2 WHERE id = $1"},               // out of order
		{"DELETE FROM t WHERE id = $1 AND $1 <> ''", "DELETE FROM t WHERE id = $1 AND $1 <> ''"}, // used twice
		{"SELECT '$1', $1", "SELECT '$1', ?"},                                                    // quoted
		{`SELECT "a$1" FROM t WHERE x = $1`, `SELECT "a$1" FROM t WHERE x = ?`},                  // quoted identifier
		{"SELECT a$1 FROM t WHERE x = $1", "SELECT a$1 FROM t WHERE x = ?"},                      // in an identifier
		{"SELECT $1, $10", "SELECT $1, $10"},                                                     // a gap
		{"SELECT 'it''s', $1", "SELECT 'it''s', ?"},                                              // an escaped quote
		{"SELECT $ FROM t", "SELECT $ FROM t"},                                                   // not a placeholder
		{"SELECT $01", "SELECT $01"},                                                             // not the ordinal 1
	} {
		if got := anonymous(tc.in); got != tc.want {
			t.Errorf("anonymous(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestStatementCache runs statements through the caching connection: the
// same text again (cached), the same text while its rows are still open (a
// one-off), more texts than the cache holds, and a script.
func TestStatementCache(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	db := s.SQL()
	if _, err := db.ExecContext(ctx, `CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT); CREATE INDEX kv_v ON kv (v)`); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if _, err := db.ExecContext(ctx, `INSERT INTO kv (k, v) VALUES ($1, $2)`, i, fmt.Sprint("v", i)); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const q = `SELECT k, v FROM kv WHERE k >= $1 ORDER BY k`
	outer, err := tx.QueryContext(ctx, q, 5)
	if err != nil {
		t.Fatal(err)
	}
	var seen []int
	for outer.Next() {
		var k int
		var v string
		if err := outer.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		seen = append(seen, k)
		// The same text while the outer rows are open.
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+q+`)`, k).Scan(&n); err != nil {
			t.Fatal(err)
		}
		inner, err := tx.QueryContext(ctx, q, k)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for inner.Next() {
			got++
		}
		inner.Close()
		if got != 10-k || n != got {
			t.Fatalf("inner query from %d: %d rows (count %d), want %d", k, got, n, 10-k)
		}
	}
	if err := outer.Err(); err != nil {
		t.Fatal(err)
	}
	outer.Close()
	if fmt.Sprint(seen) != "[5 6 7 8 9]" {
		t.Fatalf("outer rows %v", seen)
	}
	// More distinct statements than the cache keeps, each run twice.
	for round := 0; round < 2; round++ {
		for i := 0; i < stmtCacheSize+20; i++ {
			var v string
			err := tx.QueryRowContext(ctx, fmt.Sprintf(`SELECT v FROM kv WHERE k = $1 AND %d = %d`, i, i), i%10).Scan(&v)
			if err != nil || v != fmt.Sprint("v", i%10) {
				t.Fatalf("statement %d: %q %v", i, v, err)
			}
		}
	}
	// Arguments of every type the store binds, through a cached statement.
	var b bool
	var f float64
	var blob []byte
	for i := 0; i < 2; i++ {
		if err := tx.QueryRowContext(ctx, `SELECT $1, $2, $3`, true, 1.5, []byte("x")).Scan(&b, &f, &blob); err != nil || !b || f != 1.5 || string(blob) != "x" {
			t.Fatalf("bound values: %v %v %q %v", b, f, blob, err)
		}
	}
	// A failed statement leaves its cached statement usable.
	if _, err := tx.ExecContext(ctx, `INSERT INTO kv (k, v) VALUES ($1, $2)`, 1, "dup"); err == nil {
		t.Fatal("a duplicate key was accepted")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO kv (k, v) VALUES ($1, $2)`, 11, "v11"); err != nil {
		t.Fatal(err)
	}
}
