package digestmd5

import (
	"crypto/cipher"
	"crypto/des"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rc4"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
)

// Errors of Unwrap. After either, the layer refuses every later message:
// its sequence numbers (and, with a block cipher, its CBC chain) no longer
// match the peer's.
var (
	// ErrIntegrity reports a message whose MAC (or padding) does not
	// verify: it was altered, truncated or not protected with this
	// session's keys.
	ErrIntegrity = errors.New("digest-md5: message fails the integrity check")
	// ErrSequence reports a genuine message out of turn: a replay, a
	// reordering or a dropped message.
	ErrSequence = errors.New("digest-md5: message out of sequence")
)

// The magic constants of RFC 2831 sections 2.3 and 2.4.
const (
	magicKic = "Digest session key to client-to-server signing key magic constant"
	magicKis = "Digest session key to server-to-client signing key magic constant"
	magicKcc = "Digest H(A1) to client-to-server sealing key magic constant"
	magicKcs = "Digest H(A1) to server-to-client sealing key magic constant"
)

// Sizes of the wrapped message's parts.
const (
	macLen     = 10 // HMAC-MD5 truncated to 10 bytes
	typeLen    = 2  // message type, always 1
	seqLen     = 4  // sequence number
	trailerLen = typeLen + seqLen
	blockSize  = des.BlockSize
)

// overhead is what a sender reserves for wrapping (Java's rawSendSize is
// the peer's maxbuf less this): 16 bytes for auth-int (MAC, type,
// sequence number), 26 for auth-conf, whose padding takes at most 8.
func overhead(qop string) int {
	if qop == QopAuthConf {
		return macLen + trailerLen + 10
	}
	return macLen + trailerLen
}

// SecurityLayer is the integrity (auth-int) or confidentiality (auth-conf)
// layer of one authenticated DIGEST-MD5 session, RFC 2831 sections 2.3 and
// 2.4: Wrap protects a message for the peer, Unwrap checks (and decrypts)
// one from it.
//
// A wrapped message is, with auth-int, the message, HMAC-MD5(Ki, seq,
// message) cut to 10 bytes, the message type 1 (2 bytes) and the sequence
// number (4 bytes, big-endian); with auth-conf, the cipher's encryption of
// the message, padding to the block size and that MAC, then the type and
// the sequence number. Each direction counts its own sequence numbers from
// 0 and has its own keys (Kic/Kcc from the client, Kis/Kcs from the
// server); CBC chains and RC4 streams run on from message to message.
//
// Wrap calls must be serialized with each other, and so must Unwrap calls
// (the order of calls is the order on the wire); a Wrap may run alongside
// an Unwrap.
type SecurityLayer struct {
	qop, cipher string
	maxWrap     int

	wmu     sync.Mutex
	sendKi  []byte
	sendSeq uint32
	enc     cipher.Stream    // RC4, or nil
	encCBC  cipher.BlockMode // DES or 3DES, or nil

	rmu     sync.Mutex
	recvKi  []byte
	recvSeq uint32
	dec     cipher.Stream
	decCBC  cipher.BlockMode
	broken  error
}

// newSecurityLayer derives the keys of an authenticated session. client
// says which side this is; sendMax is the peer's maxbuf.
func newSecurityLayer(s *session, cipherName string, client bool, sendMax int) *SecurityLayer {
	ha1 := s.ha1()
	kic, kis := keyFrom(ha1, magicKic), keyFrom(ha1, magicKis)
	l := &SecurityLayer{qop: s.qop, cipher: cipherName, maxWrap: sendMax - overhead(s.qop)}
	l.sendKi, l.recvKi = kic, kis
	if !client {
		l.sendKi, l.recvKi = kis, kic
	}
	if s.qop != QopAuthConf {
		return l
	}
	n := 16
	switch cipherName {
	case CipherRC440:
		n = 5
	case CipherRC456:
		n = 7
	}
	kcc, kcs := keyFrom(ha1[:n], magicKcc), keyFrom(ha1[:n], magicKcs)
	sendKc, recvKc := kcc, kcs
	if !client {
		sendKc, recvKc = kcs, kcc
	}
	switch cipherName {
	case CipherDES, Cipher3DES:
		l.encCBC = cipher.NewCBCEncrypter(desBlock(cipherName, sendKc), sendKc[8:16])
		l.decCBC = cipher.NewCBCDecrypter(desBlock(cipherName, recvKc), recvKc[8:16])
	default:
		l.enc, l.dec = newRC4(sendKc), newRC4(recvKc)
	}
	return l
}

