package wfrun

import (
	"container/list"
	"sync"

	"github.com/gozie/gozie/store"
)

// defCache keeps the parsed definitions of the most recently used workflow
// jobs, so that handlers do not parse a job's XML and configuration on
// every trigger. It is bounded (least recently used entries go first), so
// that jobs which end on another server, whose entries no end here drops,
// cannot make it grow without limit; a job whose entry went is parsed
// again at its next use.
//
// An entry belongs to one job id and is valid for one run of one
// definition: a rerun (a new run) or a changed definition misses and
// replaces it.
type defCache struct {
	mu    sync.Mutex
	max   int
	order *list.List               // of *defEntry, most recent first
	byJob map[string]*list.Element // job id → element
}

// defEntry is one job's parsed definition.
type defEntry struct {
	jobID  string
	run    int
	defLen int
	job    *parsedJob
}

func newDefCache(max int) *defCache {
	if max < 1 {
		max = 1
	}
	return &defCache{max: max, order: list.New(), byJob: map[string]*list.Element{}}
}

// get returns the parsed form of job's current run, if kept.
func (c *defCache) get(job *store.WorkflowJob) (*parsedJob, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byJob[job.ID]
	if !ok {
		return nil, false
	}
	e := el.Value.(*defEntry)
	if e.run != job.Run || e.defLen != len(job.Definition) {
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.job, true
}

// put keeps p as the parsed form of job's current run, dropping the least
// recently used entries beyond the bound.
func (c *defCache) put(job *store.WorkflowJob, p *parsedJob) {
	e := &defEntry{jobID: job.ID, run: job.Run, defLen: len(job.Definition), job: p}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byJob[job.ID]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.byJob[job.ID] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byJob, last.Value.(*defEntry).jobID)
	}
}

// usesFS reports whether the kept parsed form of job jobID calls fs:
// functions; a job not kept reports false (see prefetch).
func (c *defCache) usesFS(jobID string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byJob[jobID]
	return ok && el.Value.(*defEntry).job.fs
}

// forget drops job jobID's entry, once the job has ended.
func (c *defCache) forget(jobID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byJob[jobID]; ok {
		c.order.Remove(el)
		delete(c.byJob, jobID)
	}
}

// len returns the number of entries kept.
func (c *defCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
