package fsaction

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/user"
	"path"
	"strconv"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
)

// runner executes the operations of one fs action run.
type runner struct {
	e        *Executor
	user     string
	recovery bool // the action ran before (a retry after a crash): moves tolerate missing sources
}

func (r *runner) fs() hadoop.FileSystem { return r.e.cfg.FS }

func (r *runner) run(ctx context.Context, o op) error {
	switch o.kind {
	case "mkdir":
		return r.mkdir(ctx, o)
	case "delete":
		return r.delete(ctx, o)
	case "move":
		return r.move(ctx, o)
	case "chmod":
		return r.each(ctx, o, "chmod", func(p string) error { return r.fs().Chmod(ctx, p, o.perm) })
	case "chgrp":
		return r.each(ctx, o, "chgrp", func(p string) error { return r.chgrp(ctx, p, o.group) })
	case "touchz":
		return r.touchz(ctx, o)
	case "setrep":
		return r.setrep(ctx, o)
	}
	return nil
}

// mkdir creates the directory and its parents; an existing path (even a
// file, as in Oozie) is left alone.
func (r *runner) mkdir(ctx context.Context, o op) error {
	p := o.path.String()
	_, err := r.fs().Stat(ctx, p)
	if err == nil {
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return opError(err, "mkdir, path [%s]", p)
	}
	if err := r.fs().MkdirAll(ctx, p, 0o755); err != nil {
		return opFailed(err, codeMkdir, "mkdir, path [%s] could not create directory", p)
	}
	return nil
}

// glob expands a path of the action; more matches than the limit is FS013.
func (r *runner) glob(ctx context.Context, o op) ([]string, error) {
	matches, err := r.fs().Glob(ctx, o.path.String())
	if err != nil {
		return nil, opError(err, "%s, path [%s]", o.kind, o.raw)
	}
	if len(matches) > r.e.cfg.GlobMax {
		return nil, actions.Errorf(actions.ActionError, codeTooMany, "too many globbed files/dirs to do FS operation")
	}
	return matches, nil
}

// delete removes every match with its contents (nothing matching is fine),
// or moves it to the user's trash when skip-trash is false.
func (r *runner) delete(ctx context.Context, o op) error {
	matches, err := r.glob(ctx, o)
	if err != nil {
		return err
	}
	for _, m := range matches {
		if !o.skipTrash {
			if err := r.trash(ctx, m); err != nil {
				return err
			}
			continue
		}
		if err := r.fs().RemoveAll(ctx, m); err != nil {
			return opFailed(err, codeDelete, "delete, path [%s] could not delete path", m)
		}
	}
	return nil
}

// trash moves a path below the user's trash (.Trash/Current in the home
// directory), keeping its absolute path there and adding the time to a name
// already taken, as Hadoop's trash policy does.
func (r *runner) trash(ctx context.Context, m string) error {
	u := parseURI(m)
	home := path.Join("/user", r.user)
	if u.scheme == "file" {
		h, err := os.UserHomeDir()
		if err != nil {
			return opFailed(err, codeDelete, "Could not move path [%s] to trash on delete", m)
		}
		home = h
	}
	dst := uri{scheme: u.scheme, authority: u.authority, path: path.Join(home, ".Trash", "Current", u.path)}
	if _, err := r.fs().Stat(ctx, dst.String()); err == nil {
		dst.path += strconv.FormatInt(r.e.cfg.Clock.Now().UnixMilli(), 10)
	}
	parent := uri{scheme: dst.scheme, authority: dst.authority, path: path.Dir(dst.path)}
	if err := r.fs().MkdirAll(ctx, parent.String(), 0o700); err != nil {
		return opFailed(err, codeDelete, "Could not move path [%s] to trash on delete", m)
	}
	if err := r.fs().Rename(ctx, m, dst.String()); err != nil {
		return opFailed(err, codeDelete, "Could not move path [%s] to trash on delete", m)
	}
	return nil
}

// move renames every match of the source to the target with Hadoop's rename
// rules: into the target when it is a directory, never over an existing
// file, and only below an existing parent. When the action runs again after
// a crash (recovery), sources that are gone and renames that fail are taken
// as done by the earlier run.
func (r *runner) move(ctx context.Context, o op) error {
	matches, err := r.glob(ctx, o)
	if err != nil {
		return err
	}
	target := o.target.String()
	if len(matches) == 0 {
		if r.recovery {
			return nil
		}
		return actions.Errorf(actions.ActionError, codeNoSource, "move, source path [%s] does not exist", o.path)
	}
	if len(matches) > 1 {
		fi, err := r.fs().Stat(ctx, target)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return opError(err, "move, target [%s]", target)
		}
		if err != nil || !fi.IsDir {
			if r.recovery {
				return nil
			}
			return actions.Errorf(actions.ActionError, codeManySources, "move, could not rename multiple sources to the same target name")
		}
	}
	for _, m := range matches {
		ok, err := r.rename(ctx, m, o.target)
		if err != nil {
			return err
		}
		if !ok && !r.recovery {
			return actions.Errorf(actions.ActionError, codeMove, "move, could not move [%s] to [%s]", m, target)
		}
	}
	return nil
}

