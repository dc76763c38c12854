package purge

import "testing"

func TestPositions(t *testing.T) {
	tests := []struct {
		payload string
		want    position
	}{
		{"", position{}},
		{"0 ", position{}},
		{"2 r|1767225600000|C1", position{pass: passCoords, after: "r|1767225600000|C1"}},
		{"1 a|1|C1@2|C1", position{pass: passCoordActions, after: "a|1|C1@2|C1"}},
		{"3", position{pass: passBundles}},
		{"4 x", position{}},  // no such pass: start over
		{"-1 x", position{}}, // likewise
		{"x 1", position{}},
	}
	for _, tc := range tests {
		if got := parsePosition(tc.payload); got != tc.want {
			t.Errorf("parsePosition(%q) = %+v, want %+v", tc.payload, got, tc.want)
		}
	}
	for _, p := range []position{{}, {pass: passBundles, after: "a|0|B 1"}} {
		if got := parsePosition(p.String()); got != p {
			t.Errorf("%+v read back as %+v", p, got)
		}
	}
}
