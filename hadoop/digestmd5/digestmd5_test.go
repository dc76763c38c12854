package digestmd5

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestRFC2831Example checks the client against the worked example of
// RFC 2831 section 4 (user chris, password secret, IMAP).
func TestRFC2831Example(t *testing.T) {
	t.Parallel()
	c := &Client{
		Username: "chris", Password: "secret",
		Protocol: "imap", ServerName: "elwood.innosoft.com",
		CNonce: func() (string, error) { return "OA6MHXh6VqTrRk", nil },
	}
	resp, err := c.Respond([]byte(`realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth",algorithm=md5-sess,charset=utf-8`))
	if err != nil {
		t.Fatal(err)
	}
	d, err := parseDirectives(string(resp))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.get("response"); got != "d388dad90d4bbd760a152321f2143af7" {
		t.Errorf("response = %s, want the RFC's d388dad90d4bbd760a152321f2143af7", got)
	}
	if d.get("digest-uri") != "imap/elwood.innosoft.com" || d.get("nc") != "00000001" || d.get("qop") != "auth" {
		t.Errorf("unexpected directives %v", d)
	}
	if err := c.Verify([]byte("rspauth=ea40f60335c427b5527b84dbabcdfffd")); err != nil {
		t.Errorf("Verify(RFC rspauth): %v", err)
	}
	if err := c.Verify([]byte("rspauth=00000000000000000000000000000000")); !errors.Is(err, ErrAuthFailed) {
		t.Errorf("Verify(wrong rspauth) = %v, want ErrAuthFailed", err)
	}
}

func TestClientServer(t *testing.T) {
	t.Parallel()
	users := map[string]string{"dG9rZW4=": "cGFzcw==", "ünï": "pässwörd"}
	lookup := func(u string) (string, error) {
		p, ok := users[u]
		if !ok {
			return "", errors.New("no such user")
		}
		return p, nil
	}
	tests := []struct {
		name             string
		user, password   string
		protocol, server string
		wantErr          error
	}{
		{name: "hadoop token", user: "dG9rZW4=", password: "cGFzcw==", server: "default"},
		{name: "non-ascii", user: "ünï", password: "pässwörd", server: "default"},
		{name: "wrong password", user: "dG9rZW4=", password: "nope", server: "default", wantErr: ErrAuthFailed},
		{name: "unknown user", user: "x", password: "y", server: "default", wantErr: ErrAuthFailed},
		{name: "wrong digest-uri", user: "dG9rZW4=", password: "cGFzcw==", protocol: "nn", server: "default"},
	}
	for _, tt := range tests {
		s := &Server{Realm: "default", ServerName: "default", Password: lookup}
		c := &Client{Username: tt.user, Password: tt.password, Protocol: tt.protocol, ServerName: tt.server}
		ch, err := s.Challenge()
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Respond(ch)
		if err != nil {
			t.Fatalf("%s: Respond: %v", tt.name, err)
		}
		rsp, err := s.Respond(resp)
		if tt.protocol != "" {
			if err == nil || !strings.Contains(err.Error(), "digest-uri") {
				t.Errorf("%s: err = %v, want a digest-uri mismatch", tt.name, err)
			}
			continue
		}
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("%s: err = %v, want %v", tt.name, err, tt.wantErr)
			}
			if s.Username() != "" {
				t.Errorf("%s: Username = %q after failure", tt.name, s.Username())
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: server Respond: %v", tt.name, err)
		}
		if err := c.Verify(rsp); err != nil {
			t.Errorf("%s: client Verify: %v", tt.name, err)
		}
		if s.Username() != tt.user {
			t.Errorf("%s: Username = %q", tt.name, s.Username())
		}
		if _, err := s.Respond(resp); err == nil {
			t.Errorf("%s: a second Respond succeeded", tt.name)
		}
	}
}

func TestServerRejectsTampering(t *testing.T) {
	t.Parallel()
	s := &Server{Realm: "default", ServerName: "default", Password: func(string) (string, error) { return "pw", nil }}
	ch, err := s.Challenge()
	if err != nil {
		t.Fatal(err)
	}
	c := &Client{Username: "u", Password: "pw", ServerName: "default"}
	resp, err := c.Respond(ch)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := parseDirectives(string(resp))
	edits := map[string]func(directives){
		"other nonce":  func(d directives) { d["nonce"] = []string{"abc"} },
		"replayed nc":  func(d directives) { d["nc"] = []string{"00000002"} },
		"no cnonce":    func(d directives) { delete(d, "cnonce") },
		"auth-int qop": func(d directives) { d["qop"] = []string{"auth-int"} },
		"other realm":  func(d directives) { d["realm"] = []string{"evil"} },
		"other user":   func(d directives) { d["username"] = []string{"v"} },
		"authzid":      func(d directives) { d["authzid"] = []string{"root"} },
		"repeated":     func(d directives) { d["response"] = append(d["response"], "x") },
	}
	for name, edit := range edits {
		e := directives{}
		for k, v := range d {
			e[k] = append([]string(nil), v...)
		}
		edit(e)
		if _, err := s.Respond([]byte(render(e))); err == nil {
			t.Errorf("%s: tampered response accepted", name)
		}
	}
}

// render writes directives back in wire form (quoted values).
func render(d directives) string {
	var parts []string
	for k, vs := range d {
		for _, v := range vs {
			parts = append(parts, k+"="+quote(v))
		}
	}
	return strings.Join(parts, ",")
}

func TestParseDirectives(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    directives
		wantErr bool
	}{
		{in: `a=b`, want: directives{"a": {"b"}}},
		{in: ` realm="x" , realm="y",, NONCE="n\"q\\" ,qop="auth,auth-int"`,
			want: directives{"realm": {"x", "y"}, "nonce": {`n"q\`}, "qop": {"auth,auth-int"}}},
		{in: ``, want: directives{}},
		{in: `a`, wantErr: true},
		{in: `a="unterminated`, wantErr: true},
		{in: `a=b c=d`, wantErr: true},
		{in: `=b`, wantErr: true},
		{in: `a="x\`, wantErr: true},
	}
	for _, tt := range tests {
		got, err := parseDirectives(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("parseDirectives(%q) err = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseDirectives(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func FuzzParseDirectives(f *testing.F) {
	f.Add(`realm="default",nonce="abc",qop="auth",charset=utf-8,algorithm=md5-sess`)
	f.Add(`rspauth=ea40f60335c427b5527b84dbabcdfffd`)
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseDirectives(s)
		if err != nil {
			return
		}
		// Rendering and re-parsing keeps every value.
		again, err := parseDirectives(render(d))
		if err != nil {
			t.Fatalf("re-parse of %q: %v", render(d), err)
		}
		for k, vs := range d {
			if len(again[k]) != len(vs) {
				t.Fatalf("key %q: %v vs %v", k, vs, again[k])
			}
		}
	})
}

func FuzzServerRespond(f *testing.F) {
	f.Add([]byte(`username="u",realm="default",nonce="n",nc=00000001,cnonce="c",digest-uri="/default",response=00,qop=auth`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := &Server{Realm: "default", ServerName: "default", Password: func(string) (string, error) { return "pw", nil }}
		if _, err := s.Challenge(); err != nil {
			t.Fatal(err)
		}
		// Without knowing the random nonce no input may authenticate.
		if _, err := s.Respond(b); err == nil {
			t.Fatalf("random input %q authenticated", b)
		}
	})
}
