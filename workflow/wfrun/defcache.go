package wfrun

import (
	"github.com/gozie/gozie/internal/lru"
	"github.com/gozie/gozie/store"
)

// defCache keeps the parsed definitions of the most recently used workflow
// jobs, so that handlers do not parse a job's XML and configuration on
// every trigger. It is bounded (an internal/lru cache), so that jobs which
// end on another server, whose entries no end here drops, cannot make it
// grow without limit; a job whose entry went is parsed again at its next
// use.
//
// An entry belongs to one job id and is valid for one run of one
// definition: a rerun (a new run) or a changed definition misses and
// replaces it.
type defCache struct {
	max   int
	byJob *lru.Cache[string, *defEntry] // job id → its parsed definition
}

// defEntry is one job's parsed definition.
type defEntry struct {
	run    int
	defLen int
	job    *parsedJob
}

func newDefCache(max int) *defCache {
	if max < 1 {
		max = 1
	}
	return &defCache{max: max, byJob: lru.New[string, *defEntry](max)}
}

// get returns the parsed form of job's current run, if kept.
func (c *defCache) get(job *store.WorkflowJob) (*parsedJob, bool) {
	e, ok := c.byJob.Get(job.ID)
	if !ok || e.run != job.Run || e.defLen != len(job.Definition) {
		return nil, false
	}
	return e.job, true
}

// put keeps p as the parsed form of job's current run, dropping the least
// recently used entries beyond the bound.
func (c *defCache) put(job *store.WorkflowJob, p *parsedJob) {
	c.byJob.Put(job.ID, &defEntry{run: job.Run, defLen: len(job.Definition), job: p})
}

// usesFS reports whether the kept parsed form of job jobID calls fs:
// functions; a job not kept reports false (see prefetch).
func (c *defCache) usesFS(jobID string) bool {
	e, ok := c.byJob.Peek(jobID)
	return ok && e.job.fs
}

// forget drops job jobID's entry, once the job has ended.
func (c *defCache) forget(jobID string) { c.byJob.Remove(jobID) }

// len returns the number of entries kept.
func (c *defCache) len() int { return c.byJob.Len() }
