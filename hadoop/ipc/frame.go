package ipc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// Wire constants of Hadoop IPC version 9.
const (
	// ipcVersion is the only connection version Hadoop 2 and 3 speak.
	ipcVersion byte = 9
	// authProtocolNone starts a connection without SASL (SIMPLE auth).
	authProtocolNone byte = 0
	// authProtocolSASL starts a connection with a SASL exchange (-33).
	authProtocolSASL byte = 0xDF

	// Reserved call ids. A server answers a connection it refuses before
	// any request (SIMPLE not enabled, a wrong IPC version) at
	// callIDAuthFailed (RpcConstants.AUTHORIZATION_FAILED_CALL_ID).
	callIDAuthFailed        int32 = -1
	callIDConnectionContext int32 = -3
	callIDPing              int32 = -4
	callIDSASL              int32 = -33

	// DefaultMaxPacketSize bounds the size of one packet either side
	// accepts unless configured otherwise.
	DefaultMaxPacketSize = 64 << 20
)

// preambleMagic opens every connection.
var preambleMagic = [4]byte{'h', 'r', 'p', 'c'}

// errMalformed reports a packet that does not follow the framing.
var errMalformed = errors.New("ipc: malformed packet")

// appendDelimited appends m, prefixed with its varint length.
func appendDelimited(b []byte, m proto.Message) ([]byte, error) {
	n := proto.Size(m)
	b = protowire.AppendVarint(b, uint64(n))
	out, err := proto.MarshalOptions{}.MarshalAppend(b, m)
	if err != nil {
		return nil, fmt.Errorf("ipc: encoding %T: %w", m, err)
	}
	return out, nil
}

// buildPacket returns a packet made of the delimited messages, with the
// 4-byte big-endian length in front. A raw, already-delimited tail may
// follow the messages.
func buildPacket(msgs ...proto.Message) ([]byte, error) {
	b := make([]byte, 4, 256)
	var err error
	for _, m := range msgs {
		if b, err = appendDelimited(b, m); err != nil {
			return nil, err
		}
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	return b, nil
}

// readPacket reads one length-prefixed packet.
func readPacket(r io.Reader, maxSize int) ([]byte, error) {
	var lenBuf [4]byte
	if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(lenBuf[:])
	if maxSize <= 0 {
		maxSize = DefaultMaxPacketSize
	}
	if uint64(n) > uint64(maxSize) {
		return nil, fmt.Errorf("%w: packet of %d bytes exceeds the limit of %d", errMalformed, n, maxSize)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		return nil, fmt.Errorf("ipc: reading packet body: %w", err)
	}
	return p, nil
}

// nextDelimited splits the first varint-delimited message off p.
func nextDelimited(p []byte) (msg, rest []byte, err error) {
	n, k := protowire.ConsumeVarint(p)
	if k < 0 || n > uint64(len(p)-k) {
		return nil, nil, errMalformed
	}
	return p[k : k+int(n)], p[k+int(n):], nil
}

// decodeNext decodes the first delimited message of p into m.
func decodeNext(p []byte, m proto.Message) ([]byte, error) {
	b, rest, err := nextDelimited(p)
	if err != nil {
		return nil, err
	}
	if err := proto.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("%w: decoding %T: %w", errMalformed, m, err)
	}
	return rest, nil
}
