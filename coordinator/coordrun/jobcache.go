package coordrun

import (
	"container/list"
	"sync"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// jobCache keeps the most recently used parsed coordinator definitions, so
// that handlers do not parse a job's XML and configuration on every run.
//
// An entry is found by what it was parsed from, the row's definition and
// configuration, compared in full: parsing depends on nothing else (not on
// the job's id), so jobs submitted from one application with one
// configuration (a bundle's coordinators, say, or thousands of copies of a
// job) share one entry, and a row whose definition or configuration
// changed misses and is parsed again. The cache is bounded, so memory stays
// flat with many active coordinators; the entries are read-only once made.
type jobCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *cacheEntry, most recent first
	byDef map[defKey]*list.Element
}

// defKey is what a definition is parsed from.
type defKey struct {
	definition, conf string
}

type cacheEntry struct {
	key  defKey
	id   string // the job that used the entry last
	job  *coordinator.Job
	conf *conf.Properties
}

func newJobCache(max int) *jobCache {
	return &jobCache{max: max, order: list.New(), byDef: map[defKey]*list.Element{}}
}

func keyOf(row *store.CoordJob) defKey { return defKey{definition: row.Definition, conf: row.Conf} }

func (c *jobCache) get(row *store.CoordJob) (*cacheEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byDef[keyOf(row)]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	e.id = row.ID
	c.order.MoveToFront(el)
	return e, true
}

func (c *jobCache) put(row *store.CoordJob, job *coordinator.Job, conf *conf.Properties) {
	e := &cacheEntry{key: keyOf(row), id: row.ID, job: job, conf: conf}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byDef[e.key]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.byDef[e.key] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byDef, last.Value.(*cacheEntry).key)
	}
}

// forget drops the entry a job used last, e.g. once the job has finished;
// an entry that other jobs use too is simply parsed again by the next of
// them.
func (c *jobCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.order.Front(); el != nil; el = el.Next() {
		if e := el.Value.(*cacheEntry); e.id == id {
			c.order.Remove(el)
			delete(c.byDef, e.key)
			return
		}
	}
}
