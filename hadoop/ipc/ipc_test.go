package ipc_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/proto"
)

// amServer is a tiny ApplicationMasterProtocol service used to exercise
// the IPC layer: it records who registered and echoes values back.
type amServer struct {
	mu         sync.Mutex
	registered map[string]string // user -> host
}

func (a *amServer) register(ctx context.Context, call *ipc.Call, req *yarnpb.RegisterApplicationMasterRequestProto) (*yarnpb.RegisterApplicationMasterResponseProto, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.registered[call.User]; ok {
		return nil, ipc.Errorf(ipc.InvalidApplicationMasterRequestException, "Application Master is already registered : %s", call.User)
	}
	a.registered[call.User] = req.GetHost()
	return &yarnpb.RegisterApplicationMasterResponseProto{Queue: proto.String("queue-of-" + call.User)}, nil
}

func (a *amServer) allocate(ctx context.Context, call *ipc.Call, req *yarnpb.AllocateRequestProto) (*yarnpb.AllocateResponseProto, error) {
	return &yarnpb.AllocateResponseProto{ResponseId: proto.Int32(req.GetResponseId() + 1)}, nil
}

func (a *amServer) finish(ctx context.Context, call *ipc.Call, req *yarnpb.FinishApplicationMasterRequestProto) (*yarnpb.FinishApplicationMasterResponseProto, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.registered[call.User]; !ok {
		return nil, ipc.Errorf(ipc.ApplicationMasterNotRegisteredException, "not registered: %s", call.User)
	}
	return &yarnpb.FinishApplicationMasterResponseProto{IsUnregistered: proto.Bool(true)}, nil
}

type tokenDB map[string]struct {
	password []byte
	user     string
}

func (db tokenDB) lookup(id []byte) ([]byte, string, error) {
	t, ok := db[string(id)]
	if !ok {
		return nil, "", fmt.Errorf("token %x is unknown", id)
	}
	return t.password, t.user, nil
}

func startServer(t *testing.T, opts ipc.ServerOptions) (*ipc.Server, *amServer) {
	t.Helper()
	am := &amServer{registered: map[string]string{}}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	srv := ipc.NewServer(opts)
	srv.Handle(ipc.ApplicationMasterProtocol, "registerApplicationMaster", ipc.Typed(am.register))
	srv.Handle(ipc.ApplicationMasterProtocol, "allocate", ipc.Typed(am.allocate))
	srv.Handle(ipc.ApplicationMasterProtocol, "finishApplicationMaster", ipc.Typed(am.finish))
	srv.Handle(ipc.ApplicationMasterProtocol, "panics", func(context.Context, *ipc.Call, []byte) (proto.Message, error) {
		panic("boom")
	})
	srv.Handle(ipc.ApplicationMasterProtocol, "notFound", func(context.Context, *ipc.Call, []byte) (proto.Message, error) {
		return nil, fmt.Errorf("looking up /x: %w", fs.ErrNotExist)
	})
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, am
}

