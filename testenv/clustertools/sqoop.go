package clustertools

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// Sqoop's words the stand-in repeats.
const (
	// sqoopHelp ends every message about invalid options (HELP_STR).
	sqoopHelp = "\nTry --help for usage instructions."
	// importFailed starts the line of a failed import (ImportTool).
	importFailed = "ERROR tool.ImportTool: Import failed: "
	// defaultMappers is Sqoop's default number of map tasks.
	defaultMappers = 4
	// pollKey is the client's poll interval while it waits for a job;
	// Hadoop's default is 5 s, the stand-in's 1 s.
	pollKey         = "mapreduce.client.completion.pollinterval"
	defaultPollMS   = 1000
	sqoopVersionStr = "1.4.7"
)

// sqoop runs `sqoop TOOL [generic options] [tool options]`: import reads a
// PostgreSQL table or free-form query into delimited text files through a
// MapReduce job; version prints the version; any other tool is refused as
// Sqoop refuses it.
func (t *tool) sqoop(ctx context.Context, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(t.env.Stderr, "Try 'sqoop help' for usage.")
		return exitFail
	}
	switch args[0] {
	case "import":
		return t.sqoopImport(ctx, args[1:])
	case "export":
		return t.sqoopExport(ctx, args[1:])
	case "version":
		fmt.Fprintf(t.env.Stdout, "Sqoop %s (gozie stand-in)\n", sqoopVersionStr)
		return exitOK
	case "help":
		fmt.Fprintln(t.env.Stdout, "Available commands:\n  export     Export an HDFS directory to a database table\n  import     Import a table from a database to HDFS\n  version    Display version information")
		return exitOK
	}
	fmt.Fprintf(t.env.Stderr, "No such sqoop tool: %s. See 'sqoop help'.\n", args[0])
	return exitFail
}

// toolMessage is an error in the tool's own words, printed as the real
// tool prints it (capitals and final stops included).
type toolMessage string

func (m toolMessage) Error() string { return string(m) }

// toolMessagef formats a toolMessage.
func toolMessagef(format string, a ...any) error { return toolMessage(fmt.Sprintf(format, a...)) }

// importOptions are the import tool's options the stand-in knows.
type importOptions struct {
	connect, username, password  string
	table, query, columns, where string
	targetDir, warehouseDir      string
	splitBy, boundaryQuery       string
	fieldDelim, nullString       string
	nullNonString                string
	mappers                      int
	deleteTargetDir              bool
	passwordOnCommandLine        bool
}

// importFlags maps each option that takes a value to where it goes.
func (o *importOptions) valueOptions() map[string]*string {
	return map[string]*string{
		"--connect": &o.connect, "--username": &o.username, "--password": &o.password,
		"--table": &o.table, "--query": &o.query, "-e": &o.query, "--columns": &o.columns, "--where": &o.where,
		"--target-dir": &o.targetDir, "--warehouse-dir": &o.warehouseDir, "--split-by": &o.splitBy,
		"--boundary-query": &o.boundaryQuery, "--fields-terminated-by": &o.fieldDelim,
		"--null-string": &o.nullString, "--null-non-string": &o.nullNonString,
		// Accepted and not modelled: the driver class and the fetch size.
		"--driver": new(string), "--fetch-size": new(string),
	}
}

// parseImport reads the import tool's options.
func (t *tool) parseImport(args []string) (*importOptions, bool) {
	o := &importOptions{mappers: defaultMappers}
	flags := map[string]*bool{"--delete-target-dir": &o.deleteTargetDir, "--verbose": new(bool),
		"--as-textfile": new(bool), "--direct": new(bool)}
	var ok bool
	o.passwordOnCommandLine, ok = t.parseToolArgs("import", args, o.valueOptions(), flags, &o.mappers)
	return o, ok
}

