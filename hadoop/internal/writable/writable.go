// Package writable holds the pieces of Hadoop's Writable encoding that
// gozie reads and writes: WritableUtils' variable-length integers and
// Text (a vint length and UTF-8 bytes).
package writable

import (
	"errors"
	"fmt"
	"io"
)

// ErrMalformed reports a malformed Writable encoding.
var ErrMalformed = errors.New("malformed Writable data")

// AppendVLong appends v in Hadoop's WritableUtils variable-length
// encoding: values in [-112, 127] take one byte; otherwise a first byte
// gives the sign and the byte count, followed by the magnitude (v, or ^v
// when negative) big-endian without leading zero bytes. A vint is the same
// encoding.
func AppendVLong(b []byte, v int64) []byte {
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

// ReadVLong reads a value written by AppendVLong; a value cut short is
// io.ErrUnexpectedEOF.
func ReadVLong(r io.ByteReader) (int64, error) {
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
			return 0, UnexpectedEOF(err)
		}
		v = v<<8 | int64(b)
	}
	if negative {
		v = ^v
	}
	return v, nil
}

// ReadVInt reads a vlong that must fit an int32.
func ReadVInt(r io.ByteReader) (int32, error) {
	v, err := ReadVLong(r)
	if err != nil {
		return 0, err
	}
	if v < -1<<31 || v > 1<<31-1 {
		return 0, fmt.Errorf("%w: vint %d out of range", ErrMalformed, v)
	}
	return int32(v), nil
}

// AppendText appends s as a Text: its byte length as a vint, then the
// bytes.
func AppendText(b []byte, s string) []byte {
	return append(AppendVLong(b, int64(len(s))), s...)
}

// ReadText reads a Text of at most maxLen bytes.
func ReadText(r interface {
	io.Reader
	io.ByteReader
}, maxLen int) (string, error) {
	n, err := ReadVInt(r)
	if err != nil {
		return "", UnexpectedEOF(err)
	}
	if n < 0 || int(n) > maxLen {
		return "", fmt.Errorf("%w: text length %d", ErrMalformed, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", UnexpectedEOF(err)
	}
	return string(b), nil
}

// UnexpectedEOF turns io.EOF into io.ErrUnexpectedEOF: the data ended
// inside a value.
func UnexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
