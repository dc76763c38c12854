package ipc

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"google.golang.org/protobuf/proto"
)

// tokenServer starts a TOKEN-only server whose one token (id "t", password
// "pw") stands for bob; any other identifier is refused with refusal.
func tokenServer(t *testing.T, refusal error) *Server {
	t.Helper()
	srv := NewServer(ServerOptions{Token: func(id []byte) ([]byte, string, error) {
		if string(id) != "t" {
			return nil, "", refusal
		}
		return []byte("pw"), "bob", nil
	}})
	srv.Handle(ClientProtocol, "ping", func(context.Context, *Call, []byte) (proto.Message, error) {
		return &commonpb.CancelDelegationTokenResponseProto{}, nil
	})
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// TestTokenContextNamesAnotherUser: over TOKEN a connection context that
// names a user other than the token's is refused (Hadoop's
// Server.processConnectionContext: no doAs with a token).
func TestTokenContextNamesAnotherUser(t *testing.T) {
	t.Parallel()
	srv := tokenServer(t, errors.New("unused"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, tc := range []struct{ user, wantErr string }{
		{"bob", ""},
		{"mallory", "Authenticated user (bob) doesn't match what the client claims to be (mallory)"},
	} {
		nc, err := net.Dial("tcp", srv.Addr())
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		sess, err := Authenticate(ctx, nc, ClientOptions{Addr: srv.Addr(), Token: &Token{Identifier: []byte("t"), Password: []byte("pw")}})
		if err != nil {
			t.Fatal(err)
		}
		c := sess.c
		cc := &commonpb.IpcConnectionContextProto{Protocol: proto.String(ClientProtocol),
			UserInfo: &commonpb.UserInformationProto{EffectiveUser: proto.String(tc.user)}}
		p, err := buildPacket(c.requestHeader(callIDConnectionContext), cc)
		if err != nil {
			t.Fatal(err)
		}
		call, err := buildPacket(c.requestHeader(0), &commonpb.RequestHeaderProto{MethodName: proto.String("ping"),
			DeclaringClassProtocolName: proto.String(ClientProtocol), ClientProtocolVersion: proto.Uint64(1)},
			&commonpb.CancelDelegationTokenResponseProto{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := nc.Write(append(p, call...)); err != nil {
			t.Fatal(err)
		}
		nc.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := readPacket(bufio.NewReader(nc), DefaultMaxPacketSize)
		if err != nil {
			t.Fatalf("%s: reading the answer: %v", tc.user, err)
		}
		hdr := &commonpb.RpcResponseHeaderProto{}
		if _, err := decodeNext(resp, hdr); err != nil {
			t.Fatal(err)
		}
		if tc.wantErr == "" {
			if hdr.GetStatus() != commonpb.RpcResponseHeaderProto_SUCCESS {
				t.Errorf("%s: %s %s, want success", tc.user, hdr.GetExceptionClassName(), hdr.GetErrorMsg())
			}
			continue
		}
		if hdr.GetStatus() != commonpb.RpcResponseHeaderProto_FATAL || hdr.GetExceptionClassName() != AccessControlException || hdr.GetErrorMsg() != tc.wantErr {
			t.Errorf("%s: %s %s %q, want FATAL %s %q", tc.user, hdr.GetStatus(), hdr.GetExceptionClassName(), hdr.GetErrorMsg(), AccessControlException, tc.wantErr)
		}
	}
}

// TestTokenRefusalMessage: a token the secret lookup refuses is answered
// with InvalidToken carrying the lookup's own message, as Hadoop's client
// sees the secret manager's words.
func TestTokenRefusalMessage(t *testing.T) {
	t.Parallel()
	const msg = "token (token for bob: HDFS_DELEGATION_TOKEN owner=bob) can't be found in cache"
	srv := tokenServer(t, errors.New(msg))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Dial(ctx, ClientOptions{Addr: srv.Addr(), Protocol: ClientProtocol, Token: &Token{Identifier: []byte("gone"), Password: []byte("pw")}})
	var re *RemoteError
	if !errors.As(err, &re) || re.Class != InvalidTokenException || re.Message != msg {
		t.Errorf("Dial with a refused token: %v, want InvalidToken %q", err, msg)
	}
	if err != nil && strings.Contains(err.Error(), "invalid token: ") {
		t.Errorf("the refusal is wrapped: %v", err)
	}
}
