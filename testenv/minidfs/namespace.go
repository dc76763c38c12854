package minidfs

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/proto"
)

// Java exception classes MiniDFS raises besides those named in package ipc.
const (
	invalidPathException  = "org.apache.hadoop.fs.InvalidPathException"
	leaseExpiredException = "org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException"
)

// relPath turns an absolute HDFS path into a name relative to the root
// ("." for /). Like HDFS it refuses relative paths and "." or ".."
// components.
func relPath(p string) (string, error) {
	if !strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) {
		return "", ipc.Errorf(invalidPathException, "Invalid path name %s", p)
	}
	for _, c := range strings.Split(p, "/") {
		if c == "." || c == ".." {
			return "", ipc.Errorf(invalidPathException, "Invalid path name %s", p)
		}
	}
	c := path.Clean(p)
	if c == "/" {
		return ".", nil
	}
	return c[1:], nil
}

// parentOf returns the relative parent of rel ("." at the top).
func parentOf(rel string) string {
	if rel == "." {
		return "."
	}
	return path.Dir(rel)
}

// owner is the owner and group recorded for an inode.
type owner struct{ user, group string }

// stat returns the local file info of rel, mapping a missing file (or a
// parent that is not a directory) to fs.ErrNotExist.
func (nn *namenode) stat(rel string) (fs.FileInfo, error) {
	fi, err := nn.root.Stat(rel)
	if err != nil && isNotDir(err) {
		return nil, fs.ErrNotExist
	}
	return fi, err
}

// isNotDir reports ENOTDIR (a path component is a file).
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// notFound builds the FileNotFoundException HDFS raises for a path.
func notFound(p string) error {
	return ipc.Errorf(ipc.FileNotFoundException, "File does not exist: %s", p)
}

// status builds the HDFS status of a local file at rel; name is the path
// field (the child name in listings, empty in getFileInfo).
func (nn *namenode) status(fi fs.FileInfo, rel, name string) *hdfspb.HdfsFileStatusProto {
	ino := inodeOf(fi)
	o := nn.ownerOf(ino, rel)
	perm := permBits(fi)
	st := &hdfspb.HdfsFileStatusProto{
		Path:             []byte(name),
		Permission:       &hdfspb.FsPermissionProto{Perm: proto.Uint32(perm)},
		Owner:            proto.String(o.user),
		Group:            proto.String(o.group),
		ModificationTime: proto.Uint64(uint64(fi.ModTime().UnixMilli())),
		AccessTime:       proto.Uint64(uint64(atimeOf(fi).UnixMilli())),
		FileId:           proto.Uint64(ino),
	}
	if fi.IsDir() {
		st.FileType = hdfspb.HdfsFileStatusProto_IS_DIR.Enum()
		st.Length = proto.Uint64(0)
	} else {
		st.FileType = hdfspb.HdfsFileStatusProto_IS_FILE.Enum()
		st.Length = proto.Uint64(uint64(fi.Size()))
		st.BlockReplication = proto.Uint32(1)
		st.Blocksize = proto.Uint64(uint64(nn.opts.BlockSize))
		st.ChildrenNum = proto.Int32(0)
	}
	return st
}

// ownerOf returns the recorded owner of the inode at rel, or the owner of
// a file that appeared on disk (homeOwner).
func (nn *namenode) ownerOf(ino uint64, rel string) owner {
	nn.ownersMu.Lock()
	defer nn.ownersMu.Unlock()
	if o, ok := nn.owners[ino]; ok {
		return o
	}
	return nn.homeOwner(rel)
}

// setOwner records the owner of the inode at rel; empty fields keep their
// value.
func (nn *namenode) setOwner(ino uint64, rel, user, group string) {
	nn.ownersMu.Lock()
	defer nn.ownersMu.Unlock()
	o, ok := nn.owners[ino]
	if !ok {
		o = nn.homeOwner(rel)
	}
	if user != "" {
		o.user = user
	}
	if group != "" {
		o.group = group
	}
	nn.owners[ino] = o
}

// forget drops the recorded owners and the blocks of rel and everything
// below it, before they are deleted: the local filesystem reuses inode
// numbers, and a deleted file's blocks are gone.
func (nn *namenode) forget(rel string) {
	nn.blocks.dropUnder(rel)
	var inos []uint64
	_ = fs.WalkDir(nn.root.FS(), rel, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			inos = append(inos, inodeOf(fi))
		}
		return nil
	})
	nn.ownersMu.Lock()
	defer nn.ownersMu.Unlock()
	for _, ino := range inos {
		delete(nn.owners, ino)
	}
}
