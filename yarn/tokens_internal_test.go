package yarn

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/gozie/gozie/hadoop"
)

func TestTokenURLString(t *testing.T) {
	t.Parallel()
	tok := hadoop.Token{Identifier: bytes.Repeat([]byte{7}, 200), Password: []byte("pw"), Kind: hadoop.KindHDFSDelegationToken, Service: "ha-hdfs:ns1"}
	s := EncodeTokenURLString(tok)
	if strings.ContainsAny(s, "+/=") {
		t.Errorf("%q is not unpadded URL-safe base64", s)
	}
	// Writable layout: vint(200) is two bytes, then the identifier, and so on.
	raw, _ := base64.RawURLEncoding.DecodeString(s)
	if raw[0] != 0x8f || raw[1] != 200 || len(raw) != 2+200+1+2+1+len(tok.Kind)+1+len(tok.Service) {
		t.Errorf("layout % x…", raw[:4])
	}
	back, err := DecodeTokenURLString(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Identifier, tok.Identifier) || string(back.Password) != "pw" || back.Kind != tok.Kind || back.Service != tok.Service {
		t.Errorf("round trip %+v", back)
	}
	for _, bad := range []string{"!!", "", "AQ", s + "AAAA", s[:len(s)-3]} {
		if _, err := DecodeTokenURLString(bad); err == nil {
			t.Errorf("DecodeTokenURLString(%q) succeeded", bad)
		}
	}
}

func FuzzDecodeTokenURLString(f *testing.F) {
	f.Add(EncodeTokenURLString(hadoop.Token{Identifier: []byte("i"), Password: []byte("p"), Kind: "K", Service: "S"}))
	f.Add("AAAAAA")
	f.Add("j_____8")
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := DecodeTokenURLString(s)
		if err != nil {
			return
		}
		back, err := DecodeTokenURLString(EncodeTokenURLString(tok))
		if err != nil || !bytes.Equal(back.Identifier, tok.Identifier) || back.Kind != tok.Kind {
			t.Fatalf("re-encoding %+v: %+v, %v", tok, back, err)
		}
	})
}

// TestTokenCredentials: tokens go under their service as alias, in the URL
// string form the RM decodes.
func TestTokenCredentials(t *testing.T) {
	t.Parallel()
	if TokenCredentials(nil) != nil {
		t.Error("credentials without tokens")
	}
	hdfs := hadoop.Token{Identifier: []byte("i1"), Password: []byte("p1"), Kind: hadoop.KindHDFSDelegationToken, Service: "ha-hdfs:ns1"}
	rm := hadoop.Token{Identifier: []byte("i2"), Password: []byte("p2"), Kind: hadoop.KindRMDelegationToken, Service: "127.0.0.1:8032"}
	c := TokenCredentials([]hadoop.Token{hdfs, rm})
	if len(c.Tokens) != 2 {
		t.Fatalf("tokens %v", c.Tokens)
	}
	for _, want := range []hadoop.Token{hdfs, rm} {
		got, err := DecodeTokenURLString(c.Tokens[want.Service])
		if err != nil || got.Kind != want.Kind || string(got.Password) != string(want.Password) {
			t.Errorf("alias %s: %+v, %v", want.Service, got, err)
		}
	}
}
