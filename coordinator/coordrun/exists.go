package coordrun

import (
	"context"
	"errors"
	"io/fs"
	"sync"

	"github.com/gozie/gozie/hcat"
)

// exists tells whether a dataset URI (done-flag included) exists, through
// the filesystem layer; at most MaxConcurrentChecks run at once across the
// engine.
func (r *Runner) exists(ctx context.Context, uri string) (bool, error) {
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	defer func() { <-r.sem }()
	if hcat.IsURI(uri) {
		return r.hcatExists(ctx, uri) // hcat.go
	}
	_, err := r.cfg.FS.Stat(ctx, uri)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, err
}

// existence holds the answers of one input check: URIs checked ahead, all
// at once, and any other URI the check asks for (coord:latest, coord:future)
// checked when asked.
type existence struct {
	r   *Runner
	ctx context.Context
	mu  sync.Mutex
	ok  map[string]bool
	err map[string]error
}

// prefetch checks uris concurrently (within the engine's bound).
func (r *Runner) prefetch(ctx context.Context, uris []string) *existence {
	e := &existence{r: r, ctx: ctx, ok: make(map[string]bool, len(uris)), err: map[string]error{}}
	var wg sync.WaitGroup
	for _, u := range uris {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := r.exists(ctx, u)
			e.mu.Lock()
			defer e.mu.Unlock()
			if err != nil {
				e.err[u] = err
				return
			}
			e.ok[u] = ok
		}()
	}
	wg.Wait()
	return e
}

// Exists is the coordinator core's ExistsFunc.
func (e *existence) Exists(uri string) (bool, error) {
	e.mu.Lock()
	ok, known := e.ok[uri]
	err := e.err[uri]
	e.mu.Unlock()
	if known || err != nil {
		return ok, err
	}
	ok, err = e.r.exists(e.ctx, uri)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		e.err[uri] = err
	} else {
		e.ok[uri] = ok
	}
	return ok, err
}

// available returns the URIs found to exist.
func (e *existence) available() map[string]bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]bool, len(e.ok))
	for u, ok := range e.ok {
		if ok {
			out[u] = true
		}
	}
	return out
}
