package digestmd5

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// negotiate runs a whole Go exchange and returns both sides.
func negotiate(t *testing.T, srv *Server, cl *Client) (*Server, *Client, error) {
	t.Helper()
	if srv.Password == nil {
		srv.Password = func(string) (string, error) { return "cGFzcw==", nil }
	}
	srv.Realm, srv.ServerName = "default", "default"
	cl.Username, cl.Password, cl.ServerName = "dG9rZW4=", "cGFzcw==", "default"
	ch, err := srv.Challenge()
	if err != nil {
		return nil, nil, err
	}
	resp, err := cl.Respond(ch)
	if err != nil {
		return nil, nil, err
	}
	rsp, err := srv.Respond(resp)
	if err != nil {
		return nil, nil, err
	}
	return srv, cl, cl.Verify(rsp)
}

func TestNegotiation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		offer, accept []string // qops
		offerCiphers  []string
		acceptCiphers []string
		wantQop       string
		wantCipher    string
		wantErr       error
	}{
		{name: "defaults", wantQop: QopAuth},
		{name: "client prefers privacy", offer: []string{QopAuth, QopAuthInt, QopAuthConf},
			accept: []string{QopAuthConf, QopAuth}, wantQop: QopAuthConf, wantCipher: Cipher3DES},
		{name: "client order wins over server order", offer: []string{QopAuthConf, QopAuthInt, QopAuth},
			accept: []string{QopAuth, QopAuthConf}, wantQop: QopAuth},
		{name: "integrity only", offer: []string{QopAuthInt}, accept: []string{QopAuthConf, QopAuthInt}, wantQop: QopAuthInt},
		{name: "client cipher preference", offer: []string{QopAuthConf}, accept: []string{QopAuthConf},
			acceptCiphers: []string{CipherRC440, CipherRC4}, wantQop: QopAuthConf, wantCipher: CipherRC440},
		{name: "server cipher subset", offer: []string{QopAuthConf}, offerCiphers: []string{CipherDES, CipherRC456},
			accept: []string{QopAuthConf}, wantQop: QopAuthConf, wantCipher: CipherDES},
		{name: "privacy server, authentication client", offer: []string{QopAuthConf}, wantErr: ErrNoCommonQop},
		{name: "authentication server, integrity client", accept: []string{QopAuthInt}, wantErr: ErrNoCommonQop},
		{name: "no common cipher", offer: []string{QopAuthConf}, offerCiphers: []string{CipherRC4},
			accept: []string{QopAuthConf}, acceptCiphers: []string{Cipher3DES}, wantErr: ErrNoCommonQop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, cl, err := negotiate(t, &Server{Qops: tt.offer, Ciphers: tt.offerCiphers}, &Client{Qops: tt.accept, Ciphers: tt.acceptCiphers})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if srv.Qop() != tt.wantQop || cl.Qop() != tt.wantQop {
				t.Fatalf("qop server %q client %q, want %q", srv.Qop(), cl.Qop(), tt.wantQop)
			}
			sl, cll := srv.SecurityLayer(), cl.SecurityLayer()
			if tt.wantQop == QopAuth {
				if sl != nil || cll != nil {
					t.Fatal("a security layer for auth")
				}
				return
			}
			if sl.Cipher() != tt.wantCipher || cll.Cipher() != tt.wantCipher {
				t.Errorf("cipher server %q client %q, want %q", sl.Cipher(), cll.Cipher(), tt.wantCipher)
			}
		})
	}
}

func TestServerRefusesAQopItDidNotOffer(t *testing.T) {
	t.Parallel()
	// A client that answers a privacy-only challenge with qop=auth (or with
	// no qop, which means auth) is refused before its digest is looked at.
	for _, edit := range []func(string) string{
		func(r string) string { return strings.Replace(r, "qop=auth-conf", "qop=auth", 1) },
		func(r string) string { return strings.Replace(r, ",qop=auth-conf", "", 1) },
		func(r string) string { return strings.Replace(r, "cipher=3des", "cipher=rc4-40", 1) },
	} {
		srv := &Server{Realm: "default", ServerName: "default", Qops: []string{QopAuthConf}, Ciphers: []string{Cipher3DES},
			Password: func(string) (string, error) { return "pw", nil }}
		ch, err := srv.Challenge()
		if err != nil {
			t.Fatal(err)
		}
		cl := &Client{Username: "u", Password: "pw", ServerName: "default", Qops: []string{QopAuthConf}}
		resp, err := cl.Respond(ch)
		if err != nil {
			t.Fatal(err)
		}
		edited := edit(string(resp))
		if edited == string(resp) {
			t.Fatalf("edit did not apply to %s", resp)
		}
		if _, err := srv.Respond([]byte(edited)); !errors.Is(err, ErrNoCommonQop) {
			t.Errorf("%s: err = %v, want ErrNoCommonQop", edited, err)
		}
	}
}

