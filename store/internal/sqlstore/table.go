package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gozie/gozie/store"
)

// table maps one row type to its table. cols[0] is the primary key and the
// last column is "version"; fields returns pointers to the row's fields in
// column order (times wrapped by the dialect).
type table[T any] struct {
	name    string
	cols    []string
	fields  func(d *Dialect, r *T) []any
	version func(r *T) *store.Version
	noun    string // for error messages
	// reads, where set, is the expression a select reads for a column in
	// place of the column itself (its fields entry scans what it yields).
	reads map[string]string
}

// colList is the table's columns, in order, as an INSERT names them.
func (t *table[T]) colList() string { return strings.Join(t.cols, ", ") }

// selectList is the table's columns, in order, as a select reads them.
func (t *table[T]) selectList() string { return t.selectListWith(nil) }

// colListOmitting is selectList with an empty string read in place of each of
// the text columns omit names (those t does not have are ignored).
func (t *table[T]) colListOmitting(omit []string) string {
	exprs := make(map[string]string, len(omit))
	for _, c := range omit {
		exprs[c] = "''"
	}
	return t.selectListWith(exprs)
}

// selectListWith is selectList with the expression exprs names read in place
// of a column.
func (t *table[T]) selectListWith(exprs map[string]string) string {
	cols := slices.Clone(t.cols)
	for i, c := range cols {
		e := exprs[c]
		if e == "" {
			e = t.reads[c]
		}
		if e != "" {
			cols[i] = e + " AS " + c
		}
	}
	return strings.Join(cols, ", ")
}

func placeholders(from, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d", from+i)
	}
	return b.String()
}

func (t *table[T]) insert(ctx context.Context, x *txn, r *T) error {
	*t.version(r) = 1
	q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", t.name, t.colList(), placeholders(1, len(t.cols)))
	if _, err := x.tx.ExecContext(ctx, q, t.fields(x.d, r)...); err != nil {
		*t.version(r) = 0
		return x.mapErr(err, "inserting %s", t.noun)
	}
	return nil
}

// insertMany inserts rows with multi-row INSERT statements of at most
// insertBatch rows each (well within both databases' parameter limits).
func (t *table[T]) insertMany(ctx context.Context, x *txn, rows []*T) error {
	const insertBatch = 100
	for start := 0; start < len(rows); start += insertBatch {
		chunk := rows[start:min(start+insertBatch, len(rows))]
		var b strings.Builder
		fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES ", t.name, t.colList())
		args := make([]any, 0, len(chunk)*len(t.cols))
		for i, r := range chunk {
			*t.version(r) = 1
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%s)", placeholders(len(args)+1, len(t.cols)))
			args = append(args, t.fields(x.d, r)...)
		}
		if _, err := x.tx.ExecContext(ctx, b.String(), args...); err != nil {
			for _, r := range chunk {
				*t.version(r) = 0
			}
			return x.mapErr(err, "inserting %d %ss", len(chunk), t.noun)
		}
	}
	return nil
}

func (t *table[T]) get(ctx context.Context, x *txn, key string) (T, error) {
	var r T
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s = $1", t.selectList(), t.name, t.cols[0])
	err := x.tx.QueryRowContext(ctx, q, key).Scan(t.fields(x.d, &r)...)
	if err != nil {
		return r, x.mapErr(err, "getting %s %s", t.noun, key)
	}
	return r, nil
}

// getForUpdate is get that also locks the row until the transaction ends,
// where the dialect locks rows.
func (t *table[T]) getForUpdate(ctx context.Context, x *txn, key string) (T, error) {
	var r T
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s = $1%s", t.selectList(), t.name, t.cols[0], x.d.LockRow)
	if err := x.tx.QueryRowContext(ctx, q, key).Scan(t.fields(x.d, &r)...); err != nil {
		return r, x.mapErr(err, "locking %s %s", t.noun, key)
	}
	return r, nil
}

// update writes every column of r if its version is current and, when
// statuses are given, the stored status is one of them.
func (t *table[T]) update(ctx context.Context, x *txn, r *T, statuses []string) error {
	f := t.fields(x.d, r)
	var set []string
	for i, c := range t.cols[1 : len(t.cols)-1] {
		set = append(set, fmt.Sprintf("%s = $%d", c, i+2))
	}
	n := len(t.cols)
	args := append([]any{f[0]}, f[1:n-1]...)
	args = append(args, *t.version(r))
	q := fmt.Sprintf("UPDATE %s SET %s, version = version + 1 WHERE %s = $1 AND version = $%d",
		t.name, strings.Join(set, ", "), t.cols[0], n)
	if len(statuses) > 0 {
		q += fmt.Sprintf(" AND status IN (%s)", placeholders(n+1, len(statuses)))
		for _, s := range statuses {
			args = append(args, s)
		}
	}
	res, err := x.tx.ExecContext(ctx, q, args...)
	if err != nil {
		return x.mapErr(err, "updating %s", t.noun)
	}
	if k, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("updating %s: %w", t.noun, err)
	} else if k == 0 {
		var one int
		err := x.tx.QueryRowContext(ctx, fmt.Sprintf("SELECT 1 FROM %s WHERE %s = $1", t.name, t.cols[0]), f[0]).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("updating %s: %w", t.noun, store.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("updating %s: %w", t.noun, err)
		}
		return fmt.Errorf("updating %s: version or status changed: %w", t.noun, store.ErrConflict)
	}
	*t.version(r)++
	return nil
}

