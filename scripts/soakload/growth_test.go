package main

import "testing"

func TestGrows(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		s     series
		grows bool
	}{
		{"flat", series{values: []float64{10, 50, 52, 49, 51, 50, 50}, floor: 1, checked: true}, false},
		{"warm-up then level", series{values: []float64{10, 40, 55, 58, 58, 57, 58}, floor: 1, checked: true}, false},
		{"climbing", series{values: []float64{10, 40, 50, 60, 70, 80, 90}, floor: 1, checked: true}, true},
		{"small rise under the floor", series{values: []float64{0, 20, 21, 22, 24, 26, 28}, floor: 10, checked: true}, false},
		{"rise over the floor", series{values: []float64{0, 20, 21, 22, 24, 30, 36}, floor: 10, checked: true}, true},
		{"recorded only", series{values: []float64{1, 2, 4, 8, 16, 32, 64}, checked: false}, false},
		{"too few samples", series{values: []float64{1, 2, 100}, floor: 1, checked: true}, false},
		// The sample before the load is not part of the judgement.
		{"idle first sample", series{values: []float64{1, 100, 100, 100}, floor: 1, checked: true}, false},
	}
	for _, c := range cases {
		got, why := c.s.grows()
		if got != c.grows {
			t.Errorf("%s: grows = %v (%s), want %v", c.name, got, why, c.grows)
		}
	}
}
