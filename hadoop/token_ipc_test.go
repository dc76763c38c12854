package hadoop_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/proto"
)

// TestAMRMTokenFromTokenFile follows the launcher's path: the RM mints an
// AMRM token (identifier = AMRMTokenIdentifierProto, password = HMAC-SHA1
// of it under the master key), the container gets it in a token file, and
// the AM authenticates with it over TOKEN/DIGEST-MD5.
func TestAMRMTokenFromTokenFile(t *testing.T) {
	t.Parallel()
	masterKey := []byte("rm-master-key-1")
	mint := func(id []byte) []byte {
		m := hmac.New(sha1.New, masterKey)
		m.Write(id)
		return m.Sum(nil)
	}
	ident := &yarnpb.AMRMTokenIdentifierProto{
		AppAttemptId: &yarnpb.ApplicationAttemptIdProto{
			ApplicationId: &yarnpb.ApplicationIdProto{Id: proto.Int32(7), ClusterTimestamp: proto.Int64(1700000000000)},
			AttemptId:     proto.Int32(1),
		},
		KeyId: proto.Int32(1),
	}
	idBytes, err := proto.Marshal(ident)
	if err != nil {
		t.Fatal(err)
	}

	srv := ipc.NewServer(ipc.ServerOptions{
		Logger: slog.New(slog.DiscardHandler),
		Token: func(id []byte) ([]byte, string, error) {
			var got yarnpb.AMRMTokenIdentifierProto
			if err := proto.Unmarshal(id, &got); err != nil || got.GetKeyId() != 1 {
				return nil, "", errors.New("not an AMRM token of the current key")
			}
			return mint(id), "appattempt_1700000000000_0007_000001", nil
		},
	})
	srv.Handle(ipc.ApplicationMasterProtocol, "registerApplicationMaster", ipc.Typed(
		func(_ context.Context, call *ipc.Call, _ *yarnpb.RegisterApplicationMasterRequestProto) (*yarnpb.RegisterApplicationMasterResponseProto, error) {
			return &yarnpb.RegisterApplicationMasterResponseProto{Queue: proto.String(call.User)}, nil
		}))
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	path := filepath.Join(t.TempDir(), "container_tokens")
	creds := &hadoop.Credentials{Tokens: map[string]hadoop.Token{
		"appattempt_1700000000000_0007_000001": {Identifier: idBytes, Password: mint(idBytes), Kind: hadoop.KindAMRMToken, Service: srv.Addr()},
	}}
	if err := hadoop.WriteTokenFile(path, creds, hadoop.TokenFormatWritable); err != nil {
		t.Fatal(err)
	}

	env := map[string]string{hadoop.TokenFileEnv: path}
	read, err := hadoop.CredentialsFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	tok, ok := read.TokenOfKind(hadoop.KindAMRMToken)
	if !ok {
		t.Fatal("no AMRM token in the token file")
	}
	ctx := context.Background()
	c, err := ipc.Dial(ctx, ipc.ClientOptions{Addr: tok.Service, Protocol: ipc.ApplicationMasterProtocol, Token: tok.IPC()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	resp := &yarnpb.RegisterApplicationMasterResponseProto{}
	if err := c.Call(ctx, "registerApplicationMaster", &yarnpb.RegisterApplicationMasterRequestProto{}, resp); err != nil {
		t.Fatal(err)
	}
	if resp.GetQueue() != "appattempt_1700000000000_0007_000001" {
		t.Errorf("server saw user %q", resp.GetQueue())
	}

	// A token minted under another key is refused.
	forged := hadoop.Token{Identifier: idBytes, Password: []byte("guess")}
	if _, err := ipc.Dial(ctx, ipc.ClientOptions{Addr: srv.Addr(), Protocol: ipc.ApplicationMasterProtocol, Token: forged.IPC()}); err == nil {
		t.Error("a forged token authenticated")
	}
}