func dial(t *testing.T, opts ipc.ClientOptions) *ipc.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := ipc.Dial(ctx, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	db := tokenDB{"id-1": {password: []byte{1, 2, 3, 0xff}, user: "appattempt_1_0001_000001"}}
	tests := []struct {
		name     string
		server   ipc.ServerOptions
		client   ipc.ClientOptions
		wantAuth ipc.AuthMethod
		wantUser string
		wantErr  string // substring; empty means success
	}{
		{name: "simple", server: ipc.ServerOptions{},
			client:   ipc.ClientOptions{User: "alice"},
			wantAuth: ipc.AuthSimple, wantUser: "alice"},
		{name: "token", server: ipc.ServerOptions{Token: db.lookup},
			client:   ipc.ClientOptions{Token: &ipc.Token{Identifier: []byte("id-1"), Password: []byte{1, 2, 3, 0xff}}},
			wantAuth: ipc.AuthToken, wantUser: "appattempt_1_0001_000001"},
		{name: "token offered with simple, client has token", server: ipc.ServerOptions{Token: db.lookup, Simple: true},
			client:   ipc.ClientOptions{User: "bob", Token: &ipc.Token{Identifier: []byte("id-1"), Password: []byte{1, 2, 3, 0xff}}},
			wantAuth: ipc.AuthToken, wantUser: "appattempt_1_0001_000001"},
		{name: "token offered with simple, client without token", server: ipc.ServerOptions{Token: db.lookup, Simple: true},
			client:   ipc.ClientOptions{User: "bob"},
			wantAuth: ipc.AuthSimple, wantUser: "bob"},
		{name: "wrong password", server: ipc.ServerOptions{Token: db.lookup},
			client:  ipc.ClientOptions{Token: &ipc.Token{Identifier: []byte("id-1"), Password: []byte{1, 2, 3}}},
			wantErr: ipc.AccessControlException},
		{name: "unknown token", server: ipc.ServerOptions{Token: db.lookup},
			client:  ipc.ClientOptions{Token: &ipc.Token{Identifier: []byte("id-2"), Password: []byte{1}}},
			wantErr: ipc.InvalidTokenException},
		{name: "simple refused by token-only server", server: ipc.ServerOptions{Token: db.lookup},
			client:  ipc.ClientOptions{User: "mallory"},
			wantErr: "SIMPLE authentication is not enabled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, am := startServer(t, tt.server)
			opts := tt.client
			opts.Addr, opts.Protocol = srv.Addr(), ipc.ApplicationMasterProtocol
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, err := ipc.Dial(ctx, opts)
			if err == nil {
				defer c.Close()
				resp := &yarnpb.RegisterApplicationMasterResponseProto{}
				err = c.Call(ctx, "registerApplicationMaster", &yarnpb.RegisterApplicationMasterRequestProto{Host: proto.String("h1")}, resp)
				if err == nil && resp.GetQueue() != "queue-of-"+tt.wantUser {
					t.Errorf("queue = %q, want the server to see user %q", resp.GetQueue(), tt.wantUser)
				}
			}
			if tt.wantErr != "" {
				if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tt.wantErr)) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				if len(am.registered) != 0 {
					t.Errorf("a rejected client reached the handler: %v", am.registered)
				}
				return
			}
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if c.AuthMethod() != tt.wantAuth {
				t.Errorf("AuthMethod = %s, want %s", c.AuthMethod(), tt.wantAuth)
			}
			if am.registered[tt.wantUser] != "h1" {
				t.Errorf("registered = %v, want %s on h1", am.registered, tt.wantUser)
			}
		})
	}
}

func TestRemoteErrors(t *testing.T) {
	t.Parallel()
	srv, _ := startServer(t, ipc.ServerOptions{})
	c := dial(t, ipc.ClientOptions{Addr: srv.Addr(), Protocol: ipc.ApplicationMasterProtocol, User: "u"})
	other := dial(t, ipc.ClientOptions{Addr: srv.Addr(), Protocol: "org.example.Nope", User: "u"})
	ctx := context.Background()
	tests := []struct {
		name   string
		client *ipc.Client
		method string
		class  string
		code   ipc.ErrorCode
		is     error
	}{
		{"handler RemoteError", c, "finishApplicationMaster", ipc.ApplicationMasterNotRegisteredException, ipc.CodeApplication, nil},
		{"fs sentinel", c, "notFound", ipc.FileNotFoundException, ipc.CodeApplication, fs.ErrNotExist},
		{"panic", c, "panics", ipc.RPCServerException, ipc.CodeServer, nil},
		{"no such method", c, "nope", ipc.NoSuchMethodException, ipc.CodeNoSuchMethod, nil},
		{"no such protocol", other, "allocate", ipc.NoSuchProtocolException, ipc.CodeNoSuchProtocol, nil},
	}
	for _, tt := range tests {
		err := tt.client.Call(ctx, tt.method, &yarnpb.FinishApplicationMasterRequestProto{}, &yarnpb.FinishApplicationMasterResponseProto{})
		var re *ipc.RemoteError
		if !errors.As(err, &re) {
			t.Fatalf("%s: err = %v, want a RemoteError", tt.name, err)
		}
		if re.Class != tt.class || re.Code != tt.code || re.Method != tt.method || re.Fatal {
			t.Errorf("%s: got %+v, want class %s code %s", tt.name, re, tt.class, tt.code)
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: errors.Is(%v, %v) = false", tt.name, err, tt.is)
		}
	}
	// The connection survives ERROR responses.
	resp := &yarnpb.AllocateResponseProto{}
	if err := c.Call(ctx, "allocate", &yarnpb.AllocateRequestProto{ResponseId: proto.Int32(41)}, resp); err != nil {
		t.Fatal(err)
	}
	if resp.GetResponseId() != 42 {
		t.Errorf("response id = %d, want 42", resp.GetResponseId())
	}
}

