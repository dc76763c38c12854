package minihs2

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// plan is a compiled statement: what its result looks like and the work
// that executes it. Compilation checks names against the catalog, so that
// semantic errors are reported by ExecuteStatement itself, as HiveServer2
// does (compilation is synchronous there too); the work runs
// asynchronously.
type plan struct {
	columns []resultColumn // nil: no result set
	// needsApp is true for statements Hive runs as a Tez DAG (or MapReduce
	// job): INSERTs and aggregations. Plain SELECTs run as fetch tasks.
	needsApp bool
	run      func(ctx context.Context) ([][]any, error)
}

// resultColumn is a column of a result set.
type resultColumn struct {
	name string
	typ  string
}

// compile checks st against the catalog and the session and returns its
// plan.
func (s *Server) compile(sess *session, st statement) (*plan, error) {
	db, _ := sess.snapshot()
	switch x := st.(type) {
	case *useStmt:
		if !s.cat.hasDatabase(x.db) {
			return nil, dbNotFound(x.db)
		}
		return &plan{run: func(context.Context) ([][]any, error) {
			sess.setDatabase(strings.ToLower(x.db))
			return nil, nil
		}}, nil
	case *setStmt:
		return s.compileSet(sess, x), nil
	case *showStmt:
		if x.what == "databases" {
			return &plan{columns: []resultColumn{{"database_name", "string"}}, run: func(context.Context) ([][]any, error) {
				return stringRows(s.cat.databaseNames()), nil
			}}, nil
		}
		return &plan{columns: []resultColumn{{"tab_name", "string"}}, run: func(context.Context) ([][]any, error) {
			return stringRows(s.cat.tableNames(db)), nil
		}}, nil
	case *createDatabaseStmt:
		return &plan{run: func(ctx context.Context) ([][]any, error) { return nil, s.createDatabase(ctx, x) }}, nil
	case *dropDatabaseStmt:
		if strings.EqualFold(x.name, "default") {
			return nil, &hiveError{code: CodeGeneric, sqlState: sqlStateSyntax,
				msg: "Error while compiling statement: FAILED: SemanticException Can not drop default database"}
		}
		if !s.cat.hasDatabase(x.name) {
			if x.ifExists {
				return &plan{run: noop}, nil
			}
			return nil, dbNotFound(x.name)
		}
		return &plan{run: func(ctx context.Context) ([][]any, error) { return nil, s.dropDatabase(ctx, x) }}, nil
	case *createTableStmt:
		return s.compileCreateTable(sess, x)
	case *dropTableStmt:
		tdb := pick(x.name.db, db)
		if _, ok := s.cat.table(tdb, x.name.table); !ok {
			if x.ifExists || sess.setting("hive.exec.drop.ignorenonexistent") != "false" {
				return &plan{run: noop}, nil
			}
			return nil, semanticError(CodeTableNotFound, x.name.tok, fmt.Sprintf("Table not found %s", x.name.table))
		}
		return &plan{run: func(ctx context.Context) ([][]any, error) { return nil, s.dropTable(ctx, tdb, x.name.table) }}, nil
	case *selectStmt:
		return s.compileSelect(db, x)
	case *insertDirStmt:
		if x.local {
			return nil, unsupported("INSERT OVERWRITE LOCAL DIRECTORY")
		}
		q, err := s.compileSelect(db, x.query)
		if err != nil {
			return nil, err
		}
		return &plan{needsApp: true, run: func(ctx context.Context) ([][]any, error) {
			rows, err := q.run(ctx)
			if err != nil {
				return nil, err
			}
			return nil, s.writeDirectory(ctx, x.dir, x.format, rows)
		}}, nil
	case *insertTableStmt:
		return s.compileInsertTable(db, x)
	case *alterAddPartitionStmt:
		return s.compileAddPartition(db, x) // partitions.go
	}
	return nil, unsupported(fmt.Sprintf("%T", st))
}

func noop(context.Context) ([][]any, error) { return nil, nil }

func stringRows(ss []string) [][]any {
	rows := make([][]any, len(ss))
	for i, s := range ss {
		rows[i] = []any{s}
	}
	return rows
}

func pick(a, b string) string {
	if a != "" {
		return strings.ToLower(a)
	}
	return b
}

func dbNotFound(name string) *hiveError {
	return &hiveError{code: CodeDatabaseNotFound, sqlState: sqlStateSyntax,
		msg: fmt.Sprintf("Error while compiling statement: FAILED: SemanticException [Error %d]: Database does not exist: %s", CodeDatabaseNotFound, name)}
}

