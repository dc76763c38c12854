package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"sync/atomic"
)

// maxPrepared bounds how many distinct statement texts are kept prepared.
// The store's texts are fixed but for the lengths of IN lists and VALUES
// rows, so the common ones fit; a text past the bound runs unprepared.
const maxPrepared = 512

// stmts prepares each statement text once per connection and reuses it, so
// that the database parses and analyses it once instead of at every
// execution (on PostgreSQL, about as much work as running a key lookup; on
// SQLite, a compile of the statement). database/sql keeps a prepared
// statement per connection and prepares it on a connection that has not
// seen it, on that connection.
//
// A text is prepared in the background the first time it runs, and runs
// unprepared until then: preparing takes a connection of the pool, which a
// caller holding one for its transaction must not wait for (SQLite's pool
// has a single connection). A text that fails to prepare keeps running
// unprepared, and its error, if it is the statement's, comes from that run.
//
// A database that loses the prepared statements of a session (a pooler
// between gozie and PostgreSQL that hands each transaction another server
// connection, as PgBouncer's transaction mode before 1.21 does) makes the
// dialect's PreparedLost recognise the error: the statement fails once,
// as a conflict its caller runs again, and statements run unprepared from
// then on.
type stmts struct {
	db      *sql.DB
	lost    func(error) bool // the dialect's PreparedLost; nil: never
	off     atomic.Bool      // prepared statements were lost: run everything unprepared
	ctx     context.Context  // cancelled by close
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex
	m       map[string]*sql.Stmt // nil: being prepared, or failed to
	closing bool
}

// newStmts returns the statements of db, prepared only when prepare is set.
func newStmts(db *sql.DB, prepare bool, lost func(error) bool) *stmts {
	ctx, cancel := context.WithCancel(context.Background())
	c := &stmts{db: db, lost: lost, ctx: ctx, cancel: cancel, m: map[string]*sql.Stmt{}}
	c.off.Store(!prepare)
	return c
}

// failed notes the error of a prepared statement's run: one that says the
// session's prepared statements are gone turns them off for good.
func (c *stmts) failed(err error) error {
	if err != nil && c.lost != nil && c.lost(err) && !c.off.Swap(true) {
		c.mu.Lock()
		for q, st := range c.m {
			if st != nil {
				st.Close()
			}
			c.m[q] = nil // never prepared again
		}
		c.mu.Unlock()
	}
	return err
}

// get returns the prepared statement of q, or nil while it is not prepared.
func (c *stmts) get(q string) *sql.Stmt {
	if c.off.Load() {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.m[q]
	if ok || c.closing || len(c.m) >= maxPrepared {
		return st
	}
	c.m[q] = nil
	c.wg.Add(1)
	go c.prepare(q)
	return nil
}

// prepare prepares q and keeps it.
func (c *stmts) prepare(q string) {
	defer c.wg.Done()
	st, err := c.db.PrepareContext(c.ctx, q)
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing || c.off.Load() {
		st.Close()
		return
	}
	c.m[q] = st
}

// close stops preparing and closes every prepared statement.
func (c *stmts) close() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		if st != nil {
			st.Close()
		}
		delete(c.m, q)
	}
}

// QueryContext runs a query outside a transaction, prepared.
func (c *stmts) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := c.get(q); st != nil {
		rows, err := st.QueryContext(ctx, args...)
		return rows, c.failed(err)
	}
	return c.db.QueryContext(ctx, q, args...)
}

// QueryRowContext runs a one-row query outside a transaction, prepared.
func (c *stmts) QueryRowContext(ctx context.Context, q string, args ...any) row {
	if st := c.get(q); st != nil {
		return row{st.QueryRowContext(ctx, args...), c}
	}
	return row{c.db.QueryRowContext(ctx, q, args...), nil}
}

// row is a *sql.Row whose error, if from a prepared statement, is noted
// (stmts.failed).
type row struct {
	r *sql.Row
	c *stmts // nil: run unprepared
}

// Scan copies the row's columns into dest, as sql.Row.Scan.
func (r row) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if r.c != nil {
		return r.c.failed(err)
	}
	return err
}

// stmtTx is a transaction whose statements run prepared (see stmts). It has
// the methods of *sql.Tx that the store uses. Without a transaction (tx
// nil: a view, see DB.View) each query runs on its own, and writes are
// refused.
type stmtTx struct {
	tx *sql.Tx
	c  *stmts
}

// errViewWrite is the error of a write in a view.
var errViewWrite = errors.New("writing in a read-only view of the store")

// QueryContext runs a query in the transaction.
func (t stmtTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if t.tx == nil {
		return t.c.QueryContext(ctx, q, args...)
	}
	if st := t.c.get(q); st != nil {
		rows, err := t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
		return rows, t.c.failed(err)
	}
	return t.tx.QueryContext(ctx, q, args...)
}

// QueryRowContext runs a one-row query in the transaction.
func (t stmtTx) QueryRowContext(ctx context.Context, q string, args ...any) row {
	if t.tx == nil {
		return t.c.QueryRowContext(ctx, q, args...)
	}
	if st := t.c.get(q); st != nil {
		return row{t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...), t.c}
	}
	return row{t.tx.QueryRowContext(ctx, q, args...), nil}
}

// ExecContext runs a statement in the transaction.
func (t stmtTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if t.tx == nil {
		return nil, errViewWrite
	}
	if st := t.c.get(q); st != nil {
		res, err := t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
		return res, t.c.failed(err)
	}
	return t.tx.ExecContext(ctx, q, args...)
}

// Commit commits the transaction.
func (t stmtTx) Commit() error { return t.tx.Commit() }

// Rollback aborts the transaction.
func (t stmtTx) Rollback() error { return t.tx.Rollback() }
