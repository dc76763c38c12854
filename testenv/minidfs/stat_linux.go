//go:build linux

package minidfs

import (
	"io/fs"
	"syscall"
	"time"
)

// inodeOf returns the inode number of the backing file, used as the HDFS
// file id so that it survives renames.
func inodeOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}

// atimeOf returns the access time of the backing file.
func atimeOf(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Atim.Sec, st.Atim.Nsec)
	}
	return fi.ModTime()
}

// diskUsage returns the capacity and free bytes of the filesystem holding
// dir.
func diskUsage(dir string) (capacity, free uint64) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, 0
	}
	return st.Blocks * uint64(st.Bsize), st.Bavail * uint64(st.Bsize)
}