// parseToolArgs reads a tool's options: those of values take a value,
// flags none, -m and --num-mappers a number. A bad option is Sqoop's error:
// "Error parsing arguments for <tool>:" and an "Unrecognized argument"
// line for it and each argument after it. password reports --password.
func (t *tool) parseToolArgs(name string, args []string, values map[string]*string, flags map[string]*bool, mappers *int) (password, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if f, ok := flags[a]; ok {
			*f = true
			continue
		}
		dst, ok := values[a]
		isMappers := a == "-m" || a == "--num-mappers"
		if (!ok && !isMappers) || i+1 >= len(args) {
			fmt.Fprintf(t.env.Stderr, "ERROR tool.BaseSqoopTool: Error parsing arguments for %s:\n", name)
			for _, rest := range args[i:] {
				fmt.Fprintf(t.env.Stderr, "ERROR tool.BaseSqoopTool: Unrecognized argument: %s\n", rest)
			}
			return password, false
		}
		i++
		if isMappers {
			n, err := strconv.Atoi(args[i])
			if err != nil {
				fmt.Fprintln(t.env.Stderr, "Error: expected numeric argument.\nTry --help for usage.")
				return password, false
			}
			*mappers = n
			continue
		}
		*dst = args[i]
		password = password || a == "--password"
	}
	return password, true
}

// validate makes Sqoop's checks of the import options
// (BaseSqoopTool.validateCommonOptions, ImportTool.validateImportOptions).
func (o *importOptions) validate() error {
	switch {
	case o.connect == "":
		return toolMessage("Error: Required argument --connect is missing." + sqoopHelp)
	case o.table == "" && o.query == "":
		return toolMessage("--table or --query is required for import. (Or use sqoop import-all-tables.)" + sqoopHelp)
	case o.targetDir != "" && o.warehouseDir != "":
		return toolMessage("--target-dir with --warehouse-dir are incompatible options." + sqoopHelp)
	case o.table != "" && o.query != "":
		return toolMessage("Cannot specify --query and --table together." + sqoopHelp)
	case o.query != "" && o.targetDir == "":
		return toolMessage("Must specify destination with --target-dir. " + sqoopHelp)
	case o.query != "" && o.mappers > 1 && o.splitBy == "":
		return toolMessage("When importing query results in parallel, you must specify --split-by." + sqoopHelp)
	}
	return nil
}

// sqoopImport is `sqoop import`: the options checked, the columns read
// from the database as Sqoop's code generator reads them, the target
// directory checked, and a MapReduce job submitted (tagged with the
// configuration's mapreduce.job.tags) whose map tasks read the rows; the
// client waits for the job and fails when it fails.
func (t *tool) sqoopImport(ctx context.Context, args []string) int {
	props, rest, err := genericOptions(t, args)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	o, ok := t.parseImport(rest)
	if !ok {
		return exitFail
	}
	if err := o.validate(); err != nil {
		fmt.Fprintln(t.env.Stderr, err)
		return exitFail
	}
	fmt.Fprintf(t.env.Stderr, "INFO sqoop.Sqoop: Running Sqoop version: %s\n", sqoopVersionStr)
	if o.passwordOnCommandLine {
		fmt.Fprintln(t.env.Stderr, "WARN tool.BaseSqoopTool: Setting your password on the command-line is insecure. Consider using -P instead.")
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(t.env.Stderr, importFailed+format+"\n", a...)
		return exitFail
	}
	if strings.HasPrefix(o.connect, "jdbc:hsqldb:") {
		return fail("java.io.IOException: the stand-in sqoop reads PostgreSQL only; it has no HSQLDB engine for %s", o.connect)
	}
	if o.query != "" && !strings.Contains(o.query, conditionsToken) {
		return fail("java.io.IOException: Query [%s] must contain '%s' in WHERE clause.", o.query, conditionsToken)
	}
	db, err := openJDBC(o.connect, o.username, o.password)
	if err != nil {
		fmt.Fprintf(t.env.Stderr, "ERROR tool.BaseSqoopTool: Got error creating database manager: java.io.IOException: %v\n", err)
		return exitFail
	}
	defer db.Close()
	jobProps, err := t.importJob(ctx, db, o)
	if err != nil {
		return fail("%v", err)
	}
	for k, v := range jobProps {
		props[k] = v
	}
	return t.runImport(ctx, props, o)
}

