package ipc

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"
)

// Typed adapts a handler of decoded request messages into a Handler:
//
//	srv.Handle(ipc.ClientProtocol, "getFileInfo", ipc.Typed(nn.getFileInfo))
//
// where getFileInfo is a func(ctx, *ipc.Call, *hdfspb.GetFileInfoRequestProto)
// (*hdfspb.GetFileInfoResponseProto, error). A request that does not decode
// fails the call with an RpcServerException.
func Typed[Req any, PReq interface {
	*Req
	proto.Message
}, Resp proto.Message](fn func(context.Context, *Call, PReq) (Resp, error)) Handler {
	return func(ctx context.Context, call *Call, b []byte) (proto.Message, error) {
		req := PReq(new(Req))
		if err := proto.Unmarshal(b, req); err != nil {
			return nil, &RemoteError{Class: RPCServerException, Code: CodeDeserializing,
				Message: fmt.Sprintf("decoding %s request: %v", call.Method, err)}
		}
		resp, err := fn(ctx, call, req)
		if err != nil {
			return nil, err
		}
		return resp, nil
	}
}
