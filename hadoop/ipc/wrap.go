package ipc

import (
	"errors"
	"fmt"
	"io"

	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"google.golang.org/protobuf/proto"
)

// SASL wrapping. Once a TOKEN connection negotiated integrity or privacy,
// every later packet either side sends (the connection context, calls,
// pings, responses, errors) travels inside SASL WRAP messages, as Hadoop's
// SaslRpcClient (WrappedOutputStream, WrappedInputStream) and Server
// (unwrapPacketAndProcessRpcs, wrapWithSasl) do it. The plain packets,
// each with its 4-byte length, form a byte stream; the sender cuts that
// stream into pieces, wraps each with the session's security layer and
// sends it as an ordinary packet: a header with call id -33 (on responses
// status SUCCESS) and an RpcSaslProto{state: WRAP, token}. The receiver
// unwraps the tokens in order and reads packets from the joined bytes, so
// a packet may span tokens and a token may hold several packets.
//
// Pieces are at most the security layer's MaxWrap bytes, the peer's maxbuf
// less the layer's overhead (RFC 2831). Hadoop's own peers do not cut:
// its client writes each request through a BufferedOutputStream that
// hands writes larger than its buffer straight to the wrapping stream,
// and its server wraps each response whole. So receivers here, like
// Hadoop's, take tokens of any size up to the packet limit.

// errNotWrapped reports a plain packet where a WRAP message was due.
var errNotWrapped = errors.New("packet is not SASL-wrapped")

// wrapStream returns p, bytes of the plain packet stream, as WRAP packets
// that start with header.
func wrapStream(layer securityLayer, header proto.Message, p []byte) ([]byte, error) {
	piece := max(layer.MaxWrap(), 1)
	var out []byte
	for len(p) > 0 {
		n := min(len(p), piece)
		token, err := layer.Wrap(p[:n])
		if err != nil {
			return nil, err
		}
		pkt, err := buildPacket(header, &commonpb.RpcSaslProto{
			State: commonpb.RpcSaslProto_WRAP.Enum(),
			Token: token,
		})
		if err != nil {
			return nil, err
		}
		out = append(out, pkt...)
		p = p[n:]
	}
	return out, nil
}

// wrapToken returns the token of a WRAP packet whose first message (the
// header) has been split off as rest; anything but a WRAP message is
// errNotWrapped.
func wrapToken(rest []byte) ([]byte, error) {
	msg := &commonpb.RpcSaslProto{}
	tail, err := decodeNext(rest, msg)
	if err != nil {
		return nil, err
	}
	if msg.GetState() != commonpb.RpcSaslProto_WRAP {
		return nil, fmt.Errorf("%w: SASL %s", errNotWrapped, msg.GetState())
	}
	if len(tail) != 0 {
		return nil, fmt.Errorf("%w: data after the WRAP message", errMalformed)
	}
	return msg.GetToken(), nil
}

// responseWrapToken is the token of a WRAP response packet.
func responseWrapToken(p []byte) ([]byte, error) {
	hdr := &commonpb.RpcResponseHeaderProto{}
	rest, err := decodeNext(p, hdr)
	if err != nil {
		return nil, err
	}
	if id := int32(hdr.GetCallId()); id != callIDSASL {
		return nil, fmt.Errorf("%w: response with call id %d", errNotWrapped, id)
	}
	return wrapToken(rest)
}

// requestWrapToken is the token of a WRAP request packet.
func requestWrapToken(p []byte) ([]byte, error) {
	hdr := &commonpb.RpcRequestHeaderProto{}
	rest, err := decodeNext(p, hdr)
	if err != nil {
		return nil, err
	}
	if id := hdr.GetCallId(); id != callIDSASL {
		return nil, fmt.Errorf("%w: request with call id %d", errNotWrapped, id)
	}
	return wrapToken(rest)
}

// unwrapReader reads the plain packet stream out of a stream of WRAP
// packets. Errors: errNotWrapped for a plain packet, errMalformed for a
// broken one, digestmd5.ErrIntegrity and ErrSequence for a token that
// was tampered with, replayed or reordered; I/O errors as they come.
type unwrapReader struct {
	r         io.Reader
	layer     securityLayer
	maxPacket int
	token     func(packet []byte) ([]byte, error)
	buf       []byte
}

func (u *unwrapReader) Read(p []byte) (int, error) {
	for len(u.buf) == 0 {
		pkt, err := readPacket(u.r, u.maxPacket)
		if err != nil {
			return 0, err
		}
		token, err := u.token(pkt)
		if err != nil {
			return 0, err
		}
		if u.buf, err = u.layer.Unwrap(token); err != nil {
			return 0, err
		}
	}
	n := copy(p, u.buf)
	u.buf = u.buf[n:]
	return n, nil
}
