package minidfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/proto"
)

// datanodeInfo describes the one DataNode.
func (nn *namenode) datanodeInfo() *hdfspb.DatanodeInfoProto {
	capacity, free := diskUsage(nn.opts.Root)
	return &hdfspb.DatanodeInfoProto{
		Id: &hdfspb.DatanodeIDProto{
			IpAddr:       proto.String(nn.dn.ip()),
			HostName:     proto.String(nn.dn.ip()),
			DatanodeUuid: proto.String(nn.dnUUID),
			XferPort:     proto.Uint32(uint32(nn.dn.port())),
			InfoPort:     proto.Uint32(uint32(nn.dn.infoPort)),
			IpcPort:      proto.Uint32(0),
		},
		Capacity:  proto.Uint64(capacity),
		Remaining: proto.Uint64(free),
		Location:  proto.String("/default-rack"),
	}
}

// located renders a block for a client.
func (nn *namenode) located(b blockInfo) *hdfspb.LocatedBlockProto {
	return &hdfspb.LocatedBlockProto{
		B: &hdfspb.ExtendedBlockProto{
			PoolId:          proto.String(nn.poolID),
			BlockId:         proto.Uint64(b.id),
			GenerationStamp: proto.Uint64(b.genStamp),
			NumBytes:        proto.Uint64(uint64(b.numBytes)),
		},
		Offset:  proto.Uint64(uint64(b.offset)),
		Locs:    []*hdfspb.DatanodeInfoProto{nn.datanodeInfo()},
		Corrupt: proto.Bool(false),
		// Block tokens are not checked; an empty one satisfies the schema.
		BlockToken:   &commonpb.TokenProto{Identifier: []byte{}, Password: []byte{}, Kind: proto.String(""), Service: proto.String("")},
		StorageTypes: []hdfspb.StorageTypeProto{hdfspb.StorageTypeProto_DISK},
	}
}

// checkLease fails unless client holds the lease on rel; callers hold mu.
func (nn *namenode) checkLease(rel, src, client string) error {
	l, ok := nn.leases[rel]
	if !ok || l.client != client {
		return ipc.Errorf(leaseExpiredException, "No lease on %s: File is not open for writing. Holder %s does not have any open files.", src, client)
	}
	return nil
}

// takeLease gives client the lease on rel, unless another live client
// holds it; callers hold mu.
func (nn *namenode) takeLease(rel, src, client string) error {
	now := nn.opts.Now()
	if l, ok := nn.leases[rel]; ok && l.client != client && now.Sub(l.renewed) < leaseSoftLimit {
		return ipc.Errorf(ipc.AlreadyBeingCreatedException, "Failed to create file [%s] for [%s], because this file is already being created by [%s]", src, client, l.client)
	}
	nn.leases[rel] = &lease{client: client, renewed: now}
	return nil
}

// checkParent makes sure the parent of rel is a directory, creating it
// when createParent is set; callers hold mu.
func (nn *namenode) checkParent(call *ipc.Call, rel string, createParent bool) error {
	parent := parentOf(rel)
	fi, err := nn.stat(parent)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !createParent {
			return ipc.Errorf(ipc.FileNotFoundException, "Parent directory doesn't exist: /%s", parent)
		}
		// FSDirMkdirOp.createAncestorDirectories: the missing directories
		// get their existing ancestor's permission plus u+wx.
		nodes := nn.inodes(parent)
		perm := fs.FileMode(0o755)
		for i := len(nodes) - 1; i >= 0; i-- {
			if nodes[i].exists {
				perm = fs.FileMode(nodes[i].perm&0o777) | 0o300
				break
			}
		}
		return nn.mkdirsLocked(call, parent, "/"+parent, perm, perm, true)
	case err != nil:
		return err
	case !fi.IsDir():
		return ipc.Errorf(ipc.ParentNotDirectoryException, "/%s (is not a directory)", parent)
	}
	return nil
}

