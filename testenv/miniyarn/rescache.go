package miniyarn

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/gozie/gozie/yarn"
)

// resourceCache is the NodeManager's cache of localized PUBLIC and PRIVATE
// resources: one public tracker for every user and one private tracker per
// user (ResourceLocalizationService, LocalResourcesTrackerImpl). A resource
// is found again by what LocalResourceRequest compares (its URI, timestamp,
// type and pattern), so a container whose resource is already localized
// links the cached copy without asking the filesystem again, and a file
// changed on HDFS (a new timestamp) is a new resource, downloaded again.
// Concurrent requests for one resource wait for a single download; a failed
// download is not kept. APPLICATION resources are not cached here: each
// application's containers localize them into the application's own
// directory, which goes with the application.
//
// Left out: the cache is never trimmed
// (yarn.nodemanager.localizer.cache.target-size-mb).
type resourceCache struct {
	mu        sync.Mutex
	entries   map[cacheKey]*cacheEntry
	next      int
	downloads map[string]int // by resource URI, of every visibility
}

// counted records one download of uri.
func (c *resourceCache) counted(uri string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.downloads == nil {
		c.downloads = map[string]int{}
	}
	c.downloads[uri]++
}

// Downloads is how many times the NodeManager has downloaded the resource
// at uri from its filesystem, for containers of any application: once per
// container for an APPLICATION resource, once per user (PRIVATE) or once
// in all (PUBLIC) while its timestamp stays the same.
func (rm *RM) Downloads(uri string) int {
	rm.cache.mu.Lock()
	defer rm.cache.mu.Unlock()
	return rm.cache.downloads[uri]
}

// cacheKey is one tracker's key of a resource: the tracker (public, or a
// user's private one) and LocalResourceRequest's fields.
type cacheKey struct {
	tracker   string
	resource  string
	timestamp int64
	typ       yarn.LocalResourceType
	pattern   string
}

// cacheEntry is a resource being localized (done open) or localized.
type cacheEntry struct {
	done chan struct{}
	path string
	err  error
}

// get returns the localized path of key, running fetch into a fresh
// directory of dir(n) when no container localized it before.
func (c *resourceCache) get(ctx context.Context, key cacheKey, dir func(n int) string, fetch func(dst string) (string, error)) (string, error) {
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[cacheKey]*cacheEntry{}
	}
	if e, ok := c.entries[key]; ok {
		c.mu.Unlock()
		select {
		case <-e.done:
			return e.path, e.err
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	c.next++
	n := c.next
	e := &cacheEntry{done: make(chan struct{})}
	c.entries[key] = e
	c.mu.Unlock()

	e.path, e.err = fetch(dir(n))
	if e.err != nil {
		c.mu.Lock()
		delete(c.entries, key)
		c.mu.Unlock()
	}
	close(e.done)
	return e.path, e.err
}

// cachedResource localizes a PUBLIC or PRIVATE resource of user through the
// cache, into the NodeManager's filecache (public) or the user's
// (usercache/<user>/filecache), as ResourceLocalizationService lays them
// out. A PUBLIC resource must be readable by everyone and reachable through
// directories everyone may traverse (FSDownload.isPublic), or it is refused
// with FSDownload's message.
func (rm *RM) cachedResource(ctx context.Context, user string, lr yarn.LocalResource, fetch func(dst string) (string, error)) (string, error) {
	key := cacheKey{tracker: "user:" + user, resource: lr.Resource, timestamp: lr.Timestamp, typ: lr.Type, pattern: lr.Pattern}
	base := filepath.Join(rm.localDir, "usercache", user, "filecache")
	if lr.Visibility == yarn.VisibilityPublic {
		key.tracker, base = "public", filepath.Join(rm.localDir, "filecache")
	}
	dir := func(n int) string { return filepath.Join(base, strconv.Itoa(n)) }
	return rm.cache.get(ctx, key, dir, func(dst string) (string, error) {
		if lr.Visibility == yarn.VisibilityPublic {
			public, err := isPublic(ctx, rm.opts.Storage, user, lr.Resource)
			if err != nil {
				return "", fmt.Errorf("java.io.IOException: %w", err)
			}
			if !public {
				//lint:ignore ST1005 FSDownload's message, verbatim
				return "", fmt.Errorf("java.io.IOException: Resource %s is not publicly accessible and as such cannot be part of the public cache.", lr.Resource)
			}
		}
		return fetch(dst)
	})
}

// ModeStorage is a [Storage] that also reports permission bits, which the
// public cache's check needs; a Storage without it has no public cache
// (a PUBLIC resource is then refused as not publicly accessible).
type ModeStorage interface {
	Storage
	// Mode returns the permission bits of the file or directory at uri, as
	// user.
	Mode(ctx context.Context, user, uri string) (fs.FileMode, error)
}

// isPublic is FSDownload.isPublic for a file: others may read it, and every
// directory above it lets others through (execute).
func isPublic(ctx context.Context, st Storage, user, uri string) (bool, error) {
	ms, ok := st.(ModeStorage)
	if !ok {
		return false, nil
	}
	m, err := ms.Mode(ctx, user, uri)
	if err != nil {
		return false, err
	}
	if m.Perm()&0o004 == 0 {
		return false, nil
	}
	for _, dir := range ancestors(uri) {
		m, err := ms.Mode(ctx, user, dir)
		if err != nil {
			return false, err
		}
		if m.Perm()&0o001 == 0 {
			return false, nil
		}
	}
	return true, nil
}

// ancestors returns the directories above the file at uri, nearest first,
// as URIs of the same filesystem.
func ancestors(uri string) []string {
	u, err := url.Parse(uri)
	if err != nil || u.Path == "" {
		return nil
	}
	var out []string
	for p := path.Dir(path.Clean(u.Path)); ; p = path.Dir(p) {
		d := *u
		d.Path = p
		out = append(out, d.String())
		if p == "/" || p == "." {
			return out
		}
	}
}
