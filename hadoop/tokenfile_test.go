package hadoop

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func sampleCredentials() *Credentials {
	return &Credentials{
		Tokens: map[string]Token{
			"appattempt_1700000000000_0001_000001": {
				Identifier: []byte{0x0a, 0x0c, 0x0a, 0x06, 0x08, 0x01, 0x10, 0x80, 0xa0, 0x01, 0x10, 0x01, 0x10, 0x07},
				Password:   bytes.Repeat([]byte{0xab}, 20),
				Kind:       KindAMRMToken,
				Service:    "127.0.0.1:8030",
			},
			"hdfs": {Identifier: []byte("id"), Password: []byte{}, Kind: KindHDFSDelegationToken, Service: "ha-hdfs:mycluster"},
		},
		Secrets: map[string][]byte{"my.secret": []byte("s3cr3t")},
	}
}

func TestCredentialsRoundTrip(t *testing.T) {
	t.Parallel()
	for _, format := range []TokenFormat{TokenFormatWritable, TokenFormatProtobuf} {
		want := sampleCredentials()
		b, err := want.Encode(format)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte{'H', 'D', 'T', 'S', byte(format)}) {
			t.Fatalf("format %d: header % x", format, b[:5])
		}
		got, err := ReadCredentials(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("format %d: %v", format, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("format %d: round trip\n got %+v\nwant %+v", format, got, want)
		}
		tok, ok := got.TokenOfKind(KindAMRMToken)
		if !ok || tok.Service != "127.0.0.1:8030" {
			t.Errorf("TokenOfKind = %+v, %v", tok, ok)
		}
	}
}

func TestWritableLayout(t *testing.T) {
	t.Parallel()
	c := &Credentials{
		Tokens:  map[string]Token{"a": {Identifier: []byte{1, 2}, Password: []byte{3}, Kind: "K", Service: "S"}},
		Secrets: map[string][]byte{"s": {9}},
	}
	got, err := c.Encode(TokenFormatWritable)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{
		'H', 'D', 'T', 'S', 0, // magic, version 0
		1,      // one token
		1, 'a', // alias Text
		2, 1, 2, // identifier
		1, 3, // password
		1, 'K', // kind Text
		1, 'S', // service Text
		1,      // one secret
		1, 's', // alias
		1, 9, // value
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Encode = % x\nwant    % x", got, want)
	}
}

func TestReadCredentialsErrors(t *testing.T) {
	t.Parallel()
	good, err := sampleCredentials().Encode(TokenFormatWritable)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string][]byte{
		"empty":        {},
		"bad magic":    []byte("HDTX\x00\x00\x00"),
		"bad version":  []byte("HDTS\x07"),
		"truncated":    good[:len(good)-3],
		"huge length":  []byte("HDTS\x00\x01\x8c\x7f\xff\xff\xff"),
		"negative cnt": []byte("HDTS\x00\xff"),
		"bad proto":    []byte("HDTS\x01\x03\xff\xff\xff"),
	}
	for name, b := range tests {
		if _, err := ReadCredentials(bytes.NewReader(b)); !errors.Is(err, ErrBadTokenFile) {
			t.Errorf("%s: err = %v, want ErrBadTokenFile", name, err)
		}
	}
}

func TestTokenFileAndEnv(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "container_tokens")
	want := sampleCredentials()
	if err := WriteTokenFile(path, want, TokenFormatWritable); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", st.Mode().Perm())
	}
	env := map[string]string{TokenFileEnv: path}
	got, err := CredentialsFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CredentialsFromEnv = %+v, want %+v", got, want)
	}
	empty, err := CredentialsFromEnv(func(string) string { return "" })
	if err != nil || len(empty.Tokens) != 0 {
		t.Errorf("unset env: %+v, %v", empty, err)
	}
	if _, err := ReadTokenFile(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v", err)
	}
}

func FuzzReadCredentials(f *testing.F) {
	for _, format := range []TokenFormat{TokenFormatWritable, TokenFormatProtobuf} {
		b, err := sampleCredentials().Encode(format)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ReadCredentials(bytes.NewReader(b))
		if err != nil {
			return
		}
		// Whatever decodes must re-encode and decode to the same value.
		for _, format := range []TokenFormat{TokenFormatWritable, TokenFormatProtobuf} {
			enc, err := c.Encode(format)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ReadCredentials(bytes.NewReader(enc))
			if err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
			if len(back.Tokens) != len(c.Tokens) || len(back.Secrets) != len(c.Secrets) {
				t.Fatalf("round trip changed sizes: %+v vs %+v", back, c)
			}
		}
	})
}