func (nn *namenode) create(_ context.Context, call *ipc.Call, req *hdfspb.CreateRequestProto) (*hdfspb.CreateResponseProto, error) {
	src := req.GetSrc()
	rel, err := relPath(src)
	if err != nil {
		return nil, err
	}
	if rel == "." {
		return nil, ipc.Errorf(ipc.FileAlreadyExistsException, "%s already exists as a directory", src)
	}
	perm := fs.FileMode(req.GetMasked().GetPerm()) & fs.ModePerm
	nn.mu.Lock()
	defer nn.mu.Unlock()
	// FSDirWriteFileOp.resolvePathForStartFile: WRITE on the file it
	// overwrites, and on the last existing ancestor.
	check := permCheck{ancestor: accessWrite}
	if _, err := nn.stat(rel); err == nil && req.GetCreateFlag()&uint32(hdfspb.CreateFlagProto_OVERWRITE) != 0 {
		check.self = accessWrite
	}
	if err := nn.checkPerm(call, rel, check); err != nil {
		return nil, err
	}
	if err := nn.checkParent(call, rel, req.GetCreateParent()); err != nil {
		return nil, err
	}
	fi, err := nn.stat(rel)
	exists := err == nil
	if exists {
		if fi.IsDir() {
			return nil, ipc.Errorf(ipc.FileAlreadyExistsException, "%s already exists as a directory", src)
		}
		if req.GetCreateFlag()&uint32(hdfspb.CreateFlagProto_OVERWRITE) == 0 {
			return nil, ipc.Errorf(ipc.FileAlreadyExistsException, "%s for client %s already exists", src, call.RemoteAddr)
		}
	}
	if err := nn.takeLease(rel, src, req.GetClientName()); err != nil {
		return nil, err
	}
	if exists {
		nn.blocks.dropUnder(rel) // the overwritten file's
	}
	f, err := nn.root.OpenFile(rel, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		delete(nn.leases, rel)
		return nil, fmt.Errorf("create %s: %w", src, err)
	}
	f.Close()
	if err := nn.root.Chmod(rel, perm); err != nil {
		return nil, fmt.Errorf("create %s: %w", src, err)
	}
	fi, err = nn.root.Stat(rel)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", src, err)
	}
	nn.created(call, rel)
	nn.logCreate(rel, req.GetCreateFlag()&uint32(hdfspb.CreateFlagProto_OVERWRITE) != 0)
	return &hdfspb.CreateResponseProto{Fs: nn.status(fi, rel, "")}, nil
}

func (nn *namenode) append(_ context.Context, call *ipc.Call, req *hdfspb.AppendRequestProto) (*hdfspb.AppendResponseProto, error) {
	src := req.GetSrc()
	rel, err := relPath(src)
	if err != nil {
		return nil, err
	}
	nn.mu.Lock()
	defer nn.mu.Unlock()
	// FSDirAppendOp.prepareFileForAppend: WRITE on the file.
	if err := nn.checkPerm(call, rel, permCheck{self: accessWrite}); err != nil {
		return nil, err
	}
	fi, err := nn.stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ipc.Errorf(ipc.FileNotFoundException, "Failed to append to non-existent file %s", src)
	}
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, ipc.Errorf(ipc.FileNotFoundException, "Failed to append to directory %s", src)
	}
	if err := nn.takeLease(rel, src, req.GetClientName()); err != nil {
		return nil, err
	}
	nn.logAppend(rel)
	resp := &hdfspb.AppendResponseProto{Stat: nn.status(fi, rel, "")}
	// A partly filled last block is reopened; otherwise the writer asks
	// for a fresh block with addBlock.
	if tail := fi.Size() % nn.opts.BlockSize; tail != 0 {
		b := nn.blocks.allocate(rel, fi.Size()-tail, tail)
		resp.Block = nn.located(b)
	}
	return resp, nil
}

func (nn *namenode) addBlock(_ context.Context, _ *ipc.Call, req *hdfspb.AddBlockRequestProto) (*hdfspb.AddBlockResponseProto, error) {
	src := req.GetSrc()
	rel, err := relPath(src)
	if err != nil {
		return nil, err
	}
	nn.mu.Lock()
	defer nn.mu.Unlock()
	if err := nn.checkLease(rel, src, req.GetClientName()); err != nil {
		return nil, err
	}
	var offset int64
	if prev := req.GetPrevious(); prev != nil {
		pb, ok := nn.blocks.get(prev.GetBlockId())
		if !ok || pb.rel != rel {
			return nil, ipc.Errorf(ipc.IOException, "previous block %d does not belong to %s", prev.GetBlockId(), src)
		}
		offset = pb.offset + int64(prev.GetNumBytes())
	} else {
		fi, err := nn.stat(rel)
		if err != nil {
			return nil, notFound(src)
		}
		offset = fi.Size()
	}
	return &hdfspb.AddBlockResponseProto{Block: nn.located(nn.blocks.allocate(rel, offset, 0))}, nil
}

func (nn *namenode) updateBlockForPipeline(_ context.Context, _ *ipc.Call, req *hdfspb.UpdateBlockForPipelineRequestProto) (*hdfspb.UpdateBlockForPipelineResponseProto, error) {
	b, ok := nn.blocks.update(req.GetBlock().GetBlockId(), int64(req.GetBlock().GetNumBytes()), true)
	if !ok {
		return nil, ipc.Errorf(ipc.IOException, "block %d does not exist", req.GetBlock().GetBlockId())
	}
	return &hdfspb.UpdateBlockForPipelineResponseProto{Block: nn.located(b)}, nil
}