// genericOptions reads Hadoop's generic options at the start of a tool's
// arguments (GenericOptionsParser: -conf FILE, -D key=value, -fs, -jt,
// -files, -libjars, -archives) into a configuration, and returns the rest.
func genericOptions(t *tool, args []string) (map[string]string, []string, error) {
	props := map[string]string{}
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "-conf" && len(args) > 1:
			p, err := t.readJobFile(args[1])
			if err != nil {
				return nil, nil, fmt.Errorf("-conf %s: %w", args[1], err)
			}
			for k, v := range p {
				props[k] = v
			}
		case a == "-D" && len(args) > 1, strings.HasPrefix(a, "-D") && len(a) > 2:
			kv := strings.TrimPrefix(a, "-D")
			n := 1
			if kv == "" {
				kv, n = args[1], 2
			}
			k, v, _ := strings.Cut(kv, "=")
			props[k] = v
			args = args[n:]
			continue
		case (a == "-fs" || a == "-jt" || a == "-files" || a == "-libjars" || a == "-archives") && len(args) > 1:
		default:
			return props, args, nil
		}
		args = args[2:]
	}
	return props, args, nil
}

// importJob checks the import against the database as Sqoop's code
// generator and import manager do (the columns of the table or query, the
// split column) and returns the job's configuration.
func (t *tool) importJob(ctx context.Context, db *sql.DB, o *importOptions) (map[string]string, error) {
	probe := ""
	if o.table != "" {
		probe = fmt.Sprintf("SELECT t.* FROM %s AS t LIMIT 1", o.table)
	} else {
		probe = strings.ReplaceAll(o.query, conditionsToken, "(1 = 0)")
	}
	cols, err := queryColumns(ctx, db, probe)
	if err != nil {
		return nil, err
	}
	if o.columns != "" {
		cols = splitComma(o.columns)
	}
	split := o.splitBy
	if split == "" && o.table != "" {
		if split, err = primaryKey(ctx, db, o.table); err != nil {
			return nil, err
		}
	}
	if split == "" && o.mappers > 1 {
		return nil, toolMessagef("org.apache.sqoop.util.ImportException: No primary key could be found for table %s. Please specify one with --split-by or perform a sequential import with '-m 1'.", o.table)
	}
	props := map[string]string{
		keyInputFormat: dataDrivenInput, keyMapClass: textImportMap, keyMaps: strconv.Itoa(max(o.mappers, 1)),
		"mapreduce.job.reduces": "0", keyJDBCDriver: postgresDriver, keyJDBCURL: o.connect,
		keyJDBCUser: o.username, keyJDBCPassword: o.password, keyDBSplitColumn: split,
		keyDBFields: strings.Join(cols, ", "),
	}
	name := "QueryResult"
	if o.table != "" {
		name = o.table
		props[keyDBTable] = o.table
		props[keyDBConditions] = o.where
	} else {
		props[keyDBQuery] = o.query
	}
	switch {
	case split == "":
	case o.table != "":
		props[keyDBBounding] = boundingQuery(split, o.table, o.where)
	default:
		props[keyDBBounding] = fmt.Sprintf("SELECT MIN(t1.%s), MAX(t1.%s) FROM (%s) AS t1", split, split,
			strings.ReplaceAll(o.query, conditionsToken, "(1 = 1)"))
	}
	if o.boundaryQuery != "" {
		props[keyDBBounding] = o.boundaryQuery
	}
	props["mapreduce.job.name"] = name + ".jar"
	for k, v := range map[string]string{keyFieldDelim: o.fieldDelim, keyNullString: o.nullString, keyNullNonStrng: o.nullNonString} {
		if v != "" {
			props[k] = unescapeDelim(v)
		}
	}
	return props, nil
}

// boundingQuery is the MIN and MAX of a table's split column.
func boundingQuery(col, table, where string) string {
	q := fmt.Sprintf("SELECT MIN(%s), MAX(%s) FROM %s", col, col, table)
	if where != "" {
		q += " WHERE ( " + where + " )"
	}
	return q
}

// queryColumns runs a query that returns no rows, for its column names.
func queryColumns(ctx context.Context, db *sql.DB, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("java.io.IOException: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("java.io.IOException: %w", err)
	}
	if len(cols) == 0 {
		return nil, errors.New("java.io.IOException: No columns to generate for ClassWriter")
	}
	return cols, nil
}

// primaryKey is the one-column primary key of table, "" when it has none
// (or a composite one), as Sqoop's getPrimaryKey finds it.
func primaryKey(ctx context.Context, db *sql.DB, table string) (string, error) {
	rows, err := db.QueryContext(ctx, `SELECT a.attname FROM pg_index i
		JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
		WHERE i.indrelid = to_regclass($1) AND i.indisprimary`, table)
	if err != nil {
		return "", fmt.Errorf("java.io.IOException: %w", err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return "", err
		}
		keys = append(keys, k)
	}
	if len(keys) != 1 {
		return "", rows.Err()
	}
	return keys[0], rows.Err()
}

