// Package postgres is the store backend for many servers sharing one
// PostgreSQL database through github.com/lib/pq. Triggers are claimed with
// FOR UPDATE SKIP LOCKED so that servers never contend on the same row, and
// after every transaction that makes work due the server sends NOTIFY on the
// channel gozie_triggers, which each server LISTENs on to wake at once.
//
// The NOTIFY is sent after the commit, by one connection of its own, and
// coalesced: however many transactions commit while one NOTIFY is on its
// way, one more follows it. A NOTIFY inside each transaction would make
// PostgreSQL serialize those commits, WAL flush included, on its one
// notification-queue lock, and add a statement to each; the other servers
// need to know only that something changed since they last looked. A
// server ignores its own notifications (it woke at its commit), and one
// lost with a crash between commit and NOTIFY is covered by the engine's
// fallback timer, as is one lost on the network.
package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lib/pq"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Channel is the NOTIFY channel that announces new due work.
const Channel = "gozie_triggers"

// PoolSize is how many connections a store opens at most, and keeps open
// while idle (one of them is the notifier's).
const PoolSize = 32

// Store is the PostgreSQL backend.
type Store struct {
	*sqlstore.DB
	listener *pq.Listener
	notifier *notifier
}

var _ store.Store = (*Store)(nil)

func dialect() *sqlstore.Dialect {
	return &sqlstore.Dialect{
		Name:       "postgres",
		NativeTime: true,
		SkipLocked: " FOR UPDATE SKIP LOCKED",
		LockRow:    " FOR UPDATE",
		IDAmong:    "id = ANY(ARRAY(%s))",
		IsUniqueViolation: func(err error) bool {
			var e *pq.Error
			return errors.As(err, &e) && e.Code == "23505"
		},
		// deadlock_detected and serialization_failure: the transaction was
		// rolled back and can run again.
		IsRetryable: func(err error) bool {
			var e *pq.Error
			return errors.As(err, &e) && (e.Code == "40P01" || e.Code == "40001")
		},
		Prepare: true,
		// invalid_sql_statement_name: a prepared statement the session does
		// not have (a transaction-mode pooler moved the session).
		PreparedLost: func(err error) bool {
			var e *pq.Error
			return errors.As(err, &e) && e.Code == "26000"
		},
		// A fixed advisory-lock key serializes migrations of servers that
		// start together.
		MigrationLock: `SELECT pg_advisory_xact_lock(7260431985)`,
		BeginTx: func(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
			return db.BeginTx(ctx, nil)
		},
	}
}

// Open connects to the database at dsn (a postgres:// URL), applies
// migrations and starts listening for wake-ups from other servers.
func Open(ctx context.Context, dsn string) (*Store, error) {
	// With binary_parameters lib/pq sends a parameterized statement in one
	// round trip instead of two (parse, then bind); every store statement
	// is parameterized.
	if !strings.Contains(dsn, "binary_parameters") {
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		dsn += sep + "binary_parameters=yes"
	}
	connector, err := pq.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	connector.Dialer(readAheadDialer{})
	db := sql.OpenDB(connector)
	// As many idle connections kept as may be open: with fewer, every burst
	// above the idle cap closes the connections it opened as soon as they
	// are released and opens new ones for the next burst (a server process
	// forked, the session's statements prepared again), which a steady load
	// of more concurrent requests than the cap does all the time. Idle
	// connections still close after ConnMaxIdleTime.
	db.SetMaxOpenConns(PoolSize)
	db.SetMaxIdleConns(PoolSize)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: connecting: %w", err)
	}
	d := dialect()
	ms, err := sqlstore.LoadMigrations(migrations, "migrations")
	if err != nil {
		db.Close()
		return nil, err
	}
	if _, err := sqlstore.Migrate(ctx, db, d, ms); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s := &Store{DB: sqlstore.New(db, d), notifier: newNotifier(db)}
	// The listener reconnects by itself; after a reconnect it delivers a nil
	// notification, which also wakes the engine so nothing missed is lost.
	s.listener = pq.NewListener(dsn, 100*time.Millisecond, 10*time.Second, nil)
	if err := s.listener.Listen(Channel); err != nil {
		s.listener.Close()
		db.Close()
		return nil, fmt.Errorf("postgres: listening on %s: %w", Channel, err)
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case n, ok := <-s.listener.Notify:
				if !ok {
					return
				}
				if n == nil || !s.notifier.sentBy(n.BePid) {
					s.Wake()
				}
			case <-done:
				return
			}
		}
	}()
	go s.notifier.run(done)
	s.OnScheduled(s.notifier.kick)
	s.OnClose(func() {
		close(done)
		s.listener.Close()
		<-s.notifier.stopped
	})
	return s, nil
}

// notifier sends the NOTIFY that tells other servers of new due work, from a
// connection of its own, one at a time and coalesced (see the package doc).
type notifier struct {
	db      *sql.DB
	pending chan struct{} // one buffered kick: a NOTIFY is owed
	stopped chan struct{}
	pid     atomic.Int64 // the backend of the connection that notifies; 0 when none
}

func newNotifier(db *sql.DB) *notifier {
	return &notifier{db: db, pending: make(chan struct{}, 1), stopped: make(chan struct{})}
}

// kick records that a NOTIFY is owed; it never blocks.
func (n *notifier) kick() {
	select {
	case n.pending <- struct{}{}:
	default:
	}
}

// sentBy reports whether a notification came from this server's own
// connection.
func (n *notifier) sentBy(pid int) bool {
	own := n.pid.Load()
	return own != 0 && int64(pid) == own
}

// run sends one NOTIFY per kick taken until done is closed. A failed NOTIFY
// drops its connection (the next one opens another) and is not retried: the
// other servers' fallback timers cover it.
func (n *notifier) run(done <-chan struct{}) {
	defer close(n.stopped)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-done
		cancel()
	}()
	var conn *sql.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for {
		select {
		case <-done:
			return
		case <-n.pending:
		}
		if conn == nil {
			var err error
			if conn, err = n.open(ctx); err != nil {
				continue
			}
		}
		if _, err := conn.ExecContext(ctx, `SELECT pg_notify($1, '')`, Channel); err != nil {
			n.pid.Store(0)
			discard(conn)
			conn = nil
		}
	}
}

// open takes a connection for notifying and learns its backend's pid.
func (n *notifier) open(ctx context.Context) (*sql.Conn, error) {
	conn, err := n.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	var pid int64
	if err := conn.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		discard(conn)
		return nil, err
	}
	n.pid.Store(pid)
	return conn, nil
}

// discard closes a connection that failed, so that it never goes back to
// the pool.
func discard(conn *sql.Conn) {
	conn.Raw(func(any) error { return driver.ErrBadConn })
	conn.Close()
}

// Migrations returns the embedded migrations, for tests.
func Migrations() ([]sqlstore.Migration, error) {
	return sqlstore.LoadMigrations(migrations, "migrations")
}
