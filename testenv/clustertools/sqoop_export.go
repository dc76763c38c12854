package clustertools

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/gozie/gozie/hadoop"
)

// Keys of a database export job: Hadoop's DBConfiguration output names and
// the output format and mapper of Sqoop's text export.
const (
	keyOutputFormat  = "mapreduce.job.outputformat.class"
	keyDBOutTable    = "mapreduce.jdbc.output.table.name"
	keyDBOutFields   = "mapreduce.jdbc.output.field.names"
	keyDBOutCount    = "mapreduce.jdbc.output.field.count"
	exportOutput     = "org.apache.sqoop.mapreduce.ExportOutputFormat"
	textExportMap    = "org.apache.sqoop.mapreduce.TextExportMapper"
	exportFailedLine = "ERROR tool.ExportTool: Error during export: org.apache.sqoop.util.ExportException: Export job failed!"
)

// dbOutput reports a job that writes its input's records into a database
// table (Sqoop's export).
func (j *job) dbOutput() bool {
	return j.get(keyOutputFormat, "") == exportOutput
}

// exportOptions are the export tool's options the stand-in knows.
type exportOptions struct {
	connect, username, password string
	table, exportDir, columns   string
	inputDelim, outputDelim     string
	nullString, nullNonString   string
	mappers                     int
}

// sqoopExport is `sqoop export`: the options checked as Sqoop checks them,
// the table's columns read, the export directory required, and a MapReduce
// job submitted whose map tasks insert the directory's records (one
// transaction per file); the client waits for it.
func (t *tool) sqoopExport(ctx context.Context, args []string) int {
	props, rest, err := genericOptions(t, args)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	o := &exportOptions{mappers: defaultMappers}
	values := map[string]*string{"--connect": &o.connect, "--username": &o.username, "--password": &o.password,
		"--table": &o.table, "--export-dir": &o.exportDir, "--columns": &o.columns,
		"--input-fields-terminated-by": &o.inputDelim, "--fields-terminated-by": &o.outputDelim,
		"--input-null-string": &o.nullString, "--input-null-non-string": &o.nullNonString, "--driver": new(string)}
	password, ok := t.parseToolArgs("export", rest, values, map[string]*bool{"--verbose": new(bool), "--batch": new(bool)}, &o.mappers)
	if !ok {
		return exitFail
	}
	if msg := o.validate(); msg != "" {
		fmt.Fprintln(t.env.Stderr, msg)
		return exitFail
	}
	fmt.Fprintf(t.env.Stderr, "INFO sqoop.Sqoop: Running Sqoop version: %s\n", sqoopVersionStr)
	if password {
		fmt.Fprintln(t.env.Stderr, "WARN tool.BaseSqoopTool: Setting your password on the command-line is insecure. Consider using -P instead.")
	}
	db, err := openJDBC(o.connect, o.username, o.password)
	if err != nil {
		fmt.Fprintf(t.env.Stderr, "ERROR tool.BaseSqoopTool: Got error creating database manager: java.io.IOException: %v\n", err)
		return exitFail
	}
	defer db.Close()
	cols, err := queryColumns(ctx, db, fmt.Sprintf("SELECT t.* FROM %s AS t LIMIT 1", o.table))
	if err != nil {
		fmt.Fprintf(t.env.Stderr, "ERROR tool.ExportTool: Encountered IOException running export job: %v\n", err)
		return exitFail
	}
	if o.columns != "" {
		cols = splitComma(o.columns)
	}
	for k, v := range o.jobProps(cols) {
		props[k] = v
	}
	return t.runExport(ctx, props, o)
}

// validate makes ExportTool.validateExportOptions' checks; "" when none
// fails.
func (o *exportOptions) validate() string {
	switch {
	case o.connect == "":
		return "Error: Required argument --connect is missing." + sqoopHelp
	case o.table == "":
		return "Export requires a --table or a --call argument." + sqoopHelp
	case o.exportDir == "":
		return "Export requires an --export-dir argument or --hcatalog-table argument." + sqoopHelp
	}
	return ""
}