// unescapeDelim reads a delimiter as Sqoop does: \t, \n, \0, \NNN (octal)
// and \0xHH escapes, else the first character.
func unescapeDelim(s string) string {
	switch s {
	case `\t`:
		return "\t"
	case `\n`:
		return "\n"
	case `\0`:
		return "\x00"
	}
	if h, ok := strings.CutPrefix(s, `\0x`); ok {
		if n, err := strconv.ParseUint(h, 16, 8); err == nil {
			return string(rune(n))
		}
	}
	if o, ok := strings.CutPrefix(s, `\`); ok {
		if n, err := strconv.ParseUint(o, 8, 8); err == nil {
			return string(rune(n))
		}
	}
	return s
}

// runImport checks the target directory, submits the job and waits for it.
func (t *tool) runImport(ctx context.Context, props map[string]string, o *importOptions) int {
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
	target := o.targetDir
	switch {
	case target != "":
	case o.warehouseDir != "":
		target = strings.TrimSuffix(o.warehouseDir, "/") + "/" + o.table
	default:
		target = o.table
	}
	target = t.qualify(c, target)
	if code := t.prepareTarget(ctx, fsys, target, o.deleteTargetDir); code != exitOK {
		return code
	}
	props["mapreduce.output.fileoutputformat.outputdir"] = target
	fmt.Fprintf(t.env.Stderr, "INFO mapreduce.ImportJobBase: Beginning import of %s\n", props["mapreduce.job.name"])
	appID, ok := t.submit(ctx, props)
	if !ok {
		fmt.Fprintln(t.env.Stderr, importFailed+"java.io.IOException: the job could not be submitted")
		return exitFail
	}
	return t.waitJob(ctx, c, appID, props, importFailed+"org.apache.sqoop.util.ImportException: Import job failed!")
}

// prepareTarget deletes the target directory on --delete-target-dir, and
// otherwise refuses one that exists, as FileOutputFormat does.
func (t *tool) prepareTarget(ctx context.Context, fsys hadoop.FileSystem, target string, del bool) int {
	_, err := fsys.Stat(ctx, target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return exitOK
	case err != nil:
		t.errorf("%v", err)
		return exitFail
	case del:
		if err := fsys.RemoveAll(ctx, target); err != nil {
			t.errorf("deleting %s: %v", target, err)
			return exitFail
		}
		fmt.Fprintf(t.env.Stderr, "INFO util.AppendUtils: Destination directory %s deleted.\n", target)
		return exitOK
	}
	fmt.Fprintf(t.env.Stderr, importFailed+"org.apache.hadoop.mapred.FileAlreadyExistsException: Output directory %s already exists\n", target)
	return exitFail
}

// waitJob follows the job as Job.waitForCompletion does, and reports its
// end as Sqoop does: failed is the tool's line for a failed job.
func (t *tool) waitJob(ctx context.Context, c *cluster, appID yarn.ApplicationID, props map[string]string, failed string) int {
	yc, err := t.yarnClient(c)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	jobID := jobIDOf(appID)
	fmt.Fprintf(t.env.Stderr, "INFO mapreduce.Job: Running job: %s\n", jobID)
	ms, err := strconv.Atoi(props[pollKey])
	if err != nil || ms <= 0 {
		ms = defaultPollMS
	}
	tick := time.NewTicker(time.Duration(ms) * time.Millisecond)
	defer tick.Stop()
	for {
		rep, err := yc.App(ctx, appID)
		if err != nil && ctx.Err() == nil {
			t.errorf("reading the status of %s: %v", jobID, err)
			return exitFail
		}
		if err == nil && rep.Done() {
			if rep.Succeeded() {
				fmt.Fprintf(t.env.Stderr, "INFO mapreduce.Job: Job %s completed successfully\n", jobID)
				return exitOK
			}
			fmt.Fprintf(t.env.Stderr, "INFO mapreduce.Job: Job %s failed with state %s due to: %s\n", jobID, jobState(rep), strings.TrimSpace(rep.Diagnostics))
			fmt.Fprintln(t.env.Stderr, failed)
			return exitFail
		}
		select {
		case <-ctx.Done():
			return exitTerminated
		case <-tick.C:
		}
	}
}
