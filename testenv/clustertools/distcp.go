package clustertools

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gozie/gozie/hadoop"
)

// DistCp's names, as Hadoop's DistCp, DistCpConstants and CopyOutputFormat
// set them in the job configuration.
const (
	// distcpMapper is the mapper class of a DistCp job; the stand-in AM
	// runs it as copyJob.
	distcpMapper       = "org.apache.hadoop.tools.mapred.CopyMapper"
	keyDistcpListing   = "distcp.listing.file.path"
	keyDistcpWork      = "distcp.target.work.path"
	keyDistcpFinal     = "distcp.target.final.path"
	keyDistcpMeta      = "distcp.meta.folder"
	keyDistcpExists    = "distcp.target.path.exists"
	keyDistcpUpdate    = "distcp.sync.folders"
	keyDistcpOverwrite = "distcp.overwrite"
	keyDistcpSkipCRC   = "distcp.skip.crc"
	keyDistcpDelete    = "distcp.delete.missing.source"
	keyDistcpIgnore    = "distcp.ignore.failures"
	keyDistcpLogPath   = "distcp.log.path"
	keyDistcpBandwidth = "distcp.map.bandwidth.mb"
)

// DistCp's exit codes (DistCpConstants), as the JVM reports them: -1, -2
// and -999 modulo 256.
const (
	exitDistcpInvalid   = 255 // INVALID_ARGUMENT
	exitDistcpDuplicate = 254 // DUPLICATE_INPUT
	exitDistcpUnknown   = 25  // UNKNOWN_ERROR
)

// distcpOptions are the parsed options of one `hadoop distcp` run.
type distcpOptions struct {
	update, overwrite, skipCRC, deleteMissing, ignoreFailures, async bool
	maxMaps                                                          int
	bandwidth                                                        float64 // MB/s per map; 0: unlimited
	listing, logPath                                                 string
	sources                                                          []string
	target                                                           string
}

// distcpValueOptions take a value; those the stand-in reads are handled in
// setValue (-bandwidth throttles the copy as DistCp's ThrottledInputStream
// does), the others only tune how the copy is split and buffered
// (strategy, listing threads, copy buffer), which one task does not model.
var distcpValueOptions = []string{"-m", "-log", "-f", "-strategy", "-bandwidth", "-numListstatusThreads",
	"-copybuffersize", "-blocksperchunk"}

// distcpRefused are DistCp options the stand-in does not implement: they
// change what is copied or how it is committed, so accepting them silently
// would pass a copy a real cluster makes differently.
var distcpRefused = []string{"-atomic", "-tmp", "-diff", "-rdiff", "-append", "-filters", "-xtrack", "-direct",
	"-sizelimit", "-filelimit", "-mapredSslConf"}

// parseDistcp parses DistCp's options as its OptionsParser and
// DistCpOptions.validate do, with their messages.
func parseDistcp(args []string) (*distcpOptions, error) {
	o := &distcpOptions{maxMaps: 20}
	var paths []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			paths = append(paths, a)
			continue
		}
		switch {
		case a == "-update":
			o.update = true
		case a == "-overwrite":
			o.overwrite = true
		case a == "-skipcrccheck":
			o.skipCRC = true
		case a == "-delete":
			o.deleteMissing = true
		case a == "-i":
			o.ignoreFailures = true
		case a == "-async":
			o.async = true
		case a == "-v":
		case strings.HasPrefix(a, "-p"):
			return nil, fmt.Errorf("%s: preserving file attributes is not implemented by the stand-in", a)
		case slices.Contains(distcpRefused, a):
			return nil, fmt.Errorf("%s is not implemented by the stand-in", a)
		case slices.Contains(distcpValueOptions, a):
			if i+1 >= len(args) {
				return nil, toolErr("Missing argument for option: %s", strings.TrimPrefix(a, "-"))
			}
			i++
			if err := o.setValue(a, args[i]); err != nil {
				return nil, err
			}
		default:
			return nil, toolErr("Unrecognized option: %s", a)
		}
	}
	if len(paths) == 0 {
		return nil, toolErr("Target path not specified")
	}
	o.target, o.sources = paths[len(paths)-1], paths[:len(paths)-1]
	switch {
	case o.listing != "" && len(o.sources) > 0:
		return nil, toolErr("Both source file listing and source paths present")
	case o.listing == "" && len(o.sources) == 0:
		return nil, toolErr("Neither source file listing nor source paths present")
	}
	return o, o.validate()
}