func TestChallengeDirectives(t *testing.T) {
	t.Parallel()
	srv := &Server{Realm: "default", ServerName: "default", Qops: []string{QopAuthConf, QopAuthInt, QopAuth}, MaxBuf: 4096,
		Nonce: func() (string, error) { return "n0nce", nil }}
	ch, err := srv.Challenge()
	if err != nil {
		t.Fatal(err)
	}
	want := `realm="default",nonce="n0nce",qop="auth-conf,auth-int,auth",maxbuf=4096,charset=utf-8,cipher="3des,rc4,des,rc4-56,rc4-40",algorithm=md5-sess`
	if string(ch) != want {
		t.Errorf("challenge\n%s\nwant\n%s", ch, want)
	}
	// The client honours the server's maxbuf.
	cl := &Client{Username: "u", Password: "p", ServerName: "default", Qops: []string{QopAuthInt}, MaxBuf: 1000}
	resp, err := cl.Respond(ch)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(resp), ",maxbuf=1000,") {
		t.Errorf("response %s does not advertise maxbuf=1000", resp)
	}
	if err := (&Server{Qops: []string{"auth-secret"}}).checkChallenge(); err == nil {
		t.Error("an unknown qop was accepted")
	}
	for _, mb := range []string{"0", "-1", "x", "16777216", "16"} {
		c := &Client{Username: "u", Password: "p", Qops: []string{QopAuthInt}}
		if _, err := c.Respond([]byte(`nonce="n",qop="auth-int",maxbuf=` + mb + `,algorithm=md5-sess`)); err == nil {
			t.Errorf("maxbuf=%s accepted", mb)
		}
	}
}

// checkChallenge is Challenge without its result.
func (s *Server) checkChallenge() error {
	_, err := s.Challenge()
	return err
}

// TestRFC2831ExampleWithSecurityLayer recomputes the RFC's worked example
// for qop auth-int, whose A2 ends in ":" and 32 zeros, by the formula of
// RFC 2831 section 2.1.2.1 written out here, and checks the first wrapped
// message against section 2.3 (HMAC-MD5 with Kic over the sequence number
// and the message) written out likewise.
func TestRFC2831ExampleWithSecurityLayer(t *testing.T) {
	t.Parallel()
	c := &Client{
		Username: "chris", Password: "secret",
		Protocol: "imap", ServerName: "elwood.innosoft.com", Qops: []string{QopAuthInt},
		CNonce: func() (string, error) { return "OA6MHXh6VqTrRk", nil },
	}
	resp, err := c.Respond([]byte(`realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth,auth-int",algorithm=md5-sess,charset=utf-8`))
	if err != nil {
		t.Fatal(err)
	}
	h := func(s string) []byte { b := md5.Sum([]byte(s)); return b[:] }
	x := func(b []byte) string { return hex.EncodeToString(b) }
	inner := h("chris:elwood.innosoft.com:secret")
	ha1 := h(string(inner) + ":OA6MG9tEQGm2hh:OA6MHXh6VqTrRk")
	kd := func(a2 string) string {
		return x(h(x(ha1) + ":OA6MG9tEQGm2hh:00000001:OA6MHXh6VqTrRk:auth-int:" + x(h(a2))))
	}
	d, _ := parseDirectives(string(resp))
	if want := kd("AUTHENTICATE:imap/elwood.innosoft.com:00000000000000000000000000000000"); d.get("response") != want || d.get("qop") != QopAuthInt {
		t.Errorf("response %s qop %s, want %s auth-int", d.get("response"), d.get("qop"), want)
	}
	if d.get("response") == "d388dad90d4bbd760a152321f2143af7" {
		t.Error("auth-int response equals the auth one: the qop was not hashed")
	}
	if err := c.Verify([]byte("rspauth=" + kd(":imap/elwood.innosoft.com:00000000000000000000000000000000"))); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	kic := h(string(ha1) + "Digest session key to client-to-server signing key magic constant")
	m := hmac.New(md5.New, kic)
	m.Write([]byte{0, 0, 0, 0})
	m.Write([]byte("a1"))
	want := append(append([]byte("a1"), m.Sum(nil)[:10]...), 0, 1, 0, 0, 0, 0)
	if got := c.SecurityLayer().Wrap([]byte("a1")); !bytes.Equal(got, want) {
		t.Errorf("first wrapped message\n%x\nwant\n%x", got, want)
	}
}

