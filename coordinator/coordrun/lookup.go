package coordrun

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"sync"

	"github.com/gozie/gozie/hcat"
)

// answer is what the filesystem said about one URI.
type answer struct {
	ok  bool
	err error
}

// lookUpAll answers whether each of uris exists, as ctx's user sees them,
// with as few filesystem calls as it can: where several of the URIs share
// a parent directory, one listing of that directory answers for all of
// them; where several sit in sibling directories (the done-flags of one
// dataset's instances, each in its own directory), one listing of their
// common parent tells which of those directories exist at all, and only
// the URIs in those are looked up one by one. A listing that fails for any
// reason but a missing directory answers nothing: its URIs are looked up one
// by one, so each keeps the error its own lookup gives. Everything runs
// within the engine's bound on concurrent filesystem calls (exists).
//
// A listing answers as a lookup would: a name is in its parent's listing
// exactly when the path exists, and a user allowed to list a directory is
// allowed to look up its entries.
func (r *Runner) lookUpAll(ctx context.Context, uris []string) map[string]answer {
	out := make(map[string]answer, len(uris))
	var mu sync.Mutex
	set := func(u string, a answer) {
		mu.Lock()
		out[u] = a
		mu.Unlock()
	}
	byParent := map[string][]string{}
	var single []string
	for _, u := range uris {
		if _, seen := out[u]; seen {
			continue
		}
		out[u] = answer{}
		parent, _, ok := splitURI(u)
		if !ok {
			single = append(single, u)
			continue
		}
		byParent[parent] = append(byParent[parent], u)
	}
	// Parents holding one URI each are grouped by their own parent.
	byGrand := map[string][]string{} // grandparent → parents
	lists := map[string][]string{}   // directory → the URIs its listing answers for
	for parent, us := range byParent {
		if len(us) > 1 {
			lists[parent] = us
			continue
		}
		grand, _, ok := splitURI(parent)
		if !ok {
			single = append(single, us...)
			continue
		}
		byGrand[grand] = append(byGrand[grand], parent)
	}
	siblings := map[string][]string{} // grandparent → its parents, listed to see which exist
	for grand, parents := range byGrand {
		if len(parents) > 1 {
			siblings[grand] = parents
			continue
		}
		single = append(single, byParent[parents[0]]...)
	}

	var wg sync.WaitGroup
	var restMu sync.Mutex
	var rest []string // URIs a listing could not answer
	later := func(us ...string) {
		restMu.Lock()
		rest = append(rest, us...)
		restMu.Unlock()
	}
	for dir, us := range lists {
		wg.Go(func() {
			names, err := r.listNames(ctx, dir)
			if err != nil {
				later(us...)
				return
			}
			for _, u := range us {
				_, base, _ := splitURI(u)
				set(u, answer{ok: names[base]})
			}
		})
	}
	for grand, parents := range siblings {
		wg.Go(func() {
			names, err := r.listNames(ctx, grand)
			for _, p := range parents {
				_, base, _ := splitURI(p)
				switch {
				case err != nil:
					later(byParent[p]...)
				case names[base]:
					later(byParent[p]...) // the directory exists: is its entry there?
				default:
					for _, u := range byParent[p] {
						set(u, answer{}) // no such directory, so nothing in it
					}
				}
			}
		})
	}
	wg.Wait()
	for _, u := range append(single, rest...) {
		wg.Go(func() {
			ok, err := r.exists(ctx, u)
			set(u, answer{ok: ok, err: err})
		})
	}
	wg.Wait()
	return out
}

// listNames lists a directory's entry names, within the engine's bound on
// concurrent filesystem calls. A directory that does not exist has no
// entries.
func (r *Runner) listNames(ctx context.Context, dir string) (map[string]bool, error) {
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-r.sem }()
	entries, err := r.cfg.FS.ReadDir(ctx, dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return map[string]bool{}, nil
	case err != nil:
		return nil, err
	}
	names := make(map[string]bool, len(entries))
	for _, e := range entries {
		names[e.Name] = true
	}
	return names, nil
}

// splitURI splits a filesystem URI into its parent directory and last
// element; ok is false for what a listing cannot answer for: an hcat://
// URI, a filesystem root, a trailing slash, a query, or a glob pattern.
func splitURI(u string) (parent, base string, ok bool) {
	if hcat.IsURI(u) || strings.ContainsAny(u, "?#*[]{}\\") {
		return "", "", false
	}
	i := strings.Index(u, "://")
	if i < 0 {
		return "", "", false
	}
	rest := u[i+3:]
	slash := strings.IndexByte(rest, '/') // the path after the authority
	if slash < 0 {
		return "", "", false
	}
	path := rest[slash:]
	j := strings.LastIndexByte(path, '/')
	if j <= 0 || j == len(path)-1 {
		return "", "", false // at the root, or a trailing slash
	}
	head := u[:i+3+slash]
	return head + path[:j], path[j+1:], true
}
