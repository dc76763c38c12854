package oozie

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
)

// Oozie keeps its large columns (conf, job_xml, action_xml,
// missing_dependencies, sla_xml, wf_instance, ...) as BLOBs through
// StringBlob and BinaryBlob. A blob is either the plain bytes (UTF-8 for a
// string) or, when the server's output compression codec is set
// (oozie.output.compression.codec, "gz" by default since Oozie 4.1), a
// header followed by the compressed bytes:
//
//	"OBJ"  int32 version (1)  int32 pairs (1)  UTF "codec"  UTF <name>
//
// where int32 is big-endian and UTF is Java's DataOutput.writeUTF (a
// big-endian uint16 length, then modified UTF-8). The only codec Oozie ships
// is "gz" (gzip).

// blobMagic starts a compressed blob.
const blobMagic = "OBJ"

// CodecGzip is the name of Oozie's gzip codec in a blob header.
const CodecGzip = "gz"

// maxBlob bounds what one decompressed blob may grow to, so that a corrupt
// or hostile row cannot exhaust memory.
const maxBlob = 256 << 20

// ErrBlob is wrapped by every error of DecodeBlob.
var ErrBlob = errors.New("undecodable blob")

// DecodeBlob returns the content of a StringBlob or BinaryBlob column: raw
// itself, or its decompressed content when it starts with Oozie's codec
// header. A header naming a codec other than gzip, or a gzip stream that
// does not decode, is an error wrapping ErrBlob.
func DecodeBlob(raw []byte) ([]byte, error) {
	if !bytes.HasPrefix(raw, []byte(blobMagic)) {
		return raw, nil
	}
	r := bytes.NewReader(raw[len(blobMagic):])
	var version, pairs int32
	if err := binary.Read(r, binary.BigEndian, &version); err != nil {
		return nil, fmt.Errorf("%w: header version: %v", ErrBlob, err)
	}
	if err := binary.Read(r, binary.BigEndian, &pairs); err != nil {
		return nil, fmt.Errorf("%w: header pairs: %v", ErrBlob, err)
	}
	if version != 1 || pairs < 1 || pairs > 16 {
		return nil, fmt.Errorf("%w: header version %d with %d pairs", ErrBlob, version, pairs)
	}
	codec := ""
	for i := int32(0); i < pairs; i++ {
		k, err := readUTF(r)
		if err != nil {
			return nil, fmt.Errorf("%w: header key: %v", ErrBlob, err)
		}
		v, err := readUTF(r)
		if err != nil {
			return nil, fmt.Errorf("%w: header value: %v", ErrBlob, err)
		}
		if k == "codec" {
			codec = v
		}
	}
	if codec != CodecGzip {
		return nil, fmt.Errorf("%w: compression codec %q (only %q is known)", ErrBlob, codec, CodecGzip)
	}
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: gzip: %v", ErrBlob, err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxBlob+1))
	if err != nil {
		return nil, fmt.Errorf("%w: gzip: %v", ErrBlob, err)
	}
	if len(out) > maxBlob {
		return nil, fmt.Errorf("%w: more than %d bytes decompressed", ErrBlob, maxBlob)
	}
	return out, nil
}

// EncodeBlob returns s as Oozie writes a blob: plain, or with the gzip
// codec header and compressed when compress is set.
func EncodeBlob(s []byte, compress bool) []byte {
	if !compress {
		return append([]byte(nil), s...)
	}
	var b bytes.Buffer
	b.WriteString(blobMagic)
	_ = binary.Write(&b, binary.BigEndian, int32(1))
	_ = binary.Write(&b, binary.BigEndian, int32(1))
	writeUTF(&b, "codec")
	writeUTF(&b, CodecGzip)
	zw := gzip.NewWriter(&b)
	_, _ = zw.Write(s)
	_ = zw.Close()
	return b.Bytes()
}

// readUTF reads one string written by Java's DataOutput.writeUTF.
func readUTF(r io.Reader) (string, error) {
	var n uint16
	if err := binary.Read(r, binary.BigEndian, &n); err != nil {
		return "", err
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return "", err
	}
	return decodeModifiedUTF8(buf)
}

// writeUTF writes s as Java's DataOutput.writeUTF does (s must encode to
// at most 65535 bytes).
func writeUTF(w *bytes.Buffer, s string) {
	enc := encodeModifiedUTF8(s)
	_ = binary.Write(w, binary.BigEndian, uint16(len(enc)))
	w.Write(enc)
}

