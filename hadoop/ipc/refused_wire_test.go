package ipc_test

import (
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// TestRefusalBeforeAnyRequestWire: a server refuses a connection before
// any request as Hadoop's Server does (initializeAuthContext,
// setupBadVersionResponse): one FATAL answer at call id -1
// (AUTHORIZATION_FAILED_CALL_ID), which clients that know no such call
// (colinmarc/hdfs) can only read as a stray answer; the SIMPLE refusal
// lists the enabled methods as Java prints a List.
func TestRefusalBeforeAnyRequestWire(t *testing.T) {
	t.Parallel()
	db := tokenDB{"id-1": {password: []byte{1}, user: "u"}}
	tests := []struct {
		name      string
		preamble  []byte
		wantCode  commonpb.RpcResponseHeaderProto_RpcErrorCodeProto
		wantClass string
		wantMsg   string
	}{
		{name: "SIMPLE on a token-only server", preamble: []byte("hrpc\x09\x00\x00"),
			wantCode: commonpb.RpcResponseHeaderProto_FATAL_UNAUTHORIZED, wantClass: ipc.AccessControlException,
			wantMsg: "SIMPLE authentication is not enabled.  Available:[TOKEN]"},
		{name: "wrong IPC version", preamble: []byte("hrpc\x0a\x00\x00"),
			wantCode: commonpb.RpcResponseHeaderProto_FATAL_VERSION_MISMATCH, wantClass: "org.apache.hadoop.ipc.RPC$VersionMismatch",
			wantMsg: "server IPC version 9 cannot communicate with client version 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, _ := startServer(t, ipc.ServerOptions{Token: db.lookup})
			nc, err := net.Dial("tcp", srv.Addr())
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			nc.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err := nc.Write(tt.preamble); err != nil {
				t.Fatal(err)
			}
			hdr := readResponseHeader(t, nc)
			if int32(hdr.GetCallId()) != -1 || hdr.GetStatus() != commonpb.RpcResponseHeaderProto_FATAL ||
				hdr.GetErrorDetail() != tt.wantCode || hdr.GetExceptionClassName() != tt.wantClass || hdr.GetErrorMsg() != tt.wantMsg {
				t.Errorf("answer: call id %d, %s %s %s %q; want -1, FATAL %s %s %q", int32(hdr.GetCallId()), hdr.GetStatus(),
					hdr.GetErrorDetail(), hdr.GetExceptionClassName(), hdr.GetErrorMsg(), tt.wantCode, tt.wantClass, tt.wantMsg)
			}
			if n, err := nc.Read(make([]byte, 1)); err != io.EOF {
				t.Errorf("after the refusal: read %d bytes, %v; want the connection closed", n, err)
			}
		})
	}
}

// readResponseHeader reads one response packet and decodes its header.
func readResponseHeader(t *testing.T, r io.Reader) *commonpb.RpcResponseHeaderProto {
	t.Helper()
	var l [4]byte
	if _, err := io.ReadFull(r, l[:]); err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	pkt := make([]byte, binary.BigEndian.Uint32(l[:]))
	if _, err := io.ReadFull(r, pkt); err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	b, n := protowire.ConsumeBytes(pkt)
	if n < 0 {
		t.Fatalf("answer framing: %v", protowire.ParseError(n))
	}
	hdr := &commonpb.RpcResponseHeaderProto{}
	if err := proto.Unmarshal(b, hdr); err != nil {
		t.Fatal(err)
	}
	return hdr
}
