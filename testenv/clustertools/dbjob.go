package clustertools

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop"
	_ "github.com/lib/pq" // PostgreSQL, the database the stand-in sqoop reads
)

// Keys of a database import job: Hadoop's DBConfiguration names, which
// Sqoop's DataDrivenDBInputFormat reads, and the input format and mapper
// Sqoop's text import sets.
const (
	keyInputFormat   = "mapreduce.job.inputformat.class"
	keyMapClass      = "mapreduce.job.map.class"
	keyMaps          = "mapreduce.job.maps"
	keyJDBCDriver    = "mapreduce.jdbc.driver.class"
	keyJDBCURL       = "mapreduce.jdbc.url"
	keyJDBCUser      = "mapreduce.jdbc.username"
	keyJDBCPassword  = "mapreduce.jdbc.password"
	keyDBTable       = "mapreduce.jdbc.input.table.name"
	keyDBFields      = "mapreduce.jdbc.input.field.names"
	keyDBConditions  = "mapreduce.jdbc.input.conditions"
	keyDBSplitColumn = "mapreduce.jdbc.input.orderby"
	keyDBQuery       = "mapreduce.jdbc.input.query"
	keyDBBounding    = "mapreduce.jdbc.input.bounding.query"

	dataDrivenInput = "org.apache.sqoop.mapreduce.db.DataDrivenDBInputFormat"
	textImportMap   = "org.apache.sqoop.mapreduce.TextImportMapper"
	postgresDriver  = "org.postgresql.Driver"

	// Sqoop bakes its output delimiters and null strings into the record
	// class it generates; the stand-in generates none and reads them from
	// these keys of its own.
	keyFieldDelim   = "gozie.standin.sqoop.fields.terminated.by"
	keyNullString   = "gozie.standin.sqoop.null.string"
	keyNullNonStrng = "gozie.standin.sqoop.null.non.string"

	// conditionsToken is the placeholder of a free-form query that each
	// split replaces with its own condition (Sqoop's SUBSTITUTE_TOKEN).
	conditionsToken = "$CONDITIONS"
)

// dbJob reports a job that reads a database table or query (Sqoop's
// import) or writes into one (Sqoop's export); runDBJob runs it.
func (j *job) dbJob() bool {
	return j.get(keyInputFormat, "") == dataDrivenInput || j.dbOutput()
}

// raw returns key's value as written (a delimiter may be blank), else def.
func (j *job) raw(key, def string) string {
	if v, ok := j.props[key]; ok && v != "" {
		return v
	}
	return def
}

// openJDBC opens the database a JDBC URL names. The stand-in reads
// PostgreSQL only (jdbc:postgresql://host:port/db?params, the driver's
// user, password, ssl and sslmode parameters); user and password, when
// not empty, win over the URL's.
func openJDBC(jdbcURL, user, password string) (*sql.DB, error) {
	dsn, err := postgresDSN(jdbcURL, user, password)
	if err != nil {
		return nil, err
	}
	return sql.Open("postgres", dsn)
}

// postgresDSN turns a PostgreSQL JDBC URL into a lib/pq connection string.
// The JDBC driver's defaults carry over: localhost, port 5432, sslmode
// prefer.
func postgresDSN(jdbcURL, user, password string) (string, error) {
	rest, ok := strings.CutPrefix(jdbcURL, "jdbc:postgresql:")
	if !ok {
		return "", toolMessagef("No manager for connect string: %s", jdbcURL)
	}
	host, port, db := "localhost", "5432", ""
	rest, query, _ := strings.Cut(rest, "?")
	if hostPart, ok := strings.CutPrefix(rest, "//"); ok {
		authority, path, _ := strings.Cut(hostPart, "/")
		db = path
		if authority != "" {
			h, p, found := strings.Cut(authority, ":")
			host = h
			if found {
				port = p
			}
		}
	} else {
		db = strings.TrimPrefix(rest, "/")
	}
	params, err := url.ParseQuery(query)
	if err != nil {
		return "", fmt.Errorf("connect string %s: %w", jdbcURL, err)
	}
	kv := map[string]string{"host": host, "port": port, "dbname": db, "sslmode": "prefer"}
	if params.Get("ssl") == "true" {
		kv["sslmode"] = "require"
	}
	for _, k := range []string{"sslmode", "user", "password"} {
		if v := params.Get(k); v != "" {
			kv[k] = v
		}
	}
	if user != "" {
		kv["user"] = user
	}
	if password != "" {
		kv["password"] = password
	}
	var b strings.Builder
	for _, k := range []string{"host", "port", "dbname", "user", "password", "sslmode"} {
		if v, ok := kv[k]; ok && v != "" {
			fmt.Fprintf(&b, "%s='%s' ", k, strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v))
		}
	}
	return strings.TrimSpace(b.String()), nil
}

