package clustertools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/clusteradmin"
)

// hadoop is `hadoop fs ...` and `hadoop version`.
func (t *tool) hadoop(ctx context.Context, args []string) int {
	switch {
	case len(args) >= 1 && (args[0] == "fs" || args[0] == "dfs"):
		return t.fsShell(ctx, args[1:])
	case len(args) >= 1 && args[0] == "distcp":
		return t.distcp(ctx, args[1:])
	case len(args) == 1 && args[0] == "version":
		fmt.Fprintln(t.env.Stdout, "Hadoop 3.3.6 (gozie stand-in)")
		return exitOK
	}
	t.errorf("usage: hadoop fs <command> [args] | hadoop distcp [options] <source>... <target> | hadoop version")
	return exitUsage
}

// hdfs is `hdfs dfs ...` and `hdfs haadmin ...`.
func (t *tool) hdfs(ctx context.Context, args []string) int {
	if len(args) >= 1 && args[0] == "dfs" {
		return t.fsShell(ctx, args[1:])
	}
	if len(args) >= 1 && args[0] == "haadmin" {
		return t.haAdmin(ctx, clusteradmin.NameNode, args[1:])
	}
	t.errorf("usage: hdfs dfs <command> [args] | hdfs haadmin <command> [args]")
	return exitUsage
}

// fsShell runs one command of Hadoop's FsShell on the default filesystem.
func (t *tool) fsShell(ctx context.Context, args []string) int {
	if len(args) == 0 {
		t.errorf("usage: fs -ls|-cat|-text|-put|-get|-mkdir|-rm|-rmdir|-test|-touchz|-mv|-cp|-du [options] paths")
		return exitUsage
	}
	c, err := t.cluster()
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	fsys, err := t.filesystem(c)
	if err != nil {
		t.errorf("%v", err)
		return exitFail
	}
	defer fsys.Close()
	cmd := args[0]
	flags, paths := splitFlags(args[1:])
	sh := &fsShell{t: t, c: c, fs: fsys, flags: flags}
	switch cmd {
	case "-ls":
		return sh.each(ctx, cmd, paths, sh.ls)
	case "-cat", "-text":
		return sh.each(ctx, cmd, paths, sh.cat)
	case "-mkdir":
		return sh.each(ctx, cmd, paths, sh.mkdir)
	case "-rm", "-rmr":
		if cmd == "-rmr" {
			flags["r"] = true
		}
		return sh.each(ctx, cmd, paths, sh.rm)
	case "-rmdir":
		return sh.each(ctx, cmd, paths, sh.rmdir)
	case "-touchz":
		return sh.each(ctx, cmd, paths, sh.touchz)
	case "-du":
		return sh.each(ctx, cmd, paths, sh.du)
	case "-test":
		return sh.test(ctx, paths)
	case "-put", "-copyFromLocal", "-get", "-copyToLocal", "-mv", "-cp":
		if len(paths) < 2 {
			t.errorf("%s: needs a source and a destination", cmd)
			return exitUsage
		}
		return sh.transfer(ctx, cmd, paths[:len(paths)-1], paths[len(paths)-1])
	}
	t.errorf("%s: Unknown command", cmd)
	return exitUsage
}

// splitFlags separates single-letter flags (-p, -r, -f, -R, -s, -skipTrash)
// from paths.
func splitFlags(args []string) (map[string]bool, []string) {
	flags := map[string]bool{}
	var paths []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags[strings.TrimPrefix(a, "-")] = true
			continue
		}
		paths = append(paths, a)
	}
	return flags, paths
}

type fsShell struct {
	t     *tool
	c     *cluster
	fs    hadoop.FileSystem
	flags map[string]bool
}

