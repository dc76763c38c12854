package minidfs

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"

	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/testenv/internal/portpick"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// Data-transfer protocol constants.
const (
	dataTransferVersion = 28
	opWriteBlock        = 0x50
	opReadBlock         = 0x51
	// readPacketSize is how much block data one read packet carries.
	readPacketSize = 64 << 10
	// maxPacketPayload bounds an incoming packet (data plus checksums).
	maxPacketPayload = 16 << 20
	// heartbeatSeqno marks a keep-alive packet from a writer.
	heartbeatSeqno = -1
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// datanode serves READ_BLOCK and WRITE_BLOCK from the backing files.
type datanode struct {
	root   *os.Root
	log    *slog.Logger
	l      net.Listener
	blocks *blockTable
	// infoPort is the DataNode's HTTP port (WebHDFS), given to clients in
	// its DatanodeInfo.
	infoPort int

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
}

// startDatanode listens on addr (a random loopback port when empty) and
// serves blocks from root.
func startDatanode(ctx context.Context, root *os.Root, addr string, log *slog.Logger) (*datanode, error) {
	if addr == "" {
		addr = loopback
	}
	l, err := portpick.Listen(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("minidfs: starting the DataNode: listening on %s: %w", addr, err)
	}
	d := &datanode{root: root, log: log, l: l, conns: map[net.Conn]struct{}{}}
	d.ctx, d.cancel = context.WithCancel(ctx)
	d.wg.Add(2)
	go func() {
		defer d.wg.Done()
		<-d.ctx.Done()
		d.l.Close()
		d.mu.Lock()
		for c := range d.conns {
			c.Close()
		}
		d.mu.Unlock()
	}()
	go func() {
		defer d.wg.Done()
		d.acceptLoop()
	}()
	return d, nil
}

func (d *datanode) addr() string { return d.l.Addr().String() }
func (d *datanode) port() int    { return d.l.Addr().(*net.TCPAddr).Port }

// ip is the address the NameNodes give clients for the DataNode: the bound
// IP, or 127.0.0.1 when it listens on every interface.
func (d *datanode) ip() string {
	ip := d.l.Addr().(*net.TCPAddr).IP
	if ip == nil || ip.IsUnspecified() {
		return "127.0.0.1"
	}
	return ip.String()
}

func (d *datanode) close() {
	d.cancel()
	d.wg.Wait()
}

func (d *datanode) acceptLoop() {
	for {
		c, err := d.l.Accept()
		if err != nil {
			return
		}
		d.mu.Lock()
		if d.ctx.Err() != nil {
			d.mu.Unlock()
			c.Close()
			return
		}
		d.conns[c] = struct{}{}
		d.wg.Add(1)
		d.mu.Unlock()
		go func() {
			defer d.wg.Done()
			defer func() {
				d.mu.Lock()
				delete(d.conns, c)
				d.mu.Unlock()
				c.Close()
			}()
			if err := d.serve(c); err != nil && !errors.Is(err, io.EOF) {
				d.log.Debug("minidfs: datanode connection failed", "remote", c.RemoteAddr().String(), "error", err)
			}
		}()
	}
}

// serve handles one operation per connection, as colinmarc uses them.
func (d *datanode) serve(c net.Conn) error {
	r := bufio.NewReader(c)
	var head [3]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return err
	}
	if v := binary.BigEndian.Uint16(head[:2]); v != dataTransferVersion {
		return fmt.Errorf("data transfer version %d, want %d", v, dataTransferVersion)
	}
	switch head[2] {
	case opReadBlock:
		op := &hdfspb.OpReadBlockProto{}
		if err := readDelimited(r, op); err != nil {
			return err
		}
		return d.readBlock(c, op)
	case opWriteBlock:
		op := &hdfspb.OpWriteBlockProto{}
		if err := readDelimited(r, op); err != nil {
			return err
		}
		return d.writeBlock(r, c, op)
	default:
		_ = writeDelimited(c, &hdfspb.BlockOpResponseProto{
			Status: hdfspb.Status_ERROR_UNSUPPORTED.Enum(), Message: proto.String(fmt.Sprintf("op %#x is not supported", head[2])),
		})
		return fmt.Errorf("unsupported op %#x", head[2])
	}
}