// layers negotiates qop (and cipher) between a Go client and server.
func layers(t *testing.T, qop, cipher string) (client, server *SecurityLayer) {
	t.Helper()
	cl := &Client{Qops: []string{qop}}
	if cipher != "" {
		cl.Ciphers = []string{cipher}
	}
	srv, cl, err := negotiate(t, &Server{Qops: []string{qop}}, cl)
	if err != nil {
		t.Fatal(err)
	}
	return cl.SecurityLayer(), srv.SecurityLayer()
}

func allLayers() []struct{ qop, cipher string } {
	out := []struct{ qop, cipher string }{{QopAuthInt, ""}}
	for _, c := range DefaultCiphers {
		out = append(out, struct{ qop, cipher string }{QopAuthConf, c})
	}
	return out
}

func TestWrapRoundTrips(t *testing.T) {
	t.Parallel()
	for _, tc := range allLayers() {
		t.Run(tc.qop+" "+tc.cipher, func(t *testing.T) {
			t.Parallel()
			cl, srv := layers(t, tc.qop, tc.cipher)
			if want := DefaultMaxBuf - overhead(tc.qop); cl.MaxWrap() != want || srv.MaxWrap() != want {
				t.Errorf("MaxWrap %d/%d, want %d", cl.MaxWrap(), srv.MaxWrap(), want)
			}
			for n := range 40 {
				msg := bytes.Repeat([]byte{byte(n)}, n*7+1)
				for _, dir := range []struct{ from, to *SecurityLayer }{{cl, srv}, {srv, cl}} {
					w := dir.from.Wrap(msg)
					if tc.qop == QopAuthConf && bytes.Contains(w, msg[:min(len(msg), 8)]) && len(msg) >= 8 {
						t.Fatalf("auth-conf message %d travels in the clear", n)
					}
					got, err := dir.to.Unwrap(w)
					if err != nil || !bytes.Equal(got, msg) {
						t.Fatalf("message %d: %v (%d bytes)", n, err, len(got))
					}
				}
			}
			if w := cl.Wrap(nil); w != nil {
				t.Errorf("empty message wrapped to %x", w)
			}
			if got, err := srv.Unwrap(nil); got != nil || err != nil {
				t.Errorf("empty token unwrapped to %x, %v", got, err)
			}
		})
	}
}

func TestUnwrapRefusesTamperingReplayAndReordering(t *testing.T) {
	t.Parallel()
	for _, tc := range allLayers() {
		t.Run(tc.qop+" "+tc.cipher, func(t *testing.T) {
			t.Parallel()
			msg := []byte("registerApplicationMaster")
			attacks := map[string]struct {
				tamper func(w0, w1 []byte) []byte // what reaches the receiver first
				want   error
			}{
				"flipped message bit": {func(w0, _ []byte) []byte { w0[0] ^= 1; return w0 }, ErrIntegrity},
				"flipped mac bit":     {func(w0, _ []byte) []byte { w0[len(w0)-7] ^= 1; return w0 }, ErrIntegrity},
				"other type":          {func(w0, _ []byte) []byte { w0[len(w0)-5] = 2; return w0 }, ErrIntegrity},
				"other sequence":      {func(w0, _ []byte) []byte { w0[len(w0)-1] = 1; return w0 }, ErrIntegrity},
				"truncated":           {func(w0, _ []byte) []byte { return w0[:len(w0)-1] }, ErrIntegrity},
				"too short":           {func(w0, _ []byte) []byte { return w0[:3] }, ErrIntegrity},
				"dropped message":     {func(_, w1 []byte) []byte { return w1 }, ErrSequence},
			}
			if tc.qop == QopAuthConf {
				// Under a cipher the receiver decrypts a message out of
				// turn with the wrong state, so its MAC fails.
				attacks["dropped message"] = struct {
					tamper func(w0, w1 []byte) []byte
					want   error
				}{attacks["dropped message"].tamper, ErrIntegrity}
			}
			for name, a := range attacks {
				cl, srv := layers(t, tc.qop, tc.cipher)
				w0, w1 := cl.Wrap(msg), cl.Wrap(msg)
				if _, err := srv.Unwrap(a.tamper(w0, w1)); !errors.Is(err, a.want) {
					t.Errorf("%s: err = %v, want %v", name, err, a.want)
				}
				// The layer stays closed, even to the genuine next message.
				if _, err := srv.Unwrap(cl.Wrap(msg)); err == nil {
					t.Errorf("%s: the layer accepted a message after a refusal", name)
				}
			}
			// A replay of a message already accepted.
			cl, srv := layers(t, tc.qop, tc.cipher)
			w := cl.Wrap(msg)
			if _, err := srv.Unwrap(w); err != nil {
				t.Fatal(err)
			}
			_, err := srv.Unwrap(w)
			if tc.qop == QopAuthInt && !errors.Is(err, ErrSequence) || err == nil {
				t.Errorf("replay: err = %v", err)
			}
			// A message wrapped by the receiver's own side (reflected) or
			// by another session never verifies.
			_, srv = layers(t, tc.qop, tc.cipher)
			if _, err := srv.Unwrap(srv.Wrap(msg)); !errors.Is(err, ErrIntegrity) {
				t.Errorf("reflected: err = %v", err)
			}
			other, _ := layers(t, tc.qop, tc.cipher)
			_, srv = layers(t, tc.qop, tc.cipher)
			if _, err := srv.Unwrap(other.Wrap(msg)); !errors.Is(err, ErrIntegrity) {
				t.Errorf("other session: err = %v", err)
			}
		})
	}
}

