package coordrun

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/gozie/gozie/internal/lru"
	"github.com/gozie/gozie/store"
)

// rowCacheSize bounds the job rows kept between passes (see rowCache):
// enough for every job of a server with ten thousand active coordinators,
// which a pass reads in turn (an LRU smaller than the set read in a cycle
// would never hit).
const rowCacheSize = 16384

// rowCache keeps coordinator job rows as last read from the store, so that
// the passes that read the same jobs over and over (an hourly job's
// materialization, its actions' input checks) read only the jobs' versions
// when nothing changed, not their definitions and configurations. A row is
// used only while the stored version is the one it was read at: every write
// of a job row advances its version, so a hit is the row as stored, never
// a stale one. Only committed rows enter it: rows read from the store, and
// the rows a materialization wrote once its transaction has committed
// (handleMaterializeBatch), as the store holds them (CoordJob.AsStored).
// It is bounded (an internal/lru cache). A kept row's definitions and
// configuration share their strings with the parsed definitions' cache
// (jobCache) where it has equal ones, and its definition as submitted with
// its definition when the two are equal: jobs submitted from one
// application, a bundle's say, keep one copy of their documents.
type rowCache struct {
	rows *lru.Cache[string, store.CoordJob]
	defs *jobCache
}

func newRowCache(max int, defs *jobCache) *rowCache {
	return &rowCache{rows: lru.New[string, store.CoordJob](max), defs: defs}
}

// jobs returns the jobs with the given ids that exist, as they are now, in
// id order: each from the cache when its version is unchanged, the others
// read in full (and kept).
func (c *rowCache) jobs(ctx context.Context, x store.Tx, ids []string) ([]store.CoordJob, error) {
	versions, err := x.GetCoordJobVersions(ctx, ids)
	if err != nil {
		return nil, err
	}
	return current(ctx, x, versions, func(id string) (store.CoordJob, bool) { return c.rows.Get(id) }, c.put)
}

func (c *rowCache) put(rows []store.CoordJob) {
	for _, j := range rows {
		c.rows.Put(j.ID, c.intern(j))
	}
}

// intern returns j with its documents' strings shared where equal ones are
// kept already (equal content: the row is the same).
func (c *rowCache) intern(j store.CoordJob) store.CoordJob {
	if def, conf, ok := c.defs.source(&j); ok {
		j.Definition, j.Conf = def, conf
	}
	if j.OrigDefinition == j.Definition {
		j.OrigDefinition = j.Definition
	}
	return j
}

// current returns the jobs of versions as they are at those versions, in
// id order: a copy from known where it has the version, the others read
// again in full (and handed to fresh, when set).
func current(ctx context.Context, x store.Tx, versions map[string]store.Version,
	known func(id string) (store.CoordJob, bool), fresh func([]store.CoordJob)) ([]store.CoordJob, error) {
	out := make([]store.CoordJob, 0, len(versions))
	var stale []string
	for _, id := range slices.Sorted(maps.Keys(versions)) {
		if j, ok := known(id); ok && j.Version == versions[id] {
			out = append(out, j)
		} else {
			stale = append(stale, id)
		}
	}
	if len(stale) == 0 {
		return out, nil
	}
	read, err := x.GetCoordJobs(ctx, stale)
	if err != nil {
		return nil, err
	}
	if fresh != nil {
		fresh(read)
	}
	out = append(out, read...)
	slices.SortFunc(out, func(a, b store.CoordJob) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}
