package hadoop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"sync"
	"time"

	"github.com/colinmarc/hdfs/v2"
)

// HDFS is a FileSystem over one HDFS namespace, through a colinmarc/hdfs
// client. Paths are absolute HDFS paths (no scheme or authority).
//
// colinmarc's calls take no context: HDFS checks ctx before each call and
// applies its deadline to reads and writes, but a NameNode call already
// under way is not interrupted.
type HDFS struct {
	client *hdfs.Client
	now    func() time.Time

	// With rec set (clients a Resolver made, whose connections are
	// nnConns), refusals carry the NameNode's message: opMu keeps one
	// operation at a time on the client so that the refusal rec holds
	// after a failed operation is that operation's.
	opMu sync.Mutex
	rec  *refusals

	// With failover set (clients of an HA nameservice, uri naming it), a
	// call that no NameNode served is tried again as the policy says.
	failover *failoverPolicy
	uri      string

	// colinmarc's ServerDefaults caches its answer without a lock, so the
	// first concurrent calls race; the answer is fetched once here.
	defaultsMu sync.Mutex
	defaults   *hdfs.ServerDefaults
}

var _ FileSystem = (*HDFS)(nil)

// NewHDFS wraps a connected client. now stamps Touchz; nil means time.Now.
func NewHDFS(client *hdfs.Client, now func() time.Time) *HDFS {
	if now == nil {
		now = time.Now
	}
	return &HDFS{client: client, now: now}
}

// Client returns the underlying colinmarc client.
func (h *HDFS) Client() *hdfs.Client { return h.client }

// do runs one operation of the colinmarc client. On an HA nameservice, an
// operation that no NameNode served (all standby during a failover, or
// unreachable) is run again after a wait, as Hadoop's client fails over
// (failoverPolicy), until it is served, the attempts run out
// (*NoActiveNameNodeError) or ctx ends. A refusal (fs.ErrPermission) gets
// back the NameNode's exception and message, which colinmarc drops: "mkdir
// /user/alice/x: org.apache.hadoop.security.AccessControlException:
// Permission denied: user=bob, access=WRITE, …". A connection the
// NameNode refused (SIMPLE on a Kerberized cluster: *SimpleRefusedError; a
// proxy user it does not allow) fails every operation with that refusal
// until a connection works again.
func (h *HDFS) do(ctx context.Context, op func() error) error {
	err := h.once(op)
	if h.failover == nil || !noNameNodeServed(err) {
		return err
	}
	attempts := 1
	for ; attempts < h.failover.maxAttempts && noNameNodeServed(err); attempts++ {
		if h.failover.wait(ctx, attempts) != nil {
			break
		}
		err = h.once(op)
	}
	if noNameNodeServed(err) {
		return &NoActiveNameNodeError{Nameservice: h.uri, Attempts: attempts, Err: err}
	}
	return err
}

// once runs op one time; see do.
func (h *HDFS) once(op func() error) error {
	if h.rec == nil {
		return op()
	}
	h.opMu.Lock()
	defer h.opMu.Unlock()
	h.rec.take()
	err := op()
	if err == nil {
		return nil
	}
	if refused := h.rec.connRefusal(); refused != nil {
		// The NameNode refused the connection: its answer is the cause,
		// whatever colinmarc made of it.
		if e := becauseOf(err, refused); e != nil {
			return e
		}
		return refused
	}
	if !errors.Is(err, fs.ErrPermission) {
		return err
	}
	re := h.rec.take()
	if re == nil {
		return err
	}
	if e := becauseOf(err, re); e != nil {
		return e
	}
	return fmt.Errorf("%w: %w", err, re)
}

// becauseOf returns colinmarc's *fs.PathError err with cause in place of
// its own account of the failure, or nil when err is no *fs.PathError.
func becauseOf(err, cause error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return nil
	}
	out := *pe
	out.Err = cause
	return &out
}

func hdfsInfo(fi fs.FileInfo) FileInfo {
	info := FileInfo{Name: fi.Name(), ModTime: fi.ModTime(), IsDir: fi.IsDir(), Mode: fi.Mode()}
	if !fi.IsDir() {
		info.Size = fi.Size()
	}
	if hfi, ok := fi.(*hdfs.FileInfo); ok {
		info.Owner, info.Group = hfi.Owner(), hfi.OwnerGroup()
		if st, ok := hfi.Sys().(interface{ GetBlocksize() uint64 }); ok {
			info.BlockSize = int64(st.GetBlocksize())
		}
	}
	return info
}

// Stat implements FileSystem.
func (h *HDFS) Stat(ctx context.Context, p string) (FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return FileInfo{}, err
	}
	var fi fs.FileInfo
	err := h.do(ctx, func() (err error) {
		fi, err = h.client.Stat(p)
		return err
	})
	if err != nil {
		return FileInfo{}, err
	}
	return hdfsInfo(fi), nil
}