// readDelimited reads a varint-length-prefixed message.
func readDelimited(r *bufio.Reader, m proto.Message) error {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return fmt.Errorf("reading message length: %w", err)
	}
	if n > maxPacketPayload {
		return fmt.Errorf("message of %d bytes is too large", n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return fmt.Errorf("reading message: %w", err)
	}
	if err := proto.Unmarshal(b, m); err != nil {
		return fmt.Errorf("decoding %T: %w", m, err)
	}
	return nil
}

// writeDelimited writes a varint-length-prefixed message.
func writeDelimited(w io.Writer, m proto.Message) error {
	b, err := proto.Marshal(m)
	if err != nil {
		return err
	}
	_, err = w.Write(append(protowire.AppendVarint(nil, uint64(len(b))), b...))
	return err
}

// failOp answers an operation with an error status.
func failOp(w io.Writer, status hdfspb.Status, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	_ = writeDelimited(w, &hdfspb.BlockOpResponseProto{Status: status.Enum(), FirstBadLink: proto.String(""), Message: proto.String(msg)})
	return errors.New(msg)
}

// readBlock streams [offset, offset+len) of a block, starting at the chunk
// boundary at or before offset, with CRC32C checksums per 512 bytes.
func (d *datanode) readBlock(w net.Conn, op *hdfspb.OpReadBlockProto) error {
	eb := op.GetHeader().GetBaseHeader().GetBlock()
	b, ok := d.blocks.get(eb.GetBlockId())
	if !ok {
		return failOp(w, hdfspb.Status_ERROR_INVALID, "block %d is unknown", eb.GetBlockId())
	}
	f, err := d.root.Open(b.rel)
	if err != nil {
		return failOp(w, hdfspb.Status_ERROR, "opening block %d: %v", b.id, err)
	}
	defer f.Close()
	start := int64(op.GetOffset())
	end := min(start+int64(op.GetLen()), b.numBytes)
	if start > b.numBytes {
		return failOp(w, hdfspb.Status_ERROR_INVALID, "offset %d is past the end of block %d (%d bytes)", start, b.id, b.numBytes)
	}
	chunkStart := start - start%bytesPerChecksum
	err = writeDelimited(w, &hdfspb.BlockOpResponseProto{
		Status: hdfspb.Status_SUCCESS.Enum(),
		ReadOpChecksumInfo: &hdfspb.ReadOpChecksumInfoProto{
			Checksum:    &hdfspb.ChecksumProto{Type: hdfspb.ChecksumTypeProto_CHECKSUM_CRC32C.Enum(), BytesPerChecksum: proto.Uint32(bytesPerChecksum)},
			ChunkOffset: proto.Uint64(uint64(chunkStart)),
		},
	})
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, readPacketSize+4096)
	buf := make([]byte, readPacketSize)
	var seqno int64
	for pos := chunkStart; pos < end; {
		n := min(int64(readPacketSize), end-pos)
		data := buf[:n]
		if _, err := f.ReadAt(data, b.offset+pos); err != nil {
			return fmt.Errorf("reading block %d at %d: %w", b.id, pos, err)
		}
		if err := writePacket(bw, pos, seqno, false, data); err != nil {
			return err
		}
		pos += n
		seqno++
	}
	if err := writePacket(bw, end, seqno, true, nil); err != nil {
		return err
	}
	return bw.Flush()
}

