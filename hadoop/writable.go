package hadoop

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/gozie/gozie/hadoop/internal/writable"
)

// maxWritableLen bounds a length read from a Writable stream, so a corrupt
// file cannot make the reader allocate gigabytes.
const maxWritableLen = 16 << 20

// errBadWritable reports a malformed Writable encoding.
var errBadWritable = errors.New("malformed Writable data")

// appendVLong appends v in Hadoop's WritableUtils variable-length
// encoding (see writable.AppendVLong).
func appendVLong(b []byte, v int64) []byte { return writable.AppendVLong(b, v) }

// readVLong reads a value written by appendVLong.
func readVLong(r io.ByteReader) (int64, error) { return writable.ReadVLong(r) }

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

func unexpectedEOF(err error) error { return writable.UnexpectedEOF(err) }