// runDBJob runs a database export job (runDBExport), or an import job as
// Sqoop's tasks do: the splits of
// DataDrivenDBInputFormat (one "1=1" split for one map task, else integer
// ranges of the split column between the bounding query's MIN and MAX),
// one map task per split running its SELECT and writing the rows as
// delimited text into part-m-NNNNN, committed as FileOutputCommitter
// commits (into _temporary, renamed, then _SUCCESS). Where Hadoop computes
// the splits in the submitting client, the stand-in's AM does.
func (t *tool) runDBJob(ctx context.Context, fsys hadoop.FileSystem, j *job, jobID string, jc *jobCounters) error {
	if j.dbOutput() {
		return t.runDBExport(ctx, fsys, j, jobID, jc)
	}
	out := j.output()
	if out == "" {
		return errors.New("no output directory (mapreduce.output.fileoutputformat.outputdir)")
	}
	db, err := openJDBC(j.get(keyJDBCURL, ""), j.get(keyJDBCUser, ""), j.props[keyJDBCPassword])
	if err != nil {
		return err
	}
	defer db.Close()
	splits, err := dbSplits(ctx, db, j)
	if err != nil {
		return fmt.Errorf("java.io.IOException: %w", err)
	}
	taskID := strings.Replace(jobID, "job_", "task_", 1)
	var parts []string
	for i, cond := range splits {
		jc.add(GroupJobCounter, CounterLaunchedMaps, phaseJob, 1)
		data, rows, err := importSplit(ctx, db, j, cond)
		if err != nil {
			return &taskError{task: fmt.Sprintf("%s_m_%06d", taskID, i), err: err}
		}
		jc.add(GroupTaskCounter, CounterMapInputRecords, phaseMap, rows)
		jc.add(GroupTaskCounter, CounterMapOutputRecords, phaseMap, rows)
		part := fmt.Sprintf("part-m-%05d", i)
		tmp := strings.TrimSuffix(out, "/") + "/_temporary/0/" + part
		if err := fsys.WriteFile(ctx, tmp, data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", tmp, err)
		}
		jc.add(GroupFileSystemCounter, fsCounter(out, "BYTES_WRITTEN"), phaseMap, int64(len(data)))
		parts = append(parts, part)
	}
	return commitParts(ctx, fsys, out, parts)
}

// commitParts moves the task outputs from _temporary into the output
// directory, removes _temporary and writes _SUCCESS.
func commitParts(ctx context.Context, fsys hadoop.FileSystem, out string, parts []string) error {
	out = strings.TrimSuffix(out, "/")
	for _, p := range parts {
		if err := fsys.Rename(ctx, out+"/_temporary/0/"+p, out+"/"+p); err != nil {
			return fmt.Errorf("committing %s: %w", p, err)
		}
	}
	if err := fsys.RemoveAll(ctx, out+"/_temporary"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cleaning %s/_temporary: %w", out, err)
	}
	if err := fsys.WriteFile(ctx, out+"/_SUCCESS", nil, 0o644); err != nil {
		return fmt.Errorf("writing _SUCCESS: %w", err)
	}
	return nil
}

