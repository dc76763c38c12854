package minihs2

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"
)

// Partitioned tables: PARTITIONED BY columns, partitions added by ALTER
// TABLE ... ADD PARTITION, by INSERT ... PARTITION (...) or by the
// metastore's add_partition, each a directory k1=v1/k2=v2 under the
// table's location whose rows carry the partition's values as trailing
// columns. Every addition is an ADD_PARTITION event of the metastore's
// notification log (notify.go).

// partition is one partition of a table: its values, in the order of the
// table's partition columns, and its directory.
type partition struct {
	values   []string
	location string
	created  time.Time
}

// partSpec is a PARTITION (k='v', ...) clause as written.
type partSpec struct {
	keys, values []string
	tok          token
	location     string
}

// alterAddPartitionStmt is ALTER TABLE t ADD [IF NOT EXISTS] PARTITION (...)
// [LOCATION '...'] [PARTITION (...) ...].
type alterAddPartitionStmt struct {
	table       tableName
	ifNotExists bool
	specs       []partSpec
}

func (*alterAddPartitionStmt) stmt() {}

// allCols returns the table's columns followed by its partition columns,
// as SELECT sees them.
func (t table) allCols() []columnDef {
	if len(t.partCols) == 0 {
		return t.cols
	}
	return append(slices.Clone(t.cols), t.partCols...)
}

// String renders a spec as Hive prints one: {k1=v1, k2=v2}.
func (p partSpec) String() string {
	kv := make([]string, len(p.keys))
	for i := range p.keys {
		kv[i] = p.keys[i] + "=" + p.values[i]
	}
	return "{" + strings.Join(kv, ", ") + "}"
}

// alter parses ALTER TABLE t ADD [IF NOT EXISTS] PARTITION ... (the only
// ALTER MiniHS2 runs).
func (p *parser) alter() (statement, error) {
	if err := p.expect("table"); err != nil {
		return nil, err
	}
	st := &alterAddPartitionStmt{}
	var err error
	if st.table, err = p.tableName(); err != nil {
		return nil, err
	}
	if err := p.expect("add"); err != nil {
		return nil, err
	}
	if p.accept("if") {
		if err := p.expect("not", "exists"); err != nil {
			return nil, err
		}
		st.ifNotExists = true
	}
	for p.peek().is("partition") {
		spec, err := p.partitionSpec()
		if err != nil {
			return nil, err
		}
		if p.accept("location") {
			if spec.location, err = p.str(); err != nil {
				return nil, err
			}
		}
		st.specs = append(st.specs, spec)
	}
	if len(st.specs) == 0 {
		return nil, p.fail()
	}
	return st, nil
}

// partitionSpec parses PARTITION (k = 'v' | k = number, ...).
func (p *parser) partitionSpec() (partSpec, error) {
	spec := partSpec{tok: p.next()}
	if err := p.expectOp("("); err != nil {
		return spec, err
	}
	for {
		k, _, err := p.ident()
		if err != nil {
			return spec, err
		}
		if err := p.expectOp("="); err != nil {
			return spec, err
		}
		e, err := p.primary()
		if err != nil {
			return spec, err
		}
		lit, ok := e.(*literal)
		if !ok || lit.v == nil {
			return spec, p.fail()
		}
		spec.keys = append(spec.keys, strings.ToLower(k))
		spec.values = append(spec.values, formatValue(lit.v, ""))
		if p.acceptOp(")") {
			return spec, nil
		}
		if err := p.expectOp(","); err != nil {
			return spec, err
		}
	}
}

