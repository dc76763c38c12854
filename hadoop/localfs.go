package hadoop

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"time"
)

// LocalFS is a FileSystem over the local filesystem; paths are absolute
// local paths. It backs file:// URIs.
type LocalFS struct {
	// Now returns the time Touchz stamps; default time.Now.
	Now func() time.Time
}

var _ FileSystem = (*LocalFS)(nil)

// LocalBlockSize is the block size Hadoop's local filesystem reports for
// every file and directory: fs.local.block.size's default, 32 MiB
// (RawLocalFileSystem.getFileStatus, FileSystem.getDefaultBlockSize).
const LocalBlockSize = 32 << 20

func (l *LocalFS) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func localInfo(fi fs.FileInfo) FileInfo {
	owner, group := localOwner(fi)
	info := FileInfo{Name: fi.Name(), ModTime: fi.ModTime(), IsDir: fi.IsDir(), Mode: fi.Mode() & (fs.ModePerm | fs.ModeDir | fs.ModeSticky), Owner: owner, Group: group,
		BlockSize: LocalBlockSize}
	if !fi.IsDir() {
		info.Size = fi.Size()
	}
	return info
}

// Stat implements FileSystem.
func (l *LocalFS) Stat(ctx context.Context, path string) (FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return FileInfo{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return FileInfo{}, err
	}
	return localInfo(fi), nil
}

// ReadDir implements FileSystem.
func (l *LocalFS) ReadDir(ctx context.Context, path string) ([]FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	out := make([]FileInfo, 0, len(entries))
	for _, e := range entries {
		fi, err := os.Stat(filepath.Join(path, e.Name()))
		if err != nil {
			continue // vanished or a dangling link
		}
		out = append(out, localInfo(fi))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// MkdirAll implements FileSystem.
func (l *LocalFS) MkdirAll(ctx context.Context, path string, perm fs.FileMode) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return os.MkdirAll(path, perm)
}

// WriteFile implements FileSystem.
func (l *LocalFS) WriteFile(ctx context.Context, path string, data []byte, perm fs.FileMode) error {
	w, err := l.create(ctx, path, perm)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.abort()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return w.Close()
}

// WriteNew implements FileSystem: on a local disk the temporary file and
// rename cost nothing worth saving, so it is WriteFile.
func (l *LocalFS) WriteNew(ctx context.Context, path string, data []byte, perm fs.FileMode) error {
	return l.WriteFile(ctx, path, data, perm)
}

// Create implements FileSystem.
func (l *LocalFS) Create(ctx context.Context, path string) (io.WriteCloser, error) {
	return l.create(ctx, path, 0o644)
}

func (l *LocalFS) create(ctx context.Context, path string, perm fs.FileMode) (*localWriter, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, &fs.PathError{Op: "create", Path: path, Err: ErrIsDirectory}
	}
	// Like Hadoop's FileSystem.create, make the missing parents.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(tempName(path), os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &localWriter{File: f, final: path}, nil
}

// tempName is a hidden sibling of path used while it is being written.
func tempName(path string) string {
	b := make([]byte, 6)
	rand.Read(b)
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+"._COPYING_."+hex.EncodeToString(b))
}

// localWriter writes to a temporary file and renames it into place on
// Close.
type localWriter struct {
	*os.File
	final string
	done  bool
}

func (w *localWriter) abort() {
	w.done = true
	w.File.Close()
	os.Remove(w.File.Name())
}

// Close flushes the file and moves it to its final name.
func (w *localWriter) Close() error {
	if w.done {
		return nil
	}
	w.done = true
	if err := w.File.Close(); err != nil {
		os.Remove(w.File.Name())
		return err
	}
	if err := os.Rename(w.File.Name(), w.final); err != nil {
		os.Remove(w.File.Name())
		return err
	}
	return nil
}

// Open implements FileSystem.
func (l *LocalFS) Open(ctx context.Context, path string) (io.ReadCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrIsDirectory}
	}
	return f, nil
}

// ReadFile implements FileSystem.
func (l *LocalFS) ReadFile(ctx context.Context, path string) ([]byte, error) {
	r, err := l.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// Rename implements FileSystem.
func (l *LocalFS) Rename(ctx context.Context, from, to string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return os.Rename(from, to)
}

// Remove implements FileSystem.
func (l *LocalFS) Remove(ctx context.Context, path string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return os.Remove(path)
}

// RemoveAll implements FileSystem.
func (l *LocalFS) RemoveAll(ctx context.Context, path string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if filepath.Clean(path) == "/" {
		return &fs.PathError{Op: "removeall", Path: path, Err: fs.ErrPermission}
	}
	return os.RemoveAll(path)
}

// Chmod implements FileSystem.
func (l *LocalFS) Chmod(ctx context.Context, path string, perm fs.FileMode) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return os.Chmod(path, perm)
}

// Chown implements Chowner with the local user and group names; an empty
// name keeps that part.
func (l *LocalFS) Chown(ctx context.Context, path, owner, group string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	uid, gid := -1, -1
	if owner != "" {
		u, err := user.Lookup(owner)
		if err != nil {
			return &fs.PathError{Op: "chown", Path: path, Err: err}
		}
		if uid, err = strconv.Atoi(u.Uid); err != nil {
			return &fs.PathError{Op: "chown", Path: path, Err: fmt.Errorf("user id %q", u.Uid)}
		}
	}
	if group != "" {
		g, err := user.LookupGroup(group)
		if err != nil {
			return &fs.PathError{Op: "chown", Path: path, Err: err}
		}
		if gid, err = strconv.Atoi(g.Gid); err != nil {
			return &fs.PathError{Op: "chown", Path: path, Err: fmt.Errorf("group id %q", g.Gid)}
		}
	}
	return os.Lchown(path, uid, gid)
}

// Touchz implements FileSystem.
func (l *LocalFS) Touchz(ctx context.Context, path string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		return f.Close()
	case err != nil:
		return err
	case fi.IsDir():
		return &fs.PathError{Op: "touchz", Path: path, Err: ErrIsDirectory}
	}
	now := l.now()
	return os.Chtimes(path, time.Time{}, now)
}

// Glob implements FileSystem.
func (l *LocalFS) Glob(ctx context.Context, pattern string) ([]string, error) {
	return glob(ctx, pattern, l.ReadDir, l.Stat)
}
