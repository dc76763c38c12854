// Package sqlstore implements store.Store once on database/sql. The two
// backends differ only in what a Dialect says: how times are encoded, how a
// unique violation looks, the locking suffixes of the claim statement, how a
// write wakes other servers, and their migrations.
package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/gozie/gozie/store"
)

// Dialect is what a backend tells the shared implementation.
type Dialect struct {
	// Name is "sqlite" or "postgres".
	Name string
	// NativeTime: times are passed and scanned as time.Time (timestamptz);
	// otherwise as int64 Unix milliseconds.
	NativeTime bool
	// SkipLocked is appended to the claim sub-select (" FOR UPDATE SKIP
	// LOCKED" on PostgreSQL, empty where the database serializes writers).
	SkipLocked string
	// ClaimKindColumn is how the claim statement names the kind column in
	// its kind filter. SQLite would otherwise pick the UNIQUE(kind,
	// entity_id) index and sort every trigger of those kinds; "+kind"
	// keeps it on the due-time partial indexes.
	ClaimKindColumn string
	// IDAmong, if set, is the format (one %s: a subquery of ids) of the
	// claim's condition that a row's id is one the subquery chose; the
	// default is "id IN (%s)". PostgreSQL plans that as a hash join over a
	// scan of the whole table; "id = ANY(ARRAY(%s))" finds each row by its
	// key.
	IDAmong string
	// LockRow is appended to a single-row select that precedes an update of
	// the same row in one transaction (" FOR UPDATE" on PostgreSQL).
	LockRow string
	// IsUniqueViolation recognises a duplicate-key error.
	IsUniqueViolation func(error) bool
	// IsRetryable, if set, recognises errors after which the whole
	// transaction may simply run again (a deadlock the database broke, a
	// serialization failure); they are reported as store.ErrConflict.
	IsRetryable func(error) bool
	// Prepare runs statements prepared once per connection (see stmts).
	Prepare bool
	// PreparedLost, if set, recognises the error of a prepared statement
	// that the database session no longer has (see stmts); the store
	// reports it as store.ErrConflict, since the next run does not use it.
	PreparedLost func(error) bool
	// MigrationLock, if set, runs first in the migration transaction so that
	// servers starting together migrate one at a time.
	MigrationLock string
	// BeginTx starts a read-write transaction.
	BeginTx func(ctx context.Context, db *sql.DB) (*sql.Tx, error)
}

// tm adapts a *time.Time field for database/sql in the dialect's encoding;
// the zero time is NULL.
type tm struct {
	t      *time.Time
	native bool
}

func (d *Dialect) tm(t *time.Time) tm { return tm{t: t, native: d.NativeTime} }

// tv encodes a time value as a query argument.
// A bound outside the range a row may hold is clamped to it, which keeps
// every comparison's meaning.
func (d *Dialect) tv(t time.Time) any {
	switch {
	case t.IsZero():
	case t.Before(store.MinTime):
		t = store.MinTime
	case t.After(store.MaxTime):
		t = store.MaxTime
	}
	v, _ := tm{t: &t, native: d.NativeTime}.Value()
	return v
}

// Value implements driver.Valuer. A time outside store.MinTime..MaxTime is an
// error, never a silent NULL or a wrapped value.
func (c tm) Value() (driver.Value, error) {
	if c.t.IsZero() {
		return nil, nil
	}
	if !store.TimeInRange(*c.t) {
		return nil, fmt.Errorf("sqlstore: time %s is outside the range the store holds (%s to %s)",
			c.t.UTC().Format(time.RFC3339), store.MinTime.Format(time.RFC3339), store.MaxTime.Format(time.RFC3339))
	}
	u := store.StoredTime(*c.t)
	if c.native {
		return u, nil
	}
	return u.UnixMilli(), nil
}

// Scan implements sql.Scanner.
func (c tm) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*c.t = time.Time{}
	case int64:
		*c.t = time.UnixMilli(v).UTC()
	case time.Time:
		*c.t = store.StoredTime(v)
	default:
		return fmt.Errorf("sqlstore: cannot scan %T into a time", src)
	}
	return nil
}
