package wfrun

import (
	"context"
	"regexp"
	"sync"
	"time"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// fsELTimeout bounds one filesystem call of an fs: EL function: a NameNode
// that does not answer fails the call, and so the node that evaluated it
// (EL_ERROR), as in Oozie when the filesystem cannot be reached.
const fsELTimeout = 15 * time.Second

// fsCall finds a call of an fs: EL function in a workflow definition.
var fsCall = regexp.MustCompile(`(^|[^\w:-])fs:(exists|isDir|fileSize|blockSize|dirSize)\s*\(`)

// usesFSFunctions reports whether a workflow definition calls fs:
// functions.
func usesFSFunctions(definition string) bool { return fsCall.MatchString(definition) }

// elFunctions returns the EL functions of one decision taken under ctx that
// reach the cluster: Oozie's fs: functions on the runner's filesystems (the
// paths users name: Config.FS, which applies the supported schemes) as the
// job's user, answered first from the memo of ctx (see prefetch), and
// hadoop:conf over Options.HadoopConf.
func (r *Runner) elFunctions(ctx context.Context) *el.Registry {
	reg := el.NewRegistry()
	var fsys workflow.PathFS = elFS{fs: r.cfg.FS}
	if m, ok := ctx.Value(fsMemoKey{}).(*fsMemo); ok {
		fsys = memoFS{live: fsys, memo: m}
	}
	workflow.RegisterFSFunctions(ctx, reg, fsys, workflow.DefaultFSGlobMax)
	workflow.RegisterHadoopFunctions(reg, r.cfg.Options.HadoopConf)
	return reg
}

// prefetch keeps a NameNode's latency out of the store's transactions.
// Decisions are taken inside the transaction that records them, and an fs:
// function asks the NameNode; on SQLite, one slow call would hold every
// other write of the server. So, for a job whose workflow calls fs:
// functions, the decision for ev is first taken on the job's rows read in
// a short transaction of their own, outside any transaction, recording
// every filesystem answer in a memo that the returned context carries; the
// decision inside the transaction then reads its answers from the memo
// (a question the rows changed in between asks the filesystem itself).
// Jobs that call no fs: function, and jobs whose parsed form is not kept
// (not parsed since the server started, or dropped from the bounded
// cache; for one decision), skip this.
func (r *Runner) prefetch(ctx context.Context, jobID string, ev workflow.Event) context.Context {
	if !r.defs.usesFS(jobID) {
		return ctx
	}
	var job store.WorkflowJob
	var acts []store.WorkflowAction
	err := r.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		job, acts, err = r.rows(ctx, x, jobID)
		return err
	})
	if err != nil {
		return ctx // the decision in the transaction meets the error
	}
	return r.prefetchRows(ctx, job, acts, ev)
}

// prefetchRows is prefetch on rows already at hand.
func (r *Runner) prefetchRows(ctx context.Context, job store.WorkflowJob, acts []store.WorkflowAction, ev workflow.Event) context.Context {
	ctx = context.WithValue(ctx, fsMemoKey{}, &fsMemo{m: map[string]memoAnswer{}})
	if in, err := r.input(ctx, job, acts); err == nil {
		_, _ = workflow.Decide(in, ev) // only its filesystem answers are kept
	}
	return ctx
}

// fsMemoKey is the context key of a decision's *fsMemo.
type fsMemoKey struct{}

// fsMemo holds the filesystem answers of one decision, by question.
type fsMemo struct {
	mu sync.Mutex
	m  map[string]memoAnswer
}

// memoAnswer is one filesystem answer.
type memoAnswer struct {
	info    workflow.PathInfo
	infos   []workflow.PathInfo
	matches []string
	err     error
}

// memoFS answers from a memo, asking live (and recording) what it lacks.
type memoFS struct {
	live workflow.PathFS
	memo *fsMemo
}

// answer returns the memo's answer to key, or asks live and records it.
func (f memoFS) answer(key string, ask func() memoAnswer) memoAnswer {
	f.memo.mu.Lock()
	a, ok := f.memo.m[key]
	f.memo.mu.Unlock()
	if ok {
		return a
	}
	a = ask()
	f.memo.mu.Lock()
	f.memo.m[key] = a
	f.memo.mu.Unlock()
	return a
}

// Stat implements workflow.PathFS.
func (f memoFS) Stat(ctx context.Context, user, p string) (workflow.PathInfo, error) {
	a := f.answer("stat\x00"+user+"\x00"+p, func() (a memoAnswer) {
		a.info, a.err = f.live.Stat(ctx, user, p)
		return a
	})
	return a.info, a.err
}

// ReadDir implements workflow.PathFS.
func (f memoFS) ReadDir(ctx context.Context, user, p string) ([]workflow.PathInfo, error) {
	a := f.answer("list\x00"+user+"\x00"+p, func() (a memoAnswer) {
		a.infos, a.err = f.live.ReadDir(ctx, user, p)
		return a
	})
	return a.infos, a.err
}

// Glob implements workflow.PathFS.
func (f memoFS) Glob(ctx context.Context, user, pattern string) ([]string, error) {
	a := f.answer("glob\x00"+user+"\x00"+pattern, func() (a memoAnswer) {
		a.matches, a.err = f.live.Glob(ctx, user, pattern)
		return a
	})
	return a.matches, a.err
}

// elFS is workflow.PathFS on a hadoop.FileSystem: paths are read as
// Hadoop's Path reads them, relative ones below the user's home directory
// (/user/<user>, the working directory of Hadoop's FileSystem), and every
// call acts for the user (hadoop.AsUser).
type elFS struct{ fs hadoop.FileSystem }

var _ workflow.PathFS = elFS{}

// uri resolves a path of an fs: function for user.
func (f elFS) uri(user, p string) (string, error) {
	hp, err := hadoop.ParsePath(p)
	if err != nil {
		return "", err
	}
	if !hp.IsAbsolute() {
		home := hp
		home.Path = "/user/" + user
		hp = home.Resolve(hadoop.Path{Path: hp.Path})
	}
	return hp.String(), nil
}

// call runs op on the resolved path as user, within fsELTimeout.
func (f elFS) call(ctx context.Context, user, p string, op func(ctx context.Context, uri string) error) error {
	uri, err := f.uri(user, p)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(hadoop.AsUser(ctx, user), fsELTimeout)
	defer cancel()
	return op(ctx, uri)
}

func pathInfo(fi hadoop.FileInfo) workflow.PathInfo {
	return workflow.PathInfo{IsDir: fi.IsDir, Length: fi.Size, BlockSize: fi.BlockSize}
}

// Stat implements workflow.PathFS.
func (f elFS) Stat(ctx context.Context, user, p string) (info workflow.PathInfo, err error) {
	err = f.call(ctx, user, p, func(ctx context.Context, uri string) error {
		fi, err := f.fs.Stat(ctx, uri)
		info = pathInfo(fi)
		return err
	})
	return info, err
}

// ReadDir implements workflow.PathFS.
func (f elFS) ReadDir(ctx context.Context, user, p string) (infos []workflow.PathInfo, err error) {
	err = f.call(ctx, user, p, func(ctx context.Context, uri string) error {
		fis, err := f.fs.ReadDir(ctx, uri)
		for _, fi := range fis {
			infos = append(infos, pathInfo(fi))
		}
		return err
	})
	return infos, err
}

// Glob implements workflow.PathFS.
func (f elFS) Glob(ctx context.Context, user, pattern string) (matches []string, err error) {
	err = f.call(ctx, user, pattern, func(ctx context.Context, uri string) error {
		matches, err = f.fs.Glob(ctx, uri)
		return err
	})
	return matches, err
}