// rename is Hadoop's FileSystem.rename: false (not an error) when the
// target is an existing file, when a directory target already holds the
// source's name, or when the target's parent is missing.
func (r *runner) rename(ctx context.Context, src string, dst uri) (bool, error) {
	fi, err := r.fs().Stat(ctx, dst.String())
	switch {
	case err == nil && fi.IsDir:
		dst.path = path.Join(dst.path, path.Base(parseURI(src).path))
		if _, err := r.fs().Stat(ctx, dst.String()); err == nil {
			return false, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return false, opError(err, "move, target [%s]", dst)
		}
	case err == nil:
		return false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return false, opError(err, "move, target [%s]", dst)
	default:
		parent := uri{scheme: dst.scheme, authority: dst.authority, path: path.Dir(dst.path)}
		pfi, err := r.fs().Stat(ctx, parent.String())
		if err != nil || !pfi.IsDir {
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return false, opError(err, "move, target [%s]", dst)
			}
			return false, nil
		}
	}
	if src == dst.String() {
		return true, nil
	}
	if err := r.fs().Rename(ctx, src, dst.String()); err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return false, opError(err, "move [%s] to [%s]", src, dst)
		}
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, opError(err, "move [%s] to [%s]", src, dst)
	}
	return true, nil
}

// each applies fn (chmod, chgrp) to every match: a directory's own entry and
// its children with dir-files (the default), their descendants too with
// recursive, only the directory itself without dir-files. No match is FS009.
func (r *runner) each(ctx context.Context, o op, name string, fn func(string) error) error {
	matches, err := r.glob(ctx, o)
	if err != nil {
		return err
	}
	if len(matches) == 0 {
		return actions.Errorf(actions.ActionError, codeNoPath, "%s, path(s) that matches [%s] does not exist", name, o.path)
	}
	for _, m := range matches {
		if err := r.walk(ctx, m, o.dirFiles, o.recursive, true, fn); err != nil {
			return opError(err, "%s, path [%s]", name, m)
		}
	}
	return nil
}

// walk follows Oozie's order: the children of a level are descended into as
// they are listed, and the level's own paths are changed after, so a mask
// that takes away the right to list comes last.
func (r *runner) walk(ctx context.Context, p string, dirFiles, recursive, isRoot bool, fn func(string) error) error {
	fi, err := r.fs().Stat(ctx, p)
	if err != nil {
		return err
	}
	var paths []string
	if dirFiles && fi.IsDir {
		if isRoot {
			paths = append(paths, p)
		}
		children, err := r.fs().ReadDir(ctx, p)
		if err != nil {
			return err
		}
		for _, c := range children {
			cp := p + "/" + c.Name
			if p == "/" || (len(p) > 0 && p[len(p)-1] == '/') {
				cp = p + c.Name
			}
			paths = append(paths, cp)
			if recursive && c.IsDir {
				if err := r.walk(ctx, cp, dirFiles, recursive, false, fn); err != nil {
					return err
				}
			}
		}
	} else {
		paths = append(paths, p)
	}
	for _, q := range paths {
		if err := fn(q); err != nil {
			return err
		}
	}
	return nil
}

// chgrp changes the group of one path, leaving the owner, as the job's
// user (Hadoop's setOwner: the owner or a superuser may, and only to a
// group the user is in).
func (r *runner) chgrp(ctx context.Context, p, group string) error {
	c, ok := r.fs().(hadoop.Chowner)
	if !ok {
		return actions.Errorf(actions.ActionError, codeUnsupported, "chgrp is not supported on this filesystem")
	}
	err := c.Chown(ctx, p, "", group)
	var unknown user.UnknownGroupError
	if errors.As(err, &unknown) {
		return actions.Errorf(actions.ActionError, codeException, "chgrp, path [%s]: %w", p, err)
	}
	return err
}

// touchz creates an empty file, or touches an existing empty one; a
// directory or a non-empty file is an error (with Oozie's message and its
// generic code).
func (r *runner) touchz(ctx context.Context, o op) error {
	p := o.path.String()
	fi, err := r.fs().Stat(ctx, p)
	switch {
	case err == nil && fi.IsDir:
		return actions.Errorf(actions.ActionError, codeException, "%s is a directory", p)
	case err == nil && fi.Size != 0:
		return actions.Errorf(actions.ActionError, codeException, "%s must be a zero-length file", p)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return opError(err, "touchz, path [%s]", p)
	case err != nil:
		// Like Hadoop's create, make the missing parents.
		parent := uri{scheme: o.path.scheme, authority: o.path.authority, path: path.Dir(o.path.path)}
		if err := r.fs().MkdirAll(ctx, parent.String(), 0o755); err != nil {
			return opError(err, "touchz, path [%s]", p)
		}
	}
	if err := r.fs().Touchz(ctx, p); err != nil {
		return opError(err, "touchz, path [%s]", p)
	}
	return nil
}

// setrep sets a file's replication; directories and missing paths are left
// alone, as in Oozie. Local files have no replication (Hadoop's local
// filesystem accepts and ignores it); HDFS replication cannot be set yet.
func (r *runner) setrep(ctx context.Context, o op) error {
	p := o.path.String()
	fi, err := r.fs().Stat(ctx, p)
	if errors.Is(err, fs.ErrNotExist) || err == nil && fi.IsDir {
		return nil
	}
	if err != nil {
		return opError(err, "setrep, path [%s]", p)
	}
	if o.path.scheme == "file" {
		return nil
	}
	return actions.Errorf(actions.ActionError, codeUnsupported,
		"setrep, path [%s]: setting the replication of HDFS files is not supported by gozie", p)
}
