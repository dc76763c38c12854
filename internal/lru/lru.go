// Package lru is the one bounded, least-recently-used cache of gozie's
// engines: parsed coordinator definitions, parsed coordinator action
// documents and parsed workflow definitions are each kept in one, so that
// memory stays flat however many jobs are active and however many end on
// another server.
package lru

import (
	"container/list"
	"sync"
)

// Cache keeps at most a fixed number of entries, dropping the least
// recently used beyond it. It is safe for concurrent use; values are shared
// with callers, so they must be read-only once put.
type Cache[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *entry[K, V], most recent first
	byKey map[K]*list.Element
}

type entry[K comparable, V any] struct {
	key K
	val V
}

// New returns a cache of at most max entries (at least one).
func New[K comparable, V any](max int) *Cache[K, V] {
	if max < 1 {
		max = 1
	}
	return &Cache[K, V]{max: max, order: list.New(), byKey: map[K]*list.Element{}}
}

// Get returns the value kept under k and makes it the most recently used.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry[K, V]).val, true
}

// Peek returns the value kept under k without changing its recency.
func (c *Cache[K, V]) Peek(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[k]
	if !ok {
		var zero V
		return zero, false
	}
	return el.Value.(*entry[K, V]).val, true
}

// Put keeps v under k as the most recently used entry, replacing what was
// kept under k, and drops the least recently used entries beyond the bound.
func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[k]; ok {
		el.Value = &entry[K, V]{key: k, val: v}
		c.order.MoveToFront(el)
		return
	}
	c.byKey[k] = c.order.PushFront(&entry[K, V]{key: k, val: v})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*entry[K, V]).key)
	}
}

// Remove drops the entry kept under k, if any.
func (c *Cache[K, V]) Remove(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[k]; ok {
		c.order.Remove(el)
		delete(c.byKey, k)
	}
}

// RemoveFirst drops the most recently used entry whose value match accepts,
// and reports whether there was one.
func (c *Cache[K, V]) RemoveFirst(match func(V) bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.order.Front(); el != nil; el = el.Next() {
		if e := el.Value.(*entry[K, V]); match(e.val) {
			c.order.Remove(el)
			delete(c.byKey, e.key)
			return true
		}
	}
	return false
}

// Len returns the number of entries kept.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
