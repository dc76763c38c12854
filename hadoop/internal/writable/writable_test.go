package writable

import (
	"bytes"
	"math"
	"testing"
)

func TestVLongMatchesHadoop(t *testing.T) {
	t.Parallel()
	// Encodings as WritableUtils.writeVLong produces them: one byte for
	// [-112, 127]; otherwise a marker (-113-n for positive, -121-n for
	// negative values, n = magnitude bytes) and the magnitude big-endian.
	tests := []struct {
		v    int64
		want []byte
	}{
		{0, []byte{0x00}},
		{127, []byte{0x7f}},
		{-112, []byte{0x90}},
		{128, []byte{0x8f, 0x80}},
		{255, []byte{0x8f, 0xff}},
		{256, []byte{0x8e, 0x01, 0x00}},
		{-113, []byte{0x87, 0x70}},
		{-1000, []byte{0x86, 0x03, 0xe7}},
		{-1 << 31, []byte{0x84, 0x7f, 0xff, 0xff, 0xff}},
		{math.MaxInt64, []byte{0x88, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{math.MinInt64, []byte{0x80, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
	}
	for _, tc := range tests {
		if got := AppendVLong(nil, tc.v); !bytes.Equal(got, tc.want) {
			t.Errorf("AppendVLong(%d) = % x, want % x", tc.v, got, tc.want)
		}
		got, err := ReadVLong(bytes.NewReader(tc.want))
		if err != nil || got != tc.v {
			t.Errorf("ReadVLong(% x) = %d, %v; want %d", tc.want, got, err, tc.v)
		}
	}
}