// keyFrom is MD5 of key material followed by a magic constant.
func keyFrom(material []byte, magic string) []byte {
	h := md5.New()
	h.Write(material)
	h.Write([]byte(magic))
	return h.Sum(nil)
}

// desBlock makes the DES key from Kc[0..6] (RFC 2831: "the first 7 bytes
// of Kcc"), or the two-key 3DES key k1 k2 k1 from Kc[0..6] and Kc[7..13],
// each spread over 8 bytes with odd parity as Java does.
func desBlock(name string, kc []byte) cipher.Block {
	k1 := desKey(kc[0:7])
	if name == CipherDES {
		b, err := des.NewCipher(k1)
		if err != nil {
			panic(err) // an 8-byte key never fails
		}
		return b
	}
	k2 := desKey(kc[7:14])
	key := append(append(append([]byte{}, k1...), k2...), k1...)
	b, err := des.NewTripleDESCipher(key)
	if err != nil {
		panic(err) // a 24-byte key never fails
	}
	return b
}

// desKey spreads 56 key bits over 8 bytes, 7 bits each in the high bits,
// and sets each byte's low bit to odd parity.
func desKey(seven []byte) []byte {
	var v uint64
	for _, b := range seven {
		v = v<<8 | uint64(b)
	}
	out := make([]byte, 8)
	for i := range out {
		b := byte(v>>(49-7*i)) << 1
		out[i] = b | oddParityBit(b)
	}
	return out
}

// oddParityBit is the low bit that gives b (whose low bit is 0) an odd
// number of ones.
func oddParityBit(b byte) byte {
	n := 0
	for x := b; x != 0; x &= x - 1 {
		n++
	}
	return byte(n+1) & 1
}

func newRC4(key []byte) cipher.Stream {
	c, err := rc4.NewCipher(key)
	if err != nil {
		panic(err) // a 16-byte key never fails
	}
	return c
}

// mac is HMAC-MD5(ki, {seq, msg}) cut to 10 bytes.
func mac(ki []byte, seq uint32, msg []byte) []byte {
	h := hmac.New(md5.New, ki)
	var s [seqLen]byte
	binary.BigEndian.PutUint32(s[:], seq)
	h.Write(s[:])
	h.Write(msg)
	return h.Sum(nil)[:macLen]
}

// Qop returns the layer's quality of protection, QopAuthInt or
// QopAuthConf.
func (l *SecurityLayer) Qop() string { return l.qop }

// Cipher returns the auth-conf cipher, or "" for auth-int.
func (l *SecurityLayer) Cipher() string { return l.cipher }

// MaxWrap is the largest message whose wrapped form fits the peer's
// maxbuf (Java's Sasl.RAW_SEND_SIZE). Senders that honour maxbuf cut their
// data into pieces of at most this size; Wrap itself takes larger ones,
// as Hadoop's own peers send them.
func (l *SecurityLayer) MaxWrap() int { return l.maxWrap }

