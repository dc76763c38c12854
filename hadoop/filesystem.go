package hadoop

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"time"
)

// FileInfo describes a file or directory.
type FileInfo struct {
	// Name is the last element of the path.
	Name string
	// Size is the length in bytes (0 for directories).
	Size int64
	// ModTime is the modification time (millisecond precision on HDFS).
	ModTime time.Time
	// IsDir reports a directory.
	IsDir bool
	// Mode holds the permission bits (and fs.ModeDir for directories).
	Mode fs.FileMode
	// Owner and Group own the file ("" when unknown).
	Owner, Group string
	// BlockSize is the file's block size in bytes, as Hadoop's
	// FileStatus.getBlockSize reports it: 0 for an HDFS directory, the
	// local default (LocalBlockSize) for local files and directories.
	BlockSize int64
}

// FileSystem is what the engine needs from HDFS or a local filesystem:
// dataset done-flag checks, the fs action, staging and result files.
//
// Missing paths are reported with errors that match fs.ErrNotExist under
// errors.Is; existing ones that are in the way match fs.ErrExist.
type FileSystem interface {
	// Stat describes path.
	Stat(ctx context.Context, path string) (FileInfo, error)
	// ReadDir lists a directory, sorted by name.
	ReadDir(ctx context.Context, path string) ([]FileInfo, error)
	// MkdirAll creates a directory and any missing parents.
	MkdirAll(ctx context.Context, path string, perm fs.FileMode) error
	// WriteFile creates or replaces a file atomically (readers see the old
	// content or the new, never a part), creating missing parents.
	WriteFile(ctx context.Context, path string, data []byte, perm fs.FileMode) error
	// WriteNew writes a file that nothing reads before the caller hands
	// out its path (a launch's spec in its attempt's directory): straight
	// to path, without WriteFile's temporary file and rename, creating
	// missing parents and replacing a file an earlier attempt left there
	// (complete or not). A failed write removes what it wrote.
	WriteNew(ctx context.Context, path string, data []byte, perm fs.FileMode) error
	// Create opens a file for writing with mode 0644, creating missing
	// parents; the file appears at path (replacing any earlier one) when the
	// writer is closed.
	Create(ctx context.Context, path string) (io.WriteCloser, error)
	// Open opens a file for reading.
	Open(ctx context.Context, path string) (io.ReadCloser, error)
	// ReadFile reads a whole file.
	ReadFile(ctx context.Context, path string) ([]byte, error)
	// Rename moves from to to, replacing a file (or an empty directory) at
	// to.
	Rename(ctx context.Context, from, to string) error
	// Remove deletes a file or an empty directory.
	Remove(ctx context.Context, path string) error
	// RemoveAll deletes path and everything below it; a missing path is
	// not an error.
	RemoveAll(ctx context.Context, path string) error
	// Chmod changes permission bits.
	Chmod(ctx context.Context, path string, perm fs.FileMode) error
	// Touchz creates an empty file, or sets the modification time of an
	// existing file to now (Oozie's fs touchz). The parent must exist.
	Touchz(ctx context.Context, path string) error
	// Glob returns the existing paths matching a Hadoop glob pattern
	// (*, ?, [abc], [a-z], [^a], {a,b}, backslash escapes), sorted. No
	// match is an empty result, not an error.
	Glob(ctx context.Context, pattern string) ([]string, error)
}

// Chowner is implemented by filesystems that can change who owns a path
// (HDFS, LocalFS and Resolver): Hadoop's FileSystem.setOwner, for the fs
// action's chgrp.
type Chowner interface {
	// Chown sets the owner, the group, or both; an empty name keeps that
	// part.
	Chown(ctx context.Context, path, owner, group string) error
}

// ErrIsDirectory reports a file operation on a directory.
var ErrIsDirectory = errors.New("is a directory")
