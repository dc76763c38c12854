package hadoop

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// maxWritableLen bounds a length read from a Writable stream, so a corrupt
// file cannot make the reader allocate gigabytes.
const maxWritableLen = 16 << 20

// errBadWritable reports a malformed Writable encoding.
var errBadWritable = errors.New("malformed Writable data")

// appendVLong appends v in Hadoop's WritableUtils variable-length
// encoding: values in [-112, 127] take one byte; otherwise a first byte
// gives the sign and the byte count, followed by the magnitude (v, or ^v
// when negative) big-endian without leading zero bytes.
func appendVLong(b []byte, v int64) []byte {
	if v >= -112 && v <= 127 {
		return append(b, byte(v))
	}
	first := -112
	if v < 0 {
		v = ^v
		first = -120
	}
	n := 0
	for t := v; t != 0; t >>= 8 {
		n++
	}
	b = append(b, byte(int8(first-n)))
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// readVLong reads a value written by appendVLong.
func readVLong(r io.ByteReader) (int64, error) {
	fb, err := r.ReadByte()
	if err != nil {
		return 0, err
	}
	first := int8(fb)
	if first >= -112 {
		return int64(first), nil
	}
	negative := first < -120
	n := int(-112 - int(first))
	if negative {
		n = int(-120 - int(first))
	}
	var v int64
	for range n {
		b, err := r.ReadByte()
		if err != nil {
			return 0, unexpectedEOF(err)
		}
		v = v<<8 | int64(b)
	}
	if negative {
		v = ^v
	}
	return v, nil
}

// readVInt reads a vlong that must fit an int32.
func readVInt(r io.ByteReader) (int, error) {
	v, err := readVLong(r)
	if err != nil {
		return 0, err
	}
	if v < -1<<31 || v > 1<<31-1 {
		return 0, fmt.Errorf("%w: vint %d out of range", errBadWritable, v)
	}
	return int(v), nil
}

// appendBytes appends a vint length and the bytes (Text and raw byte
// arrays share this layout).
func appendBytes(b, data []byte) []byte {
	return append(appendVLong(b, int64(len(data))), data...)
}

// readBytes reads a vint length and that many bytes.
func readBytes(r *bufio.Reader) ([]byte, error) {
	n, err := readVInt(r)
	if err != nil {
		return nil, unexpectedEOF(err)
	}
	if n < 0 || n > maxWritableLen {
		return nil, fmt.Errorf("%w: length %d", errBadWritable, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, unexpectedEOF(err)
	}
	return b, nil
}

func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
