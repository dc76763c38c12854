package workflow

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/el"
)

// DefaultFSGlobMax bounds the matches of fs:exists' glob, as Oozie's
// oozie.action.fs.glob.max (50000) does; the fs action has the same bound
// (fsaction.DefaultGlobMax).
const DefaultFSGlobMax = 50000

// CodeFSTooMany is the error code of a glob with more matches than allowed
// (Oozie's FS013, shared with the fs action).
const CodeFSTooMany = "FS013"

// PathInfo is what the fs: EL functions learn of one path.
type PathInfo struct {
	IsDir bool
	// Length is the size in bytes; a directory's is 0, as HDFS reports it.
	Length int64
	// BlockSize is the file's block size in bytes (0 for an HDFS
	// directory).
	BlockSize int64
}

// PathFS is what the fs: EL functions ask of the cluster's filesystems.
// Every call acts for user, the job's user, as Oozie's FsELFunctions do
// (HadoopAccessorService.createFileSystem as the workflow's user), so a
// path the user may not read is refused as Hadoop refuses it. Paths are as
// the workflow wrote them; an implementation reads them as Hadoop's Path
// does, a relative path below the user's home directory.
type PathFS interface {
	// Stat describes path; a missing path is an error matching
	// fs.ErrNotExist.
	Stat(ctx context.Context, user, path string) (PathInfo, error)
	// ReadDir describes the entries of the directory path.
	ReadDir(ctx context.Context, user, path string) ([]PathInfo, error)
	// Glob returns the paths matching the Hadoop glob pattern; no match is
	// an empty result, not an error.
	Glob(ctx context.Context, user, pattern string) ([]string, error)
}

// RegisterFSFunctions adds Oozie's fs: functions (FsELFunctions) to r,
// each asking fsys for the job's user of the workflow Context it runs in,
// under ctx. A failure to reach the filesystem (or a refusal) is the
// function's error, never a silent false: the decision or action
// evaluating it fails with EL_ERROR, as in Oozie.
//
//	fs:exists(path)     true when the glob path matches anything; more than
//	                    globMax matches is an FS013 error
//	fs:isDir(path)      true when path exists and is a directory
//	fs:fileSize(path)   the length of path in bytes (0 for a directory),
//	                    -1 when it does not exist
//	fs:blockSize(path)  the block size of path (0 for an HDFS directory),
//	                    -1 when it does not exist
//	fs:dirSize(path)    the total length of the files directly in the
//	                    directory path (not recursive), -1 when path does
//	                    not exist or is a file
//
// fileSize and blockSize follow Oozie's code, which returns the status of
// a directory too, not its documentation ("-1 ... if it is a directory").
func RegisterFSFunctions(ctx context.Context, r *el.Registry, fsys PathFS, globMax int) {
	if globMax <= 0 {
		globMax = DefaultFSGlobMax
	}
	f := fsFuncs{ctx: ctx, fsys: fsys, globMax: globMax}
	r.RegisterArity("fs:exists", 1, f.call(f.exists))
	r.RegisterArity("fs:isDir", 1, f.call(f.isDir))
	r.RegisterArity("fs:fileSize", 1, f.call(f.fileSize))
	r.RegisterArity("fs:blockSize", 1, f.call(f.blockSize))
	r.RegisterArity("fs:dirSize", 1, f.call(f.dirSize))
}

// fsFuncs are the fs: functions of one evaluation context.
type fsFuncs struct {
	ctx     context.Context
	fsys    PathFS
	globMax int
}

// call adapts one fs: function to el: the job's user from the workflow
// Context, the path argument as a string, and the path named in errors.
func (f fsFuncs) call(fn func(user, path string) (any, error)) el.Func {
	return func(env *el.Env, args []any) (any, error) {
		c, err := contextOf(env)
		if err != nil {
			return nil, err
		}
		p := el.ToString(args[0])
		v, err := fn(c.Job.User, p)
		if err != nil {
			return nil, fmt.Errorf("path [%s]: %w", p, err)
		}
		return v, nil
	}
}

func (f fsFuncs) exists(user, p string) (any, error) {
	matches, err := f.fsys.Glob(f.ctx, user, p)
	if err != nil {
		return nil, err
	}
	if len(matches) > f.globMax {
		return nil, fmt.Errorf("%s: too many globbed files/dirs to do FS operation", CodeFSTooMany)
	}
	return len(matches) > 0, nil
}

// stat is Oozie's getFileStatus: the status, or ok false for a missing path.
func (f fsFuncs) stat(user, p string) (info PathInfo, ok bool, err error) {
	info, err = f.fsys.Stat(f.ctx, user, p)
	if errors.Is(err, fs.ErrNotExist) {
		return PathInfo{}, false, nil
	}
	return info, err == nil, err
}

func (f fsFuncs) isDir(user, p string) (any, error) {
	info, _, err := f.stat(user, p)
	return info.IsDir, err
}

func (f fsFuncs) fileSize(user, p string) (any, error) {
	info, ok, err := f.stat(user, p)
	if !ok {
		return int64(-1), err
	}
	return info.Length, nil
}

func (f fsFuncs) blockSize(user, p string) (any, error) {
	info, ok, err := f.stat(user, p)
	if !ok {
		return int64(-1), err
	}
	return info.BlockSize, nil
}

func (f fsFuncs) dirSize(user, p string) (any, error) {
	info, ok, err := f.stat(user, p)
	if !ok || !info.IsDir {
		return int64(-1), err
	}
	entries, err := f.fsys.ReadDir(f.ctx, user, p)
	if err != nil {
		return nil, err
	}
	var size int64
	for _, e := range entries {
		if !e.IsDir {
			size += e.Length
		}
	}
	return size, nil
}

// RegisterHadoopFunctions adds Oozie's hadoop: functions to r:
//
//	hadoop:conf(hostPort, name)  the value of name in the server's Hadoop
//	                             client configuration, "" when unset
//	hadoop:counters(node)        the job counters of the map-reduce action
//	                             node, group → counter → value, e.g.
//	                             hadoop:counters('mr')[RECORDS][MAP_IN]
//	                             (see hadoopCounters)
//
// hconf is that configuration, whose values hadoop:conf expands
// (Options.HadoopConf); nil has no properties.
// gozie has one Hadoop configuration for every cluster, as Oozie has with
// only its "*" entry of oozie.service.HadoopAccessorService.
// hadoop.configurations, so hostPort is not looked at. Unlike Oozie, a
// property the *-site.xml files leave unset is "", not Hadoop's built-in
// default (Oozie falls back to a new Configuration(), whose core-default.xml
// gozie does not have).
func RegisterHadoopFunctions(r *el.Registry, hconf *conf.Hadoop) {
	r.RegisterArity("hadoop:conf", 2, func(_ *el.Env, args []any) (any, error) {
		if hconf == nil {
			return "", nil
		}
		v, _ := hconf.Get(el.ToString(args[1]))
		return v, nil
	})
	r.RegisterArity("hadoop:counters", 1, hadoopCounters)
}