// unsupported is the error for valid HiveQL that MiniHS2 does not
// implement.
func unsupported(what string) *hiveError {
	return &hiveError{code: CodeGeneric, sqlState: sqlStateSyntax,
		msg: "Error while compiling statement: FAILED: SemanticException MiniHS2 does not support " + what}
}

func (s *Server) compileSet(sess *session, x *setStmt) *plan {
	if x.hasValue {
		return &plan{run: func(context.Context) ([][]any, error) {
			sess.set(x.key, x.value)
			return nil, nil
		}}
	}
	return &plan{columns: []resultColumn{{"set", "string"}}, run: func(context.Context) ([][]any, error) {
		if x.key == "" {
			_, conf := sess.snapshot()
			keys := slices.Sorted(maps.Keys(conf))
			lines := make([]string, len(keys))
			for i, k := range keys {
				lines[i] = k + "=" + conf[k]
			}
			return stringRows(lines), nil
		}
		if v, ok := sess.get(x.key); ok {
			return stringRows([]string{x.key + "=" + v}), nil
		}
		return stringRows([]string{x.key + " is undefined"}), nil
	}}
}

func (s *Server) compileCreateTable(sess *session, x *createTableStmt) (*plan, error) {
	db, _ := sess.snapshot()
	tdb := pick(x.name.db, db)
	if !s.cat.hasDatabase(tdb) {
		return nil, dbNotFound(tdb)
	}
	for _, c := range x.partCols {
		if slices.ContainsFunc(x.cols, func(d columnDef) bool { return strings.EqualFold(d.name, c.name) }) {
			return nil, &hiveError{code: 10035, sqlState: sqlStateSyntax,
				msg: "Error while compiling statement: FAILED: SemanticException [Error 10035]: Column repeated in partitioning columns"}
		}
	}
	if x.storedAs != "" && !strings.EqualFold(x.storedAs, "textfile") {
		return nil, unsupported("STORED AS " + strings.ToUpper(x.storedAs) + " (only TEXTFILE)")
	}
	seen := map[string]bool{}
	for _, c := range x.cols {
		n := strings.ToLower(c.name)
		if seen[n] {
			return nil, &hiveError{code: 10036, sqlState: sqlStateSyntax,
				msg: "Error while compiling statement: FAILED: SemanticException [Error 10036]: Duplicate column name: " + n}
		}
		seen[n] = true
		if !knownType(c.typ) {
			return nil, parseErrorAt(x.name.tok.line, x.name.tok.col, fmt.Sprintf("cannot recognize input near '%s'", c.typ))
		}
	}
	t := table{db: tdb, name: strings.ToLower(x.name.table), cols: x.cols, external: x.external,
		location: x.location, fieldDelim: x.format.fieldDelim, nullFormat: x.format.nullFormat, partCols: x.partCols}
	if t.fieldDelim == "" {
		t.fieldDelim = defaultFieldDelim
	}
	if t.nullFormat == "" {
		t.nullFormat = defaultNullFormat
	}
	return &plan{run: func(ctx context.Context) ([][]any, error) { return nil, s.createTable(ctx, t, x.ifNotExists) }}, nil
}

