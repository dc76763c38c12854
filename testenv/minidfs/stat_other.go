//go:build !linux

package minidfs

import (
	"hash/fnv"
	"io/fs"
	"time"
)

// inodeOf has no inode to offer on this platform; it derives a stable id
// from the file's name and modification time instead.
func inodeOf(fi fs.FileInfo) uint64 {
	h := fnv.New64a()
	h.Write([]byte(fi.Name()))
	return h.Sum64() ^ uint64(fi.ModTime().UnixNano())
}

// atimeOf falls back to the modification time.
func atimeOf(fi fs.FileInfo) time.Time { return fi.ModTime() }

// diskUsage is unknown on this platform.
func diskUsage(string) (capacity, free uint64) { return 0, 0 }
