package minidfs

import (
	"strconv"
	"strings"
	"sync"
)

// blockInfo maps an HDFS block onto a byte range of a backing file.
type blockInfo struct {
	id       uint64
	rel      string // backing file, relative to the root
	offset   int64  // where the block starts in the file
	numBytes int64
	genStamp uint64
}

// blockTable hands out block ids and remembers where each block lives.
// Blocks for reading are keyed by (file, offset) so that repeated reads of
// the same file reuse ids instead of growing the table.
type blockTable struct {
	mu    sync.Mutex
	next  uint64
	byID  map[uint64]*blockInfo
	byLoc map[string]uint64
}

// firstBlockID and firstGenStamp only make ids look like HDFS's.
const (
	firstBlockID  = 1 << 30
	firstGenStamp = 1001
)

func newBlockTable() *blockTable {
	return &blockTable{next: firstBlockID, byID: map[uint64]*blockInfo{}, byLoc: map[string]uint64{}}
}

func locKey(rel string, offset int64) string { return rel + "\x00" + strconv.FormatInt(offset, 10) }

// allocate records a new block for writing.
func (t *blockTable) allocate(rel string, offset, numBytes int64) blockInfo {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := &blockInfo{id: t.next, rel: rel, offset: offset, numBytes: numBytes, genStamp: firstGenStamp}
	t.next++
	t.byID[b.id] = b
	t.byLoc[locKey(rel, offset)] = b.id
	return *b
}

// locate returns the block at offset of rel, creating it if needed, with
// its length set to numBytes.
func (t *blockTable) locate(rel string, offset, numBytes int64) blockInfo {
	t.mu.Lock()
	if id, ok := t.byLoc[locKey(rel, offset)]; ok {
		b := t.byID[id]
		if b.rel == rel {
			b.numBytes = numBytes
			found := *b // copied under the lock
			t.mu.Unlock()
			return found
		}
	}
	t.mu.Unlock()
	return t.allocate(rel, offset, numBytes)
}

// get returns a copy of a block.
func (t *blockTable) get(id uint64) (blockInfo, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, ok := t.byID[id]
	if !ok {
		return blockInfo{}, false
	}
	return *b, true
}

// dropUnder forgets the blocks of rel and of everything below it, whose
// files are deleted or replaced: as in HDFS, a writer still holding one
// of them can neither write it nor complete its file.
func (t *blockTable) dropUnder(rel string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, b := range t.byID {
		if b.rel == rel || strings.HasPrefix(b.rel, rel+"/") || rel == "." {
			delete(t.byID, id)
			delete(t.byLoc, locKey(b.rel, b.offset))
		}
	}
}

// update changes a block's length and/or generation stamp and returns it.
func (t *blockTable) update(id uint64, numBytes int64, bumpGenStamp bool) (blockInfo, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, ok := t.byID[id]
	if !ok {
		return blockInfo{}, false
	}
	if numBytes >= 0 {
		b.numBytes = numBytes
	}
	if bumpGenStamp {
		b.genStamp++
	}
	return *b, true
}
