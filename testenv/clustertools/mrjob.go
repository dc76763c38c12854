package clustertools

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
)

// job is a MapReduce job configuration, read with Hadoop's key names (the
// mapreduce.* names first, the deprecated mapred.* ones as fallbacks).
type job struct {
	props map[string]string
}

func newJob(props map[string]string) *job { return &job{props: props} }

// get returns the first non-blank value of key, else def.
func (j *job) get(key, def string) string {
	if v := strings.TrimSpace(j.props[key]); v != "" {
		return v
	}
	return def
}

// Key pairs of the settings the stand-in reads: current name, old name.
var (
	keysInput   = []string{"mapreduce.input.fileinputformat.inputdir", "mapred.input.dir"}
	keysOutput  = []string{"mapreduce.output.fileoutputformat.outputdir", "mapred.output.dir"}
	keysReduces = []string{"mapreduce.job.reduces", "mapred.reduce.tasks"}
	keysNotify  = []string{"mapreduce.job.end-notification.url", "job.end.notification.url"}
)

func (j *job) first(keys []string) string {
	for _, k := range keys {
		if v := j.get(k, ""); v != "" {
			return v
		}
	}
	return ""
}

func (j *job) inputs() []string { return splitComma(j.first(keysInput)) }
func (j *job) output() string   { return j.first(keysOutput) }

// reduces is the number of reduce tasks; the stand-in writes one output
// file whatever the number, but zero means a map-only job.
func (j *job) reduces() int {
	n, err := strconv.Atoi(j.first(keysReduces))
	if err != nil || n < 0 {
		return 1
	}
	return n
}

// mapper and reducer are the streaming commands ("" for a Java job).
func (j *job) mapper() string  { return j.get("stream.map.streamprocessor", "") }
func (j *job) reducer() string { return j.get("stream.reduce.streamprocessor", "") }

// newAPI reports a job of the org.apache.hadoop.mapreduce API, whose
// output files are named part-r-NNNNN / part-m-NNNNN.
func (j *job) newAPI() bool {
	return j.get("mapred.mapper.new-api", "") == "true" || j.get("mapred.reducer.new-api", "") == "true" ||
		j.get("mapreduce.job.map.class", "") != "" || j.get("mapreduce.job.reduce.class", "") != ""
}

// partName is the name of the job's one output file.
func (j *job) partName() string {
	switch {
	case !j.newAPI() || j.mapper() != "":
		return "part-00000"
	case j.reduces() == 0:
		return "part-m-00000"
	}
	return "part-r-00000"
}

// qualifyPaths rewrites the input and output paths with q.
func (j *job) qualifyPaths(q func(string) string) {
	for _, keys := range [][]string{keysInput, keysOutput} {
		for _, k := range keys {
			v := j.get(k, "")
			if v == "" {
				continue
			}
			parts := splitComma(v)
			for i, p := range parts {
				parts[i] = q(p)
			}
			j.props[k] = strings.Join(parts, ",")
		}
	}
}

// encode writes the job as Hadoop configuration XML, in key order.
func (j *job) encode() ([]byte, error) {
	keys := make([]string, 0, len(j.props))
	for k := range j.props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	pairs := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		pairs = append(pairs, k, j.props[k])
	}
	var b bytes.Buffer
	if err := conf.WriteConfigurationXML(&b, conf.NewProperties(pairs...)); err != nil {
		return nil, fmt.Errorf("writing the job file: %w", err)
	}
	return b.Bytes(), nil
}

// record is one key/value pair between the map and reduce phases.
type record struct {
	key, value string
	offset     int64 // the identity mapper's numeric key
}

// taskError is a failed task, reported as the job's diagnostics.
type taskError struct {
	task string
	err  error
}

func (e *taskError) Error() string {
	return fmt.Sprintf("Task failed %s\nJob failed as tasks failed. %v", e.task, e.err)
}

