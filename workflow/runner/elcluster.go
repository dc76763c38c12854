package runner

import (
	"context"
	"time"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
)

// fsELTimeout bounds one filesystem call of an fs: EL function. Decisions
// are taken inside the store transaction that records them, so a NameNode
// that does not answer must not hold it for long: the call fails instead,
// and so does the node that evaluated it (EL_ERROR), as in Oozie when the
// filesystem cannot be reached.
const fsELTimeout = 15 * time.Second

// elFunctions returns the EL functions of one decision taken under ctx that
// reach the cluster: Oozie's fs: functions on the runner's filesystems (the
// paths users name: Config.FS, which applies the supported schemes) as the
// job's user, and hadoop:conf over Options.HadoopConf.
func (r *Runner) elFunctions(ctx context.Context) *el.Registry {
	reg := el.NewRegistry()
	workflow.RegisterFSFunctions(ctx, reg, elFS{fs: r.cfg.FS}, workflow.DefaultFSGlobMax)
	workflow.RegisterHadoopFunctions(reg, r.cfg.Options.HadoopConf)
	return reg
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
