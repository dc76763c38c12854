package engine

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"

	"github.com/gozie/gozie/store"
)

// Option is a property of a kind, given when its handler is registered.
type Option func(*kindOptions)

// kindOptions are the properties an Option sets.
type kindOptions struct {
	newWork bool
}

// StartsNewWork marks a kind whose triggers start new work (launch an
// action, materialize or start a job) rather than follow work already
// running: SAFEMODE holds these kinds (see NewWorkKinds).
func StartsNewWork() Option { return func(o *kindOptions) { o.newWork = true } }

// apply records the options of a kind being registered.
func (e *Engine) apply(kind store.TriggerKind, opts []Option) {
	var o kindOptions
	for _, opt := range opts {
		opt(&o)
	}
	if o.newWork {
		e.newWork[kind] = true
	}
}

// NewWorkKinds returns the registered kinds that start new work, sorted:
// what the server holds (Hold) while in SAFEMODE, so that running work
// (checks, kills, completions) goes on and nothing new begins.
func (e *Engine) NewWorkKinds() []store.TriggerKind {
	out := make([]store.TriggerKind, 0, len(e.newWork))
	for k := range e.newWork {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// KindInfo describes one registered kind, for the package doc's table of
// kinds and the admin queue dump.
type KindInfo struct {
	Kind store.TriggerKind
	// Package is the package of the kind's handler, without the module path.
	Package string
	// Batch: registered with HandleBatch.
	Batch bool
	// StartsNewWork: registered with StartsNewWork, held in SAFEMODE.
	StartsNewWork bool
	// GiveUp: a GiveUp handler ends the kind's entity when its attempts are
	// used up.
	GiveUp bool
}

// Kinds returns every registered kind, sorted by kind.
func (e *Engine) Kinds() []KindInfo {
	var out []KindInfo
	add := func(k store.TriggerKind, h any, batch bool) {
		_, g := e.giveUps[k]
		out = append(out, KindInfo{Kind: k, Package: packageOf(h), Batch: batch, StartsNewWork: e.newWork[k], GiveUp: g})
	}
	for k, h := range e.handlers {
		add(k, h, false)
	}
	for k, b := range e.batches {
		add(k, b.h, true)
	}
	slices.SortFunc(out, func(a, b KindInfo) int { return strings.Compare(string(a.Kind), string(b.Kind)) })
	return out
}

// Registered reports whether kind has a handler.
func (e *Engine) Registered(kind store.TriggerKind) bool {
	_, single := e.handlers[kind]
	_, batch := e.batches[kind]
	return single || batch
}

// packageOf names the package of the function h, without the module path:
// "workflow/wfrun" for a method value of wfrun.(*Runner).
func packageOf(h any) string {
	f := runtime.FuncForPC(reflect.ValueOf(h).Pointer())
	if f == nil {
		return "?"
	}
	name := strings.TrimPrefix(f.Name(), "github.com/gozie/gozie/")
	slash := strings.LastIndex(name, "/") + 1
	if dot := strings.Index(name[slash:], "."); dot >= 0 {
		name = name[:slash+dot]
	}
	return name
}

// KindTable renders kinds as the table of the package doc: one line per
// kind, its package, and its properties.
func KindTable(kinds []KindInfo) string {
	var b strings.Builder
	row := func(cols ...string) {
		fmt.Fprintf(&b, "//\t%-20s %-22s %-6s %-9s %s\n", cols[0], cols[1], cols[2], cols[3], cols[4])
	}
	yes := func(v bool) string {
		if v {
			return "yes"
		}
		return "-"
	}
	row("kind", "package", "batch", "new work", "gives up")
	for _, k := range kinds {
		row(string(k.Kind), k.Package, yes(k.Batch), yes(k.StartsNewWork), yes(k.GiveUp))
	}
	return b.String()
}

// Held returns the kinds held now (see Hold), sorted.
func (e *Engine) Held() []store.TriggerKind {
	e.heldMu.Lock()
	defer e.heldMu.Unlock()
	out := make([]store.TriggerKind, 0, len(e.held))
	for k := range e.held {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
