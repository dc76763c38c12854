package hive2

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/spnego"
)

// ProxyUserKey is the OpenSession configuration key naming the user a
// Kerberos session acts for (Hive's HS2_PROXY_USER); gozie sets it to the
// workflow's user, as Oozie's Hive2Main does on a secure cluster.
const ProxyUserKey = "hive.server2.proxy.user"

// ServicePrincipal resolves a HiveServer2 principal as the Hive JDBC
// driver does: "_HOST" in the instance part becomes host (lower case).
func ServicePrincipal(principal, host string) string {
	svc, rest, ok := strings.Cut(principal, "/")
	if !ok {
		return principal
	}
	inst, realm, hasRealm := strings.Cut(rest, "@")
	if inst == "_HOST" {
		inst = strings.ToLower(host)
	}
	if hasRealm {
		return svc + "/" + inst + "@" + realm
	}
	return svc + "/" + inst
}

// splitPrincipal splits "svc/host@REALM" into the SPN gokrb5 asks a
// ticket for ("svc/host") and the realm ("" when absent).
func splitPrincipal(p string) (spn, realm string) {
	spn, realm, _ = strings.Cut(p, "@")
	return spn, realm
}

// Thrift SASL negotiation status bytes (TSaslTransport.NegotiationStatus).
const (
	saslStart    = 1
	saslOK       = 2
	saslBad      = 3
	saslError    = 4
	saslComplete = 5
)

// maxSASLFrame bounds a frame read from the server (Hive's
// hive.server2.thrift.max.message.size is of that order).
const maxSASLFrame = 256 << 20

// SASLGSSAPI runs the client side of Hive's Thrift SASL negotiation with
// GSSAPI on conn (TSaslClientTransport, qop auth): START "GSSAPI", the
// AP-REQ for principal, the server's wrapped security-layer offer, the
// wrapped choice of no layer, COMPLETE. It returns conn wrapped in the
// transport's framing. HiveServer2 and the Hive metastore (the hcat
// credential of actions/credentials) share this transport.
func SASLGSSAPI(conn net.Conn, cl *krbclient.Client, principal string) (net.Conn, error) {
	spn, _ := splitPrincipal(principal)
	tkt, key, err := cl.GetServiceTicket(spn)
	if err != nil {
		return nil, fmt.Errorf("getting a Kerberos ticket for %s: %w", principal, err)
	}
	tok, err := spnego.NewKRB5TokenAPREQ(cl, tkt, key, []int{gssapi.ContextFlagInteg, gssapi.ContextFlagConf}, nil)
	if err != nil {
		return nil, fmt.Errorf("building the Kerberos AP-REQ: %w", err)
	}
	apReq, err := tok.Marshal()
	if err != nil {
		return nil, fmt.Errorf("encoding the Kerberos AP-REQ: %w", err)
	}
	br := bufio.NewReader(conn)
	if err := writeSASL(conn, saslStart, []byte("GSSAPI")); err != nil {
		return nil, err
	}
	if err := writeSASL(conn, saslOK, apReq); err != nil {
		return nil, err
	}
	offer, err := readSASL(br, saslOK)
	if err != nil {
		return nil, err
	}
	var wt gssapi.WrapToken
	if err := wt.Unmarshal(offer, true); err != nil {
		return nil, fmt.Errorf("SASL GSSAPI: decoding the server's security-layer offer: %w", err)
	}
	if ok, err := wt.Verify(key, keyusage.GSSAPI_ACCEPTOR_SEAL); !ok {
		return nil, fmt.Errorf("SASL GSSAPI: the server's offer does not verify (is %s the server's principal?): %v", principal, err)
	}
	if len(wt.Payload) < 4 || wt.Payload[0]&0x01 == 0 {
		return nil, fmt.Errorf("SASL GSSAPI: the server requires a security layer (sasl.qop auth-int or auth-conf), which gozie does not support yet")
	}
	choice, err := gssapi.NewInitiatorWrapToken([]byte{0x01, 0, 0, 0}, key)
	if err != nil {
		return nil, fmt.Errorf("SASL GSSAPI: wrapping the security-layer choice: %w", err)
	}
	b, err := choice.Marshal()
	if err != nil {
		return nil, fmt.Errorf("SASL GSSAPI: encoding the security-layer choice: %w", err)
	}
	if err := writeSASL(conn, saslComplete, b); err != nil {
		return nil, err
	}
	if _, err := readSASL(br, saslComplete); err != nil {
		return nil, err
	}
	return &saslConn{Conn: conn, r: br}, nil
}

func writeSASL(w io.Writer, status byte, payload []byte) error {
	msg := make([]byte, 5+len(payload))
	msg[0] = status
	binary.BigEndian.PutUint32(msg[1:], uint32(len(payload)))
	copy(msg[5:], payload)
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("SASL negotiation: writing: %w", err)
	}
	return nil
}

// readSASL reads one negotiation message and checks its status; BAD and
// ERROR carry the server's reason.
func readSASL(r io.Reader, want byte) ([]byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, fmt.Errorf("SASL negotiation: reading the server's answer: %w", err)
	}
	n := binary.BigEndian.Uint32(head[1:])
	if n > maxSASLFrame {
		return nil, fmt.Errorf("SASL negotiation: message of %d bytes", n)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return nil, fmt.Errorf("SASL negotiation: reading the server's answer: %w", err)
	}
	switch head[0] {
	case want:
		return payload, nil
	case saslBad, saslError:
		return nil, fmt.Errorf("SASL negotiation refused by HiveServer2: %s", payload)
	}
	return nil, fmt.Errorf("SASL negotiation: unexpected status %d", head[0])
}

// saslConn is a connection after a SASL negotiation with qop auth: each
// write goes out as a frame (4-byte big-endian length, bytes), and reads
// return the bytes of the server's frames. Frames need not align with
// Thrift messages; Hive's TSaslTransport reassembles them.
type saslConn struct {
	net.Conn
	r    *bufio.Reader
	left int // bytes of the current frame not read yet
}

func (c *saslConn) Read(p []byte) (int, error) {
	for c.left == 0 {
		var head [4]byte
		if _, err := io.ReadFull(c.r, head[:]); err != nil {
			return 0, err
		}
		n := binary.BigEndian.Uint32(head[:])
		if n > maxSASLFrame {
			return 0, fmt.Errorf("SASL frame of %d bytes", n)
		}
		c.left = int(n)
	}
	if len(p) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= n
	if errors.Is(err, io.EOF) && c.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

func (c *saslConn) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	frame := make([]byte, 4+len(p))
	binary.BigEndian.PutUint32(frame, uint32(len(p)))
	copy(frame[4:], p)
	if _, err := c.Conn.Write(frame); err != nil {
		return 0, err
	}
	return len(p), nil
}