// jobProps is the export job's configuration for the columns cols.
func (o *exportOptions) jobProps(cols []string) map[string]string {
	props := map[string]string{
		keyOutputFormat: exportOutput, keyMapClass: textExportMap, keyMaps: strconv.Itoa(max(o.mappers, 1)),
		"mapreduce.job.reduces": "0", keyJDBCDriver: postgresDriver, keyJDBCURL: o.connect,
		keyJDBCUser: o.username, keyJDBCPassword: o.password, keyDBOutTable: o.table,
		keyDBOutFields: strings.Join(cols, ","), keyDBOutCount: strconv.Itoa(len(cols)),
		"mapreduce.job.name": o.table + ".jar",
	}
	// Export reads with the input delimiters, which default to the output
	// ones (Sqoop's --fields-terminated-by).
	delim := o.inputDelim
	if delim == "" {
		delim = o.outputDelim
	}
	for k, v := range map[string]string{keyFieldDelim: delim, keyNullString: o.nullString, keyNullNonStrng: o.nullNonString} {
		if v != "" {
			props[k] = unescapeDelim(v)
		}
	}
	return props
}

// runExport requires the export directory, submits the job and waits.
func (t *tool) runExport(ctx context.Context, props map[string]string, o *exportOptions) int {
	c, err := t.cluster()
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	fsys, err := t.filesystem(c)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	defer fsys.Close()
	dir := t.qualify(c, o.exportDir)
	if _, err := fsys.Stat(ctx, dir); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(t.env.Stderr, "ERROR tool.ExportTool: Encountered IOException running export job: "+
			"org.apache.hadoop.mapreduce.lib.input.InvalidInputException: Input path does not exist: %s\n", dir)
		return exitFail
	} else if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	props["mapreduce.input.fileinputformat.inputdir"] = dir
	fmt.Fprintf(t.env.Stderr, "INFO mapreduce.ExportJobBase: Beginning export of %s\n", o.table)
	appID, ok := t.submit(ctx, props)
	if !ok {
		fmt.Fprintln(t.env.Stderr, exportFailedLine)
		return exitFail
	}
	return t.waitJob(ctx, c, appID, props, exportFailedLine)
}

// runDBExport runs an export job as Sqoop's tasks do: one map task per
// input file, each inserting the file's records into the table in one
// transaction. A line with a wrong number of fields fails its task with
// Sqoop's "Can't parse input data".
func (t *tool) runDBExport(ctx context.Context, fsys hadoop.FileSystem, j *job, jobID string, jc *jobCounters) error {
	files, err := t.inputFiles(ctx, fsys, j)
	if err != nil {
		return err
	}
	db, err := openJDBC(j.get(keyJDBCURL, ""), j.get(keyJDBCUser, ""), j.props[keyJDBCPassword])
	if err != nil {
		return err
	}
	defer db.Close()
	taskID := strings.Replace(jobID, "job_", "task_", 1)
	for i, f := range files {
		jc.add(GroupJobCounter, CounterLaunchedMaps, phaseJob, 1)
		data, err := fsys.ReadFile(ctx, f)
		if err != nil {
			return fmt.Errorf("reading %s: %w", f, err)
		}
		n, err := exportFile(ctx, db, j, string(data))
		if err != nil {
			return &taskError{task: fmt.Sprintf("%s_m_%06d", taskID, i), err: err}
		}
		jc.add(GroupTaskCounter, CounterMapInputRecords, phaseMap, n)
		jc.add(GroupTaskCounter, CounterMapOutputRecords, phaseMap, n)
	}
	return nil
}

// exportFile inserts the records of one file in one transaction.
func exportFile(ctx context.Context, db *sql.DB, j *job, data string) (int64, error) {
	cols := splitComma(j.get(keyDBOutFields, ""))
	marks := make([]string, len(cols))
	for i := range marks {
		marks[i] = "$" + strconv.Itoa(i+1)
	}
	stmt := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", j.get(keyDBOutTable, ""), strings.Join(cols, ", "), strings.Join(marks, ", "))
	delim := j.raw(keyFieldDelim, ",")
	nulls := map[string]bool{j.raw(keyNullString, "null"): true, j.raw(keyNullNonStrng, "null"): true}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() // a no-op after Commit
	var n int64
	for _, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
		if line == "" {
			continue
		}
		fields := strings.Split(line, delim)
		if len(fields) != len(cols) {
			return 0, fmt.Errorf("java.lang.RuntimeException: Can't parse input data: '%s'", line)
		}
		vals := make([]any, len(fields))
		for i, f := range fields {
			if !nulls[f] {
				vals[i] = f
			}
		}
		if _, err := tx.ExecContext(ctx, stmt, vals...); err != nil {
			return 0, err
		}
		n++
	}
	return n, tx.Commit()
}
