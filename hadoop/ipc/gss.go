package ipc

import (
	"crypto/hmac"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gozie/gozie/hadoop/digestmd5"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/crypto/etype"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	krbtypes "github.com/jcmturner/gokrb5/v8/types"
)

// securityLayer protects the packets of a SASL connection once integrity
// or privacy was negotiated: DIGEST-MD5's (TOKEN) or GSSAPI's (KERBEROS).
type securityLayer interface {
	// Qop is the negotiated SASL qop, "auth-int" or "auth-conf".
	Qop() string
	// MaxWrap is the largest message whose wrapped form fits the peer's
	// maximum buffer.
	MaxWrap() int
	// Wrap protects msg for the peer.
	Wrap(msg []byte) ([]byte, error)
	// Unwrap checks (and decrypts) a token of the peer.
	Unwrap(token []byte) ([]byte, error)
}

// digestLayer adapts DIGEST-MD5's layer, whose Wrap cannot fail.
type digestLayer struct{ *digestmd5.SecurityLayer }

func (d digestLayer) Wrap(msg []byte) ([]byte, error) { return d.SecurityLayer.Wrap(msg), nil }

// GSSAPI SASL security layers (RFC 4752 section 3.3): the acceptor offers
// a bit mask of layers and its maximum buffer in 4 octets, the initiator
// answers with the one layer it chose, its own maximum buffer and an
// optional authorization id.
const (
	gssLayerNone      byte = 0x01
	gssLayerIntegrity byte = 0x02
	gssLayerPrivacy   byte = 0x04
	// gssMaxBuffer is the maximum buffer gozie announces, Java's default
	// (javax.security.sasl.maxbuffer, 65536).
	gssMaxBuffer = 65536
)

// gssLayerBit is the GSSAPI layer of a protection level.
func gssLayerBit(p Protection) byte {
	switch p {
	case ProtectionIntegrity:
		return gssLayerIntegrity
	case ProtectionPrivacy:
		return gssLayerPrivacy
	}
	return gssLayerNone
}

// gssLayerMessage is the 4-octet layer message: layers and maximum buffer.
func gssLayerMessage(layers byte, maxBuf int) []byte {
	return []byte{layers, byte(maxBuf >> 16), byte(maxBuf >> 8), byte(maxBuf)}
}

// parseGSSLayerMessage splits a layer message into its mask and buffer.
func parseGSSLayerMessage(b []byte) (byte, int, error) {
	if len(b) < 4 {
		return 0, 0, fmt.Errorf("kerberos: security layer message of %d bytes, want at least 4", len(b))
	}
	return b[0], int(b[1])<<16 | int(b[2])<<8 | int(b[3]), nil
}

// RFC 4121 token flags.
const (
	gssFlagSentByAcceptor byte = 0x01
	gssFlagSealed         byte = 0x02
	gssFlagAcceptorSubkey byte = 0x04
	gssHeaderLen               = 16
)

// gssLayer wraps and unwraps RFC 4121 Wrap tokens with one context key:
// with integrity a token carries the message in the clear and a checksum,
// with privacy the message encrypted (with a copy of the header, EC 0 and
// RRC 0, as Java's Krb5 mechanism sends them). Receiving undoes any RRC
// rotation, checks the direction flag and requires the sender's sequence
// numbers to follow one another from the first token seen (Java's and
// MIT's initial numbers differ; a replayed, reordered or dropped token
// is refused). The same layer wraps the SASL handshake's layer messages,
// so their sequence numbers come first, as in a GSS context.
type gssLayer struct {
	key       krbtypes.EncryptionKey
	et        etype.EType
	initiator bool // this side sent the AP-REQ
	privacy   bool // seal (encrypt) data tokens
	integrity bool // a layer was negotiated (set after the handshake)
	maxWrap   int

	sendSeq  uint64
	recvSeq  uint64
	recvSeen bool
}

func newGSSLayer(key krbtypes.EncryptionKey, initiator bool, seq uint64) (*gssLayer, error) {
	et, err := crypto.GetEtype(key.KeyType)
	if err != nil {
		return nil, fmt.Errorf("kerberos: session key type: %w", err)
	}
	return &gssLayer{key: key, et: et, initiator: initiator, sendSeq: seq, maxWrap: gssMaxBuffer}, nil
}

// negotiated fixes the layer the handshake settled on and the peer's
// maximum buffer; 0 leaves the size to the sender, as RFC 4752 allows.
func (l *gssLayer) negotiated(layer byte, peerMaxBuf int) {
	l.privacy = layer&gssLayerPrivacy != 0
	l.integrity = l.privacy || layer&gssLayerIntegrity != 0
	// Header, confounder, checksum and the encrypted header copy.
	const overhead = 2*gssHeaderLen + 16 + 32
	if peerMaxBuf > overhead {
		l.maxWrap = peerMaxBuf - overhead
	}
}

// Qop implements securityLayer.
func (l *gssLayer) Qop() string {
	if l.privacy {
		return digestmd5.QopAuthConf
	}
	return digestmd5.QopAuthInt
}

// MaxWrap implements securityLayer.
func (l *gssLayer) MaxWrap() int { return l.maxWrap }

func (l *gssLayer) usages() (send, recv uint32) {
	if l.initiator {
		return keyusage.GSSAPI_INITIATOR_SEAL, keyusage.GSSAPI_ACCEPTOR_SEAL
	}
	return keyusage.GSSAPI_ACCEPTOR_SEAL, keyusage.GSSAPI_INITIATOR_SEAL
}