// each runs fn on every path (globs expanded); the exit code is 1 when any
// failed, as FsShell's.
func (sh *fsShell) each(ctx context.Context, cmd string, paths []string, fn func(context.Context, string) error) int {
	if len(paths) == 0 {
		sh.t.errorf("%s: no path given", cmd)
		return exitUsage
	}
	code := exitOK
	for _, p := range paths {
		uri := sh.t.qualify(sh.c, p)
		targets := []string{uri}
		if cmd != "-mkdir" && cmd != "-touchz" && strings.ContainsAny(p, "*?[{") {
			m, err := sh.fs.Glob(ctx, uri)
			if err != nil {
				sh.t.errorf("%s: %v", cmd, err)
				code = exitFail
				continue
			}
			targets = m
		}
		if len(targets) == 0 {
			if cmd == "-rm" && sh.flags["f"] {
				continue
			}
			sh.t.errorf("%s: `%s': No such file or directory", cmd, p)
			code = exitFail
			continue
		}
		for _, u := range targets {
			if err := fn(ctx, u); err != nil {
				sh.t.errorf("%s: %v", cmd, err)
				code = exitFail
			}
		}
	}
	return code
}

func (sh *fsShell) ls(ctx context.Context, uri string) error {
	fi, err := sh.fs.Stat(ctx, uri)
	if err != nil {
		return notFound(uri, err)
	}
	if !fi.IsDir {
		sh.printEntry(uri, fi)
		return nil
	}
	entries, err := sh.fs.ReadDir(ctx, uri)
	if err != nil {
		return err
	}
	fmt.Fprintf(sh.t.env.Stdout, "Found %d items\n", len(entries))
	for _, e := range entries {
		child := strings.TrimSuffix(uri, "/") + "/" + e.Name
		sh.printEntry(child, e)
		if e.IsDir && sh.flags["R"] {
			if err := sh.ls(ctx, child); err != nil {
				return err
			}
		}
	}
	return nil
}

func (sh *fsShell) printEntry(uri string, fi hadoop.FileInfo) {
	kind := "-"
	if fi.IsDir {
		kind = "d"
	}
	fmt.Fprintf(sh.t.env.Stdout, "%s%s   - %-8s %-10s %10d %s %s\n", kind, fi.Mode.Perm().String()[1:], fi.Owner, fi.Group,
		fi.Size, fi.ModTime.UTC().Format("2006-01-02 15:04"), uri)
}

func (sh *fsShell) cat(ctx context.Context, uri string) error {
	r, err := sh.fs.Open(ctx, uri)
	if err != nil {
		return notFound(uri, err)
	}
	defer r.Close()
	_, err = io.Copy(sh.t.env.Stdout, r)
	return err
}

func (sh *fsShell) mkdir(ctx context.Context, uri string) error {
	if !sh.flags["p"] {
		if _, err := sh.fs.Stat(ctx, uri); err == nil {
			return fmt.Errorf("`%s': File exists", uri)
		}
		if parent := parentURI(uri); parent != "" {
			if _, err := sh.fs.Stat(ctx, parent); err != nil {
				return notFound(parent, err)
			}
		}
	}
	return sh.fs.MkdirAll(ctx, uri, 0o755)
}

func (sh *fsShell) rm(ctx context.Context, uri string) error {
	fi, err := sh.fs.Stat(ctx, uri)
	if err != nil {
		if sh.flags["f"] && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return notFound(uri, err)
	}
	if fi.IsDir && !sh.flags["r"] && !sh.flags["R"] {
		return fmt.Errorf("`%s': Is a directory", uri)
	}
	if err := sh.fs.RemoveAll(ctx, uri); err != nil {
		return err
	}
	fmt.Fprintf(sh.t.env.Stdout, "Deleted %s\n", uri)
	return nil
}

func (sh *fsShell) rmdir(ctx context.Context, uri string) error {
	return notFound(uri, sh.fs.Remove(ctx, uri))
}

func (sh *fsShell) touchz(ctx context.Context, uri string) error {
	if fi, err := sh.fs.Stat(ctx, uri); err == nil && fi.Size > 0 {
		return fmt.Errorf("`%s': Not a zero-length file", uri)
	}
	return notFound(uri, sh.fs.Touchz(ctx, uri))
}

func (sh *fsShell) du(ctx context.Context, uri string) error {
	size, err := sh.size(ctx, uri)
	if err != nil {
		return err
	}
	fmt.Fprintf(sh.t.env.Stdout, "%d  %s\n", size, uri)
	return nil
}

