package clustertools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop"
)

// DistCp's counter group (CopyMapper.Counter) and the counters the
// stand-in counts.
const (
	GroupDistcpCounter  = "org.apache.hadoop.tools.mapred.CopyMapper$Counter"
	CounterCopy         = "COPY"
	CounterSkip         = "SKIP"
	CounterFail         = "FAIL"
	CounterBytesCopied  = "BYTESCOPIED"
	CounterBytesSkipped = "BYTESSKIPPED"
)

// copyJob is the map task of a DistCp job, as CopyMapper and
// CopyCommitter do it: every entry of the listing copied to the target
// (through a temporary file renamed into place), existing files skipped
// unless -overwrite, or with -update when they have the same length and
// (without -skipcrccheck) the same content; a file that cannot be copied
// fails the task unless -i; then -delete removes what the sources lack,
// the copy log is committed and the meta folder removed.
func (t *tool) copyJob(ctx context.Context, fsys hadoop.FileSystem, j *job, jobID string, jc *jobCounters) error {
	raw, err := fsys.ReadFile(ctx, j.get(keyDistcpListing, ""))
	if err != nil {
		return fmt.Errorf("reading the copy listing: %w", err)
	}
	entries, err := decodeListing(raw)
	if err != nil {
		return err
	}
	final := strings.TrimSuffix(j.get(keyDistcpFinal, ""), "/")
	if final == "" {
		return errors.New("no target (" + keyDistcpFinal + ")")
	}
	jc.add(GroupJobCounter, CounterLaunchedMaps, phaseJob, 1)
	task := strings.Replace(jobID, "job_", "attempt_", 1) + "_m_000000_0"
	var log bytes.Buffer
	keep := map[string]bool{}
	for _, e := range entries {
		target := final
		if e.rel != "" {
			target += "/" + e.rel
		}
		keep[target] = true
		action, err := t.copyOne(ctx, fsys, j, e, target, task, jc)
		if err != nil {
			if j.get(keyDistcpIgnore, "") != "true" {
				return &taskError{task: task, err: fmt.Errorf("java.io.IOException: File copy failed: %s --> %s: %w", e.source, target, err)}
			}
			jc.add(GroupDistcpCounter, CounterFail, phaseMap, 1)
			action = "FILE_FAILED"
		}
		fmt.Fprintf(&log, "%s: %s\n", action, e.source)
	}
	if j.get(keyDistcpDelete, "") == "true" {
		if err := deleteMissing(ctx, fsys, final, keep, &log); err != nil {
			return err
		}
	}
	if out := j.output(); out != "" {
		if err := commit(ctx, fsys, out, "part-m-00000", log.Bytes()); err != nil {
			return err
		}
	}
	if meta := j.get(keyDistcpMeta, ""); meta != "" && j.get(keyDistcpLogPath, "") == "" {
		if err := fsys.RemoveAll(ctx, meta); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cleaning the meta folder %s: %w", meta, err)
		}
	}
	return nil
}

// copyOne copies one listing entry and says what it did (the copy log's
// FILE_COPIED, FILE_SKIPPED or DIR_COPIED).
func (t *tool) copyOne(ctx context.Context, fsys hadoop.FileSystem, j *job, e copyEntry, target, task string, jc *jobCounters) (string, error) {
	if e.dir {
		if err := fsys.MkdirAll(ctx, target, 0o755); err != nil {
			return "", err
		}
		return "DIR_COPIED", nil
	}
	data, err := fsys.ReadFile(ctx, e.source)
	if err != nil {
		return "", err
	}
	jc.add(GroupFileSystemCounter, fsCounter(e.source, "BYTES_READ"), phaseMap, int64(len(data)))
	if err := throttle(ctx, j, len(data)); err != nil {
		return "", err
	}
	if skip, err := canSkip(ctx, fsys, j, data, target); err != nil {
		return "", err
	} else if skip {
		jc.add(GroupDistcpCounter, CounterSkip, phaseMap, 1)
		jc.add(GroupDistcpCounter, CounterBytesSkipped, phaseMap, int64(len(data)))
		return "FILE_SKIPPED", nil
	}
	tmp := parentOf(target) + "/.distcp.tmp." + task
	if err := fsys.WriteFile(ctx, tmp, data, 0o644); err != nil {
		return "", err
	}
	if err := fsys.RemoveAll(ctx, target); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if err := fsys.Rename(ctx, tmp, target); err != nil {
		return "", err
	}
	jc.add(GroupFileSystemCounter, fsCounter(target, "BYTES_WRITTEN"), phaseMap, int64(len(data)))
	jc.add(GroupDistcpCounter, CounterCopy, phaseMap, 1)
	jc.add(GroupDistcpCounter, CounterBytesCopied, phaseMap, int64(len(data)))
	return "FILE_COPIED", nil
}

// canSkip is CopyMapper's check of an existing target file: without
// -update or -overwrite it is kept; with -overwrite it is replaced; with
// -update it is kept when it has the source's length and, unless
// -skipcrccheck, its content (the checksum comparison).
func canSkip(ctx context.Context, fsys hadoop.FileSystem, j *job, data []byte, target string) (bool, error) {
	fi, err := fsys.Stat(ctx, target)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if fi.IsDir {
		return false, fmt.Errorf("target %s is a directory", target)
	}
	switch {
	case j.get(keyDistcpOverwrite, "") == "true":
		return false, nil
	case j.get(keyDistcpUpdate, "") != "true":
		return true, nil
	case fi.Size != int64(len(data)):
		return false, nil
	case j.get(keyDistcpSkipCRC, "") == "true":
		return true, nil
	}
	old, err := fsys.ReadFile(ctx, target)
	if err != nil {
		return false, err
	}
	return bytes.Equal(old, data), nil
}

// deleteMissing removes every file and directory below the target that
// no source provided (-delete), as CopyCommitter.deleteMissing does.
func deleteMissing(ctx context.Context, fsys hadoop.FileSystem, final string, keep map[string]bool, log *bytes.Buffer) error {
	found, err := walkSource(ctx, fsys, final, true)
	if err != nil {
		return fmt.Errorf("listing the target %s: %w", final, err)
	}
	for _, f := range found {
		if keep[f.source] || f.source == final || strings.Contains(f.source, "/.distcp.tmp.") {
			continue
		}
		if err := fsys.RemoveAll(ctx, f.source); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("deleting %s: %w", f.source, err)
		}
		fmt.Fprintf(log, "FILE_DELETED: %s\n", f.source)
	}
	return nil
}

// throttle holds a read of n bytes to distcp.map.bandwidth.mb (MB/s), as
// DistCp's ThrottledInputStream does; a stop (ctx) ends the wait.
func throttle(ctx context.Context, j *job, n int) error {
	bw, err := strconv.ParseFloat(j.get(keyDistcpBandwidth, "0"), 64)
	if err != nil || bw <= 0 {
		return nil
	}
	secs := min(float64(n)/(bw*1024*1024), 1e6) // bounded: a Duration overflows
	wait := time.Duration(secs * float64(time.Second))
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