// partitionValues orders a full spec by the table's partition columns, or
// fails as Hive's validatePartSpec does.
func partitionValues(t table, spec partSpec) ([]string, error) {
	if len(t.partCols) == 0 {
		return nil, &hiveError{code: CodeGeneric, sqlState: sqlStateSyntax,
			msg: "Error while compiling statement: FAILED: ValidationFailureSemanticException table is not partitioned but partition spec exists: " + spec.String()}
	}
	vals := make([]string, len(t.partCols))
	found := make([]bool, len(t.partCols))
	for i, k := range spec.keys {
		j := slices.IndexFunc(t.partCols, func(c columnDef) bool { return strings.EqualFold(c.name, k) })
		if j < 0 {
			return nil, &hiveError{code: CodeGeneric, sqlState: sqlStateSyntax,
				msg: fmt.Sprintf("Error while compiling statement: FAILED: ValidationFailureSemanticException %s.%s: Partition spec %s contains non-partition columns", t.db, t.name, spec)}
		}
		vals[j], found[j] = spec.values[i], true
	}
	for j, ok := range found {
		if !ok {
			return nil, semanticError(CodeInvalidPartition, spec.tok,
				fmt.Sprintf("Partition not found %s: no value for partition column %s", spec, t.partCols[j].name))
		}
	}
	return vals, nil
}

// CodeInvalidPartition is INVALID_PARTITION.
const CodeInvalidPartition = 10006

// partName is the partition's directory name, k1=v1/k2=v2, with the
// characters Hive escapes in path names as %XX (FileUtils.escapePathName).
func partName(cols []columnDef, values []string) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = escapePathName(strings.ToLower(c.name)) + "=" + escapePathName(values[i])
	}
	return strings.Join(parts, "/")
}