func (nn *namenode) complete(_ context.Context, _ *ipc.Call, req *hdfspb.CompleteRequestProto) (*hdfspb.CompleteResponseProto, error) {
	src := req.GetSrc()
	rel, err := relPath(src)
	if err != nil {
		return nil, err
	}
	nn.mu.Lock()
	defer nn.mu.Unlock()
	fi, err := nn.stat(rel)
	if err != nil {
		return nil, notFound(src)
	}
	if l, ok := nn.leases[rel]; !ok {
		// Already complete: a retried complete succeeds, as in HDFS
		// (FSDirWriteFileOp.completeFileInternal, HDFS-3031), when the
		// caller's last block is still the file's; a writer whose file was
		// deleted or replaced meanwhile is refused.
		if last := req.GetLast(); last != nil {
			if b, ok := nn.blocks.get(last.GetBlockId()); !ok || b.rel != rel {
				return nil, nn.checkLease(rel, src, req.GetClientName())
			}
		}
		return &hdfspb.CompleteResponseProto{Result: proto.Bool(true)}, nil
	} else if l.client != req.GetClientName() {
		return nil, nn.checkLease(rel, src, req.GetClientName())
	}
	if last := req.GetLast(); last != nil {
		if b, ok := nn.blocks.get(last.GetBlockId()); ok && b.rel == rel {
			end := b.offset + int64(last.GetNumBytes())
			if fi.Size() < end {
				// The DataNode has not got all the bytes the client
				// reports; HDFS answers false until it has.
				return &hdfspb.CompleteResponseProto{Result: proto.Bool(false)}, nil
			}
			if fi.Size() > end {
				if err := nn.truncateTo(rel, end); err != nil {
					return nil, err
				}
			}
		}
	}
	delete(nn.leases, rel)
	if fi, err := nn.root.Stat(rel); err == nil {
		nn.logClose(rel, fi)
	}
	return &hdfspb.CompleteResponseProto{Result: proto.Bool(true)}, nil
}

// truncateTo shortens a backing file.
func (nn *namenode) truncateTo(rel string, size int64) error {
	f, err := nn.root.OpenFile(rel, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("truncating /%s: %w", rel, err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		return fmt.Errorf("truncating /%s: %w", rel, err)
	}
	return nil
}

func (nn *namenode) getBlockLocations(_ context.Context, call *ipc.Call, req *hdfspb.GetBlockLocationsRequestProto) (*hdfspb.GetBlockLocationsResponseProto, error) {
	src := req.GetSrc()
	rel, err := relPath(src)
	if err != nil {
		return nil, err
	}
	// FSDirStatAndListingOp.getBlockLocations: READ on the file.
	if err := nn.checkPerm(call, rel, permCheck{self: accessRead}); err != nil {
		return nil, err
	}
	fi, err := nn.stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(src)
	}
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, ipc.Errorf(ipc.FileNotFoundException, "Path is not a file: %s", src)
	}
	nn.mu.Lock()
	_, writing := nn.leases[rel]
	nn.mu.Unlock()
	size, bs := fi.Size(), nn.opts.BlockSize
	from, to := int64(req.GetOffset()), int64(req.GetOffset()+req.GetLength())
	locs := &hdfspb.LocatedBlocksProto{
		FileLength:          proto.Uint64(uint64(size)),
		Blocks:              []*hdfspb.LocatedBlockProto{},
		UnderConstruction:   proto.Bool(writing),
		IsLastBlockComplete: proto.Bool(!writing),
	}
	for off := int64(0); off < size; off += bs {
		n := min(bs, size-off)
		if off+n <= from || (off >= to && to > from) {
			continue
		}
		locs.Blocks = append(locs.Blocks, nn.located(nn.blocks.locate(rel, off, n)))
	}
	if size > 0 {
		lastOff := (size - 1) / bs * bs
		locs.LastBlock = nn.located(nn.blocks.locate(rel, lastOff, size-lastOff))
	}
	return &hdfspb.GetBlockLocationsResponseProto{Locations: locs}, nil
}

func (nn *namenode) truncate(_ context.Context, call *ipc.Call, req *hdfspb.TruncateRequestProto) (*hdfspb.TruncateResponseProto, error) {
	src := req.GetSrc()
	rel, err := relPath(src)
	if err != nil {
		return nil, err
	}
	nn.mu.Lock()
	defer nn.mu.Unlock()
	// FSDirTruncateOp.truncate: WRITE on the file.
	if err := nn.checkPerm(call, rel, permCheck{self: accessWrite}); err != nil {
		return nil, err
	}
	fi, err := nn.stat(rel)
	if err != nil || fi.IsDir() {
		return nil, notFound(src)
	}
	if int64(req.GetNewLength()) > fi.Size() {
		return nil, ipc.Errorf(ipc.HadoopIllegalArgumentException, "Cannot truncate to a larger file size. Current size: %d, truncate size: %d.", fi.Size(), req.GetNewLength())
	}
	if l, ok := nn.leases[rel]; ok && l.client != req.GetClientName() {
		return nil, ipc.Errorf(ipc.AlreadyBeingCreatedException, "%s is being written by %s", src, l.client)
	}
	if err := nn.truncateTo(rel, int64(req.GetNewLength())); err != nil {
		return nil, err
	}
	nn.logTruncate(rel, int64(req.GetNewLength()))
	return &hdfspb.TruncateResponseProto{Result: proto.Bool(true)}, nil
}