// ReadDir implements FileSystem.
func (h *HDFS) ReadDir(ctx context.Context, p string) ([]FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var fis []fs.FileInfo
	err := h.do(ctx, func() (err error) {
		fis, err = h.client.ReadDir(p)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]FileInfo, len(fis))
	for i, fi := range fis {
		out[i] = hdfsInfo(fi)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// MkdirAll implements FileSystem.
func (h *HDFS) MkdirAll(ctx context.Context, p string, perm fs.FileMode) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.do(ctx, func() error { return h.client.MkdirAll(p, perm) })
}

// WriteFile implements FileSystem.
func (h *HDFS) WriteFile(ctx context.Context, p string, data []byte, perm fs.FileMode) error {
	return h.writeAll(ctx, p, data, perm, false)
}

// WriteNew implements FileSystem. Against WriteFile it saves three of
// nine NameNode calls: the check that path is no directory, and the
// rename with the check colinmarc makes before it.
func (h *HDFS) WriteNew(ctx context.Context, p string, data []byte, perm fs.FileMode) error {
	return h.writeAll(ctx, p, data, perm, true)
}

// writeAll writes data to p, in place or through a temporary file.
func (h *HDFS) writeAll(ctx context.Context, p string, data []byte, perm fs.FileMode, inPlace bool) error {
	w, err := h.create(ctx, p, perm, inPlace)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.abort()
		return err
	}
	return w.Close()
}

// Create implements FileSystem.
func (h *HDFS) Create(ctx context.Context, p string) (io.WriteCloser, error) {
	return h.create(ctx, p, 0o644, false)
}

// create opens a writer of p: through a hidden temporary file renamed into
// place on Close, or (inPlace) at p itself, where a file the NameNode finds
// there (an earlier attempt's, even one still under construction by a
// writer that died, whose lease a delete ends) is removed first.
func (h *HDFS) create(ctx context.Context, p string, perm fs.FileMode, inPlace bool) (*hdfsWriter, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	defaults, err := h.serverDefaults(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating %s: server defaults: %w", p, err)
	}
	tmp := path.Join(path.Dir(p), path.Base(tempName(p)))
	if inPlace {
		tmp = p
	}
	var fw *hdfs.FileWriter
	err = h.do(ctx, func() error {
		isDir := &fs.PathError{Op: "create", Path: p, Err: ErrIsDirectory}
		if !inPlace {
			if fi, err := h.client.Stat(p); err == nil && fi.IsDir() {
				return isDir
			}
		}
		// Like Hadoop's FileSystem.create, make the missing parents.
		if err := h.client.MkdirAll(path.Dir(p), 0o755); err != nil {
			return err
		}
		var err error
		fw, err = h.client.CreateFile(tmp, defaults.Replication, defaults.BlockSize, perm)
		if !inPlace || !errors.Is(err, fs.ErrExist) {
			return err
		}
		if fi, err := h.client.Stat(p); err == nil && fi.IsDir() {
			return isDir
		}
		if err := h.client.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		fw, err = h.client.CreateFile(p, defaults.Replication, defaults.BlockSize, perm)
		return err
	})
	if err != nil {
		return nil, err
	}
	if d, ok := ctx.Deadline(); ok {
		fw.SetDeadline(d)
	}
	return &hdfsWriter{h: h, ctx: ctx, fw: fw, tmp: tmp, final: p}, nil
}

// serverDefaults returns the NameNode's defaults, fetched once.
func (h *HDFS) serverDefaults(ctx context.Context) (hdfs.ServerDefaults, error) {
	h.defaultsMu.Lock()
	defer h.defaultsMu.Unlock()
	if h.defaults == nil {
		var d hdfs.ServerDefaults
		err := h.do(ctx, func() (err error) {
			d, err = h.client.ServerDefaults()
			return err
		})
		if err != nil {
			return hdfs.ServerDefaults{}, err
		}
		h.defaults = &d
	}
	return *h.defaults, nil
}

// hdfsWriter writes to a hidden temporary file and renames it into place
// on Close, or writes in place (tmp is final). The data goes to the
// DataNode and the file's blocks are allocated and completed by whichever
// NameNode of an HA nameservice is active: colinmarc fails over on
// StandbyException within a call, and the lease, held by the client,
// survives a failover. A write or completion that fails anyway (no
// NameNode served it, a DataNode error) fails the whole file: colinmarc
// cannot resume a file after a failed addBlock or complete, so Close
// removes the file it wrote and returns the first error; through a
// temporary file no part of the data ever appears at the final path.
type hdfsWriter struct {
	h          *HDFS
	ctx        context.Context
	fw         *hdfs.FileWriter
	tmp, final string
	done       bool
	err        error // the first failed write
}

func (w *hdfsWriter) Write(b []byte) (int, error) {
	if w.err != nil {
		return 0, w.failed("writing", w.err)
	}
	n, err := w.fw.Write(b)
	if err != nil {
		w.err = err
		return n, w.failed("writing", err)
	}
	return n, nil
}

