package ipc_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"sync"
	"testing"

	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/kdc"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// recordingConn keeps what the client writes.
type recordingConn struct {
	net.Conn
	mu  sync.Mutex
	out bytes.Buffer
}

func (r *recordingConn) Write(p []byte) (int, error) {
	r.mu.Lock()
	r.out.Write(p)
	r.mu.Unlock()
	return r.Conn.Write(p)
}

func (r *recordingConn) written() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.out.Bytes())
}

// TestKerberosProtection: GSSAPI negotiates the security layer of the
// levels both sides list (the client's first the server offers), the
// server sees it on every call, and under privacy nothing of a call
// travels in the clear; with no level in common the client refuses.
func TestKerberosProtection(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	k.AddUser(t, "alice", "alicepw")
	k.AddService(t, "nn/localhost")
	kt, err := keytab.Load(k.Keytab(t, "nn.keytab", "nn/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	cl := krbclient.NewWithPassword("alice", kdc.Realm, "alicepw", k.Config(t), krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Destroy)
	I, P, A := ipc.ProtectionIntegrity, ipc.ProtectionPrivacy, ipc.ProtectionAuthentication
	tests := []struct {
		name           string
		server, client []ipc.Protection
		want           ipc.Protection
		noCommon       bool
	}{
		{"privacy", []ipc.Protection{P}, []ipc.Protection{P}, P, false},
		{"integrity", []ipc.Protection{I}, []ipc.Protection{I}, I, false},
		{"authentication by default", nil, nil, A, false},
		{"client's first offered", []ipc.Protection{A, I, P}, []ipc.Protection{I, P}, I, false},
		{"no common level", []ipc.Protection{P}, []ipc.Protection{A}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, calls := protectedServerWith(t, ipc.ServerOptions{
				Kerberos:   &ipc.KerberosOptions{Keytab: kt, Service: "nn", Host: "localhost"},
				Protection: tt.server,
			})
			_, port, _ := net.SplitHostPort(srv.Addr())
			var rec *recordingConn
			c, err := ipc.Dial(ctxT(t), ipc.ClientOptions{
				Addr: "localhost:" + port, Protocol: ipc.ApplicationMasterProtocol,
				Kerberos: cl, ServicePrincipal: "nn/_HOST@" + kdc.Realm, Protection: tt.client,
				Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
					nc, err := (&net.Dialer{}).DialContext(ctx, network, addr)
					if err != nil {
						return nil, err
					}
					rec = &recordingConn{Conn: nc}
					return rec, nil
				},
			})
			if tt.noCommon {
				if !errors.Is(err, ipc.ErrNoCommonProtection) {
					t.Fatalf("Dial = %v, want ErrNoCommonProtection", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if c.AuthMethod() != ipc.AuthKerberos || c.Protection() != tt.want {
				t.Errorf("client: %s with %s, want KERBEROS with %s", c.AuthMethod(), c.Protection(), tt.want)
			}
			for i := range 3 {
				resp, err := echo(ctxT(t), c, "confidential-host-name")
				if err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				if got := ipc.Protection(resp.ClientToAmTokenMasterKey); got != tt.want {
					t.Errorf("server saw %s, want %s", got, tt.want)
				}
				if resp.GetQueue() != "confidential-host-name" {
					t.Errorf("echo = %q", resp.GetQueue())
				}
			}
			if calls.Load() != 3 {
				t.Errorf("handler ran %d times, want 3", calls.Load())
			}
			clear := bytes.Contains(rec.written(), []byte("confidential-host-name"))
			if clear != (tt.want != P) {
				t.Errorf("call in the clear on the wire = %v under %s", clear, tt.want)
			}
		})
	}
}