// query runs a select of all columns with the given tail (WHERE/ORDER/LIMIT).
func (t *table[T]) query(ctx context.Context, x *txn, tail string, args ...any) ([]T, error) {
	return t.queryCols(ctx, x, t.selectList(), tail, args...)
}

// queryCols is query with a select list of its own: one expression for each of t's
// columns, in their order (an expression may stand in for a column not worth reading).
func (t *table[T]) queryCols(ctx context.Context, x *txn, cols, tail string, args ...any) ([]T, error) {
	return t.queryWith(ctx, x, cols, t.fields, tail, args...)
}

// queryWith is queryCols scanning each row into the destinations scan gives
// (t.fields, or those with a field read through an expression of its own).
func (t *table[T]) queryWith(ctx context.Context, x *txn, cols string, scan func(*Dialect, *T) []any, tail string, args ...any) ([]T, error) {
	q := fmt.Sprintf("SELECT %s FROM %s %s", cols, t.name, tail)
	rows, err := x.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, x.mapErr(err, "listing %s", t.noun)
	}
	defer rows.Close()
	// Every row is scanned into one r through one list of destinations, then
	// copied out: no row allocates its own (a page of a listing is most of an
	// answer's allocations).
	var out []T
	var r, zero T
	dest := scan(x.d, &r)
	for rows.Next() {
		r = zero
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("listing %s: %w", t.noun, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing %s: %w", t.noun, err)
	}
	return out, nil
}

func (t *table[T]) delete(ctx context.Context, x *txn, key string) error {
	res, err := x.tx.ExecContext(ctx, fmt.Sprintf("DELETE FROM %s WHERE %s = $1", t.name, t.cols[0]), key)
	if err != nil {
		return x.mapErr(err, "deleting %s %s", t.noun, key)
	}
	if k, _ := res.RowsAffected(); k == 0 {
		return fmt.Errorf("deleting %s %s: %w", t.noun, key, store.ErrNotFound)
	}
	return nil
}

// where accumulates AND-ed conditions with numbered arguments.
type where struct {
	conds []string
	args  []any
}

func (w *where) arg(v any) string {
	w.args = append(w.args, v)
	return fmt.Sprintf("$%d", len(w.args))
}

func (w *where) add(format string, vals ...any) {
	ph := make([]any, len(vals))
	for i, v := range vals {
		ph[i] = w.arg(v)
	}
	w.conds = append(w.conds, fmt.Sprintf(format, ph...))
}

func (w *where) in(col string, vals []string, not bool) {
	if len(vals) == 0 {
		return
	}
	ph := make([]string, len(vals))
	for i, v := range vals {
		ph[i] = w.arg(v)
	}
	op := "IN"
	if not {
		op = "NOT IN"
	}
	w.conds = append(w.conds, fmt.Sprintf("%s %s (%s)", col, op, strings.Join(ph, ", ")))
}

func (w *where) String() string {
	if len(w.conds) == 0 {
		return ""
	}
	return "WHERE " + strings.Join(w.conds, " AND ")
}

func strs[S ~string](in []S) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = string(s)
	}
	return out
}

func page(offset, limit int) string {
	s := ""
	if limit > 0 {
		s += fmt.Sprintf(" LIMIT %d", limit)
	} else if offset > 0 {
		s += " LIMIT 9223372036854775807"
	}
	if offset > 0 {
		s += fmt.Sprintf(" OFFSET %d", offset)
	}
	return s
}

func (x *txn) count(ctx context.Context, tableName string, w *where) (int, error) {
	var n int
	err := x.tx.QueryRowContext(ctx, fmt.Sprintf("SELECT COUNT(*) FROM %s %s", tableName, w), w.args...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting %s: %w", tableName, err)
	}
	return n, nil
}

// sameAs is a text column written from *v and read through an expression that
// yields NULL where it equals another column read before it, whose field is
// *same: a NULL read sets *v to *same, sharing its string. Nothing of the
// column's size crosses the connection twice for equal values.
type sameAs struct{ v, same *string }

// Value writes the column in full.
func (s sameAs) Value() (driver.Value, error) { return *s.v, nil }

// Scan reads the column, or the other column's value for NULL.
func (s sameAs) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*s.v = *s.same
	case string:
		*s.v = v
	case []byte:
		*s.v = string(v)
	default:
		return fmt.Errorf("reading a text column: unexpected %T", src)
	}
	return nil
}
