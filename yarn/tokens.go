package yarn

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"strings"

	"github.com/gozie/gozie/hadoop"
)

// Hadoop's token URL string (Token.encodeToUrlString, decodeFromUrlString)
// is the token's Writable form (identifier, password, kind and service,
// each a WritableUtils vint length and the bytes) in URL-safe base64
// without padding. The RM's REST API reads a submission's
// credentials.tokens in this form (RMWebAppUtil.createCredentials) and
// answers delegation tokens in it. This is the one codec of gozie for it:
// the client encodes, MiniYARN decodes.

// maxTokenField bounds one length-prefixed field of a token.
const maxTokenField = 1 << 20

// EncodeTokenURLString returns t as Hadoop's token URL string.
func EncodeTokenURLString(t hadoop.Token) string {
	var b bytes.Buffer
	writeBytesField(&b, t.Identifier)
	writeBytesField(&b, t.Password)
	writeBytesField(&b, []byte(t.Kind))
	writeBytesField(&b, []byte(t.Service))
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// DecodeTokenURLString decodes Hadoop's token URL string; trailing
// padding is tolerated, trailing bytes after the token are not.
func DecodeTokenURLString(s string) (hadoop.Token, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return hadoop.Token{}, fmt.Errorf("token is not URL-safe base64: %w", err)
	}
	r := bytes.NewReader(raw)
	var t hadoop.Token
	if t.Identifier, err = readBytesField(r, "identifier"); err != nil {
		return hadoop.Token{}, err
	}
	if t.Password, err = readBytesField(r, "password"); err != nil {
		return hadoop.Token{}, err
	}
	kind, err := readBytesField(r, "kind")
	if err != nil {
		return hadoop.Token{}, err
	}
	service, err := readBytesField(r, "service")
	if err != nil {
		return hadoop.Token{}, err
	}
	if r.Len() != 0 {
		return hadoop.Token{}, fmt.Errorf("token has %d trailing bytes", r.Len())
	}
	t.Kind, t.Service = string(kind), string(service)
	return t, nil
}

// TokenCredentials returns the credentials of a submission holding tokens
// under their service as alias, as Hadoop's clients add delegation tokens
// (Credentials.addToken(token.getService(), token), e.g. in
// DFSClient's and TokenCache's collection); a later token of the same
// service replaces an earlier one. Nil when there are no tokens.
func TokenCredentials(tokens []hadoop.Token) *Credentials {
	if len(tokens) == 0 {
		return nil
	}
	c := &Credentials{Tokens: EntryMap[string]{}}
	for _, t := range tokens {
		alias := t.Service
		if alias == "" {
			alias = t.Kind // a token for no particular service still needs a key
		}
		c.Tokens[alias] = EncodeTokenURLString(t)
	}
	return c
}

func readBytesField(r io.ByteReader, name string) ([]byte, error) {
	n, err := readVLong(r)
	if err != nil {
		return nil, fmt.Errorf("reading length of %s: %w", name, err)
	}
	if n < 0 || n > maxTokenField {
		return nil, fmt.Errorf("length of %s is %d", name, n)
	}
	out := make([]byte, n)
	for i := range out {
		b, err := r.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, io.ErrUnexpectedEOF)
		}
		out[i] = b
	}
	return out, nil
}

func writeBytesField(w *bytes.Buffer, b []byte) {
	writeVLong(w, int64(len(b)))
	w.Write(b)
}

// writeVLong writes Hadoop's WritableUtils variable-length long.
func writeVLong(w *bytes.Buffer, v int64) {
	if v >= -112 && v <= 127 {
		w.WriteByte(byte(v))
		return
	}
	l := int64(-112)
	if v < 0 {
		v = ^v
		l = -120
	}
	for tmp := v; tmp != 0; tmp >>= 8 {
		l--
	}
	w.WriteByte(byte(l))
	n := -(l + 112)
	if l < -120 {
		n = -(l + 120)
	}
	for i := n; i != 0; i-- {
		shift := uint((i - 1) * 8)
		w.WriteByte(byte(v >> shift))
	}
}

// readVLong reads Hadoop's WritableUtils variable-length long.
func readVLong(r io.ByteReader) (int64, error) {
	first, err := r.ReadByte()
	if err != nil {
		return 0, io.ErrUnexpectedEOF
	}
	fb := int8(first)
	if fb >= -112 {
		return int64(fb), nil
	}
	size := -111 - int(fb)
	negative := fb < -120
	if negative {
		size = -119 - int(fb)
	}
	var v int64
	for i := 0; i < size-1; i++ {
		b, err := r.ReadByte()
		if err != nil {
			return 0, io.ErrUnexpectedEOF
		}
		v = v<<8 | int64(b)
	}
	if negative {
		v = ^v
	}
	return v, nil
}
