package coordrun

import (
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/internal/lru"
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
// changed misses and is parsed again. The cache is bounded (an
// internal/lru cache), so memory stays flat with many active coordinators;
// the entries are read-only once made.
type jobCache struct {
	byDef *lru.Cache[defKey, *cacheEntry]
}

// defKey is what a definition is parsed from.
type defKey struct {
	definition, conf string
}

type cacheEntry struct {
	id   string // the job that used the entry last
	key  defKey // what it was parsed from (see rowCache.intern)
	job  *coordinator.Job
	conf *conf.Properties
}

func newJobCache(max int) *jobCache {
	return &jobCache{byDef: lru.New[defKey, *cacheEntry](max)}
}

func keyOf(row *store.CoordJob) defKey { return defKey{definition: row.Definition, conf: row.Conf} }

func (c *jobCache) get(row *store.CoordJob) (*cacheEntry, bool) {
	e, ok := c.byDef.Get(keyOf(row))
	if !ok {
		return nil, false
	}
	// The entry is shared read-only; which job used it last is kept beside
	// it by replacing the entry, not by writing to it.
	if e.id != row.ID {
		e = &cacheEntry{id: row.ID, key: e.key, job: e.job, conf: e.conf}
		c.byDef.Put(e.key, e)
	}
	return e, true
}

func (c *jobCache) put(row *store.CoordJob, job *coordinator.Job, conf *conf.Properties) {
	k := keyOf(row)
	c.byDef.Put(k, &cacheEntry{id: row.ID, key: k, job: job, conf: conf})
}

// source returns the definition and configuration strings an entry was
// parsed from when one was parsed from ones equal to row's, so that rows
// kept elsewhere can share them (see rowCache).
func (c *jobCache) source(row *store.CoordJob) (definition, conf string, ok bool) {
	e, ok := c.byDef.Peek(keyOf(row))
	if !ok {
		return "", "", false
	}
	return e.key.definition, e.key.conf, true
}

// forget drops the entry a job used last, e.g. once the job has finished;
// an entry that other jobs use too is simply parsed again by the next of
// them.
func (c *jobCache) forget(id string) {
	c.byDef.RemoveFirst(func(e *cacheEntry) bool { return e.id == id })
}