// header is a token header with the given flags, EC and RRC.
func gssHeader(flags byte, ec, rrc uint16, seq uint64) []byte {
	h := make([]byte, gssHeaderLen)
	h[0], h[1], h[2], h[3] = 0x05, 0x04, flags, 0xFF
	binary.BigEndian.PutUint16(h[4:], ec)
	binary.BigEndian.PutUint16(h[6:], rrc)
	binary.BigEndian.PutUint64(h[8:], seq)
	return h
}

// Wrap implements securityLayer: a sealed token under privacy, else a
// checksummed one.
func (l *gssLayer) Wrap(msg []byte) ([]byte, error) {
	return l.wrap(msg, l.privacy)
}

func (l *gssLayer) wrap(msg []byte, seal bool) ([]byte, error) {
	send, _ := l.usages()
	var flags byte
	if !l.initiator {
		flags |= gssFlagSentByAcceptor
	}
	seq := l.sendSeq
	l.sendSeq++
	if seal {
		flags |= gssFlagSealed
		h := gssHeader(flags, 0, 0, seq)
		_, ct, err := l.et.EncryptMessage(l.key.KeyValue, append(append([]byte(nil), msg...), h...), send)
		if err != nil {
			return nil, fmt.Errorf("kerberos: sealing a message: %w", err)
		}
		return append(h, ct...), nil
	}
	ec := uint16(l.et.GetHMACBitLength() / 8)
	sum, err := l.et.GetChecksumHash(l.key.KeyValue, append(append([]byte(nil), msg...), gssHeader(flags, 0, 0, seq)...), send)
	if err != nil {
		return nil, fmt.Errorf("kerberos: signing a message: %w", err)
	}
	out := gssHeader(flags, ec, 0, seq)
	out = append(out, msg...)
	return append(out, sum[:ec]...), nil
}

// Unwrap implements securityLayer.
func (l *gssLayer) Unwrap(token []byte) ([]byte, error) {
	return l.unwrap(token, l.privacy)
}

// errGSSToken marks a token that is not a well-formed Wrap token.
var errGSSToken = errors.New("kerberos: malformed wrap token")

func (l *gssLayer) unwrap(token []byte, sealed bool) ([]byte, error) {
	if len(token) < gssHeaderLen || token[0] != 0x05 || token[1] != 0x04 || token[3] != 0xFF {
		return nil, fmt.Errorf("%w: bad header", errGSSToken)
	}
	flags := token[2]
	if fromAcceptor := flags&gssFlagSentByAcceptor != 0; fromAcceptor != l.initiator {
		return nil, fmt.Errorf("%w: token sent in the wrong direction", errGSSToken)
	}
	if flags&gssFlagAcceptorSubkey != 0 {
		return nil, fmt.Errorf("%w: acceptor subkeys are not supported", errGSSToken)
	}
	if got := flags&gssFlagSealed != 0; got != sealed {
		return nil, fmt.Errorf("%w: sealed=%v, the negotiated layer wants sealed=%v", digestmd5.ErrIntegrity, got, sealed)
	}
	ec := int(binary.BigEndian.Uint16(token[4:]))
	rrc := int(binary.BigEndian.Uint16(token[6:]))
	seq := binary.BigEndian.Uint64(token[8:])
	body := append([]byte(nil), token[gssHeaderLen:]...)
	if len(body) > 0 && rrc%len(body) != 0 {
		r := rrc % len(body)
		body = append(body[r:], body[:r]...)
	}
	_, recv := l.usages()
	var msg []byte
	var err error
	if sealed {
		msg, err = l.open(body, flags, ec, seq, recv)
	} else {
		msg, err = l.verify(body, flags, ec, seq, recv)
	}
	if err != nil {
		return nil, err
	}
	if err := l.sequence(seq); err != nil {
		return nil, err
	}
	return msg, nil
}

// open decrypts a sealed token's body and checks its header copy.
func (l *gssLayer) open(body []byte, flags byte, ec int, seq uint64, usage uint32) ([]byte, error) {
	pt, err := l.et.DecryptMessage(l.key.KeyValue, body, usage)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", digestmd5.ErrIntegrity, err)
	}
	if len(pt) < ec+gssHeaderLen {
		return nil, fmt.Errorf("%w: short sealed token", errGSSToken)
	}
	if !hmac.Equal(pt[len(pt)-gssHeaderLen:], gssHeader(flags, uint16(ec), 0, seq)) {
		return nil, fmt.Errorf("%w: the sealed header copy differs", digestmd5.ErrIntegrity)
	}
	return pt[:len(pt)-gssHeaderLen-ec], nil
}

// verify checks an unsealed token's checksum and returns its message.
func (l *gssLayer) verify(body []byte, flags byte, ec int, seq uint64, usage uint32) ([]byte, error) {
	if ec > len(body) || ec == 0 {
		return nil, fmt.Errorf("%w: checksum of %d bytes", errGSSToken, ec)
	}
	msg, sum := body[:len(body)-ec], body[len(body)-ec:]
	want, err := l.et.GetChecksumHash(l.key.KeyValue, append(append([]byte(nil), msg...), gssHeader(flags, 0, 0, seq)...), usage)
	if err != nil {
		return nil, fmt.Errorf("kerberos: checking a message: %w", err)
	}
	if len(want) < ec || !hmac.Equal(want[:ec], sum) {
		return nil, fmt.Errorf("%w: checksum mismatch", digestmd5.ErrIntegrity)
	}
	return msg, nil
}

// sequence accepts seq if it follows the last one received.
func (l *gssLayer) sequence(seq uint64) error {
	if l.recvSeen && seq != l.recvSeq+1 {
		return fmt.Errorf("%w: sequence number %d, want %d", digestmd5.ErrSequence, seq, l.recvSeq+1)
	}
	l.recvSeq, l.recvSeen = seq, true
	return nil
}
