package minidfs_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/delegation"
	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/minidfs"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"google.golang.org/protobuf/proto"
)

func dial(t *testing.T, opts ipc.ClientOptions) *ipc.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	opts.Protocol = ipc.ClientProtocol
	c, err := ipc.Dial(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func remote(err error, class, msg string) bool {
	var re *ipc.RemoteError
	return errors.As(err, &re) && re.Class == class && strings.Contains(re.Message, msg)
}

// TestDelegationTokens: a secure NameNode issues a Kerberos caller an
// HDFS_DELEGATION_TOKEN (owner the principal, no real user, the renewer's
// short name, HMAC-SHA1 password) and takes it for TOKEN authentication,
// the caller then being the owner; over a token it issues and renews no
// tokens; only the owner or the renewer cancels one.
func TestDelegationTokens(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	k.AddUser(t, "alice", "alicepw")
	k.AddUser(t, "mallory", "mallorypw")
	k.AddService(t, "nn/localhost")
	kt, err := keytab.Load(k.Keytab(t, "nn.keytab", "nn/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := minidfs.Start(context.Background(), minidfs.Options{
		Root: t.TempDir(), Superuser: "hdfs", NameNodeAddrs: []string{"localhost:0"},
		Kerberos: &ipc.KerberosOptions{Keytab: kt, Service: "nn", Host: "localhost"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	login := func(user, pw string) *krbclient.Client {
		cl := krbclient.NewWithPassword(user, kdc.Realm, pw, k.Config(t), krbclient.DisablePAFXFAST(true))
		if err := cl.Login(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Destroy)
		return cl
	}
	ctx := context.Background()
	alice := dial(t, ipc.ClientOptions{Addr: m.Addr(), Kerberos: login("alice", "alicepw"), ServicePrincipal: "nn/_HOST"})
	resp := &commonpb.GetDelegationTokenResponseProto{}
	if err := alice.Call(ctx, "getDelegationToken", &commonpb.GetDelegationTokenRequestProto{Renewer: proto.String("yarn/localhost@" + kdc.Realm)}, resp); err != nil {
		t.Fatal(err)
	}
	tok := resp.GetToken()
	id, err := delegation.Parse(tok.GetIdentifier())
	if err != nil {
		t.Fatal(err)
	}
	if tok.GetKind() != minidfs.KindHDFSDelegationToken || id.Owner != "alice@"+kdc.Realm || id.RealUser != "" || id.Renewer != "yarn" || id.SequenceNumber != 1 {
		t.Errorf("token %s %+v: want alice's, renewer yarn", tok.GetKind(), id)
	}
	if got := id.Max().Sub(id.Issued()); got != minidfs.DefaultTokenMaxLifetime {
		t.Errorf("max lifetime %v, want the default %v", got, minidfs.DefaultTokenMaxLifetime)
	}

	// The token authenticates; the caller is its owner.
	withToken := dial(t, ipc.ClientOptions{Addr: m.Addr(), Token: &ipc.Token{Identifier: tok.GetIdentifier(), Password: tok.GetPassword()}})
	if withToken.AuthMethod() != ipc.AuthToken {
		t.Errorf("auth %s, want TOKEN (offered before KERBEROS)", withToken.AuthMethod())
	}
	mk := &hdfspb.MkdirsResponseProto{}
	if err := withToken.Call(ctx, "mkdirs", &hdfspb.MkdirsRequestProto{Src: proto.String("/tmp/alice"),
		Masked: &hdfspb.FsPermissionProto{Perm: proto.Uint32(0o755)}, CreateParent: proto.Bool(true)}, mk); err == nil {
		t.Error("mkdirs under / as alice (not the superuser) succeeded")
	} else if !remote(err, ipc.AccessControlException, "user=alice,") {
		t.Errorf("mkdirs with the token: %v, want a refusal naming user=alice", err)
	}
	err = withToken.Call(ctx, "getDelegationToken", &commonpb.GetDelegationTokenRequestProto{Renewer: proto.String("yarn")}, resp)
	if !remote(err, ipc.IOException, "Delegation Token can be issued only with kerberos or web authentication") {
		t.Errorf("getDelegationToken over a token: %v", err)
	}
	err = withToken.Call(ctx, "renewDelegationToken", &commonpb.RenewDelegationTokenRequestProto{Token: tok}, &commonpb.RenewDelegationTokenResponseProto{})
	if !remote(err, ipc.IOException, "Delegation Token can be renewed only with kerberos or web authentication") {
		t.Errorf("renewDelegationToken over a token: %v", err)
	}

	// Neither owner nor renewer: no cancel.
	mallory := dial(t, ipc.ClientOptions{Addr: m.Addr(), Kerberos: login("mallory", "mallorypw"), ServicePrincipal: "nn/_HOST"})
	err = mallory.Call(ctx, "cancelDelegationToken", &commonpb.CancelDelegationTokenRequestProto{Token: tok}, &commonpb.CancelDelegationTokenResponseProto{})
	if !remote(err, ipc.AccessControlException, "mallory@"+kdc.Realm+" is not authorized to cancel the token (token for alice: HDFS_DELEGATION_TOKEN owner=alice@") {
		t.Errorf("cancel by mallory: %v", err)
	}
	if err := alice.Call(ctx, "cancelDelegationToken", &commonpb.CancelDelegationTokenRequestProto{Token: tok}, &commonpb.CancelDelegationTokenResponseProto{}); err != nil {
		t.Fatalf("cancel by alice: %v", err)
	}
	err = alice.Call(ctx, "cancelDelegationToken", &commonpb.CancelDelegationTokenRequestProto{Token: tok}, &commonpb.CancelDelegationTokenResponseProto{})
	if !remote(err, ipc.InvalidTokenException, "Token not found (token for alice") {
		t.Errorf("a second cancel: %v", err)
	}
	_, err = ipc.Dial(ctx, ipc.ClientOptions{Addr: m.Addr(), Protocol: ipc.ClientProtocol, Token: &ipc.Token{Identifier: tok.GetIdentifier(), Password: tok.GetPassword()}})
	if !remote(err, ipc.InvalidTokenException, "can't be found in cache") {
		t.Errorf("a cancelled token: %v", err)
	}
}

// TestDelegationTokenSimpleNameNode: without security no secret manager
// runs: getDelegationToken answers no token (FSNamesystem.getDelegationToken
// returns null), and no error.
func TestDelegationTokenSimpleNameNode(t *testing.T) {
	t.Parallel()
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c := dial(t, ipc.ClientOptions{Addr: m.Addr(), User: "alice"})
	resp := &commonpb.GetDelegationTokenResponseProto{}
	if err := c.Call(context.Background(), "getDelegationToken", &commonpb.GetDelegationTokenRequestProto{Renewer: proto.String("yarn")}, resp); err != nil || resp.Token != nil {
		t.Errorf("getDelegationToken: %v, %v; want no token and no error", resp.Token, err)
	}
}
