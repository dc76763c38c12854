package clustertools

import (
	"context"

	"github.com/gozie/gozie/hadoop"
)

// toolJob returns how the stand-in AM runs a job whose mapper is a tool's
// own (DistCp's CopyMapper, Pig's map plan) rather than a user's: nil for
// other jobs.
func toolJob(j *job) func(t *tool, ctx context.Context, fsys hadoop.FileSystem, j *job, jobID string, jc *jobCounters) error {
	switch j.get("mapreduce.job.map.class", "") {
	case distcpMapper:
		return (*tool).copyJob
	case pigMapper:
		return (*tool).pigJob
	}
	return nil
}