func (sh *fsShell) size(ctx context.Context, uri string) (int64, error) {
	fi, err := sh.fs.Stat(ctx, uri)
	if err != nil {
		return 0, notFound(uri, err)
	}
	if !fi.IsDir {
		return fi.Size, nil
	}
	entries, err := sh.fs.ReadDir(ctx, uri)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, e := range entries {
		n, err := sh.size(ctx, strings.TrimSuffix(uri, "/")+"/"+e.Name)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// test is -test -e|-d|-f|-s|-z PATH: exit 0 when the condition holds.
func (sh *fsShell) test(ctx context.Context, paths []string) int {
	if len(paths) != 1 || len(sh.flags) != 1 {
		sh.t.errorf("-test: usage: -test -[defsz] <path>")
		return exitUsage
	}
	fi, err := sh.fs.Stat(ctx, sh.t.qualify(sh.c, paths[0]))
	exists := err == nil
	var ok bool
	switch {
	case sh.flags["e"]:
		ok = exists
	case sh.flags["d"]:
		ok = exists && fi.IsDir
	case sh.flags["f"]:
		ok = exists && !fi.IsDir
	case sh.flags["s"]:
		ok = exists && fi.Size > 0
	case sh.flags["z"]:
		ok = exists && fi.Size == 0
	default:
		sh.t.errorf("-test: unknown flag")
		return exitUsage
	}
	if ok {
		return exitOK
	}
	return exitFail
}

// transfer is -put/-get (local ↔ cluster) and -mv/-cp (on the cluster).
// A destination directory receives the sources under their own names.
func (sh *fsShell) transfer(ctx context.Context, cmd string, srcs []string, dst string) int {
	code := exitOK
	for _, src := range srcs {
		if err := sh.transferOne(ctx, cmd, src, dst, len(srcs) > 1); err != nil {
			sh.t.errorf("%s: %v", cmd, err)
			code = exitFail
		}
	}
	return code
}

func (sh *fsShell) transferOne(ctx context.Context, cmd, src, dst string, many bool) error {
	switch cmd {
	case "-put", "-copyFromLocal":
		local := sh.t.localPath(src)
		b, err := os.ReadFile(local)
		if err != nil {
			return err
		}
		target := sh.t.qualify(sh.c, dst)
		if fi, err := sh.fs.Stat(ctx, target); err == nil && fi.IsDir {
			target = strings.TrimSuffix(target, "/") + "/" + path.Base(local)
		} else if many {
			return fmt.Errorf("`%s': is not a directory", target)
		}
		if _, err := sh.fs.Stat(ctx, target); err == nil && !sh.flags["f"] {
			return fmt.Errorf("`%s': File exists", target)
		}
		return sh.fs.WriteFile(ctx, target, b, 0o644)
	case "-get", "-copyToLocal":
		b, err := sh.fs.ReadFile(ctx, sh.t.qualify(sh.c, src))
		if err != nil {
			return notFound(src, err)
		}
		target := sh.t.localPath(dst)
		if fi, err := os.Stat(target); err == nil && fi.IsDir() {
			target = target + "/" + path.Base(src)
		}
		return os.WriteFile(target, b, 0o644)
	case "-mv":
		from, to := sh.t.qualify(sh.c, src), sh.t.qualify(sh.c, dst)
		if fi, err := sh.fs.Stat(ctx, to); err == nil && fi.IsDir {
			to = strings.TrimSuffix(to, "/") + "/" + path.Base(from)
		}
		return notFound(src, sh.fs.Rename(ctx, from, to))
	default: // -cp
		from, to := sh.t.qualify(sh.c, src), sh.t.qualify(sh.c, dst)
		b, err := sh.fs.ReadFile(ctx, from)
		if err != nil {
			return notFound(src, err)
		}
		if fi, err := sh.fs.Stat(ctx, to); err == nil && fi.IsDir {
			to = strings.TrimSuffix(to, "/") + "/" + path.Base(from)
		}
		return sh.fs.WriteFile(ctx, to, b, 0o644)
	}
}

// parentURI is the parent directory of a full URI, "" for the root.
func parentURI(uri string) string {
	scheme, rest, _ := strings.Cut(uri, "://")
	authority, p, _ := strings.Cut(rest, "/")
	dir := path.Dir("/" + p)
	if dir == "/" {
		return ""
	}
	return scheme + "://" + authority + dir
}

// notFound words a missing path as FsShell does.
func notFound(p string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("`%s': No such file or directory", p)
	}
	return err
}