// dbSplits are the WHERE conditions of the job's map tasks.
func dbSplits(ctx context.Context, db *sql.DB, j *job) ([]string, error) {
	maps, _ := strconv.Atoi(j.get(keyMaps, "1"))
	col := j.get(keyDBSplitColumn, "")
	if maps <= 1 || col == "" {
		return []string{"1=1"}, nil
	}
	var lo, hi sql.NullString
	if err := db.QueryRowContext(ctx, j.get(keyDBBounding, "")).Scan(&lo, &hi); err != nil {
		return nil, fmt.Errorf("running the bounding query: %w", err)
	}
	if !lo.Valid || !hi.Valid {
		return []string{col + " IS NULL"}, nil
	}
	min, ok1 := new(big.Int).SetString(lo.String, 10)
	max, ok2 := new(big.Int).SetString(hi.String, 10)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("the stand-in splits only integer columns; %s has bounds %q and %q (use -m 1)", col, lo.String, hi.String)
	}
	return integerSplits(col, min.Int64(), max.Int64(), maps), nil
}

// integerSplits divides [min, max] into at most n ranges as Sqoop's
// IntegerSplitter does: lower bound inclusive, upper exclusive except for
// the last range, which includes max.
func integerSplits(col string, min, max int64, n int) []string {
	span := max - min
	if span+1 < int64(n) {
		n = int(span + 1)
	}
	var bounds []int64
	for i := 0; i < n; i++ {
		b := min + span*int64(i)/int64(n)
		if len(bounds) == 0 || bounds[len(bounds)-1] != b {
			bounds = append(bounds, b)
		}
	}
	if bounds[len(bounds)-1] != max || len(bounds) == 1 {
		bounds = append(bounds, max)
	}
	var out []string
	for i := 0; i+1 < len(bounds); i++ {
		op := "<"
		if i+2 == len(bounds) {
			op = "<="
		}
		out = append(out, fmt.Sprintf("%s >= %d AND %s %s %d", col, bounds[i], col, op, bounds[i+1]))
	}
	return out
}

// splitQuery is the SELECT of one split, as DataDrivenDBRecordReader builds
// it: the free-form query with $CONDITIONS replaced by the split's
// condition, or the table's fields with the user's --where and the split.
func splitQuery(j *job, cond string) string {
	if q := j.get(keyDBQuery, ""); q != "" {
		return strings.ReplaceAll(q, conditionsToken, "( "+cond+" )")
	}
	table := j.get(keyDBTable, "")
	q := fmt.Sprintf("SELECT %s FROM %s AS %s WHERE ", j.get(keyDBFields, "*"), table, table)
	if where := j.get(keyDBConditions, ""); where != "" {
		q += "( " + where + " ) AND "
	}
	return q + "( " + cond + " )"
}

// importSplit runs one split's query and formats its rows as Sqoop's text
// import writes them: fields joined by the delimiter (a comma by default),
// NULL written as the null string ("null" by default), one row a line.
func importSplit(ctx context.Context, db *sql.DB, j *job, cond string) ([]byte, int64, error) {
	rows, err := db.QueryContext(ctx, splitQuery(j, cond))
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, 0, err
	}
	delim, nullString, nullOther := j.raw(keyFieldDelim, ","), j.raw(keyNullString, "null"), j.raw(keyNullNonStrng, "null")
	var buf bytes.Buffer
	var n int64
	vals := make([]any, len(types))
	ptrs := make([]any, len(types))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, 0, err
		}
		for i, v := range vals {
			if i > 0 {
				buf.WriteString(delim)
			}
			buf.WriteString(formatField(v, types[i].DatabaseTypeName(), nullString, nullOther))
		}
		buf.WriteByte('\n')
		n++
	}
	return buf.Bytes(), n, rows.Err()
}

// formatField writes one value as the Java type Sqoop maps it to prints
// itself: numbers and text as they are, booleans as true/false, DATE as
// yyyy-mm-dd, TIMESTAMP as java.sql.Timestamp does (fraction with at least
// one digit).
func formatField(v any, dbType, nullString, nullOther string) string {
	switch x := v.(type) {
	case nil:
		switch dbType {
		case "TEXT", "VARCHAR", "BPCHAR", "CHAR", "NAME":
			return nullString
		}
		return nullOther
	case []byte:
		return string(x)
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eEnN") {
			s += ".0"
		}
		return s
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		if dbType == "DATE" {
			return x.Format("2006-01-02")
		}
		frac := strings.TrimRight(fmt.Sprintf("%09d", x.Nanosecond()), "0")
		if frac == "" {
			frac = "0"
		}
		return x.Format("2006-01-02 15:04:05") + "." + frac
	}
	return fmt.Sprint(v)
}
