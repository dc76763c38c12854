package graph

import (
	"slices"
	"sort"
)

// order arranges the vertices within each layer to reduce edge crossings:
// an initial order from a depth-first walk (so that paths stay together),
// then barycenter sweeps, down and up in turn, keeping the best order seen.
func (lg *layered) order() {
	rank := lg.dfsRank()
	for _, layer := range lg.layers {
		sort.SliceStable(layer, func(a, b int) bool { return rank[layer[a]] < rank[layer[b]] })
	}
	pos := make([]float64, len(lg.v))
	lg.positions(pos)
	best := lg.crossings(pos)
	saved := lg.snapshot()
	for sweep := 0; sweep < orderSweeps && best > 0; sweep++ {
		down := sweep%2 == 0
		for k := 1; k < len(lg.layers); k++ {
			l := k
			if !down {
				l = len(lg.layers) - 1 - k
			}
			lg.reorder(l, down, pos)
		}
		if c := lg.crossings(pos); c < best {
			best = c
			saved = lg.snapshot()
		}
	}
	lg.layers = saved
}

// dfsRank numbers the vertices in depth-first preorder, following edges
// downward in document order, from start and then from every vertex not yet
// reached.
func (lg *layered) dfsRank() []int {
	rank := make([]int, len(lg.v))
	for i := range rank {
		rank[i] = -1
	}
	next := 0
	var stack []int
	for root := range lg.v {
		if rank[root] >= 0 {
			continue
		}
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if rank[v] >= 0 {
				continue
			}
			rank[v] = next
			next++
			down := lg.v[v].down
			for i := len(down) - 1; i >= 0; i-- {
				if rank[down[i]] < 0 {
					stack = append(stack, down[i])
				}
			}
		}
	}
	return rank
}

// reorder sorts layer l by the mean position of each vertex's neighbours
// in the layer above (down) or below (!down). A vertex without such
// neighbours keeps its own position as its key.
func (lg *layered) reorder(l int, down bool, pos []float64) {
	layer := lg.layers[l]
	key := make(map[int]float64, len(layer))
	for _, v := range layer {
		nb := lg.v[v].up
		if !down {
			nb = lg.v[v].down
		}
		if len(nb) == 0 {
			key[v] = pos[v]
			continue
		}
		sum := 0.0
		for _, u := range nb {
			sum += pos[u]
		}
		key[v] = sum / float64(len(nb))
	}
	sort.SliceStable(layer, func(a, b int) bool { return key[layer[a]] < key[layer[b]] })
	for i, v := range layer {
		pos[v] = float64(i)
	}
}

// positions records each vertex's index within its layer.
func (lg *layered) positions(pos []float64) {
	for _, layer := range lg.layers {
		for i, v := range layer {
			pos[v] = float64(i)
		}
	}
}

// snapshot copies the current order of every layer.
func (lg *layered) snapshot() [][]int {
	out := make([][]int, len(lg.layers))
	for i, l := range lg.layers {
		out[i] = slices.Clone(l)
	}
	return out
}

// crossings counts the pairs of edge segments that cross between adjacent
// layers, for the positions pos: the inversions of the lower ends once the
// segments are sorted by their upper ends, counted with a Fenwick tree.
func (lg *layered) crossings(pos []float64) int {
	total := 0
	var segs [][2]int
	for l := 0; l+1 < len(lg.layers); l++ {
		segs = segs[:0]
		for _, u := range lg.layers[l] {
			for _, w := range lg.v[u].down {
				segs = append(segs, [2]int{int(pos[u]), int(pos[w])})
			}
		}
		sort.Slice(segs, func(a, b int) bool {
			if segs[a][0] != segs[b][0] {
				return segs[a][0] < segs[b][0]
			}
			return segs[a][1] < segs[b][1]
		})
		n := len(lg.layers[l+1])
		tree := make([]int, n+1)
		seen := 0
		for _, s := range segs {
			// Segments seen so far whose lower end is right of this one's.
			le := 0
			for i := s[1] + 1; i > 0; i -= i & -i {
				le += tree[i]
			}
			total += seen - le
			for i := s[1] + 1; i <= n; i += i & -i {
				tree[i]++
			}
			seen++
		}
	}
	return total
}