func (s *Server) compileSelect(db string, x *selectStmt) (*plan, error) {
	var sc *scope
	var tbl table
	if x.from != nil {
		var ok bool
		tbl, ok = s.cat.table(pick(x.from.db, db), x.from.table)
		if !ok {
			return nil, semanticError(CodeTableNotFound, x.from.tok, fmt.Sprintf("Table not found '%s'", x.from.table))
		}
		sc = &scope{table: tbl.name, alias: strings.ToLower(x.alias), cols: tbl.allCols()}
	}
	var cols []resultColumn
	type projection struct {
		col   int // source column, or -1
		expr  expr
		count bool
	}
	var proj []projection
	aggregate := false
	for i, it := range x.items {
		switch {
		case it.star:
			if sc == nil {
				return nil, semanticError(CodeInvalidColumnRef, it.tok, "Invalid table alias or column reference '*'")
			}
			if q := strings.ToLower(it.qual); q != "" && q != sc.table && q != sc.alias {
				return nil, semanticError(CodeInvalidColumnRef, it.tok, fmt.Sprintf("Invalid table alias or column reference '%s'", it.qual))
			}
			prefix := sc.table
			if sc.alias != "" {
				prefix = sc.alias
			}
			for c, def := range sc.cols {
				cols = append(cols, resultColumn{prefix + "." + strings.ToLower(def.name), def.typ})
				proj = append(proj, projection{col: c})
			}
		case it.count:
			aggregate = true
			cols = append(cols, resultColumn{nameOr(it.alias, fmt.Sprintf("_c%d", i)), "bigint"})
			proj = append(proj, projection{col: -1, count: true})
		default:
			if err := sc.check(it.expr); err != nil {
				return nil, err
			}
			name := fmt.Sprintf("_c%d", i)
			if c, ok := it.expr.(*colRef); ok {
				name = strings.ToLower(c.name)
			}
			cols = append(cols, resultColumn{nameOr(it.alias, name), sc.exprType(it.expr)})
			proj = append(proj, projection{col: -1, expr: it.expr})
		}
	}
	if aggregate {
		for _, p := range proj {
			if !p.count {
				return nil, &hiveError{code: 10025, sqlState: sqlStateSyntax,
					msg: "Error while compiling statement: FAILED: SemanticException [Error 10025]: Expression not in GROUP BY key"}
			}
		}
	}
	if x.where != nil {
		if err := sc.check(x.where); err != nil {
			return nil, err
		}
	}
	run := func(ctx context.Context) ([][]any, error) {
		var input [][]any
		if x.from == nil {
			input = [][]any{{}}
		} else {
			var err error
			if input, err = s.readTable(ctx, tbl); err != nil {
				return nil, err
			}
		}
		var kept [][]any
		for _, row := range input {
			if x.where == nil || truthy(sc.eval(x.where, row)) {
				kept = append(kept, row)
			}
		}
		if aggregate {
			out := make([]any, len(proj))
			for i := range out {
				out[i] = int64(len(kept))
			}
			kept = [][]any{out}
		} else {
			for r, row := range kept {
				out := make([]any, len(proj))
				for i, p := range proj {
					if p.expr != nil {
						out[i] = sc.eval(p.expr, row)
					} else if p.col < len(row) {
						out[i] = row[p.col]
					}
				}
				kept[r] = out
			}
		}
		if x.limit >= 0 && len(kept) > x.limit {
			kept = kept[:x.limit]
		}
		return kept, nil
	}
	return &plan{columns: cols, needsApp: aggregate, run: run}, nil
}

func nameOr(alias, name string) string {
	if alias != "" {
		return strings.ToLower(alias)
	}
	return name
}

func (s *Server) compileInsertTable(db string, x *insertTableStmt) (*plan, error) {
	tbl, ok := s.cat.table(pick(x.table.db, db), x.table.table)
	if !ok {
		return nil, semanticError(CodeTableNotFound, x.table.tok, fmt.Sprintf("Table not found '%s'", x.table.table))
	}
	tbl, addPartition, err := s.insertTarget(tbl, x.partition) // partitions.go
	if err != nil {
		return nil, err
	}
	mismatch := func(n int) error {
		return semanticError(CodeColumnMismatch, x.table.tok, fmt.Sprintf(
			"Cannot insert into target table because column number/types are different '%s': Table insclause-0 has %d columns, but query has %d columns.",
			tbl.name, len(tbl.cols), n))
	}
	var source func(ctx context.Context) ([][]any, error)
	if x.query != nil {
		q, err := s.compileSelect(db, x.query)
		if err != nil {
			return nil, err
		}
		if len(q.columns) != len(tbl.cols) {
			return nil, mismatch(len(q.columns))
		}
		source = q.run
	} else {
		for _, row := range x.values {
			if len(row) != len(tbl.cols) {
				return nil, mismatch(len(row))
			}
			for _, e := range row {
				if err := (*scope)(nil).check(e); err != nil {
					return nil, err
				}
			}
		}
		source = func(context.Context) ([][]any, error) {
			rows := make([][]any, len(x.values))
			for r, row := range x.values {
				rows[r] = make([]any, len(row))
				for i, e := range row {
					rows[r][i] = (*scope)(nil).eval(e, nil)
				}
			}
			return rows, nil
		}
	}
	return &plan{needsApp: true, run: func(ctx context.Context) ([][]any, error) {
		rows, err := source(ctx)
		if err != nil {
			return nil, err
		}
		for _, row := range rows {
			for i := range row {
				row[i] = coerce(row[i], tbl.cols[i].typ)
			}
		}
		if err := addPartition(ctx); err != nil {
			return nil, err
		}
		return nil, s.writeTable(ctx, tbl, rows, x.overwrite)
	}}, nil
}

// ddl turns a catalog error into the DDL task failure Hive reports.
func ddl(err error, what string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errExists):
		return ddlError(fmt.Sprintf("AlreadyExistsException(message:%s already exists)", what))
	case errors.Is(err, errNotEmpty):
		return ddlError(fmt.Sprintf("InvalidOperationException(message:Database %s is not empty. One or more tables exist.)", what))
	case errors.Is(err, errNotFound):
		return ddlError(fmt.Sprintf("NoSuchObjectException(message:%s does not exist)", what))
	}
	return ddlError(err.Error())
}
