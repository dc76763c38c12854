package hadoop

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"

	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// IPC facts used by nnConn (Hadoop's RpcConstants): the preamble is "hrpc",
// the version, the service class and the auth protocol; every later packet
// is a 4-byte big-endian length and varint-delimited messages, a request's
// first one an RpcRequestHeaderProto, a response's an
// RpcResponseHeaderProto. The connection context has call id -3.
const (
	preambleLen         = 7
	contextCallID int32 = -3
	// authFailedCallID answers a connection refused before any request
	// (RpcConstants.AUTHORIZATION_FAILED_CALL_ID).
	authFailedCallID int32 = -1
	// maxNNPacket bounds a packet nnConn holds whole (Hadoop's
	// ipc.maximum.data.length default, 128 MiB).
	maxNNPacket = 128 << 20
)

// nnConn is a colinmarc/hdfs client's connection to a NameNode, seen
// through what colinmarc v2.4.0 cannot say or keep:
//
//   - It sends the connection context Hadoop's own client sends
//     (ProtoUtil.makeIpcConnectionContext): for SIMPLE authentication the
//     effective user and, for a proxy, the real user; for KERBEROS the
//     effective user alone (the ticket names the real one). colinmarc's
//     context names one user only, so nnConn rewrites it in flight; the
//     rest of the stream passes untouched.
//   - It keeps the message of the NameNode's refusals: colinmarc turns an
//     AccessControlException into fs.ErrPermission and drops "Permission
//     denied: user=…, access=…, inode=…", which is what a user needs to
//     see. Refusals are handed to refusals; HDFS puts them back on the
//     error it returns.
//   - On a KERBEROS connection (newSecureNNConn) gozie, not colinmarc,
//     authenticates: the dialler ran SASL GSSAPI with ipc.Authenticate,
//     so nnConn drops colinmarc's SIMPLE preamble and, under integrity or
//     privacy, wraps every request and unwraps every response, which
//     colinmarc v2.4.0 cannot do (it sends requests in the clear).
//   - A NameNode that refuses the connection answers at a reserved call
//     id and closes: -3 when it refuses the context (a proxy user without
//     a hadoop.proxyuser rule), -1 when it refuses SIMPLE authentication
//     (a Kerberized NameNode; the client's configuration lacks
//     hadoop.security.authentication=kerberos). colinmarc would report
//     "unexpected sequence number". nnConn reports the refusal itself
//     ("User: gozie is not allowed to impersonate bob", a
//     *SimpleRefusedError naming the setting), on this and every later
//     read and write, and hands it to refusals for HDFS to put back on
//     errors colinmarc flattens into text.
type nnConn struct {
	net.Conn
	user     string // the context's effective user; "" keeps colinmarc's
	realUser string // the context's real user (SIMPLE proxies only)
	rec      *refusals
	sess     *ipc.Session // KERBEROS (or TOKEN) session; nil for SIMPLE
	noUser   bool         // TOKEN: the context names no user at all
	addr     string       // the NameNode's host:port, for SimpleRefusedError
	hint     string       // SimpleRefusedError's Hint

	wmu      sync.Mutex
	wbuf     []byte // outgoing bytes held until the context is rewritten
	sentPre  bool
	rewrote  bool
	rmu      sync.Mutex
	in       io.Reader // plain response packets: br, or unwrapped from it
	rpending []byte    // the inspected packet not yet read by colinmarc
	answered bool      // a call succeeded on the connection

	errMu sync.Mutex
	err   error // the NameNode's refusal of the connection
}

func newNNConn(c net.Conn, user, realUser string, rec *refusals) *nnConn {
	return &nnConn{Conn: c, user: user, realUser: realUser, rec: rec, in: bufio.NewReader(c)}
}

// newTokenNNConn is an nnConn over c, a connection sess authenticated
// with a delegation token: as Hadoop's client does over TOKEN
// (ProtoUtil.makeIpcConnectionContext), the context names no user, for the
// token says who the caller is.
func newTokenNNConn(c net.Conn, sess *ipc.Session, rec *refusals) *nnConn {
	nc := newSecureNNConn(c, sess, "", rec)
	nc.noUser = true
	return nc
}