// failed describes a failed write or completion of the file; one that no
// NameNode of an HA nameservice served says so.
func (w *hdfsWriter) failed(op string, err error) error {
	if w.h.failover != nil && noNameNodeServed(err) {
		err = &NoActiveNameNodeError{Nameservice: w.h.uri, Attempts: 1, Err: err}
	}
	return fmt.Errorf("%s %s: %w (nothing was written to %s)", op, w.final, err, w.final)
}

func (w *hdfsWriter) abort() {
	w.done = true
	w.fw.Close()
	w.h.client.Remove(w.tmp)
}

// Close completes the file and renames it to its final name.
func (w *hdfsWriter) Close() error {
	if w.done {
		return nil
	}
	w.done = true
	if w.err != nil {
		w.fw.Close() // releases the DataNode connection; the file is dropped
		w.h.client.Remove(w.tmp)
		return w.failed("writing", w.err)
	}
	if err := w.fw.Close(); err != nil {
		w.h.client.Remove(w.tmp)
		return w.failed("completing", err)
	}
	if w.tmp == w.final {
		return nil
	}
	if err := w.h.do(w.ctx, func() error { return w.h.client.Rename(w.tmp, w.final) }); err != nil {
		w.h.client.Remove(w.tmp)
		return err
	}
	return nil
}

// Open implements FileSystem.
func (h *HDFS) Open(ctx context.Context, p string) (io.ReadCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var r *hdfs.FileReader
	err := h.do(ctx, func() (err error) {
		r, err = h.client.Open(p)
		return err
	})
	if err != nil {
		return nil, err
	}
	if r.Stat().IsDir() {
		r.Close()
		return nil, &fs.PathError{Op: "open", Path: p, Err: ErrIsDirectory}
	}
	if d, ok := ctx.Deadline(); ok {
		r.SetDeadline(d)
	}
	return &hdfsReader{FileReader: r, path: p}, nil
}

// hdfsReader is a colinmarc reader whose refusals read as the NameNode
// gave them: colinmarc asks for the blocks at the first read and returns
// the NameNode's exception raw.
type hdfsReader struct {
	*hdfs.FileReader
	path string
}

func (r *hdfsReader) Read(b []byte) (int, error) {
	n, err := r.FileReader.Read(b)
	var e hdfs.Error
	if errors.As(err, &e) {
		if re := (&RemoteException{Class: e.Exception(), Message: firstLine(e.Message())}); re.refusal() {
			return n, &fs.PathError{Op: "open", Path: r.path, Err: re}
		}
	}
	return n, err
}

// ReadFile implements FileSystem.
func (h *HDFS) ReadFile(ctx context.Context, p string) ([]byte, error) {
	r, err := h.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	return b, nil
}

// Rename implements FileSystem.
func (h *HDFS) Rename(ctx context.Context, from, to string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.do(ctx, func() error { return h.client.Rename(from, to) })
}

// Remove implements FileSystem.
func (h *HDFS) Remove(ctx context.Context, p string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.do(ctx, func() error { return h.client.Remove(p) })
}

// RemoveAll implements FileSystem.
func (h *HDFS) RemoveAll(ctx context.Context, p string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if path.Clean(p) == "/" {
		return &fs.PathError{Op: "removeall", Path: p, Err: fs.ErrPermission}
	}
	return h.do(ctx, func() error { return h.client.RemoveAll(p) })
}

// Chmod implements FileSystem.
func (h *HDFS) Chmod(ctx context.Context, p string, perm fs.FileMode) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.do(ctx, func() error { return h.client.Chmod(p, perm) })
}

// Chown implements Owner: it sets the owner, the group, or both (an empty
// name keeps that part), as Hadoop's FileSystem.setOwner does.
func (h *HDFS) Chown(ctx context.Context, p, owner, group string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.do(ctx, func() error { return h.client.Chown(p, owner, group) })
}

// Touchz implements FileSystem. colinmarc sends times in whole seconds, so
// the stamped modification time is truncated to the second.
func (h *HDFS) Touchz(ctx context.Context, p string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.do(ctx, func() error {
		fi, err := h.client.Stat(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return h.client.CreateEmptyFile(p)
		case err != nil:
			return err
		case fi.IsDir():
			return &fs.PathError{Op: "touchz", Path: p, Err: ErrIsDirectory}
		}
		atime := fi.ModTime()
		if hfi, ok := fi.(*hdfs.FileInfo); ok {
			atime = hfi.AccessTime()
		}
		return h.client.Chtimes(p, atime, h.now())
	})
}

// Glob implements FileSystem.
func (h *HDFS) Glob(ctx context.Context, pattern string) ([]string, error) {
	return glob(ctx, pattern, h.ReadDir, h.Stat)
}