// runJob runs the job: map over every input file, sort, reduce, and commit
// one output file and _SUCCESS into the output directory. It counts what it
// does into jc as a MapReduce job's tasks count it: one map task per input
// file, one reduce task.
func (t *tool) runJob(ctx context.Context, fsys hadoop.FileSystem, j *job, jobID string, jc *jobCounters) error {
	if j.dbJob() {
		return t.runDBJob(ctx, fsys, j, jobID, jc)
	}
	if run := toolJob(j); run != nil {
		return run(t, ctx, fsys, j, jobID, jc)
	}
	files, err := t.inputFiles(ctx, fsys, j)
	if err != nil {
		return err
	}
	out := j.output()
	if out == "" {
		return errors.New("no output directory (mapreduce.output.fileoutputformat.outputdir)")
	}
	if _, err := fsys.Stat(ctx, out); err == nil {
		return fmt.Errorf("output directory %s already exists", out)
	}
	taskID := strings.Replace(jobID, "job_", "task_", 1)
	var mapped []record
	for i, f := range files {
		jc.add(GroupJobCounter, CounterLaunchedMaps, phaseJob, 1)
		data, err := fsys.ReadFile(ctx, f)
		if err != nil {
			return fmt.Errorf("reading %s: %w", f, err)
		}
		jc.add(GroupFileSystemCounter, fsCounter(f, "BYTES_READ"), phaseMap, int64(len(data)))
		jc.add(GroupTaskCounter, CounterMapInputRecords, phaseMap, countLines(data))
		recs, err := t.mapFile(ctx, j, data)
		if err != nil {
			return &taskError{task: fmt.Sprintf("%s_m_%06d", taskID, i), err: err}
		}
		jc.add(GroupTaskCounter, CounterMapOutputRecords, phaseMap, int64(len(recs)))
		mapped = append(mapped, recs...)
	}
	var output []byte
	written := phaseMap
	if j.reduces() == 0 {
		output = formatRecords(mapped)
	} else {
		jc.add(GroupJobCounter, CounterLaunchedReduces, phaseJob, 1)
		if j.mapper() != "" {
			slices.SortStableFunc(mapped, func(a, b record) int { return strings.Compare(a.key, b.key) })
		} else {
			slices.SortStableFunc(mapped, func(a, b record) int { return cmp.Compare(a.offset, b.offset) })
		}
		jc.add(GroupTaskCounter, CounterReduceInputGroups, phaseReduce, countGroups(mapped))
		jc.add(GroupTaskCounter, CounterReduceInputRecords, phaseReduce, int64(len(mapped)))
		if output, err = t.reduce(ctx, j, mapped); err != nil {
			return &taskError{task: taskID + "_r_000000", err: err}
		}
		jc.add(GroupTaskCounter, CounterReduceOutputRecords, phaseReduce, countLines(output))
		written = phaseReduce
	}
	if err := commit(ctx, fsys, out, j.partName(), output); err != nil {
		return err
	}
	jc.add(GroupFileSystemCounter, fsCounter(out, "BYTES_WRITTEN"), written, int64(len(output)))
	return nil
}

// inputFiles lists the files of the job's input paths: globs expanded,
// directories listed (without hidden _ and . files), in order.
func (t *tool) inputFiles(ctx context.Context, fsys hadoop.FileSystem, j *job) ([]string, error) {
	var files []string
	for _, in := range j.inputs() {
		matches, err := fsys.Glob(ctx, in)
		if err != nil {
			return nil, err
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("input path does not exist: %s", in)
		}
		for _, m := range matches {
			fi, err := fsys.Stat(ctx, m)
			if err != nil {
				return nil, err
			}
			if !fi.IsDir {
				files = append(files, m)
				continue
			}
			entries, err := fsys.ReadDir(ctx, m)
			if err != nil {
				return nil, err
			}
			for _, e := range entries {
				if !e.IsDir && !strings.HasPrefix(e.Name, "_") && !strings.HasPrefix(e.Name, ".") {
					files = append(files, strings.TrimSuffix(m, "/")+"/"+e.Name)
				}
			}
		}
	}
	return files, nil
}