// String writes the options as DistCp logs them.
func (o *distcpOptions) String() string {
	return fmt.Sprintf("DistCpOptions{syncFolder=%t, deleteMissing=%t, ignoreFailures=%t, overwrite=%t, skipCRC=%t, "+
		"blocking=%t, maxMaps=%d, logPath=%s, sourceFileListing=%s, sourcePaths=%v, targetPath=%s}",
		o.update, o.deleteMissing, o.ignoreFailures, o.overwrite, o.skipCRC, !o.async, o.maxMaps, o.logPath,
		o.listing, o.sources, o.target)
}

// setValue sets an option that takes a value.
func (o *distcpOptions) setValue(opt, v string) error {
	switch opt {
	case "-m":
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return toolErr("Number of maps is invalid: %s", v)
		}
		o.maxMaps = n
	case "-log":
		o.logPath = v
	case "-f":
		o.listing = v
	case "-bandwidth":
		bw, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return toolErr("Bandwidth specified is invalid: %s", v)
		}
		if bw <= 0 {
			return toolErr("Bandwidth specified is not positive: %s", v)
		}
		o.bandwidth = bw
	}
	return nil
}

// validate is DistCpOptions.validate: the combinations DistCp refuses.
func (o *distcpOptions) validate() error {
	switch {
	case o.deleteMissing && !o.overwrite && !o.update:
		return toolErr("Delete missing is applicable only with update or overwrite options")
	case o.overwrite && o.update:
		return toolErr("Overwrite and update options are mutually exclusive")
	case !o.update && o.skipCRC:
		return toolErr("Skip CRC is valid only with update options")
	}
	return nil
}

// distcpUsage is the start of DistCp's usage text.
const distcpUsage = "usage: distcp OPTIONS [source_path...] <target_path>\n" +
	"              OPTIONS\n" +
	" -async                 Should distcp execution be blocking\n" +
	" -delete                Delete from target, files missing in source\n" +
	" -f <arg>               List of files that need to be copied\n" +
	" -i                     Ignore failures during copy\n" +
	" -log <arg>             Folder on DFS where distcp execution logs are saved\n" +
	" -m <arg>               Max number of concurrent maps to use for copy\n" +
	" -overwrite             Choose to overwrite target files unconditionally, even if they exist.\n" +
	" -skipcrccheck          Whether to skip CRC checks between source and target paths.\n" +
	" -update                Update target, copying only missing files or directories\n"

// distcp is `hadoop distcp [generic options] [options] source... target`:
// the copy listing built and checked as DistCp's SimpleCopyListing does,
// then one map-only MapReduce job (tagged with the configuration's
// mapreduce.job.tags) that copies, waited for unless -async.
func (t *tool) distcp(ctx context.Context, args []string) int {
	props, rest, err := t.genericOptions(args)
	if err != nil {
		t.errorf("%v", err)
		return exitDistcpInvalid
	}
	if len(rest) == 0 {
		fmt.Fprint(t.env.Stderr, distcpUsage)
		return exitDistcpInvalid
	}
	o, err := parseDistcp(rest)
	if err != nil {
		fmt.Fprintf(t.env.Stderr, "ERROR tools.DistCp: Invalid arguments: java.lang.IllegalArgumentException: %v\n", err)
		fmt.Fprintf(t.env.Stderr, "Invalid arguments: %v\n", err)
		fmt.Fprint(t.env.Stderr, distcpUsage)
		return exitDistcpInvalid
	}
	c, err := t.cluster()
	if err != nil {
		t.errorf("%v", err)
		return exitDistcpUnknown
	}
	fsys, err := t.filesystem(c)
	if err != nil {
		t.errorf("%v", err)
		return exitDistcpUnknown
	}
	defer fsys.Close()
	fmt.Fprintf(t.env.Stderr, "INFO tools.DistCp: Input Options: %s\n", o)
	job, code := t.distcpJob(ctx, c, fsys, o, props)
	if code != exitOK {
		return code
	}
	appID, ok := t.submit(ctx, job)
	if !ok {
		t.distcpCleanup(ctx, fsys, job)
		return exitDistcpUnknown
	}
	jobID := jobIDOf(appID)
	fmt.Fprintf(t.env.Stderr, "INFO tools.DistCp: DistCp job-id: %s\n", jobID)
	if o.async {
		return exitOK
	}
	fmt.Fprintf(t.env.Stderr, "INFO mapreduce.Job: Running job: %s\n", jobID)
	rep, err := t.awaitJob(ctx, c, appID, job)
	if err != nil {
		fmt.Fprintf(t.env.Stderr, "ERROR tools.DistCp: Exception encountered \njava.io.IOException: %v\n", err)
		return exitDistcpUnknown
	}
	if jobState(rep) != "SUCCEEDED" {
		fmt.Fprintf(t.env.Stderr, "ERROR tools.DistCp: Exception encountered \njava.io.IOException: DistCp failure: Job %s has failed: %s\n",
			jobID, strings.TrimSpace(rep.Diagnostics))
		return exitDistcpUnknown
	}
	fmt.Fprintf(t.env.Stderr, "INFO mapreduce.Job: Job %s completed successfully\n", jobID)
	return exitOK
}