// decodeModifiedUTF8 decodes Java's modified UTF-8: NUL as two bytes and
// characters outside the BMP as two three-byte surrogates.
func decodeModifiedUTF8(b []byte) (string, error) {
	units := make([]uint16, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c < 0x80:
			units = append(units, uint16(c))
			i++
		case c&0xE0 == 0xC0 && i+1 < len(b):
			units = append(units, uint16(c&0x1F)<<6|uint16(b[i+1]&0x3F))
			i += 2
		case c&0xF0 == 0xE0 && i+2 < len(b):
			units = append(units, uint16(c&0x0F)<<12|uint16(b[i+1]&0x3F)<<6|uint16(b[i+2]&0x3F))
			i += 3
		default:
			return "", fmt.Errorf("malformed modified UTF-8 at byte %d", i)
		}
	}
	return string(utf16.Decode(units)), nil
}

// encodeModifiedUTF8 is the inverse of decodeModifiedUTF8.
func encodeModifiedUTF8(s string) []byte {
	var out []byte
	for _, u := range utf16.Encode([]rune(s)) {
		switch {
		case u != 0 && u < 0x80:
			out = append(out, byte(u))
		case u < 0x800:
			out = append(out, 0xC0|byte(u>>6), 0x80|byte(u&0x3F))
		default:
			out = append(out, 0xE0|byte(u>>12), 0x80|byte(u>>6&0x3F), 0x80|byte(u&0x3F))
		}
	}
	return out
}

// A workflow job's wf_instance blob is Oozie's LiteWorkflowInstance written
// with Hadoop's Writable: UTF instance id, int32 length and the job
// configuration XML, then the LiteWorkflowApp: UTF name, int32 n and n UTF
// chunks that together are the workflow definition (chunks of at most
// 20,000 characters, as writeUTF holds at most 64 KB), then the nodes, which
// gozie does not need.

// WorkflowDefinition returns the workflow XML held in a wf_instance blob
// (already decoded with DecodeBlob).
func WorkflowDefinition(instance []byte) (string, error) {
	r := bytes.NewReader(instance)
	if _, err := readUTF(r); err != nil {
		return "", fmt.Errorf("%w: workflow instance id: %v", ErrBlob, err)
	}
	var n int32
	if err := binary.Read(r, binary.BigEndian, &n); err != nil || n < 0 || int64(n) > int64(r.Len()) {
		return "", fmt.Errorf("%w: workflow instance configuration length", ErrBlob)
	}
	if _, err := r.Seek(int64(n), io.SeekCurrent); err != nil {
		return "", fmt.Errorf("%w: workflow instance configuration: %v", ErrBlob, err)
	}
	if _, err := readUTF(r); err != nil {
		return "", fmt.Errorf("%w: workflow app name: %v", ErrBlob, err)
	}
	if err := binary.Read(r, binary.BigEndian, &n); err != nil || n < 0 || int64(n) > int64(r.Len()) {
		return "", fmt.Errorf("%w: workflow definition chunk count", ErrBlob)
	}
	var def bytes.Buffer
	for i := int32(0); i < n; i++ {
		s, err := readUTF(r)
		if err != nil {
			return "", fmt.Errorf("%w: workflow definition chunk %d: %v", ErrBlob, i, err)
		}
		def.WriteString(s)
	}
	return def.String(), nil
}

// EncodeWorkflowInstance writes the leading part of a LiteWorkflowInstance
// as Oozie does: instance id, configuration, app name and definition
// chunks, with no nodes (test fixtures write it; gozie reads it back with
// WorkflowDefinition).
func EncodeWorkflowInstance(instanceID, confXML, appName, definition string) []byte {
	var b bytes.Buffer
	writeUTF(&b, instanceID)
	_ = binary.Write(&b, binary.BigEndian, int32(len(confXML)))
	b.WriteString(confXML)
	writeUTF(&b, appName)
	units := []rune(definition)
	var chunks []string
	for len(units) > 20000 {
		chunks, units = append(chunks, string(units[:20000])), units[20000:]
	}
	chunks = append(chunks, string(units))
	_ = binary.Write(&b, binary.BigEndian, int32(len(chunks)))
	for _, c := range chunks {
		writeUTF(&b, c)
	}
	_ = binary.Write(&b, binary.BigEndian, int32(0)) // no nodes
	return b.Bytes()
}
