package hadoop

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// TokenFileEnv names the environment variable through which YARN hands a
// container its token storage file.
const TokenFileEnv = "HADOOP_TOKEN_FILE_LOCATION"

// Token kinds gozie handles.
const (
	// KindAMRMToken is the kind of the token an ApplicationMaster uses to
	// talk to the ResourceManager's scheduler.
	KindAMRMToken = "YARN_AM_RM_TOKEN"
	// KindHDFSDelegationToken is the kind of an HDFS delegation token.
	KindHDFSDelegationToken = "HDFS_DELEGATION_TOKEN"
	// KindRMDelegationToken is the kind of a ResourceManager delegation
	// token.
	KindRMDelegationToken = "RM_DELEGATION_TOKEN"
)

// Token is a Hadoop security token.
type Token struct {
	// Identifier is the opaque, kind-specific identifier (for an AMRM token
	// the encoded yarnpb.AMRMTokenIdentifierProto).
	Identifier []byte
	// Password is the secret the issuer derived from Identifier.
	Password []byte
	// Kind names the token type, e.g. KindAMRMToken.
	Kind string
	// Service is the address (or logical name) the token is valid for.
	Service string
}

// IPC returns the token's credentials for TOKEN authentication.
func (t Token) IPC() *ipc.Token {
	return &ipc.Token{Identifier: t.Identifier, Password: t.Password}
}

// Credentials is the content of a token storage file: tokens and secret
// keys, each under an alias.
type Credentials struct {
	Tokens  map[string]Token
	Secrets map[string][]byte
}

// TokenOfKind returns a token of the given kind; when several match the
// one with the smallest alias wins, so the choice is deterministic.
func (c *Credentials) TokenOfKind(kind string) (Token, bool) {
	for _, alias := range sortedKeys(c.Tokens) {
		if t := c.Tokens[alias]; t.Kind == kind {
			return t, true
		}
	}
	return Token{}, false
}

// TokenFormat is the serialization version byte after the "HDTS" magic.
type TokenFormat byte

const (
	// TokenFormatWritable (version 0) is Hadoop's Writable layout, which
	// Hadoop still writes by default for compatibility.
	TokenFormatWritable TokenFormat = 0
	// TokenFormatProtobuf (version 1) is a varint-delimited
	// CredentialsProto.
	TokenFormatProtobuf TokenFormat = 1
)

var tokenMagic = []byte("HDTS")

// ErrBadTokenFile reports a token storage file that cannot be decoded.
var ErrBadTokenFile = errors.New("hadoop: bad token storage file")

// ReadCredentials decodes a token storage stream of either format.
func ReadCredentials(r io.Reader) (*Credentials, error) {
	br := bufio.NewReader(r)
	head := make([]byte, 5)
	if _, err := io.ReadFull(br, head); err != nil {
		return nil, fmt.Errorf("%w: reading header: %w", ErrBadTokenFile, err)
	}
	if !bytes.Equal(head[:4], tokenMagic) {
		return nil, fmt.Errorf("%w: missing HDTS magic", ErrBadTokenFile)
	}
	var (
		c   *Credentials
		err error
	)
	switch TokenFormat(head[4]) {
	case TokenFormatWritable:
		c, err = readWritableCredentials(br)
	case TokenFormatProtobuf:
		c, err = readProtoCredentials(br)
	default:
		return nil, fmt.Errorf("%w: unknown format version %d", ErrBadTokenFile, head[4])
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadTokenFile, err)
	}
	return c, nil
}

func readWritableCredentials(r *bufio.Reader) (*Credentials, error) {
	c := &Credentials{Tokens: map[string]Token{}, Secrets: map[string][]byte{}}
	n, err := readVInt(r)
	if err != nil {
		return nil, fmt.Errorf("token count: %w", unexpectedEOF(err))
	}
	if n < 0 || n > maxWritableLen {
		return nil, fmt.Errorf("%w: token count %d", errBadWritable, n)
	}
	for i := range n {
		alias, err := readText(r)
		if err != nil {
			return nil, fmt.Errorf("token %d alias: %w", i, err)
		}
		var t Token
		if t.Identifier, err = readBytes(r); err != nil {
			return nil, fmt.Errorf("token %q identifier: %w", alias, err)
		}
		if t.Password, err = readBytes(r); err != nil {
			return nil, fmt.Errorf("token %q password: %w", alias, err)
		}
		if t.Kind, err = readText(r); err != nil {
			return nil, fmt.Errorf("token %q kind: %w", alias, err)
		}
		if t.Service, err = readText(r); err != nil {
			return nil, fmt.Errorf("token %q service: %w", alias, err)
		}
		c.Tokens[alias] = t
	}
	if n, err = readVInt(r); err != nil {
		return nil, fmt.Errorf("secret count: %w", unexpectedEOF(err))
	}
	if n < 0 || n > maxWritableLen {
		return nil, fmt.Errorf("%w: secret count %d", errBadWritable, n)
	}
	for i := range n {
		alias, err := readText(r)
		if err != nil {
			return nil, fmt.Errorf("secret %d alias: %w", i, err)
		}
		if c.Secrets[alias], err = readBytes(r); err != nil {
			return nil, fmt.Errorf("secret %q: %w", alias, err)
		}
	}
	return c, nil
}