func escapePathName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f || strings.ContainsRune("\"#%'*/:=?\\{[]^", r) {
			fmt.Fprintf(&b, "%%%02X", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (s *Server) compileAddPartition(db string, x *alterAddPartitionStmt) (*plan, error) {
	tbl, ok := s.cat.table(pick(x.table.db, db), x.table.table)
	if !ok {
		return nil, semanticError(CodeTableNotFound, x.table.tok, fmt.Sprintf("Table not found %s", x.table.table))
	}
	parts := make([]partition, len(x.specs))
	for i, spec := range x.specs {
		vals, err := partitionValues(tbl, spec)
		if err != nil {
			return nil, err
		}
		parts[i] = partition{values: vals, location: spec.location}
	}
	return &plan{run: func(ctx context.Context) ([][]any, error) {
		_, err := s.addPartitions(ctx, tbl, parts, x.ifNotExists)
		return nil, err
	}}, nil
}

// addPartitions adds partitions to a table, making their directories as
// the metastore does, and logs one ADD_PARTITION event for those added.
// A partition that exists fails the statement (AlreadyExistsException),
// unless ifNotExists.
func (s *Server) addPartitions(ctx context.Context, t table, parts []partition, ifNotExists bool) ([]partition, error) {
	for i := range parts {
		if parts[i].location == "" {
			parts[i].location = joinPath(t.location, partName(t.partCols, parts[i].values))
		}
		if err := s.opts.FS.MkdirAll(ctx, parts[i].location, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, ddlError(fmt.Sprintf("MetaException(message:Got exception: %v)", err))
		}
	}
	added, err := s.cat.addPartitions(t.db, t.name, parts, ifNotExists, time.Now())
	var pe *partitionExists
	if errors.As(err, &pe) {
		return nil, ddlError(fmt.Sprintf("AlreadyExistsException(message:Partition already exists: %s)", pe.partition))
	}
	if err != nil {
		return nil, ddl(err, fmt.Sprintf("Table hive.%s.%s", t.db, t.name))
	}
	return added, nil
}

// readPartitioned reads every partition of a table, each row followed by
// its partition's values (typed as the partition columns).
func (s *Server) readPartitioned(ctx context.Context, t table) ([][]any, error) {
	var rows [][]any
	for _, p := range s.cat.partitionsOf(t.db, t.name) {
		pt := t
		pt.location, pt.partCols = p.location, nil
		part, err := s.readTable(ctx, pt)
		if err != nil {
			return nil, err
		}
		for _, row := range part {
			for i, c := range t.partCols {
				row = append(row, parseField(p.values[i], c.typ, t.nullFormat))
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// insertTarget is the table an INSERT writes to: for a partitioned table,
// the partition named by its static PARTITION clause (Hive's dynamic
// partitions are not modelled), added first when missing.
func (s *Server) insertTarget(tbl table, spec *partSpec) (table, func(context.Context) error, error) {
	if spec == nil && len(tbl.partCols) == 0 {
		return tbl, func(context.Context) error { return nil }, nil
	}
	if spec == nil {
		return table{}, nil, &hiveError{code: CodeNeedPartition, sqlState: sqlStateSyntax,
			msg: fmt.Sprintf("Error while compiling statement: FAILED: SemanticException [Error %d]: Need to specify partition columns because the destination table is partitioned", CodeNeedPartition)}
	}
	vals, err := partitionValues(tbl, *spec)
	if err != nil {
		return table{}, nil, err
	}
	target := tbl
	target.partCols = nil
	target.location = joinPath(tbl.location, partName(tbl.partCols, vals))
	if p, ok := s.cat.partition(tbl.db, tbl.name, vals); ok {
		target.location = p.location
		return target, func(context.Context) error { return nil }, nil
	}
	add := func(ctx context.Context) error {
		_, err := s.addPartitions(ctx, tbl, []partition{{values: vals}}, true)
		return err
	}
	return target, add, nil
}

// CodeNeedPartition is NEED_PARTITION_ERROR.
const CodeNeedPartition = 10062

// addPartitions adds partitions to db.table in the catalog and logs their
// event; it returns those added (with ifNotExists, the existing ones are
// left out; without, any existing one fails the whole call with errExists).
func (c *catalog) addPartitions(db, name string, parts []partition, ifNotExists bool, now time.Time) ([]partition, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[strings.ToLower(db)]
	if !ok {
		return nil, fmt.Errorf("database %s: %w", db, errNotFound)
	}
	t, ok := d.tables[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("table %s.%s: %w", db, name, errNotFound)
	}
	var added []partition
	for _, p := range parts {
		exists := slices.ContainsFunc(t.parts, func(q partition) bool { return slices.Equal(q.values, p.values) }) ||
			slices.ContainsFunc(added, func(q partition) bool { return slices.Equal(q.values, p.values) })
		if exists && !ifNotExists {
			return nil, &partitionExists{partition: fmt.Sprintf("Partition(values:[%s], dbName:%s, tableName:%s)", strings.Join(p.values, ", "), t.db, t.name)}
		}
		if !exists {
			p.created = now
			added = append(added, p)
		}
	}
	if len(added) == 0 {
		return nil, nil
	}
	t.parts = append(slices.Clip(t.parts), added...)
	c.log.addPartitions(*t, added, now)
	return added, nil
}

// partitionsOf returns a table's partitions.
func (c *catalog) partitionsOf(db, name string) []partition {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.dbs[strings.ToLower(db)]; ok {
		if t, ok := d.tables[strings.ToLower(name)]; ok {
			return slices.Clone(t.parts)
		}
	}
	return nil
}

// partition returns the partition of db.table with values.
func (c *catalog) partition(db, name string, values []string) (partition, bool) {
	for _, p := range c.partitionsOf(db, name) {
		if slices.Equal(p.values, values) {
			return p, true
		}
	}
	return partition{}, false
}

// dropPartition removes the partition of db.table with values.
func (c *catalog) dropPartition(db, name string, values []string) (partition, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[strings.ToLower(db)]
	if !ok {
		return partition{}, false
	}
	t, ok := d.tables[strings.ToLower(name)]
	if !ok {
		return partition{}, false
	}
	i := slices.IndexFunc(t.parts, func(p partition) bool { return slices.Equal(p.values, values) })
	if i < 0 {
		return partition{}, false
	}
	p := t.parts[i]
	t.parts = slices.Delete(slices.Clone(t.parts), i, i+1)
	return p, true
}

// partitionExists is errExists for one partition, which it names as the
// metastore does ("Partition(values:[...], dbName:..., tableName:...)").
type partitionExists struct{ partition string }

func (e *partitionExists) Error() string { return errExists.Error() + ": " + e.partition }

// Unwrap returns errExists, so that errors.Is sees an existing partition.
func (e *partitionExists) Unwrap() error { return errExists }
