package ipc_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/digestmd5"
	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

var (
	testToken = &ipc.Token{Identifier: []byte("id-1"), Password: []byte{1, 2, 3, 0xff}}
	testDB    = tokenDB{"id-1": {password: []byte{1, 2, 3, 0xff}, user: "appattempt_1_0001_000001"}}
)

// protectedServer is startServer with TOKEN authentication at the given
// levels and an "echo" method that answers with the request's host (as
// the queue) and the call's protection level (in a bytes field),
// counting its calls.
func protectedServer(t *testing.T, levels ...ipc.Protection) (*ipc.Server, *atomic.Int64) {
	t.Helper()
	return protectedServerWith(t, ipc.ServerOptions{Token: testDB.lookup, Protection: levels})
}

// protectedServerWith is protectedServer with other server options.
func protectedServerWith(t *testing.T, opts ipc.ServerOptions) (*ipc.Server, *atomic.Int64) {
	t.Helper()
	srv, _ := startServer(t, opts)
	var calls atomic.Int64
	srv.Handle(ipc.ApplicationMasterProtocol, "echo", ipc.Typed(
		func(_ context.Context, call *ipc.Call, req *yarnpb.RegisterApplicationMasterRequestProto) (*yarnpb.RegisterApplicationMasterResponseProto, error) {
			calls.Add(1)
			return &yarnpb.RegisterApplicationMasterResponseProto{
				Queue:                    proto.String(req.GetHost()),
				ClientToAmTokenMasterKey: []byte(call.Protection),
			}, nil
		}))
	return srv, &calls
}

func echo(ctx context.Context, c *ipc.Client, host string) (*yarnpb.RegisterApplicationMasterResponseProto, error) {
	resp := &yarnpb.RegisterApplicationMasterResponseProto{}
	err := c.Call(ctx, "echo", &yarnpb.RegisterApplicationMasterRequestProto{Host: proto.String(host)}, resp)
	return resp, err
}

func TestProtectionLevels(t *testing.T) {
	t.Parallel()
	I, P, A := ipc.ProtectionIntegrity, ipc.ProtectionPrivacy, ipc.ProtectionAuthentication
	tests := []struct {
		name           string
		server, client []ipc.Protection
		want           ipc.Protection
		wantErr        error
	}{
		{name: "defaults", want: A},
		{name: "integrity", server: []ipc.Protection{I}, client: []ipc.Protection{I}, want: I},
		{name: "privacy", server: []ipc.Protection{P}, client: []ipc.Protection{P}, want: P},
		{name: "server offers all, client prefers privacy", server: []ipc.Protection{A, I, P}, client: []ipc.Protection{P, I, A}, want: P},
		{name: "client order decides", server: []ipc.Protection{P, I, A}, client: []ipc.Protection{I, P}, want: I},
		{name: "privacy server, default client", server: []ipc.Protection{P}, wantErr: ipc.ErrNoCommonProtection},
		{name: "integrity server, privacy client", server: []ipc.Protection{I}, client: []ipc.Protection{P}, wantErr: ipc.ErrNoCommonProtection},
		{name: "default server, privacy client", client: []ipc.Protection{P}, wantErr: ipc.ErrNoCommonProtection},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, calls := protectedServer(t, tt.server...)
			ctx := ctxT(t)
			c, err := ipc.Dial(ctx, ipc.ClientOptions{Addr: srv.Addr(), Protocol: ipc.ApplicationMasterProtocol, Token: testToken, Protection: tt.client})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Dial err = %v, want %v", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), "auth") {
					t.Errorf("the error does not name the qops: %v", err)
				}
				if calls.Load() != 0 {
					t.Error("a refused client reached the handler")
				}
				return
			}
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer c.Close()
			if c.Protection() != tt.want {
				t.Errorf("client protection %s, want %s", c.Protection(), tt.want)
			}
			// Small and large calls, both ways larger than maxbuf (64 KiB).
			for _, size := range []int{1, 1000, 70_000} {
				host := strings.Repeat("h", size)
				resp, err := echo(ctx, c, host)
				if err != nil {
					t.Fatalf("echo %d bytes: %v", size, err)
				}
				if resp.GetQueue() != host || string(resp.GetClientToAmTokenMasterKey()) != string(tt.want) {
					t.Fatalf("echo %d bytes: got %d bytes, server saw protection %q", size, len(resp.GetQueue()), string(resp.GetClientToAmTokenMasterKey()))
				}
			}
		})
	}
}

