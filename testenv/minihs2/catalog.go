package minihs2

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
)

// catalog is the metastore: databases and their tables, in memory. Names
// are kept in lower case, as Hive's metastore does.
type catalog struct {
	mu        sync.Mutex
	warehouse string
	dbs       map[string]*database
	log       notificationLog // the metastore's notification log (metastore_events.go)
}

type database struct {
	name     string
	location string
	tables   map[string]*table
}

// table is a text table's definition; its data is the visible files in
// location.
type table struct {
	db, name   string
	cols       []columnDef
	external   bool
	location   string
	fieldDelim string
	nullFormat string
	partCols   []columnDef // PARTITIONED BY (partitions.go)
	parts      []partition
}

var (
	errExists   = errors.New("already exists")
	errNotFound = errors.New("not found")
	errNotEmpty = errors.New("not empty")
)

func newCatalog(warehouse string) *catalog {
	c := &catalog{warehouse: warehouse, dbs: map[string]*database{}}
	c.dbs["default"] = &database{name: "default", location: warehouse, tables: map[string]*table{}}
	return c
}

func (c *catalog) hasDatabase(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.dbs[strings.ToLower(name)]
	return ok
}

// table returns a copy of a table's definition.
func (c *catalog) table(db, name string) (table, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[strings.ToLower(db)]
	if !ok {
		return table{}, false
	}
	t, ok := d.tables[strings.ToLower(name)]
	if !ok {
		return table{}, false
	}
	cp := *t
	cp.cols = slices.Clone(t.cols)
	return cp, true
}

// defaultLocation is where a managed table of db lives.
func (c *catalog) defaultLocation(db, name string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[strings.ToLower(db)]
	if !ok {
		return "", fmt.Errorf("database %s: %w", db, errNotFound)
	}
	return joinPath(d.location, strings.ToLower(name)), nil
}

// createTable adds t; errExists when the name is taken.
func (c *catalog) createTable(t table) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[t.db]
	if !ok {
		return fmt.Errorf("database %s: %w", t.db, errNotFound)
	}
	if _, ok := d.tables[t.name]; ok {
		return fmt.Errorf("table %s.%s: %w", t.db, t.name, errExists)
	}
	d.tables[t.name] = &t
	return nil
}

// dropTable removes a table and returns its definition.
func (c *catalog) dropTable(db, name string) (table, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[strings.ToLower(db)]
	if !ok {
		return table{}, false
	}
	t, ok := d.tables[strings.ToLower(name)]
	if !ok {
		return table{}, false
	}
	delete(d.tables, strings.ToLower(name))
	return *t, true
}

// createDatabase adds a database; an empty location means
// <warehouse>/<name>.db.
func (c *catalog) createDatabase(name, location string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	name = strings.ToLower(name)
	if _, ok := c.dbs[name]; ok {
		return "", fmt.Errorf("database %s: %w", name, errExists)
	}
	if location == "" {
		location = joinPath(c.warehouse, name+".db")
	}
	c.dbs[name] = &database{name: name, location: location, tables: map[string]*table{}}
	return location, nil
}

// dropDatabase removes a database; with cascade its tables go too and are
// returned so that managed data can be deleted.
func (c *catalog) dropDatabase(name string, cascade bool) ([]table, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	name = strings.ToLower(name)
	d, ok := c.dbs[name]
	if !ok {
		return nil, fmt.Errorf("database %s: %w", name, errNotFound)
	}
	if len(d.tables) > 0 && !cascade {
		return nil, fmt.Errorf("database %s: %w", name, errNotEmpty)
	}
	var dropped []table
	for _, t := range d.tables {
		dropped = append(dropped, *t)
	}
	delete(c.dbs, name)
	return dropped, nil
}

func (c *catalog) tableNames(db string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[strings.ToLower(db)]
	if !ok {
		return nil
	}
	names := make([]string, 0, len(d.tables))
	for n := range d.tables {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func (c *catalog) databaseNames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	names := make([]string, 0, len(c.dbs))
	for n := range c.dbs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// joinPath appends a name to a path or URI.
func joinPath(dir, name string) string {
	if i := strings.Index(dir, "://"); i >= 0 {
		rest := dir[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			return dir[:i+3] + rest[:j] + path.Join(rest[j:], name)
		}
		return dir + "/" + name
	}
	return path.Join(dir, name)
}
