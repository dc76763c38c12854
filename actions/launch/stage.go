package launch

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// stagedBinaryName is the file name of a staged binary in its hash directory.
const stagedBinaryName = "gozie"

// localBinary is the gozie binary on the server's disk, hashed once.
type localBinary struct {
	path string

	once sync.Once
	sum  string
	size int64
	err  error
}

func (b *localBinary) digest() (string, int64, error) {
	b.once.Do(func() {
		f, err := os.Open(b.path)
		if err != nil {
			b.err = fmt.Errorf("opening the gozie binary: %w", err)
			return
		}
		defer f.Close()
		h := sha256.New()
		n, err := io.Copy(h, f)
		if err != nil {
			b.err = fmt.Errorf("hashing the gozie binary: %w", err)
			return
		}
		b.sum, b.size = hex.EncodeToString(h.Sum(nil)), n
	})
	return b.sum, b.size, b.err
}

// localResource stats uri and describes it as YARN needs it: the exact size
// and the modification time in milliseconds, which the NodeManager compares
// with the file's before it localizes it. It is the application's own copy
// (APPLICATION): a run's files may change between runs.
func (e *Executor) localResource(ctx context.Context, uri string, typ yarn.LocalResourceType) (yarn.LocalResource, error) {
	fi, err := e.cfg.FS.Stat(ctx, uri)
	if err != nil {
		return yarn.LocalResource{}, fsError(err, "staging %s", uri)
	}
	return resourceOf(uri, typ, fi), nil
}

// resourceOf is the local resource of the file at uri, as fi describes it.
func resourceOf(uri string, typ yarn.LocalResourceType, fi hadoop.FileInfo) yarn.LocalResource {
	return yarn.LocalResource{
		Resource:   uri,
		Type:       typ,
		Visibility: yarn.VisibilityApplication,
		Size:       fi.Size,
		Timestamp:  fi.ModTime.UnixMilli(),
	}
}

// stageBinary puts the gozie binary at <launcher dir>/<sha256>/gozie once per
// content: a file of the same size already there is reused. A new copy is
// written under a unique name and renamed into place only if no other server
// got there first, so a binary another launch already uses (and whose
// timestamp its submission carries) is never replaced.
func (e *Executor) stageBinary(ctx context.Context, run *actions.Attempt, root string) (yarn.LocalResource, error) {
	sum, size, err := e.binary.digest()
	if err != nil {
		return yarn.LocalResource{}, actions.Errorf(actions.NonTransient, codeIO, "%w", err)
	}
	dir := qualify(strings.ReplaceAll(e.cfg.LauncherDir, "{user}", run.User), root, root)
	target := strings.TrimSuffix(dir, "/") + "/" + sum + "/" + stagedBinaryName
	if fi, err := e.cfg.FS.Stat(ctx, target); err == nil && fi.Size == size {
		return binaryResource(resourceOf(target, yarn.ResourceFile, fi), nil)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return yarn.LocalResource{}, fsError(err, "staging the launcher")
	}
	tmp := target + ".tmp-" + rand.Text()
	if err := e.upload(ctx, tmp); err != nil {
		_ = e.cfg.FS.Remove(ctx, tmp)
		return yarn.LocalResource{}, fsError(err, "staging the launcher at %s", target)
	}
	if fi, err := e.cfg.FS.Stat(ctx, target); err == nil && fi.Size == size {
		_ = e.cfg.FS.Remove(ctx, tmp)
	} else if err := e.cfg.FS.Rename(ctx, tmp, target); err != nil {
		_ = e.cfg.FS.Remove(ctx, tmp)
		return yarn.LocalResource{}, fsError(err, "staging the launcher at %s", target)
	}
	// Readable by every user: the NodeManager localizes it as the run's user.
	if err := e.cfg.FS.Chmod(ctx, target, 0o755); err != nil {
		return yarn.LocalResource{}, fsError(err, "staging the launcher at %s", target)
	}
	e.cfg.Logger.Info("staged the launcher binary", "path", target, "size", size)
	return binaryResource(e.localResource(ctx, target, yarn.ResourceFile))
}

// binaryResource marks the staged binary PRIVATE: its path names its content
// and it never changes, so each NodeManager keeps one copy per user in its
// cache and links it into every later container of that user, instead of
// downloading the whole binary for each action as it does an APPLICATION
// resource.
func binaryResource(lr yarn.LocalResource, err error) (yarn.LocalResource, error) {
	lr.Visibility = yarn.VisibilityPrivate
	return lr, err
}

func (e *Executor) upload(ctx context.Context, dst string) error {
	src, err := os.Open(e.binary.path)
	if err != nil {
		return err
	}
	defer src.Close()
	w, err := e.cfg.FS.Create(ctx, dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, src); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// resources lists the action's local resources: every file of the
// application's lib/ directory, then the <file> and <archive> entries
// (resolved against the application directory, see appFile; "#name" names
// the link). A later entry with the same link name replaces an earlier one.
func (e *Executor) resources(ctx context.Context, p *plan) (yarn.EntryMap[yarn.LocalResource], []string, error) {
	type entry struct {
		uri string
		typ yarn.LocalResourceType
	}
	links := map[string]entry{}
	var order []string
	add := func(link, uri string, typ yarn.LocalResourceType) {
		if _, seen := links[link]; !seen {
			order = append(order, link)
		}
		links[link] = entry{uri, typ}
	}
	lib := p.appDir + "/lib"
	infos, err := e.cfg.FS.ReadDir(ctx, lib)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fsError(err, "listing %s", lib)
	}
	for _, fi := range infos {
		if !fi.IsDir && !strings.HasPrefix(fi.Name, ".") && !strings.HasPrefix(fi.Name, "_") {
			add(fi.Name, lib+"/"+fi.Name, yarn.ResourceFile)
		}
	}
	for _, set := range []struct {
		entries []string
		typ     yarn.LocalResourceType
	}{{p.files, yarn.ResourceFile}, {p.hadoop.Files, yarn.ResourceFile}, {p.hadoop.Archives, yarn.ResourceArchive}} {
		for _, raw := range set.entries {
			src, link, _ := strings.Cut(strings.TrimSpace(raw), "#")
			if src == "" {
				continue
			}
			if link == "" {
				link = path.Base(src)
			}
			if err := checkLink(link); err != nil {
				return nil, nil, actions.Errorf(actions.ActionError, codeNotFound, "%s [%s]: %w", set.typ, raw, err)
			}
			uri, err := p.appFile(src)
			if err != nil {
				return nil, nil, err
			}
			add(link, uri, set.typ)
		}
	}
	out := yarn.EntryMap[yarn.LocalResource]{}
	for _, link := range order {
		en := links[link]
		lr, err := e.localResource(ctx, en.uri, en.typ)
		if err != nil {
			return nil, nil, err
		}
		out[link] = lr
	}
	return out, order, nil
}

// checkLink refuses link names that would leave the working directory or
// take the launcher's own names.
func checkLink(link string) error {
	switch {
	case link == "." || link == ".." || strings.HasPrefix(link, "/") || strings.Contains(link, "../"):
		return fmt.Errorf("link name %q leaves the working directory", link)
	case link == launcher.Binary || link == launcher.SpecFile:
		return fmt.Errorf("link name %q is reserved by gozie", link)
	}
	return nil
}