// mapFile maps one input file: the streaming mapper fed its lines, or the
// identity mapper keyed by byte offset.
func (t *tool) mapFile(ctx context.Context, j *job, data []byte) ([]record, error) {
	if cmdline := j.mapper(); cmdline != "" {
		out, err := t.stream(ctx, j, cmdline, data)
		if err != nil {
			return nil, err
		}
		return splitRecords(out), nil
	}
	var recs []record
	var offset int64
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		recs = append(recs, record{key: strconv.FormatInt(offset, 10), value: line, offset: offset})
		offset += int64(len(sc.Bytes())) + 1
	}
	return recs, sc.Err()
}

// reduce runs the reducer over the sorted records: the streaming reducer
// fed "key<TAB>value" lines, or the identity reducer.
func (t *tool) reduce(ctx context.Context, j *job, recs []record) ([]byte, error) {
	cmdline := j.reducer()
	if cmdline == "" || cmdline == "NONE" {
		return formatRecords(recs), nil
	}
	return t.stream(ctx, j, cmdline, formatRecords(recs))
}

// stream runs a streaming command with input on stdin and returns its
// stdout, as Hadoop Streaming's PipeMapRed does: the command line is split
// on blanks outside quotes (splitArgs), not given to a shell, and
// stream.addenvironment adds to the environment.
func (t *tool) stream(ctx context.Context, j *job, cmdline string, input []byte) ([]byte, error) {
	argv := splitArgs(cmdline)
	if len(argv) == 0 {
		return nil, fmt.Errorf("empty streaming command")
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = t.env.Dir
	cmd.Env = append(t.env.Environ(), strings.Fields(j.get("stream.addenvironment", ""))...)
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("PipeMapRed.waitOutputThreads(): subprocess %q failed with code %d: %s",
				cmdline, ee.ExitCode(), strings.TrimSpace(stderr.String()))
		}
		return nil, fmt.Errorf("cannot run program %q: %w", argv[0], err)
	}
	return out, nil
}

// splitArgs splits a command line at blanks outside single or double
// quotes, dropping the quotes, as Hadoop Streaming's StreamUtil does.
func splitArgs(s string) []string {
	var args []string
	var cur strings.Builder
	var quote byte
	inArg := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, inArg = c, true
		case c == ' ' || c == '\t':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteByte(c)
			inArg = true
		}
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args
}

// splitRecords splits a streaming command's output lines at the first tab
// into key and value.
func splitRecords(out []byte) []record {
	if len(out) == 0 {
		return nil
	}
	var recs []record
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		k, v, _ := strings.Cut(line, "\t")
		recs = append(recs, record{key: k, value: v})
	}
	return recs
}

// formatRecords writes records as TextOutputFormat does: key, tab, value;
// a record without a value is its key alone.
func formatRecords(recs []record) []byte {
	var b bytes.Buffer
	for _, r := range recs {
		b.WriteString(r.key)
		if r.value != "" {
			b.WriteByte('\t')
			b.WriteString(r.value)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// commit writes the output as FileOutputCommitter does: the part file into
// _temporary, renamed into the output directory, then the _SUCCESS marker.
func commit(ctx context.Context, fsys hadoop.FileSystem, out, part string, data []byte) error {
	out = strings.TrimSuffix(out, "/")
	tmp := out + "/_temporary/0/" + part
	if err := fsys.WriteFile(ctx, tmp, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := fsys.Rename(ctx, tmp, out+"/"+part); err != nil {
		return fmt.Errorf("committing %s: %w", part, err)
	}
	if err := fsys.RemoveAll(ctx, out+"/_temporary"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cleaning %s: %w", path.Join(out, "_temporary"), err)
	}
	if err := fsys.WriteFile(ctx, out+"/_SUCCESS", nil, 0o644); err != nil {
		return fmt.Errorf("writing _SUCCESS: %w", err)
	}
	return nil
}