// distcpJob builds the copy listing in a fresh meta folder under the
// staging directory and returns the job's configuration; a code other
// than exitOK says DistCp refused (printed).
func (t *tool) distcpJob(ctx context.Context, c *cluster, fsys hadoop.FileSystem, o *distcpOptions, props map[string]string) (map[string]string, int) {
	target := t.qualify(c, o.target)
	tfi, err := fsys.Stat(ctx, target)
	targetExists := err == nil
	targetFile := targetExists && !tfi.IsDir
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(t.env.Stderr, "ERROR tools.DistCp: Exception encountered \n%v\n", err)
		return nil, exitDistcpUnknown
	}
	sources := o.sources
	if o.listing != "" {
		if sources, err = t.readListing(ctx, fsys, t.qualify(c, o.listing)); err != nil {
			fmt.Fprintf(t.env.Stderr, "ERROR tools.DistCp: Invalid input: \norg.apache.hadoop.tools.CopyListing$InvalidInputException: %v\n", err)
			return nil, exitDistcpInvalid
		}
	}
	for i, s := range sources {
		sources[i] = t.qualify(c, s)
	}
	entries, err := buildListing(ctx, fsys, o, sources, targetExists, targetFile)
	var dup *duplicateError
	switch {
	case errors.As(err, &dup):
		fmt.Fprintf(t.env.Stderr, "ERROR tools.DistCp: Duplicate files in input path: \norg.apache.hadoop.tools.CopyListing$DuplicateFileException: %v\n", err)
		return nil, exitDistcpDuplicate
	case err != nil:
		fmt.Fprintf(t.env.Stderr, "ERROR tools.DistCp: Invalid input: \norg.apache.hadoop.tools.CopyListing$InvalidInputException: %v\n", err)
		return nil, exitDistcpInvalid
	}
	staging := t.qualify(c, stagingDir(props)) + "/" + t.user() + "/.staging"
	meta := fmt.Sprintf("%s/_distcp%d", staging, rand.Int32())
	listing := meta + "/fileList.tsv"
	if err := fsys.WriteFile(ctx, listing, encodeListing(entries), 0o644); err != nil {
		t.errorf("writing the copy listing: %v", err)
		return nil, exitDistcpUnknown
	}
	job := maps.Clone(props)
	name := "distcp"
	if n := strings.TrimSpace(props["mapreduce.job.name"]); n != "" {
		name += ": " + n
	}
	logPath := meta + "/_logs"
	if o.logPath != "" {
		logPath = t.qualify(c, o.logPath)
	}
	for k, v := range map[string]string{
		"mapreduce.job.name": name, "mapreduce.job.map.class": distcpMapper, "mapreduce.job.reduces": "0",
		"mapreduce.job.maps": strconv.Itoa(o.maxMaps), "mapreduce.map.speculative": "false",
		"mapreduce.output.fileoutputformat.outputdir": logPath,
		keyDistcpListing: listing, keyDistcpWork: target, keyDistcpFinal: target, keyDistcpMeta: meta,
		keyDistcpExists: strconv.FormatBool(targetExists), keyDistcpUpdate: strconv.FormatBool(o.update),
		keyDistcpOverwrite: strconv.FormatBool(o.overwrite), keyDistcpSkipCRC: strconv.FormatBool(o.skipCRC),
		keyDistcpDelete: strconv.FormatBool(o.deleteMissing), keyDistcpIgnore: strconv.FormatBool(o.ignoreFailures),
		keyDistcpLogPath: o.logPath, keyDistcpBandwidth: strconv.FormatFloat(o.bandwidth, 'g', -1, 64),
	} {
		job[k] = v
	}
	for _, k := range append(keysInput, "mapred.output.dir") {
		delete(job, k)
	}
	return job, exitOK
}

// distcpCleanup removes the meta folder of a job that was not submitted.
func (t *tool) distcpCleanup(ctx context.Context, fsys hadoop.FileSystem, job map[string]string) {
	if meta := job[keyDistcpMeta]; meta != "" {
		_ = fsys.RemoveAll(ctx, meta)
	}
}