// newSecureNNConn is an nnConn over c, a connection sess authenticated:
// the context names user alone (the session says who the real user is),
// and packets travel through the session's security layer.
func newSecureNNConn(c net.Conn, sess *ipc.Session, user string, rec *refusals) *nnConn {
	return &nnConn{Conn: c, user: user, rec: rec, sess: sess, in: sess.Reader(bufio.NewReader(c))}
}

// refused returns the NameNode's refusal of the connection, if any, and
// hands it to refusals once more: colinmarc turns a failed write into
// "no available namenodes: …" text, from which HDFS takes it back.
func (c *nnConn) refused() error {
	c.errMu.Lock()
	err := c.err
	c.errMu.Unlock()
	if err != nil && c.rec != nil {
		c.rec.refuse(err)
	}
	return err
}

// Write forwards p, holding the preamble and the packets before the
// connection context until the context can be rewritten.
func (c *nnConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.refused(); err != nil {
		return 0, err
	}
	if c.rewrote {
		return len(p), c.send(p)
	}
	c.wbuf = append(c.wbuf, p...)
	out, err := c.scan()
	if err != nil {
		return 0, err
	}
	if len(out) > 0 {
		if err := c.send(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// send writes request bytes, through the security layer if there is one.
func (c *nnConn) send(p []byte) error {
	if c.sess != nil {
		var err error
		if p, err = c.sess.WrapPackets(p); err != nil {
			return err
		}
	}
	_, err := c.Conn.Write(p)
	return err
}

// scan returns what of wbuf can go out: the preamble, SASL packets, and
// the rewritten connection context followed by everything after it.
func (c *nnConn) scan() ([]byte, error) {
	var out []byte
	if !c.sentPre {
		if len(c.wbuf) < preambleLen {
			return nil, nil
		}
		if c.sess == nil {
			out = append(out, c.wbuf[:preambleLen]...)
		}
		c.wbuf, c.sentPre = c.wbuf[preambleLen:], true
	}
	for !c.rewrote && len(c.wbuf) >= 4 {
		n := binary.BigEndian.Uint32(c.wbuf)
		if n > maxNNPacket {
			return nil, fmt.Errorf("hadoop: request packet of %d bytes", n)
		}
		if len(c.wbuf) < 4+int(n) {
			break
		}
		pkt := c.wbuf[4 : 4+n]
		c.wbuf = c.wbuf[4+n:]
		hdrBytes, rest, err := nextDelimited(pkt)
		if err != nil {
			return nil, fmt.Errorf("hadoop: request header: %w", err)
		}
		hdr := &commonpb.RpcRequestHeaderProto{}
		if err := proto.Unmarshal(hdrBytes, hdr); err != nil {
			return nil, fmt.Errorf("hadoop: request header: %w", err)
		}
		switch id := hdr.GetCallId(); {
		case id == contextCallID:
			p, err := c.rewriteContext(hdrBytes, rest)
			if err != nil {
				return nil, err
			}
			out = append(out, p...)
			c.rewrote = true
		case id >= 0:
			return nil, errors.New("hadoop: a call before the connection context")
		default: // SASL
			out = binary.BigEndian.AppendUint32(out, n)
			out = append(out, pkt...)
		}
	}
	if c.rewrote {
		out = append(out, c.wbuf...)
		c.wbuf = nil
	}
	return out, nil
}

// rewriteContext re-encodes the context packet with the user information
// Hadoop's client would send.
func (c *nnConn) rewriteContext(hdr, rest []byte) ([]byte, error) {
	ctxBytes, _, err := nextDelimited(rest)
	if err != nil {
		return nil, fmt.Errorf("hadoop: connection context: %w", err)
	}
	cc := &commonpb.IpcConnectionContextProto{}
	if err := proto.Unmarshal(ctxBytes, cc); err != nil {
		return nil, fmt.Errorf("hadoop: connection context: %w", err)
	}
	if c.noUser {
		cc.UserInfo = nil
	}
	if c.user != "" {
		cc.UserInfo = &commonpb.UserInformationProto{EffectiveUser: proto.String(c.user)}
		if c.realUser != "" {
			cc.UserInfo.RealUser = proto.String(c.realUser)
		}
	}
	b, err := proto.Marshal(cc)
	if err != nil {
		return nil, err
	}
	body := protowire.AppendBytes(protowire.AppendBytes(nil, hdr), b)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(body))), body...), nil
}