// readText reads a Hadoop Text (vint length + UTF-8 bytes). Bytes are kept
// as they are, so a token file round-trips even if a writer broke UTF-8.
func readText(r *bufio.Reader) (string, error) {
	b, err := readBytes(r)
	return string(b), err
}

func readProtoCredentials(r *bufio.Reader) (*Credentials, error) {
	size, err := readUvarint(r)
	if err != nil {
		return nil, fmt.Errorf("message length: %w", err)
	}
	if size > maxWritableLen {
		return nil, fmt.Errorf("message length %d too large", size)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("message: %w", unexpectedEOF(err))
	}
	var cp commonpb.CredentialsProto
	if err := proto.Unmarshal(b, &cp); err != nil {
		return nil, fmt.Errorf("decoding CredentialsProto: %w", err)
	}
	c := &Credentials{Tokens: map[string]Token{}, Secrets: map[string][]byte{}}
	for _, kv := range cp.GetTokens() {
		t := kv.GetToken()
		c.Tokens[kv.GetAlias()] = Token{Identifier: t.GetIdentifier(), Password: t.GetPassword(), Kind: t.GetKind(), Service: t.GetService()}
	}
	for _, kv := range cp.GetSecrets() {
		c.Secrets[kv.GetAlias()] = kv.GetSecret()
	}
	return c, nil
}

func readUvarint(r io.ByteReader) (uint64, error) {
	var buf []byte
	for len(buf) < binaryMaxVarintLen {
		b, err := r.ReadByte()
		if err != nil {
			return 0, unexpectedEOF(err)
		}
		buf = append(buf, b)
		if b < 0x80 {
			v, n := protowire.ConsumeVarint(buf)
			if n < 0 {
				return 0, protowire.ParseError(n)
			}
			return v, nil
		}
	}
	return 0, errors.New("varint too long")
}

const binaryMaxVarintLen = 10

// Encode serializes the credentials in the given format. Aliases are
// written in sorted order, so equal credentials encode identically.
func (c *Credentials) Encode(format TokenFormat) ([]byte, error) {
	b := append([]byte{}, tokenMagic...)
	b = append(b, byte(format))
	switch format {
	case TokenFormatWritable:
		b = appendVLong(b, int64(len(c.Tokens)))
		for _, alias := range sortedKeys(c.Tokens) {
			t := c.Tokens[alias]
			b = appendBytes(b, []byte(alias))
			b = appendBytes(b, t.Identifier)
			b = appendBytes(b, t.Password)
			b = appendBytes(b, []byte(t.Kind))
			b = appendBytes(b, []byte(t.Service))
		}
		b = appendVLong(b, int64(len(c.Secrets)))
		for _, alias := range sortedKeys(c.Secrets) {
			b = appendBytes(b, []byte(alias))
			b = appendBytes(b, c.Secrets[alias])
		}
		return b, nil
	case TokenFormatProtobuf:
		cp := &commonpb.CredentialsProto{}
		for _, alias := range sortedKeys(c.Tokens) {
			t := c.Tokens[alias]
			cp.Tokens = append(cp.Tokens, &commonpb.CredentialsKVProto{
				Alias: proto.String(alias),
				Token: &commonpb.TokenProto{
					Identifier: nonNil(t.Identifier), Password: nonNil(t.Password),
					Kind: proto.String(t.Kind), Service: proto.String(t.Service),
				},
			})
		}
		for _, alias := range sortedKeys(c.Secrets) {
			cp.Secrets = append(cp.Secrets, &commonpb.CredentialsKVProto{Alias: proto.String(alias), Secret: nonNil(c.Secrets[alias])})
		}
		m, err := proto.MarshalOptions{Deterministic: true}.Marshal(cp)
		if err != nil {
			return nil, fmt.Errorf("hadoop: encoding credentials: %w", err)
		}
		b = protowire.AppendVarint(b, uint64(len(m)))
		return append(b, m...), nil
	}
	return nil, fmt.Errorf("hadoop: unknown token file format %d", format)
}

// nonNil keeps required bytes fields present on the wire even when empty.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ReadTokenFile reads a token storage file.
func ReadTokenFile(path string) (*Credentials, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hadoop: opening token file: %w", err)
	}
	defer f.Close()
	c, err := ReadCredentials(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return c, nil
}

// WriteTokenFile writes the credentials to path with mode 0600, replacing
// it atomically (write to a temporary file, then rename).
func WriteTokenFile(path string, c *Credentials, format TokenFormat) error {
	b, err := c.Encode(format)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tokens-*")
	if err != nil {
		return fmt.Errorf("hadoop: writing token file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("hadoop: writing token file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("hadoop: writing token file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("hadoop: writing token file: %w", err)
	}
	return nil
}

// CredentialsFromEnv reads the token file named by HADOOP_TOKEN_FILE_LOCATION
// as returned by getenv (os.Getenv in production). It returns empty
// credentials when the variable is unset.
func CredentialsFromEnv(getenv func(string) string) (*Credentials, error) {
	path := getenv(TokenFileEnv)
	if path == "" {
		return &Credentials{Tokens: map[string]Token{}, Secrets: map[string][]byte{}}, nil
	}
	return ReadTokenFile(path)
}