func TestProtectedConcurrentCalls(t *testing.T) {
	t.Parallel()
	for _, level := range []ipc.Protection{ipc.ProtectionIntegrity, ipc.ProtectionPrivacy} {
		t.Run(string(level), func(t *testing.T) {
			t.Parallel()
			srv, _ := protectedServer(t, level)
			c := dial(t, ipc.ClientOptions{Addr: srv.Addr(), Protocol: ipc.ApplicationMasterProtocol, Token: testToken, Protection: []ipc.Protection{level}})
			var wg sync.WaitGroup
			errs := make(chan error, 40)
			for i := range 40 {
				wg.Go(func() {
					host := fmt.Sprintf("host-%d-%s", i, strings.Repeat("x", i*97))
					resp, err := echo(context.Background(), c, host)
					if err == nil && resp.GetQueue() != host {
						err = fmt.Errorf("call %d got another call's answer", i)
					}
					if err != nil {
						errs <- err
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

func TestParseProtection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []ipc.Protection
		wantErr bool
	}{
		{in: "", want: []ipc.Protection{ipc.ProtectionAuthentication}},
		{in: "privacy", want: []ipc.Protection{ipc.ProtectionPrivacy}},
		{in: " Integrity , PRIVACY,,authentication ", want: []ipc.Protection{ipc.ProtectionIntegrity, ipc.ProtectionPrivacy, ipc.ProtectionAuthentication}},
		{in: "auth-conf", wantErr: true},
		{in: "privacy,secret", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ipc.ParseProtection(tt.in)
		if (err != nil) != tt.wantErr || fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("ParseProtection(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), ipc.RPCProtectionKey) {
			t.Errorf("error %v does not name the key", err)
		}
	}
	if _, err := ipc.Dial(context.Background(), ipc.ClientOptions{Addr: "127.0.0.1:1", Protocol: "p", Token: testToken, Protection: []ipc.Protection{"secret"}}); err == nil {
		t.Error("Dial took an unknown protection level")
	}
	if err := ipc.NewServer(ipc.ServerOptions{Token: testDB.lookup, Protection: []ipc.Protection{"secret"}}).Start(context.Background()); err == nil {
		t.Error("Start took an unknown protection level")
	}
}

// proxy is a man in the middle between a client and a server that sees
// every packet and may change, drop or repeat it. Packets are numbered per
// direction from 0; the client's 7-byte preamble is passed on first.
type proxy struct {
	target string
	l      net.Listener
	// mutate returns what to forward in place of packet i (whole, with its
	// length prefix); nil means forward it unchanged.
	mutate func(toServer bool, i int, pkt []byte) [][]byte

	mu       sync.Mutex
	toServer bytes.Buffer // everything forwarded, for inspection
	toClient bytes.Buffer
}

func startProxy(t *testing.T, target string, mutate func(toServer bool, i int, pkt []byte) [][]byte) *proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{target: target, l: l, mutate: mutate}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		l.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			cc, err := l.Accept()
			if err != nil {
				return
			}
			sc, err := net.Dial("tcp", target)
			if err != nil {
				cc.Close()
				return
			}
			var once sync.Once
			closeBoth := func() { once.Do(func() { cc.Close(); sc.Close() }) }
			t.Cleanup(closeBoth)
			wg.Go(func() { defer closeBoth(); p.pump(cc, sc, true) })
			wg.Go(func() { defer closeBoth(); p.pump(sc, cc, false) })
		}
	})
	return p
}

func (p *proxy) addr() string { return p.l.Addr().String() }

func (p *proxy) pump(from io.Reader, to io.Writer, toServer bool) {
	if toServer {
		pre := make([]byte, 7)
		if _, err := io.ReadFull(from, pre); err != nil {
			return
		}
		p.forward(to, toServer, pre)
	}
	for i := 0; ; i++ {
		var n [4]byte
		if _, err := io.ReadFull(from, n[:]); err != nil {
			return
		}
		pkt := make([]byte, 4+binary.BigEndian.Uint32(n[:]))
		copy(pkt, n[:])
		if _, err := io.ReadFull(from, pkt[4:]); err != nil {
			return
		}
		out := [][]byte{pkt}
		if p.mutate != nil {
			if m := p.mutate(toServer, i, pkt); m != nil {
				out = m
			}
		}
		for _, o := range out {
			if !p.forward(to, toServer, o) {
				return
			}
		}
	}
}

func (p *proxy) forward(to io.Writer, toServer bool, b []byte) bool {
	p.mu.Lock()
	if toServer {
		p.toServer.Write(b)
	} else {
		p.toClient.Write(b)
	}
	p.mu.Unlock()
	_, err := to.Write(b)
	return err == nil
}

func (p *proxy) seen(toServer bool) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	if toServer {
		return bytes.Clone(p.toServer.Bytes())
	}
	return bytes.Clone(p.toClient.Bytes())
}

// packets splits a recorded stream into its packets' bodies.
func packets(t *testing.T, stream []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(stream) > 0 {
		n := int(binary.BigEndian.Uint32(stream))
		out = append(out, stream[4:4+n])
		stream = stream[4+n:]
	}
	return out
}

// saslState decodes a packet body as a header (of call id -33) and an
// RpcSaslProto, or reports that it is not one.
func saslState(body []byte, request bool) (commonpb.RpcSaslProto_SaslState, bool) {
	hb, n := protowire.ConsumeBytes(body)
	if n < 0 {
		return 0, false
	}
	var id int32
	if request {
		h := &commonpb.RpcRequestHeaderProto{}
		if proto.Unmarshal(hb, h) != nil {
			return 0, false
		}
		id = h.GetCallId()
	} else {
		h := &commonpb.RpcResponseHeaderProto{}
		if proto.Unmarshal(hb, h) != nil {
			return 0, false
		}
		id = int32(h.GetCallId())
	}
	mb, m := protowire.ConsumeBytes(body[n:])
	msg := &commonpb.RpcSaslProto{}
	if id != -33 || m < 0 || proto.Unmarshal(mb, msg) != nil {
		return 0, false
	}
	return msg.GetState(), true
}

// TestWrappedWire looks at the bytes: after the SASL exchange every packet
// either way is a WRAP message no larger than maxbuf allows, the
// connection context included; privacy hides the calls, integrity does
// not.
func TestWrappedWire(t *testing.T) {
	t.Parallel()
	for _, level := range []ipc.Protection{ipc.ProtectionAuthentication, ipc.ProtectionIntegrity, ipc.ProtectionPrivacy} {
		t.Run(string(level), func(t *testing.T) {
			t.Parallel()
			srv, _ := protectedServer(t, level)
			px := startProxy(t, srv.Addr(), nil)
			c := dial(t, ipc.ClientOptions{Addr: px.addr(), Protocol: ipc.ApplicationMasterProtocol, Token: testToken, Protection: []ipc.Protection{level}})
			ctx := ctxT(t)
			secret := "secret-host-" + strings.Repeat("s", 70_000)
			if _, err := echo(ctx, c, secret); err != nil {
				t.Fatal(err)
			}
			c.Close()
			for _, dir := range []bool{true, false} {
				var stream []byte
				// The proxy may still be forwarding the last response; the
				// client has read it, so it was forwarded whole.
				stream = px.seen(dir)
				if dir {
					stream = stream[7:]
				}
				pkts := packets(t, stream)
				// Client: NEGOTIATE, INITIATE, then context and call.
				// Server: NEGOTIATE, SUCCESS, then the response.
				if len(pkts) < 3 {
					t.Fatalf("only %d packets", len(pkts))
				}
				for i, body := range pkts[2:] {
					state, isSASL := saslState(body, dir)
					wrapped := isSASL && state == commonpb.RpcSaslProto_WRAP
					if wrapped != (level != ipc.ProtectionAuthentication) {
						t.Errorf("to server %v: packet %d wrapped=%v under %s", dir, i+2, wrapped, level)
					}
					if wrapped && len(body) > 65536+64 {
						t.Errorf("to server %v: a %d-byte WRAP packet exceeds maxbuf", dir, len(body))
					}
				}
				clear := bytes.Contains(stream, []byte("secret-host-ssss")) || bytes.Contains(stream, []byte(ipc.ApplicationMasterProtocol))
				if clear != (level != ipc.ProtectionPrivacy) {
					t.Errorf("to server %v: plain text on the wire = %v under %s", dir, clear, level)
				}
			}
		})
	}
}

// flipInToken changes one byte of a WRAP packet's token (its MAC, or
// ciphertext under privacy).
func flipInToken(pkt []byte) []byte {
	out := bytes.Clone(pkt)
	out[len(out)-8] ^= 0x01
	return out
}

// TestServerRefusesTamperingAndReplay changes the client's wrapped packets
// on their way: the server refuses the connection (a FATAL SaslException)
// and never runs the call.
func TestServerRefusesTamperingAndReplay(t *testing.T) {
	t.Parallel()
	attacks := map[string]func(pkt []byte) [][]byte{
		"tampered": func(pkt []byte) [][]byte { return [][]byte{flipInToken(pkt)} },
		"replayed": func(pkt []byte) [][]byte { return [][]byte{pkt, pkt} },
		"dropped":  func(pkt []byte) [][]byte { return [][]byte{} },
	}
	for _, level := range []ipc.Protection{ipc.ProtectionIntegrity, ipc.ProtectionPrivacy} {
		for name, attack := range attacks {
			t.Run(string(level)+" "+name, func(t *testing.T) {
				t.Parallel()
				srv, calls := protectedServer(t, level)
				// Client packets: 0 NEGOTIATE, 1 INITIATE, 2 context,
				// 3 first call, 4 second call.
				target := 3
				if name == "dropped" {
					target = 2 // the context: then the call is out of turn
				}
				if name == "replayed" {
					target = 2 // the context again, in place of the call
				}
				px := startProxy(t, srv.Addr(), func(toServer bool, i int, pkt []byte) [][]byte {
					if toServer && i == target {
						return attack(pkt)
					}
					return nil
				})
				c := dial(t, ipc.ClientOptions{Addr: px.addr(), Protocol: ipc.ApplicationMasterProtocol, Token: testToken, Protection: []ipc.Protection{level}})
				_, err := echo(ctxT(t), c, "h")
				var re *ipc.RemoteError
				if !errors.As(err, &re) || re.Class != ipc.SaslException || !re.Fatal {
					t.Fatalf("call through a %s packet: %v, want a fatal %s", name, err, ipc.SaslException)
				}
				if calls.Load() != 0 {
					t.Errorf("the handler ran %d times", calls.Load())
				}
			})
		}
	}
}

// TestClientRefusesTamperingAndReplay changes the server's wrapped
// responses: the client breaks the connection instead of delivering them.
func TestClientRefusesTamperingAndReplay(t *testing.T) {
	t.Parallel()
	for _, level := range []ipc.Protection{ipc.ProtectionIntegrity, ipc.ProtectionPrivacy} {
		for _, name := range []string{"tampered", "replayed", "plain"} {
			t.Run(string(level)+" "+name, func(t *testing.T) {
				t.Parallel()
				srv, _ := protectedServer(t, level)
				// Server packets: 0 NEGOTIATE, 1 SUCCESS, 2 first response.
				px := startProxy(t, srv.Addr(), func(toServer bool, i int, pkt []byte) [][]byte {
					if toServer || i != 2 {
						return nil
					}
					switch name {
					case "tampered":
						return [][]byte{flipInToken(pkt)}
					case "replayed":
						return [][]byte{pkt, pkt}
					}
					// A plain response where a wrapped one is due.
					hdr := &commonpb.RpcResponseHeaderProto{CallId: proto.Uint32(0), Status: commonpb.RpcResponseHeaderProto_SUCCESS.Enum()}
					return [][]byte{packet(hdr, &yarnpb.RegisterApplicationMasterResponseProto{Queue: proto.String("forged")})}
				})
				c := dial(t, ipc.ClientOptions{Addr: px.addr(), Protocol: ipc.ApplicationMasterProtocol, Token: testToken, Protection: []ipc.Protection{level}})
				ctx := ctxT(t)
				resp, err := echo(ctx, c, "h")
				if name == "replayed" {
					// The genuine response arrives; its copy breaks the
					// connection before anything else is read.
					if err != nil || resp.GetQueue() != "h" {
						t.Fatalf("first call: %v", err)
					}
					_, err = echo(ctx, c, "h2")
				}
				if !errors.Is(err, ipc.ErrClosed) {
					t.Fatalf("err = %v, want the connection closed", err)
				}
				want := map[string]error{"tampered": digestmd5.ErrIntegrity, "replayed": digestmd5.ErrSequence}[name]
				if level == ipc.ProtectionPrivacy && name == "replayed" {
					want = digestmd5.ErrIntegrity // the cipher state moved on
				}
				if want != nil && !errors.Is(err, want) {
					t.Errorf("err = %v, want %v", err, want)
				}
				if name == "plain" && !strings.Contains(err.Error(), "not SASL-wrapped") {
					t.Errorf("err = %v, want a non-wrapped refusal", err)
				}
			})
		}
	}
}

// packet builds a length-prefixed packet of delimited messages.
func packet(msgs ...proto.Message) []byte {
	var b []byte
	for _, m := range msgs {
		mb, _ := proto.Marshal(m)
		b = protowire.AppendBytes(b, mb)
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...)
}

// TestServerRefusesAQopItDidNotOffer rewrites the client's digest-response
// from qop=auth-conf to qop=auth, as a client that cannot meet the
// server's hadoop.rpc.protection=privacy would answer: refused.
func TestServerRefusesAQopItDidNotOffer(t *testing.T) {
	t.Parallel()
	srv, calls := protectedServer(t, ipc.ProtectionPrivacy)
	px := startProxy(t, srv.Addr(), func(toServer bool, i int, pkt []byte) [][]byte {
		if !toServer || i != 1 { // the INITIATE with the digest-response
			return nil
		}
		body := pkt[4:]
		hb, n := protowire.ConsumeBytes(body)
		mb, _ := protowire.ConsumeBytes(body[n:])
		hdr, msg := &commonpb.RpcRequestHeaderProto{}, &commonpb.RpcSaslProto{}
		if proto.Unmarshal(hb, hdr) != nil || proto.Unmarshal(mb, msg) != nil {
			t.Error("INITIATE does not decode")
			return nil
		}
		msg.Token = []byte(strings.Replace(string(msg.GetToken()), ",qop=auth-conf,cipher=3des", ",qop=auth", 1))
		return [][]byte{packet(hdr, msg)}
	})
	_, err := ipc.Dial(ctxT(t), ipc.ClientOptions{Addr: px.addr(), Protocol: ipc.ApplicationMasterProtocol, Token: testToken,
		Protection: []ipc.Protection{ipc.ProtectionPrivacy}})
	var re *ipc.RemoteError
	if !errors.As(err, &re) || re.Class != ipc.AccessControlException || !strings.Contains(re.Message, `qop "auth"`) {
		t.Fatalf("err = %v, want an AccessControlException about qop auth", err)
	}
	if calls.Load() != 0 {
		t.Error("the handler ran")
	}
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
