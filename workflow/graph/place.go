package graph

// place gives every vertex its horizontal centre. Each layer starts packed
// around 0; then sweeps down and up pull every vertex toward the mean
// centre of its neighbours in the layer just visited (both neighbouring
// layers in the last sweep), keeping the layer's order and spacing.
func (lg *layered) place() {
	for _, layer := range lg.layers {
		lg.settle(layer, func(int) (float64, bool) { return 0, true })
	}
	for sweep := range placeSweeps {
		last := sweep == placeSweeps-1
		down := sweep%2 == 0
		for k := range lg.layers {
			l := k
			if !down {
				l = len(lg.layers) - 1 - k
			}
			lg.settle(lg.layers[l], func(v int) (float64, bool) {
				var nb []int
				switch {
				case last:
					nb = append(append(nb, lg.v[v].up...), lg.v[v].down...)
				case down:
					nb = lg.v[v].up
				default:
					nb = lg.v[v].down
				}
				if len(nb) == 0 {
					return 0, false
				}
				sum := 0.0
				for _, u := range nb {
					sum += lg.v[u].x
				}
				return sum / float64(len(nb)), true
			})
		}
	}
}

// settle moves the vertices of one layer as close to their targets as the
// spacing allows, in the least-squares sense, keeping their order. target
// returns a vertex's wish, or false to stay where it is.
func (lg *layered) settle(layer []int, target func(v int) (float64, bool)) {
	if len(layer) == 0 {
		return
	}
	want := make([]float64, len(layer))
	gaps := make([]float64, len(layer)-1)
	for i, v := range layer {
		if t, ok := target(v); ok {
			want[i] = t
		} else {
			want[i] = lg.v[v].x
		}
		if i > 0 {
			gaps[i-1] = lg.spacing(layer[i-1], v)
		}
	}
	for i, x := range isotonic(want, gaps) {
		lg.v[layer[i]].x = x
	}
}

// spacing is the least distance between the centres of neighbours a and b
// of one layer.
func (lg *layered) spacing(a, b int) float64 {
	gap := nodeGap
	if lg.v[a].node < 0 || lg.v[b].node < 0 {
		gap = dummyGap
	}
	return (lg.v[a].w+lg.v[b].w)/2 + gap
}

// isotonic returns the positions x closest to want (least squares) such
// that x[i+1]-x[i] >= gaps[i]. Shifting each position by the sum of the
// gaps before it turns this into isotonic regression, which the pool
// adjacent violators algorithm solves exactly in linear time.
func isotonic(want, gaps []float64) []float64 {
	n := len(want)
	off := make([]float64, n)
	for i := 1; i < n; i++ {
		off[i] = off[i-1] + gaps[i-1]
	}
	type block struct {
		sum   float64
		count int
	}
	blocks := make([]block, 0, n)
	for i := range n {
		blocks = append(blocks, block{sum: want[i] - off[i], count: 1})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/float64(a.count) <= b.sum/float64(b.count) {
				break
			}
			blocks = append(blocks[:len(blocks)-2], block{sum: a.sum + b.sum, count: a.count + b.count})
		}
	}
	x := make([]float64, 0, n)
	for _, b := range blocks {
		mean := b.sum / float64(b.count)
		for range b.count {
			x = append(x, mean+off[len(x)])
		}
	}
	return x
}
