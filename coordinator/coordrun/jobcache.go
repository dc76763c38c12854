package coordrun

import (
	"container/list"
	"hash/fnv"
	"sync"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// jobCache keeps the most recently used parsed coordinator definitions, so
// that handlers do not parse a job's XML and configuration on every run. An
// entry is valid while the row's definition and configuration are those it
// was parsed from (their fingerprint matches); the cache is bounded, so
// memory stays flat with many active coordinators.
type jobCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *cacheEntry, most recent first
	byID  map[string]*list.Element
}

type cacheEntry struct {
	id   string
	fp   uint64
	job  *coordinator.Job
	conf coordinator.Props
}

func newJobCache(max int) *jobCache {
	return &jobCache{max: max, order: list.New(), byID: map[string]*list.Element{}}
}

// fingerprint identifies a row's definition and configuration.
func fingerprint(row *store.CoordJob) uint64 {
	h := fnv.New64a()
	h.Write([]byte(row.Definition))
	h.Write([]byte{0})
	h.Write([]byte(row.Conf))
	return h.Sum64()
}

func (c *jobCache) get(row *store.CoordJob) (*cacheEntry, bool) {
	fp := fingerprint(row)
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byID[row.ID]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if e.fp != fp {
		c.order.Remove(el)
		delete(c.byID, row.ID)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e, true
}

func (c *jobCache) put(row *store.CoordJob, job *coordinator.Job, conf coordinator.Props) {
	e := &cacheEntry{id: row.ID, fp: fingerprint(row), job: job, conf: conf}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[row.ID]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.byID[row.ID] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*cacheEntry).id)
	}
}

// forget drops a job, e.g. once it has finished.
func (c *jobCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[id]; ok {
		c.order.Remove(el)
		delete(c.byID, id)
	}
}
