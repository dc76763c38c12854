package delegation

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"strings"

	"github.com/gozie/gozie/hadoop/internal/writable"
)

// Hadoop's token URL string (Token.encodeToUrlString, decodeFromUrlString)
// is a token's Writable form (identifier, password, kind and service, each
// a WritableUtils vint length and the bytes) in URL-safe base64 without
// padding. The RM's REST API reads a submission's credentials.tokens in
// this form (RMWebAppUtil.createCredentials) and answers delegation tokens
// in it; WebHDFS redirects carry one as their delegation parameter. This is
// the one codec of gozie for it (yarn.EncodeTokenURLString wraps it for
// hadoop.Token); it lives in this leaf package so that the stand-ins can
// use it too.

// maxTokenField bounds one length-prefixed field of a token.
const maxTokenField = 1 << 20

// TokenFields are the four fields of a token's Writable form.
type TokenFields struct {
	Identifier, Password []byte
	Kind, Service        string
}

// EncodeURLString returns t as Hadoop's token URL string.
func EncodeURLString(t TokenFields) string {
	var b []byte
	for _, f := range [][]byte{t.Identifier, t.Password, []byte(t.Kind), []byte(t.Service)} {
		b = writable.AppendVLong(b, int64(len(f)))
		b = append(b, f...)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeURLString decodes Hadoop's token URL string; trailing padding is
// tolerated, trailing bytes after the token are not.
func DecodeURLString(s string) (TokenFields, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return TokenFields{}, fmt.Errorf("token is not URL-safe base64: %w", err)
	}
	r := bytes.NewReader(raw)
	var fields [4][]byte
	for i, name := range []string{"identifier", "password", "kind", "service"} {
		if fields[i], err = readField(r, name); err != nil {
			return TokenFields{}, err
		}
	}
	if r.Len() != 0 {
		return TokenFields{}, fmt.Errorf("token has %d trailing bytes", r.Len())
	}
	return TokenFields{Identifier: fields[0], Password: fields[1], Kind: string(fields[2]), Service: string(fields[3])}, nil
}

// readField reads one vint-length-prefixed field.
func readField(r *bytes.Reader, name string) ([]byte, error) {
	n, err := writable.ReadVLong(r)
	if err != nil {
		return nil, fmt.Errorf("reading length of %s: %w", name, writable.UnexpectedEOF(err))
	}
	if n < 0 || n > maxTokenField {
		return nil, fmt.Errorf("length of %s is %d", name, n)
	}
	if int64(r.Len()) < n {
		return nil, fmt.Errorf("reading %s: %w", name, io.ErrUnexpectedEOF)
	}
	out := make([]byte, n)
	r.Read(out)
	return out, nil
}
