package ipc

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"google.golang.org/protobuf/proto"
)

// seedSession builds a well-formed SIMPLE session: context plus one call.
func seedSession(t testing.TB) []byte {
	hdr := func(id int32) *commonpb.RpcRequestHeaderProto {
		return &commonpb.RpcRequestHeaderProto{CallId: proto.Int32(id), ClientId: make([]byte, 16)}
	}
	ctxPkt, err := buildPacket(hdr(callIDConnectionContext), &commonpb.IpcConnectionContextProto{
		UserInfo: &commonpb.UserInformationProto{EffectiveUser: proto.String("u")}, Protocol: proto.String(ApplicationMasterProtocol),
	})
	if err != nil {
		t.Fatal(err)
	}
	call, err := buildPacket(hdr(0), &commonpb.RequestHeaderProto{
		MethodName: proto.String("allocate"), DeclaringClassProtocolName: proto.String(ApplicationMasterProtocol), ClientProtocolVersion: proto.Uint64(1),
	}, &yarnpb.AllocateRequestProto{ResponseId: proto.Int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	return append(ctxPkt, call...)
}

// FuzzServerConn feeds arbitrary bytes after the preamble to a server
// connection: it must neither panic nor hang.
func FuzzServerConn(f *testing.F) {
	f.Add(byte(0), seedSession(f))
	f.Add(byte(0xDF), []byte{0, 0, 0, 4, 2, 0x18, 0x41, 0})
	f.Add(byte(0), []byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, auth byte, data []byte) {
		srv := NewServer(ServerOptions{
			Simple: true,
			Token:  func([]byte) ([]byte, string, error) { return []byte("pw"), "u", nil },
			Logger: slog.New(slog.DiscardHandler), MaxPacketSize: 1 << 16,
		})
		srv.Handle(ApplicationMasterProtocol, "allocate", Typed(func(_ context.Context, _ *Call, req *yarnpb.AllocateRequestProto) (*yarnpb.AllocateResponseProto, error) {
			return &yarnpb.AllocateResponseProto{ResponseId: proto.Int32(req.GetResponseId())}, nil
		}))
		client, server := net.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			newServerConn(srv, server).serve(context.Background())
			server.Close()
		}()
		go io.Copy(io.Discard, client)
		client.SetWriteDeadline(time.Now().Add(5 * time.Second))
		client.Write(append([]byte{'h', 'r', 'p', 'c', 9, 0, auth}, data...))
		client.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("server connection did not end")
		}
	})
}
