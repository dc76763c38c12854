package coordrun

import (
	"crypto/sha256"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/internal/lru"
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
// never answers for a document it was not given. It is bounded (an
// internal/lru cache); entries are read-only once made
// (coordinator.CheckInputs copies what it resolves).
type docCache struct {
	byKey *lru.Cache[[sha256.Size]byte, *docEntry]
}

type docEntry struct {
	key     [sha256.Size]byte
	runConf *conf.Properties
	doc     *coordinator.ActionDoc // nil: the XML does not parse (the check fails the action)
}

func newDocCache(max int) *docCache {
	return &docCache{byKey: lru.New[[sha256.Size]byte, *docEntry](max)}
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

func (c *docCache) get(k [sha256.Size]byte) (*docEntry, bool) { return c.byKey.Get(k) }

func (c *docCache) put(e *docEntry) { c.byKey.Put(e.key, e) }

// len returns how many documents are kept.
func (c *docCache) len() int { return c.byKey.Len() }
