package coordrun

import (
	"container/list"
	"crypto/sha256"
	"sync"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// docCacheSize bounds the parsed action documents kept between input
// checks (see docCache).
const docCacheSize = 4096

// docCache keeps the most recently used parsed action documents with their
// run configurations, so that a waiting action checked again and again is
// parsed once, not at every check. An entry is found by a digest of what it
// was parsed from (the action XML and the run configuration, or the job's
// configuration when the action has none), so an action whose XML changed
// (a coord:latest resolved, say) misses and is parsed again, and the cache
// never answers for a document it was not given. It is bounded; entries are
// read-only once made (coordinator.CheckInputs copies what it resolves).
type docCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *docEntry, most recent first
	byKey map[[sha256.Size]byte]*list.Element
}

type docEntry struct {
	key     [sha256.Size]byte
	runConf *conf.Properties
	doc     *coordinator.ActionDoc // nil: the XML does not parse (the check fails the action)
}

func newDocCache(max int) *docCache {
	return &docCache{max: max, order: list.New(), byKey: map[[sha256.Size]byte]*list.Element{}}
}

// docKey digests what an action's document is parsed from.
func docKey(a *store.CoordAction, job *store.CoordJob) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(a.ActionXML))
	h.Write([]byte{0})
	h.Write([]byte(a.RunConf))
	if a.RunConf == "" {
		h.Write([]byte{0})
		h.Write([]byte(job.Conf))
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// parsed returns the action's run configuration (jobConf when the action
// has none) and its parsed document, from the cache or parsed now. An
// unreadable run configuration is an error; an unreadable document is a
// nil doc, which coordinator.CheckInputs then parses and fails itself.
func (r *Runner) parsed(a *store.CoordAction, job *store.CoordJob, jobConf *conf.Properties) (*conf.Properties, *coordinator.ActionDoc, error) {
	k := docKey(a, job)
	if e, ok := r.docs.get(k); ok {
		return e.runConf, e.doc, nil
	}
	runConf, err := conf.ParseConfigurationXML(a.RunConf, "coordinator action "+a.ID+" run configuration")
	if err != nil {
		return nil, nil, err
	}
	if runConf.Len() == 0 {
		runConf = jobConf
	}
	doc, err := coordinator.ParseActionXML(a.ActionXML, runConf, r.cfg.Format)
	if err != nil {
		doc = nil
	}
	r.docs.put(&docEntry{key: k, runConf: runConf, doc: doc})
	return runConf, doc, nil
}

func (c *docCache) get(k [sha256.Size]byte) (*docEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*docEntry), true
}

func (c *docCache) put(e *docEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[e.key]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.byKey[e.key] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*docEntry).key)
	}
}

// len returns how many documents are kept.
func (c *docCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