// Wrap protects msg for the peer. An empty msg wraps to an empty token and
// uses no sequence number, as in Java.
func (l *SecurityLayer) Wrap(msg []byte) []byte {
	if len(msg) == 0 {
		return nil
	}
	l.wmu.Lock()
	defer l.wmu.Unlock()
	seq := l.sendSeq
	l.sendSeq++
	m := mac(l.sendKi, seq, msg)
	var out []byte
	switch {
	case l.encCBC != nil:
		pad := blockSize - (len(msg)+macLen)%blockSize
		n := len(msg) + pad + macLen
		out = make([]byte, n, n+trailerLen)
		copy(out, msg)
		for i := len(msg); i < len(msg)+pad; i++ {
			out[i] = byte(pad)
		}
		copy(out[len(msg)+pad:], m)
		l.encCBC.CryptBlocks(out, out)
	case l.enc != nil:
		out = make([]byte, len(msg)+macLen, len(msg)+macLen+trailerLen)
		copy(out, msg)
		copy(out[len(msg):], m)
		l.enc.XORKeyStream(out, out)
	default:
		out = make([]byte, 0, len(msg)+macLen+trailerLen)
		out = append(append(out, msg...), m...)
	}
	return binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint16(out, 1), seq)
}

// Unwrap checks a message from the peer and returns its content. A
// message that fails the MAC (or padding) check is refused with
// ErrIntegrity, one that arrives out of turn with ErrSequence; either
// leaves the layer refusing everything after. An empty token unwraps to
// nothing.
func (l *SecurityLayer) Unwrap(token []byte) ([]byte, error) {
	if len(token) == 0 {
		return nil, nil
	}
	l.rmu.Lock()
	defer l.rmu.Unlock()
	if l.broken != nil {
		return nil, l.broken
	}
	msg, err := l.unwrap(token)
	if err != nil {
		l.broken = err
		return nil, err
	}
	return msg, nil
}

func (l *SecurityLayer) unwrap(token []byte) ([]byte, error) {
	if len(token) < trailerLen {
		return nil, fmt.Errorf("%w: %d-byte token", ErrIntegrity, len(token))
	}
	body, trailer := token[:len(token)-trailerLen], token[len(token)-trailerLen:]
	typ := binary.BigEndian.Uint16(trailer)
	seq := binary.BigEndian.Uint32(trailer[typeLen:])
	var msg, got []byte
	switch {
	case l.decCBC != nil:
		if len(body) == 0 || len(body)%blockSize != 0 {
			return nil, fmt.Errorf("%w: %d encrypted bytes are not whole %d-byte blocks", ErrIntegrity, len(body), blockSize)
		}
		plain := make([]byte, len(body))
		l.decCBC.CryptBlocks(plain, body)
		if len(plain) < macLen+1 {
			return nil, fmt.Errorf("%w: message too short", ErrIntegrity)
		}
		padded, m := plain[:len(plain)-macLen], plain[len(plain)-macLen:]
		pad := int(padded[len(padded)-1])
		if pad < 1 || pad > blockSize || pad > len(padded) {
			return nil, fmt.Errorf("%w: bad padding", ErrIntegrity)
		}
		for _, b := range padded[len(padded)-pad:] {
			if int(b) != pad {
				return nil, fmt.Errorf("%w: bad padding", ErrIntegrity)
			}
		}
		msg, got = padded[:len(padded)-pad], m
	case l.dec != nil:
		plain := make([]byte, len(body))
		l.dec.XORKeyStream(plain, body)
		if len(plain) < macLen {
			return nil, fmt.Errorf("%w: message too short", ErrIntegrity)
		}
		msg, got = plain[:len(plain)-macLen], plain[len(plain)-macLen:]
	default:
		if len(body) < macLen {
			return nil, fmt.Errorf("%w: message too short", ErrIntegrity)
		}
		msg, got = body[:len(body)-macLen], body[len(body)-macLen:]
	}
	// The MAC first, as RFC 2831 and Java check it: only then is the
	// sequence number known to be the peer's.
	if subtle.ConstantTimeCompare(got, mac(l.recvKi, seq, msg)) != 1 {
		return nil, ErrIntegrity
	}
	if seq != l.recvSeq {
		return nil, fmt.Errorf("%w: got number %d, want %d", ErrSequence, seq, l.recvSeq)
	}
	if typ != 1 {
		return nil, fmt.Errorf("%w: message type %d", ErrIntegrity, typ)
	}
	l.recvSeq++
	return append([]byte(nil), msg...), nil
}