func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	srv, _ := startServer(t, ipc.ServerOptions{})
	c := dial(t, ipc.ClientOptions{Addr: srv.Addr(), Protocol: ipc.ApplicationMasterProtocol, User: "u"})
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := &yarnpb.AllocateResponseProto{}
			if err := c.Call(context.Background(), "allocate", &yarnpb.AllocateRequestProto{ResponseId: proto.Int32(int32(i))}, resp); err != nil {
				errs <- err
				return
			}
			if resp.GetResponseId() != int32(i)+1 {
				errs <- fmt.Errorf("call %d got response id %d", i, resp.GetResponseId())
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestStandby(t *testing.T) {
	t.Parallel()
	srv, _ := startServer(t, ipc.ServerOptions{})
	c := dial(t, ipc.ClientOptions{Addr: srv.Addr(), Protocol: ipc.ApplicationMasterProtocol, User: "u"})
	srv.SetStandby(true)
	err := c.Call(context.Background(), "allocate", &yarnpb.AllocateRequestProto{}, &yarnpb.AllocateResponseProto{})
	if !errors.Is(err, ipc.ErrStandby) {
		t.Fatalf("err = %v, want ErrStandby", err)
	}
	srv.SetStandby(false)
	if err := c.Call(context.Background(), "allocate", &yarnpb.AllocateRequestProto{}, &yarnpb.AllocateResponseProto{}); err != nil {
		t.Fatalf("after leaving standby: %v", err)
	}
}

func TestCloseFailsPendingAndLaterCalls(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	entered := make(chan struct{})
	srv := ipc.NewServer(ipc.ServerOptions{})
	srv.Handle(ipc.ApplicationMasterProtocol, "allocate", func(ctx context.Context, _ *ipc.Call, _ []byte) (proto.Message, error) {
		close(entered)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return &yarnpb.AllocateResponseProto{}, nil
	})
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	defer close(release)
	c := dial(t, ipc.ClientOptions{Addr: srv.Addr(), Protocol: ipc.ApplicationMasterProtocol, User: "u"})

	// A call whose context ends returns the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- c.Call(ctx, "allocate", &yarnpb.AllocateRequestProto{}, &yarnpb.AllocateResponseProto{})
	}()
	<-entered
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: err = %v, want context.Canceled", err)
	}
	c.Close()
	err := c.Call(context.Background(), "allocate", &yarnpb.AllocateRequestProto{}, &yarnpb.AllocateResponseProto{})
	if !errors.Is(err, ipc.ErrClosed) {
		t.Fatalf("call after Close: err = %v, want ErrClosed", err)
	}
}

func TestServerCloseEndsClients(t *testing.T) {
	t.Parallel()
	srv, _ := startServer(t, ipc.ServerOptions{})
	c := dial(t, ipc.ClientOptions{Addr: srv.Addr(), Protocol: ipc.ApplicationMasterProtocol, User: "u"})
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	srv.Close() // idempotent
	err := c.Call(context.Background(), "allocate", &yarnpb.AllocateRequestProto{}, &yarnpb.AllocateResponseProto{})
	if !errors.Is(err, ipc.ErrClosed) {
		t.Fatalf("err = %v, want ErrClosed", err)
	}
}
