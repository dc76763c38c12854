package lru

import (
	"fmt"
	"sync"
	"testing"
)

func TestDropsLeastRecentlyUsed(t *testing.T) {
	c := New[string, int](2)
	c.Put("a", 1)
	c.Put("b", 2)
	if _, ok := c.Get("a"); !ok { // a is now the most recent
		t.Fatal("a missing")
	}
	c.Put("c", 3) // drops b
	if _, ok := c.Get("b"); ok {
		t.Error("b kept beyond the bound")
	}
	for k, want := range map[string]int{"a": 1, "c": 3} {
		if v, ok := c.Get(k); !ok || v != want {
			t.Errorf("Get(%q) = %d, %v; want %d", k, v, ok, want)
		}
	}
	if c.Len() != 2 {
		t.Errorf("Len = %d, want 2", c.Len())
	}
}

func TestPeekKeepsRecency(t *testing.T) {
	c := New[string, int](2)
	c.Put("a", 1)
	c.Put("b", 2)
	if v, ok := c.Peek("a"); !ok || v != 1 {
		t.Fatalf("Peek(a) = %d, %v", v, ok)
	}
	c.Put("c", 3) // a was not made recent by Peek: it goes
	if _, ok := c.Peek("a"); ok {
		t.Error("Peek made a recent")
	}
}

func TestPutReplacesAndRemove(t *testing.T) {
	c := New[string, int](0) // bounded at one
	c.Put("a", 1)
	c.Put("a", 2)
	if v, _ := c.Get("a"); v != 2 || c.Len() != 1 {
		t.Errorf("Get(a) = %d, Len %d; want 2, 1", v, c.Len())
	}
	c.Remove("a")
	c.Remove("missing")
	if c.Len() != 0 {
		t.Errorf("Len after Remove = %d", c.Len())
	}
}

func TestRemoveFirstTakesTheMostRecentMatch(t *testing.T) {
	c := New[string, string](4)
	c.Put("k1", "job-1")
	c.Put("k2", "job-2")
	c.Put("k3", "job-1")
	if !c.RemoveFirst(func(v string) bool { return v == "job-1" }) {
		t.Fatal("no match removed")
	}
	if _, ok := c.Peek("k3"); ok {
		t.Error("k3 (the most recent match) kept")
	}
	if _, ok := c.Peek("k1"); !ok {
		t.Error("k1 removed too")
	}
	if c.RemoveFirst(func(v string) bool { return v == "none" }) {
		t.Error("removed without a match")
	}
}

func TestConcurrentUseStaysBounded(t *testing.T) {
	c := New[int, int](16)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				c.Put(g*1000+i, i)
				c.Get(g*1000 + i/2)
			}
		}(g)
	}
	wg.Wait()
	if c.Len() != 16 {
		t.Errorf("Len = %d, want 16", c.Len())
	}
}

func ExampleCache() {
	c := New[string, string](1)
	c.Put("a", "parsed a")
	c.Put("b", "parsed b")
	_, okA := c.Get("a")
	b, okB := c.Get("b")
	fmt.Println(okA, b, okB)
	// Output: false parsed b true
}