func TestWrapFormat(t *testing.T) {
	t.Parallel()
	for _, tc := range allLayers() {
		cl, _ := layers(t, tc.qop, tc.cipher)
		for seq := range 3 {
			msg := bytes.Repeat([]byte("x"), 13)
			w := cl.Wrap(msg)
			trailer := w[len(w)-6:]
			if binary.BigEndian.Uint16(trailer) != 1 || binary.BigEndian.Uint32(trailer[2:]) != uint32(seq) {
				t.Errorf("%s %s: trailer %x of message %d", tc.qop, tc.cipher, trailer, seq)
			}
			wantLen := len(msg) + 16
			switch tc.cipher {
			case CipherDES, Cipher3DES:
				wantLen = 24 + 6 // 13+10 padded to 24
			}
			if len(w) != wantLen {
				t.Errorf("%s %s: %d-byte token for a 13-byte message, want %d", tc.qop, tc.cipher, len(w), wantLen)
			}
		}
	}
}

func TestDESKeyExpansion(t *testing.T) {
	t.Parallel()
	// 56 bits of 1s spread to 7 bits per byte: every byte 0xfe plus an
	// odd-parity bit, which makes it 0xfe (seven ones already odd).
	if got := desKey([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}); !bytes.Equal(got, bytes.Repeat([]byte{0xfe}, 8)) {
		t.Errorf("all ones: %x", got)
	}
	// 0x80 followed by zeros: the first 7-bit group is 1000000.
	got := desKey([]byte{0x80, 0, 0, 0, 0, 0, 0})
	if want := []byte{0x80, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01}; !bytes.Equal(got, want) {
		t.Errorf("high bit: %x, want %x", got, want)
	}
	// The last bit of the 56 lands in the last byte's bit 1.
	got = desKey([]byte{0, 0, 0, 0, 0, 0, 0x01})
	if want := []byte{0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x02}; !bytes.Equal(got, want) {
		t.Errorf("low bit: %x, want %x", got, want)
	}
}

func ExampleSecurityLayer() {
	srv := &Server{Realm: "default", ServerName: "default", Qops: []string{QopAuthConf},
		Password: func(string) (string, error) { return "cGFzcw==", nil }}
	cl := &Client{Username: "dG9rZW4=", Password: "cGFzcw==", ServerName: "default", Qops: []string{QopAuthConf, QopAuth}}
	ch, _ := srv.Challenge()
	resp, _ := cl.Respond(ch)
	rspauth, _ := srv.Respond(resp)
	if err := cl.Verify(rspauth); err != nil {
		fmt.Println(err)
		return
	}
	token := cl.SecurityLayer().Wrap([]byte("allocate"))
	msg, err := srv.SecurityLayer().Unwrap(token)
	fmt.Println(srv.Qop(), cl.SecurityLayer().Cipher(), string(msg), err)
	// Output: auth-conf 3des allocate <nil>
}

// FuzzUnwrap feeds arbitrary tokens to every kind of layer: none may
// panic, and none but the empty one may be accepted.
func FuzzUnwrap(f *testing.F) {
	f.Add([]byte("hello"), uint8(0))
	f.Add(bytes.Repeat([]byte{8}, 30), uint8(2))
	f.Add([]byte{0, 0, 0, 0, 0, 1, 0, 0, 0, 0}, uint8(1))
	f.Add(make([]byte, 16), uint8(3))
	kinds := allLayers()
	f.Fuzz(func(t *testing.T, token []byte, kind uint8) {
		k := kinds[int(kind)%len(kinds)]
		_, srv := layers(t, k.qop, k.cipher)
		msg, err := srv.Unwrap(token)
		if len(token) > 0 && err == nil {
			t.Fatalf("%s %s accepted a forged %d-byte token as %q", k.qop, k.cipher, len(token), msg)
		}
	})
}