// readListing reads a -f listing: one source URI per line.
func (t *tool) readListing(ctx context.Context, fsys hadoop.FileSystem, uri string) ([]string, error) {
	b, err := fsys.ReadFile(ctx, uri)
	if err != nil {
		return nil, fmt.Errorf("%s doesn't exist", uri)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}

// copyEntry is one line of the copy listing: a source and its path
// relative to the target ("" for the target itself).
type copyEntry struct {
	rel, source string
	dir         bool
}

// duplicateError is DistCp's DuplicateFileException.
type duplicateError struct{ a, b string }

func (e *duplicateError) Error() string {
	return fmt.Sprintf("File %s and %s would cause duplicates. Aborting", e.a, e.b)
}

// buildListing lists every file and directory to copy, relative to the
// target, as SimpleCopyListing does: each source is globbed (no match:
// "<path> doesn't exist"); a lone file goes to the target itself when the
// target is missing or a file, else below it; a directory's contents go
// into the target when it is the only source and the target is missing,
// or with -update or -overwrite, else the directory goes below the target.
func buildListing(ctx context.Context, fsys hadoop.FileSystem, o *distcpOptions, sources []string, targetExists, targetFile bool) ([]copyEntry, error) {
	var entries []copyEntry
	seen := map[string]string{}
	for _, src := range sources {
		matches, err := fsys.Glob(ctx, src)
		if err != nil {
			return nil, err
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("%s doesn't exist", src)
		}
		for _, m := range matches {
			fi, err := fsys.Stat(ctx, m)
			if err != nil {
				return nil, fmt.Errorf("%s doesn't exist", m)
			}
			root := parentOf(strings.TrimSuffix(m, "/"))
			solitary := len(sources) == 1 && !fi.IsDir
			special := (len(sources) == 1 && !targetExists) || o.update || o.overwrite
			if solitary && (!targetExists || targetFile) || fi.IsDir && special {
				root = m
			}
			found, err := walkSource(ctx, fsys, m, fi.IsDir)
			if err != nil {
				return nil, err
			}
			for _, f := range found {
				rel := strings.TrimPrefix(strings.TrimPrefix(f.source, strings.TrimSuffix(root, "/")), "/")
				if prev, ok := seen[rel]; ok && !f.dir {
					return nil, &duplicateError{a: prev, b: f.source}
				}
				seen[rel] = f.source
				f.rel = rel
				entries = append(entries, f)
			}
		}
	}
	return entries, nil
}

// walkSource lists p and, for a directory, everything below it.
func walkSource(ctx context.Context, fsys hadoop.FileSystem, p string, dir bool) ([]copyEntry, error) {
	out := []copyEntry{{source: p, dir: dir}}
	if !dir {
		return out, nil
	}
	kids, err := fsys.ReadDir(ctx, p)
	if err != nil {
		return nil, err
	}
	for _, k := range kids {
		sub, err := walkSource(ctx, fsys, strings.TrimSuffix(p, "/")+"/"+k.Name, k.IsDir)
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
	}
	return out, nil
}

// encodeListing writes the listing, one "kind<TAB>relative<TAB>source"
// line per entry (kind d or f).
func encodeListing(entries []copyEntry) []byte {
	var b bytes.Buffer
	for _, e := range entries {
		kind := "f"
		if e.dir {
			kind = "d"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", kind, e.rel, e.source)
	}
	return b.Bytes()
}

// decodeListing reads what encodeListing wrote.
func decodeListing(b []byte) ([]copyEntry, error) {
	var out []copyEntry
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if line == "" {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("bad copy listing line %q", line)
		}
		out = append(out, copyEntry{dir: parts[0] == "d", rel: parts[1], source: parts[2]})
	}
	return out, nil
}

// toolErr is an error whose text is a tool's own message, as the tool
// prints it (Hadoop's and Pig's messages start with a capital).
func toolErr(format string, args ...any) error { return toolError(fmt.Sprintf(format, args...)) }

// toolError is a tool's own error message.
type toolError string

func (e toolError) Error() string { return string(e) }

// parentOf is the parent of a path or full URI (path.Dir would fold the
// "//" of hdfs://host).
func parentOf(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return path.Dir(u)
	}
	authority, p, _ := strings.Cut(rest, "/")
	return scheme + "://" + authority + path.Dir("/"+p)
}

// stagingDir is yarn.app.mapreduce.am.staging-dir.
func stagingDir(props map[string]string) string {
	if v := strings.TrimSpace(props["yarn.app.mapreduce.am.staging-dir"]); v != "" {
		return v
	}
	return defaultStagingDir
}
