package minihs2

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// The work of statements on Options.FS. Tables are directories of text
// files (one row a line, fields split by the table's delimiter); output
// directories get one file, 000000_0, as a single-reducer Hive job writes.

// dataFile is the name Hive gives the first output file of a task.
const dataFile = "000000_0"

func (s *Server) createTable(ctx context.Context, t table, ifNotExists bool) error {
	if _, ok := s.cat.table(t.db, t.name); ok {
		if ifNotExists {
			return nil
		}
		return ddl(errExists, fmt.Sprintf("Table hive.%s.%s", t.db, t.name))
	}
	if t.location == "" {
		loc, err := s.cat.defaultLocation(t.db, t.name)
		if err != nil {
			return ddl(err, "Database "+t.db)
		}
		t.location = loc
	}
	// The metastore creates a missing table directory.
	if err := s.opts.FS.MkdirAll(ctx, t.location, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return ddlError(fmt.Sprintf("MetaException(message:Got exception: %v)", err))
	}
	err := s.cat.createTable(t)
	if errors.Is(err, errExists) && ifNotExists {
		return nil
	}
	return ddl(err, fmt.Sprintf("Table hive.%s.%s", t.db, t.name))
}

func (s *Server) dropTable(ctx context.Context, db, name string) error {
	t, ok := s.cat.dropTable(db, name)
	if !ok || t.external {
		return nil
	}
	if err := s.opts.FS.RemoveAll(ctx, t.location); err != nil {
		return ddlError(fmt.Sprintf("MetaException(message:Failed to delete %s: %v)", t.location, err))
	}
	return nil
}

func (s *Server) createDatabase(ctx context.Context, x *createDatabaseStmt) error {
	loc, err := s.cat.createDatabase(x.name, x.location)
	if errors.Is(err, errExists) && x.ifNotExists {
		return nil
	}
	if err != nil {
		return ddl(err, "Database "+strings.ToLower(x.name))
	}
	if err := s.opts.FS.MkdirAll(ctx, loc, 0o755); err != nil {
		return ddlError(fmt.Sprintf("MetaException(message:Got exception: %v)", err))
	}
	return nil
}

func (s *Server) dropDatabase(ctx context.Context, x *dropDatabaseStmt) error {
	tables, err := s.cat.dropDatabase(x.name, x.cascade)
	if errors.Is(err, errNotFound) && x.ifExists {
		return nil
	}
	if err != nil {
		return ddl(err, strings.ToLower(x.name))
	}
	for _, t := range tables {
		if !t.external {
			if err := s.opts.FS.RemoveAll(ctx, t.location); err != nil {
				return ddlError(fmt.Sprintf("MetaException(message:Failed to delete %s: %v)", t.location, err))
			}
		}
	}
	return nil
}

// readTable reads every row of a table: each visible file of its location
// (names starting with '_' or '.' are hidden, as Hadoop's input formats
// skip them), or the location itself when it is a file.
func (s *Server) readTable(ctx context.Context, t table) ([][]any, error) {
	if len(t.partCols) > 0 {
		return s.readPartitioned(ctx, t) // partitions.go
	}
	info, err := s.opts.FS.Stat(ctx, t.location)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, execError("", fmt.Sprintf("reading %s: %v", t.location, err))
	}
	files := []string{t.location}
	if info.IsDir {
		entries, err := s.opts.FS.ReadDir(ctx, t.location)
		if err != nil {
			return nil, execError("", fmt.Sprintf("listing %s: %v", t.location, err))
		}
		files = files[:0]
		for _, e := range entries {
			if !e.IsDir && !strings.HasPrefix(e.Name, "_") && !strings.HasPrefix(e.Name, ".") {
				files = append(files, joinPath(t.location, e.Name))
			}
		}
	}
	var rows [][]any
	for _, f := range files {
		data, err := s.opts.FS.ReadFile(ctx, f)
		if err != nil {
			return nil, execError("", fmt.Sprintf("reading %s: %v", f, err))
		}
		if len(data) == 0 {
			continue
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			rows = append(rows, parseLine(line, t))
		}
	}
	return rows, nil
}

// parseLine splits one text line into typed fields; missing trailing
// fields are NULL and extra ones are ignored, as LazySimpleSerDe does.
func parseLine(line string, t table) []any {
	fields := strings.Split(line, t.fieldDelim)
	row := make([]any, len(t.cols))
	for i, c := range t.cols {
		if i < len(fields) {
			row[i] = parseField(fields[i], c.typ, t.nullFormat)
		}
	}
	return row
}

// formatRows renders rows as text lines.
func formatRows(rows [][]any, delim, nullFormat string) []byte {
	var b strings.Builder
	for _, row := range rows {
		for i, v := range row {
			if i > 0 {
				b.WriteString(delim)
			}
			b.WriteString(formatValue(v, nullFormat))
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// writeDirectory replaces dir with one file of rows (INSERT OVERWRITE
// DIRECTORY).
func (s *Server) writeDirectory(ctx context.Context, dir string, f rowFormat, rows [][]any) error {
	delim, null := f.fieldDelim, f.nullFormat
	if delim == "" {
		delim = defaultFieldDelim
	}
	if null == "" {
		null = defaultNullFormat
	}
	if err := s.opts.FS.RemoveAll(ctx, dir); err != nil {
		return execError("", fmt.Sprintf("clearing %s: %v", dir, err))
	}
	if err := s.opts.FS.MkdirAll(ctx, dir, 0o755); err != nil {
		return execError("", fmt.Sprintf("creating %s: %v", dir, err))
	}
	if err := s.opts.FS.WriteFile(ctx, joinPath(dir, dataFile), formatRows(rows, delim, null), 0o644); err != nil {
		return execError("", fmt.Sprintf("writing %s: %v", dir, err))
	}
	return nil
}

// writeTable adds a data file to a table (INSERT INTO), or replaces its
// visible files with one (INSERT OVERWRITE TABLE).
func (s *Server) writeTable(ctx context.Context, t table, rows [][]any, overwrite bool) error {
	if err := s.opts.FS.MkdirAll(ctx, t.location, 0o755); err != nil {
		return execError("", fmt.Sprintf("creating %s: %v", t.location, err))
	}
	entries, err := s.opts.FS.ReadDir(ctx, t.location)
	if err != nil {
		return execError("", fmt.Sprintf("listing %s: %v", t.location, err))
	}
	taken := map[string]bool{}
	for _, e := range entries {
		if overwrite && !strings.HasPrefix(e.Name, "_") && !strings.HasPrefix(e.Name, ".") {
			if err := s.opts.FS.RemoveAll(ctx, joinPath(t.location, e.Name)); err != nil {
				return execError("", fmt.Sprintf("clearing %s: %v", t.location, err))
			}
			continue
		}
		taken[e.Name] = true
	}
	name := dataFile
	for n := 1; taken[name]; n++ {
		name = fmt.Sprintf("%s_copy_%d", dataFile, n)
	}
	if err := s.opts.FS.WriteFile(ctx, joinPath(t.location, name), formatRows(rows, t.fieldDelim, t.nullFormat), 0o644); err != nil {
		return execError("", fmt.Sprintf("writing %s: %v", t.location, err))
	}
	return nil
}
