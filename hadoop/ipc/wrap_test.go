package ipc

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/gozie/gozie/hadoop/digestmd5"
	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"google.golang.org/protobuf/proto"
)

// testLayers negotiates a DIGEST-MD5 security layer pair.
func testLayers(t *testing.T, qop string) (client, server *digestmd5.SecurityLayer) {
	t.Helper()
	srv := &digestmd5.Server{Realm: "default", ServerName: "default", Qops: []string{qop},
		Password: func(string) (string, error) { return "pw", nil }}
	cl := &digestmd5.Client{Username: "u", Password: "pw", ServerName: "default", Qops: []string{qop}}
	ch, err := srv.Challenge()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := cl.Respond(ch)
	if err != nil {
		t.Fatal(err)
	}
	rsp, err := srv.Respond(resp)
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.Verify(rsp); err != nil {
		t.Fatal(err)
	}
	return cl.SecurityLayer(), srv.SecurityLayer()
}

func plainPackets(t *testing.T, sizes ...int) [][]byte {
	t.Helper()
	var out [][]byte
	for i, n := range sizes {
		p, err := buildPacket(&commonpb.RpcResponseHeaderProto{CallId: proto.Uint32(uint32(i)), Status: commonpb.RpcResponseHeaderProto_SUCCESS.Enum(), ErrorMsg: proto.String(string(bytes.Repeat([]byte{'a' + byte(i)}, n)))})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// readAll reads the packets back through an unwrapReader.
func readAll(t *testing.T, layer *digestmd5.SecurityLayer, wire []byte, n int) [][]byte {
	t.Helper()
	r := &unwrapReader{r: bytes.NewReader(wire), layer: digestLayer{layer}, maxPacket: DefaultMaxPacketSize, token: responseWrapToken}
	var out [][]byte
	for range n {
		p, err := readPacket(r, DefaultMaxPacketSize)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	if _, err := readPacket(r, DefaultMaxPacketSize); !errors.Is(err, io.EOF) {
		t.Errorf("after the packets: %v, want EOF", err)
	}
	return out
}

func wrapResponse(t *testing.T, layer *digestmd5.SecurityLayer, token []byte) []byte {
	t.Helper()
	id := callIDSASL
	p, err := buildPacket(&commonpb.RpcResponseHeaderProto{CallId: proto.Uint32(uint32(id)), Status: commonpb.RpcResponseHeaderProto_SUCCESS.Enum()},
		&commonpb.RpcSaslProto{State: commonpb.RpcSaslProto_WRAP.Enum(), Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestUnwrapReaderTakesAnyCut: a receiver reads packets out of tokens cut
// anywhere: one token holding several packets and more than maxbuf (as
// Hadoop's server wraps a response whole), and tokens of a few bytes.
func TestUnwrapReaderTakesAnyCut(t *testing.T) {
	t.Parallel()
	for _, qop := range []string{digestmd5.QopAuthInt, digestmd5.QopAuthConf} {
		pkts := plainPackets(t, 10, 100_000, 0, 3)
		stream := bytes.Join(pkts, nil)

		srv, cl := testLayers(t, qop)
		whole := wrapResponse(t, srv, srv.Wrap(stream))
		if got := readAll(t, cl, whole, len(pkts)); !bytes.Equal(bytes.Join(got, nil), bytes.Join(trimLengths(pkts), nil)) {
			t.Errorf("%s: one big token: packets differ", qop)
		}

		pkts = plainPackets(t, 10, 300, 0, 3)
		stream = bytes.Join(pkts, nil)
		srv, cl = testLayers(t, qop)
		var wire []byte
		for rest := stream; len(rest) > 0; {
			n := min(len(rest), 7)
			wire = append(wire, wrapResponse(t, srv, srv.Wrap(rest[:n]))...)
			rest = rest[n:]
		}
		wire = append(wire, wrapResponse(t, srv, nil)...) // an empty token carries nothing
		if got := readAll(t, cl, wire, len(pkts)); !bytes.Equal(bytes.Join(got, nil), bytes.Join(trimLengths(pkts), nil)) {
			t.Errorf("%s: 7-byte tokens: packets differ", qop)
		}
	}
}

// trimLengths drops the 4-byte length readPacket strips.
func trimLengths(pkts [][]byte) [][]byte {
	out := make([][]byte, len(pkts))
	for i, p := range pkts {
		out[i] = p[4:]
	}
	return out
}

// TestWrapStreamHonoursMaxbuf: senders here cut at MaxWrap.
func TestWrapStreamHonoursMaxbuf(t *testing.T) {
	t.Parallel()
	cl, srv := testLayers(t, digestmd5.QopAuthConf)
	stream := bytes.Join(plainPackets(t, 200_000), nil)
	id := callIDSASL
	wire, err := wrapStream(digestLayer{cl}, &commonpb.RpcRequestHeaderProto{CallId: proto.Int32(id), ClientId: make([]byte, 16)}, stream)
	if err != nil {
		t.Fatal(err)
	}
	r := &unwrapReader{r: bytes.NewReader(wire), layer: digestLayer{srv}, maxPacket: DefaultMaxPacketSize, token: requestWrapToken}
	tokens := 0
	for rest := wire; len(rest) > 0; tokens++ {
		p, err := readPacket(bytes.NewReader(rest), DefaultMaxPacketSize)
		if err != nil {
			t.Fatal(err)
		}
		if len(p) > digestmd5.DefaultMaxBuf+64 {
			t.Errorf("a %d-byte WRAP packet", len(p))
		}
		rest = rest[4+len(p):]
	}
	if want := (len(stream) + cl.MaxWrap() - 1) / cl.MaxWrap(); tokens != want {
		t.Errorf("%d WRAP packets, want %d", tokens, want)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, stream) {
		t.Errorf("unwrapped %d bytes, %v", len(got), err)
	}
	// A response read as a request, and a plain packet, are not wrapped.
	if _, err := requestWrapToken(wrapResponse(t, cl, []byte("x"))[4:]); err == nil {
		t.Error("a response header passed as a request's")
	}
	plain := plainPackets(t, 1)[0]
	if _, err := responseWrapToken(plain[4:]); !errors.Is(err, errNotWrapped) {
		t.Errorf("plain packet: %v, want errNotWrapped", err)
	}
}
