package clustertools

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/gozie/gozie/hadoop"
)

// pigJob is the map task of a Pig job: the script from pig.script parsed
// and compiled again, and each STORE's relation computed and committed
// into its output directory (part-m-00000 and _SUCCESS). Relative paths
// are below the job user's home, as the client resolved them.
func (t *tool) pigJob(ctx context.Context, fsys hadoop.FileSystem, j *job, jobID string, jc *jobCounters) error {
	src, err := base64.StdEncoding.DecodeString(j.get(keyPigScript, ""))
	if err != nil {
		return fmt.Errorf("reading %s: %w", keyPigScript, err)
	}
	stmts, err := parsePig(string(src))
	if err != nil {
		return err
	}
	plan, err := compilePig(stmts)
	if err != nil {
		return err
	}
	c, err := t.cluster()
	if err != nil {
		return err
	}
	home := "/user/" + j.get("mapreduce.job.user.name", t.user())
	qualify := func(p string) string {
		if strings.Contains(p, "://") {
			return p
		}
		if !strings.HasPrefix(p, "/") {
			p = home + "/" + p
		}
		return strings.TrimSuffix(c.defaultFS, "/") + p
	}
	jc.add(GroupJobCounter, CounterLaunchedMaps, phaseJob, 1)
	run := &pigRun{ctx: ctx, fsys: fsys, qualify: qualify, dir: t.env.Dir, environ: t.env.Environ(), memo: map[*pigRel][]pigTuple{}}
	task := strings.Replace(jobID, "job_", "task_", 1) + "_m_000000"
	var stored int64
	for _, s := range plan.stores {
		tuples, err := run.eval(s)
		if err != nil {
			return &taskError{task: task, err: err}
		}
		out := formatTuples(tuples, s.stmt.delim)
		uri := qualify(s.stmt.path)
		if err := commit(ctx, fsys, uri, "part-m-00000", out); err != nil {
			return err
		}
		stored += int64(len(tuples))
		jc.add(GroupFileSystemCounter, fsCounter(uri, "BYTES_WRITTEN"), phaseMap, int64(len(out)))
	}
	jc.add(GroupTaskCounter, CounterMapInputRecords, phaseMap, run.read)
	jc.add(GroupTaskCounter, CounterMapOutputRecords, phaseMap, stored)
	return nil
}