// Read hands colinmarc the NameNode's packets one by one after a look at
// each answer's header.
func (c *nnConn) Read(p []byte) (int, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	if len(c.rpending) == 0 {
		if err := c.refused(); err != nil {
			return 0, err
		}
		pkt, err := c.readPacket()
		if err != nil {
			return 0, err
		}
		if err := c.inspect(pkt[4:]); err != nil {
			return 0, err
		}
		c.rpending = pkt
	}
	n := copy(p, c.rpending)
	c.rpending = c.rpending[n:]
	return n, nil
}

// readPacket reads one whole packet, its length included.
func (c *nnConn) readPacket() ([]byte, error) {
	var l [4]byte
	if _, err := io.ReadFull(c.in, l[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(l[:])
	if n > maxNNPacket {
		return nil, fmt.Errorf("hadoop: response packet of %d bytes", n)
	}
	pkt := make([]byte, 4+n)
	copy(pkt, l[:])
	if _, err := io.ReadFull(c.in, pkt[4:]); err != nil {
		return nil, err
	}
	return pkt, nil
}

// inspect records a failed answer's exception, and turns the refusal of
// the connection context into the connection's error.
func (c *nnConn) inspect(body []byte) error {
	b, _, err := nextDelimited(body)
	if err != nil {
		return nil // not ours to judge: colinmarc reports the framing
	}
	hdr := &commonpb.RpcResponseHeaderProto{}
	if proto.Unmarshal(b, hdr) != nil {
		return nil
	}
	if hdr.GetStatus() == commonpb.RpcResponseHeaderProto_SUCCESS {
		if !c.answered && c.rec != nil {
			c.rec.accepted() // a connection of the client works again
		}
		c.answered = true
		return nil
	}
	re := &RemoteException{Class: hdr.GetExceptionClassName(), Message: firstLine(hdr.GetErrorMsg())}
	if id := int32(hdr.GetCallId()); id < 0 {
		// An answer to no call of colinmarc's: the connection is refused.
		err := c.connectionRefusal(id, hdr.GetErrorDetail(), re)
		c.errMu.Lock()
		c.err = err
		c.errMu.Unlock()
		if c.rec != nil {
			c.rec.refuse(err)
		}
		return err
	}
	if re.refusal() && c.rec != nil {
		c.rec.record(re)
	}
	return nil
}

// connectionRefusal is the error of a connection the NameNode refused with
// re (of error code code) at call id: on a SIMPLE connection, the refusal
// at -1 of SIMPLE itself gets its *SimpleRefusedError.
func (c *nnConn) connectionRefusal(id int32, code ipc.ErrorCode, re *RemoteException) error {
	if c.sess == nil && id == authFailedCallID && refusesSimple(re.Class, code) {
		return &SimpleRefusedError{NameNode: c.addr, Refusal: re, Hint: c.hint}
	}
	return re
}

// firstLine drops the Java stack trace a NameNode appends to an exception's
// message (Server's errorMsg is StringUtils.stringifyException).
func firstLine(msg string) string {
	if i := strings.Index(msg, "\n\tat "); i >= 0 {
		return msg[:i]
	}
	return msg
}

// nextDelimited splits a varint-delimited message off b.
func nextDelimited(b []byte) (msg, rest []byte, err error) {
	v, n := protowire.ConsumeBytes(b)
	if n < 0 {
		return nil, nil, protowire.ParseError(n)
	}
	return v, b[n:], nil
}

// refusals keeps the last refusal a client's NameNode connections
// answered, for HDFS to put its message back on the error colinmarc
// returns (see HDFS.do).
type refusals struct {
	mu   sync.Mutex
	last *RemoteException
	// conn is the refusal of the client's last connection, kept until a
	// later connection answers a call: colinmarc, which backs off from a
	// NameNode that failed, then reports "no available namenodes" without
	// dialling it.
	conn error
}

// refuse records the refusal of a connection.
func (r *refusals) refuse(err error) {
	r.mu.Lock()
	r.conn = err
	r.mu.Unlock()
}

// accepted forgets the refusal of an earlier connection.
func (r *refusals) accepted() { r.refuse(nil) }

// connRefusal returns the refusal of the client's last connection, if no
// connection has answered a call since.
func (r *refusals) connRefusal() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conn
}

func (r *refusals) record(e *RemoteException) {
	r.mu.Lock()
	r.last = e
	r.mu.Unlock()
}

// take returns the last refusal and forgets it.
func (r *refusals) take() *RemoteException {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.last
	r.last = nil
	return e
}
