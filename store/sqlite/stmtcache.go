package sqlite

import (
	"container/list"
	"context"
	"database/sql/driver"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// The shared store implementation sends every statement as text, and
// SQLite parses and plans a statement each time it is given as text: for
// the short statements the engine runs most, that is a large part of their
// cost (a multi-row INSERT of a hundred actions takes longer to parse than
// to run). So each connection keeps its most recently used statements
// prepared, by text, and runs them again with new arguments.

// stmtCacheSize is how many prepared statements one connection keeps.
const stmtCacheSize = 256

// cachingConnector opens the driver's connections and wraps each in a
// cachingConn.
type cachingConnector struct {
	driver.Connector
}

// Connect implements driver.Connector.
func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return newCachingConn(conn), nil
}

// fullConn is what cachingConn needs of the driver's connection.
type fullConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// newCachingConn wraps conn, or returns it as it is when it lacks one of
// the interfaces the wrapper forwards.
func newCachingConn(conn driver.Conn) driver.Conn {
	fc, ok := conn.(fullConn)
	if !ok {
		return conn
	}
	return &cachingConn{fullConn: fc, lru: list.New(), byQuery: map[string]*list.Element{}}
}

// cachingConn runs single statements through prepared statements it keeps
// by their text (least recently used dropped first). A statement whose rows
// are still open is not reused meanwhile: a second use of the same text
// then runs as a one-off. Scripts of several statements always run as given.
type cachingConn struct {
	fullConn
	mu      sync.Mutex // database/sql serializes a connection's calls; this is a guard
	lru     *list.List // of *cachedStmt, most recent first
	byQuery map[string]*list.Element
}

type cachedStmt struct {
	query   string
	st      stmtContext
	busy    bool // rows are open on it
	dropped bool // left the cache while busy: closed when its rows close
}

// stmtContext is what a cached statement must do.
type stmtContext interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// take returns the cached statement for query, prepared if need be, or nil
// when query must run as a one-off.
func (c *cachingConn) take(ctx context.Context, query string) (*cachedStmt, error) {
	if strings.Contains(query, ";") {
		return nil, nil // perhaps a script
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byQuery[query]; ok {
		s := el.Value.(*cachedStmt)
		if s.busy {
			return nil, nil
		}
		c.lru.MoveToFront(el)
		return s, nil
	}
	st, err := c.fullConn.PrepareContext(ctx, anonymous(query))
	if err != nil {
		return nil, err
	}
	sc, ok := st.(stmtContext)
	if !ok {
		st.Close()
		return nil, nil
	}
	s := &cachedStmt{query: query, st: sc}
	c.byQuery[query] = c.lru.PushFront(s)
	for c.lru.Len() > stmtCacheSize {
		old := c.lru.Remove(c.lru.Back()).(*cachedStmt)
		delete(c.byQuery, old.query)
		if old.busy {
			old.dropped = true
		} else {
			old.st.Close()
		}
	}
	return s, nil
}

// anonymous returns query with its placeholders $1, $2, ..., $n turned
// into SQLite's anonymous ?, when each appears once and in that order
// (outside quotes), and query as it is otherwise. Binding a named
// parameter looks its name up in a list as long as the statement's
// parameters, so binding the hundreds of a multi-row statement by name
// costs time quadratic in their number; anonymous ones bind in order.
func anonymous(query string) string {
	var b strings.Builder
	b.Grow(len(query))
	next := 1
	var quote byte
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '$' && (i == 0 || !identChar(query[i-1])):
			j := i + 1
			for j < len(query) && query[j] >= '0' && query[j] <= '9' {
				j++
			}
			if j == i+1 {
				break
			}
			if query[i+1:j] != strconv.Itoa(next) {
				return query
			}
			next++
			b.WriteByte('?')
			i = j - 1
			continue
		}
		b.WriteByte(c)
	}
	if next == 1 {
		return query
	}
	return b.String()
}

func identChar(c byte) bool {
	return c == '_' || c == '$' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// ExecContext implements driver.ExecerContext.
func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s, err := c.take(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.fullConn.ExecContext(ctx, query, args)
	}
	return s.st.ExecContext(ctx, args)
}

// QueryContext implements driver.QueryerContext.
func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s, err := c.take(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.fullConn.QueryContext(ctx, query, args)
	}
	rows, err := s.st.QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	s.busy = true
	c.mu.Unlock()
	return &cachedRows{Rows: rows, release: func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		s.busy = false
		if s.dropped {
			s.st.Close()
		}
	}}, nil
}

// Close implements driver.Conn: the cached statements first.
func (c *cachingConn) Close() error {
	c.mu.Lock()
	for el := c.lru.Front(); el != nil; el = el.Next() {
		if s := el.Value.(*cachedStmt); !s.busy {
			s.st.Close()
		}
	}
	c.lru.Init()
	c.byQuery = map[string]*list.Element{}
	c.mu.Unlock()
	return c.fullConn.Close()
}

// cachedRows are the rows of a cached statement; closing them frees the
// statement for its next use.
type cachedRows struct {
	driver.Rows
	release func()
	once    sync.Once
}

// Close implements driver.Rows.
func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.once.Do(r.release)
	return err
}

// ColumnTypeScanType forwards the driver's column types, which
// database/sql's ColumnTypes reports.
func (r *cachedRows) ColumnTypeScanType(i int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}

// ColumnTypeDatabaseTypeName forwards the driver's declared column types.
func (r *cachedRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}