// writePacket writes one data packet: payload length (4 + checksums +
// data), header length, header, checksums, data.
func writePacket(w io.Writer, offset, seqno int64, last bool, data []byte) error {
	hdr, err := proto.Marshal(&hdfspb.PacketHeaderProto{
		OffsetInBlock:     proto.Int64(offset),
		Seqno:             proto.Int64(seqno),
		LastPacketInBlock: proto.Bool(last),
		DataLen:           proto.Int32(int32(len(data))),
	})
	if err != nil {
		return err
	}
	sums := checksums(data)
	var pre [6]byte
	binary.BigEndian.PutUint32(pre[:4], uint32(4+len(sums)+len(data)))
	binary.BigEndian.PutUint16(pre[4:], uint16(len(hdr)))
	for _, part := range [][]byte{pre[:], hdr, sums, data} {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// checksums returns the CRC32C of each 512-byte chunk of data, big-endian.
func checksums(data []byte) []byte {
	var out []byte
	for i := 0; i < len(data); i += bytesPerChecksum {
		out = binary.BigEndian.AppendUint32(out, crc32.Checksum(data[i:min(i+bytesPerChecksum, len(data))], castagnoli))
	}
	return out
}

// writeBlock receives a block's packets, checks their checksums, writes
// the data into the backing file and acknowledges each packet.
func (d *datanode) writeBlock(r *bufio.Reader, w net.Conn, op *hdfspb.OpWriteBlockProto) error {
	eb := op.GetHeader().GetBaseHeader().GetBlock()
	b, ok := d.blocks.get(eb.GetBlockId())
	if !ok {
		return failOp(w, hdfspb.Status_ERROR_INVALID, "block %d is unknown", eb.GetBlockId())
	}
	sum := op.GetRequestedChecksum()
	if sum.GetType() != hdfspb.ChecksumTypeProto_CHECKSUM_CRC32C || sum.GetBytesPerChecksum() != bytesPerChecksum {
		return failOp(w, hdfspb.Status_ERROR_UNSUPPORTED, "checksum %s/%d is not supported", sum.GetType(), sum.GetBytesPerChecksum())
	}
	f, err := d.root.OpenFile(b.rel, os.O_WRONLY, 0)
	if err != nil {
		return failOp(w, hdfspb.Status_ERROR, "opening block %d: %v", b.id, err)
	}
	defer f.Close()
	// firstBadLink must be present: colinmarc reads at least 5 bytes.
	if err := writeDelimited(w, &hdfspb.BlockOpResponseProto{Status: hdfspb.Status_SUCCESS.Enum(), FirstBadLink: proto.String("")}); err != nil {
		return err
	}
	written := b.numBytes
	for {
		hdr, payload, err := readPacket(r)
		if err != nil {
			return err
		}
		status := hdfspb.Status_SUCCESS
		if hdr.GetSeqno() != heartbeatSeqno {
			dataLen := int(hdr.GetDataLen())
			if dataLen < 0 || dataLen > len(payload) {
				return fmt.Errorf("packet %d: data length %d exceeds payload %d", hdr.GetSeqno(), dataLen, len(payload))
			}
			sums, data := payload[:len(payload)-dataLen], payload[len(payload)-dataLen:]
			if string(sums) != string(checksums(data)) {
				status = hdfspb.Status_ERROR_CHECKSUM
			} else if len(data) > 0 {
				if _, err := f.WriteAt(data, b.offset+hdr.GetOffsetInBlock()); err != nil {
					status = hdfspb.Status_ERROR
					d.log.Error("minidfs: writing block", "block", b.id, "error", err)
				}
				written = max(written, hdr.GetOffsetInBlock()+int64(len(data)))
			}
		}
		ack := &hdfspb.PipelineAckProto{Seqno: proto.Int64(hdr.GetSeqno()), Reply: []hdfspb.Status{status}}
		if err := writeDelimited(w, ack); err != nil {
			return err
		}
		if status != hdfspb.Status_SUCCESS {
			return fmt.Errorf("block %d packet %d: %s", b.id, hdr.GetSeqno(), status)
		}
		if hdr.GetLastPacketInBlock() {
			d.blocks.update(b.id, written, false)
			return nil
		}
	}
}

// readPacket reads one write packet and returns its header and the
// checksums-plus-data payload.
func readPacket(r *bufio.Reader) (*hdfspb.PacketHeaderProto, []byte, error) {
	var pre [6]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, nil, err
	}
	payloadLen := int(binary.BigEndian.Uint32(pre[:4]))
	hdrLen := int(binary.BigEndian.Uint16(pre[4:]))
	if payloadLen < 4 || payloadLen > maxPacketPayload {
		return nil, nil, fmt.Errorf("bad packet payload length %d", payloadLen)
	}
	hb := make([]byte, hdrLen)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, nil, err
	}
	hdr := &hdfspb.PacketHeaderProto{}
	if err := proto.Unmarshal(hb, hdr); err != nil {
		return nil, nil, fmt.Errorf("decoding packet header: %w", err)
	}
	payload := make([]byte, payloadLen-4)
	if _, err := io.ReadFull(r, payload); err != nil {
		return nil, nil, err
	}
	return hdr, payload, nil
}
