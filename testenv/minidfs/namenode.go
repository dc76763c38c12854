package minidfs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"sync"
	"time"

	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"google.golang.org/protobuf/proto"
)

// namenode serves the ClientProtocol over the local root.
type namenode struct {
	opts   Options
	root   *os.Root
	dn     *datanode
	dnUUID string
	poolID string
	blocks *blockTable

	// mu serializes namespace changes so that check-then-act sequences
	// (exists? then create) are atomic.
	mu     sync.Mutex
	leases map[string]*lease // by relative path

	ownersMu sync.Mutex
	owners   map[uint64]owner

	// Permissions (dfs.permissions.enabled), the supergroup
	// (dfs.permissions.superusergroup) and the users' groups.
	permissions bool
	supergroup  string
	groups      *ugi.Groups
	homes       sync.Map // users whose homes Options.CreateHomes made

	tokens *tokenManager // delegation tokens (Options.Kerberos only)

	edits *editLog // the namespace changes, for HDFS inotify
}

// lease marks a file open for writing by one client.
type lease struct {
	client  string
	renewed time.Time
}

func newNamenode(opts Options, root *os.Root, dn *datanode, dnUUID string) *namenode {
	return &namenode{
		opts:        opts,
		root:        root,
		dn:          dn,
		dnUUID:      dnUUID,
		poolID:      "BP-minidfs-" + dnUUID[:8],
		blocks:      newBlockTable(),
		leases:      map[string]*lease{},
		owners:      map[uint64]owner{},
		permissions: opts.Conf[PermissionsEnabledKey] != "false",
		supergroup:  cmp.Or(opts.Conf[SupergroupKey], DefaultGroup),
		groups:      ugi.NewGroups(opts.Conf),
		tokens:      newTokenManager(opts),
		edits:       newEditLog(),
	}
}

// register installs the ClientProtocol handlers on s, the server of
// NameNode idx (id nn1, nn2, or "" without HA). Each call first meets the NameNode's HA state with the
// category Hadoop's NameNode checks for it (FSNamesystem.checkOperation,
// called first in each NameNodeRpcServer or FSNamesystem method): a
// standby refuses READ and WRITE with a StandbyException. addBlock is
// READ because getAdditionalBlock checks READ before WRITE;
// getDataEncryptionKey checks nothing.
func (nn *namenode) register(s *ipc.Server, ha *haState, idx int, id string) {
	h := func(method string, cat opCategory, fn ipc.Handler) {
		s.Handle(ipc.ClientProtocol, method, func(ctx context.Context, call *ipc.Call, req []byte) (proto.Message, error) {
			release, err := nn.admit(ha, idx, cat, call.User)
			if err != nil {
				nn.opts.Logger.Debug("minidfs: a standby NameNode refused a call", "namenode", id, "method", method, "user", call.User)
				return nil, err
			}
			defer release()
			return fn(ctx, call, req)
		})
	}
	h("getFileInfo", opRead, ipc.Typed(nn.getFileInfo))
	h("getListing", opRead, ipc.Typed(nn.getListing))
	h("mkdirs", opWrite, ipc.Typed(nn.mkdirs))
	h("delete", opWrite, ipc.Typed(nn.delete))
	h("rename", opWrite, ipc.Typed(nn.rename))
	h("rename2", opWrite, ipc.Typed(nn.rename2))
	h("setPermission", opWrite, ipc.Typed(nn.setPermission))
	h("setOwner", opWrite, ipc.Typed(nn.setOwnerCall))
	h("setTimes", opWrite, ipc.Typed(nn.setTimes))
	h("getContentSummary", opRead, ipc.Typed(nn.getContentSummary))
	h("getFsStats", opRead, ipc.Typed(nn.getFsStats))
	h("getServerDefaults", opRead, ipc.Typed(nn.getServerDefaults))
	h("renewLease", opWrite, ipc.Typed(nn.renewLease))
	h("getDataEncryptionKey", opUnchecked, ipc.Typed(nn.getDataEncryptionKey))
	h("create", opWrite, ipc.Typed(nn.create))
	h("append", opWrite, ipc.Typed(nn.append))
	h("addBlock", opRead, ipc.Typed(nn.addBlock))
	h("updateBlockForPipeline", opWrite, ipc.Typed(nn.updateBlockForPipeline))
	h("complete", opWrite, ipc.Typed(nn.complete))
	h("getBlockLocations", opRead, ipc.Typed(nn.getBlockLocations))
	h("truncate", opWrite, ipc.Typed(nn.truncate))
	h("getDelegationToken", opWrite, ipc.Typed(nn.getDelegationToken))
	h("renewDelegationToken", opWrite, ipc.Typed(nn.renewDelegationToken))
	h("cancelDelegationToken", opWrite, ipc.Typed(nn.cancelDelegationToken))
	h("getCurrentEditLogTxid", opRead, ipc.Typed(nn.getCurrentEditLogTxid))
	h("getEditsFromTxid", opRead, ipc.Typed(nn.getEditsFromTxid))
}

// admit lets a call of category cat by user into NameNode idx, RPC and
// WebHDFS alike: the HA state must allow it (held until release is
// called), and with Options.CreateHomes the user gets a home at first
// sight.
func (nn *namenode) admit(ha *haState, idx int, cat opCategory, user string) (release func(), err error) {
	release, err = ha.enter(idx, cat)
	if err != nil {
		return nil, err
	}
	if nn.opts.CreateHomes {
		nn.ensureHome(user)
	}
	return release, nil
}

// ensureHome gives a user a home at the first call (Options.CreateHomes).
func (nn *namenode) ensureHome(user string) {
	u := ugi.ShortName(user)
	if _, done := nn.homes.LoadOrStore(u, true); done {
		return
	}
	nn.mu.Lock()
	defer nn.mu.Unlock()
	if _, err := nn.stat("user/" + u); err == nil {
		return
	}
	if err := nn.createHome(u); err != nil {
		nn.opts.Logger.Warn("minidfs: creating a home", "user", u, "err", err)
	}
}

func (nn *namenode) getFileInfo(_ context.Context, call *ipc.Call, req *hdfspb.GetFileInfoRequestProto) (*hdfspb.GetFileInfoResponseProto, error) {
	rel, err := relPath(req.GetSrc())
	if err != nil {
		return nil, err
	}
	if err := nn.checkPerm(call, rel, permCheck{}); err != nil {
		return nil, err
	}
	fi, err := nn.stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		// A missing path is an empty answer, not an error.
		return &hdfspb.GetFileInfoResponseProto{}, nil
	}
	if err != nil {
		return nil, err
	}
	st := nn.status(fi, rel, "")
	if fi.IsDir() {
		if entries, err := nn.readDir(rel); err == nil {
			st.ChildrenNum = proto.Int32(int32(len(entries)))
		}
	}
	return &hdfspb.GetFileInfoResponseProto{Fs: st}, nil
}

// readDir lists a directory sorted by name (byte order, as HDFS does).
func (nn *namenode) readDir(rel string) ([]fs.DirEntry, error) {
	f, err := nn.root.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int {
		switch {
		case a.Name() < b.Name():
			return -1
		case a.Name() > b.Name():
			return 1
		}
		return 0
	})
	return entries, nil
}

func (nn *namenode) getListing(_ context.Context, call *ipc.Call, req *hdfspb.GetListingRequestProto) (*hdfspb.GetListingResponseProto, error) {
	rel, err := relPath(req.GetSrc())
	if err != nil {
		return nil, err
	}
	// FSDirStatAndListingOp.getListingInt: READ_EXECUTE on a directory,
	// the traversal only for anything else.
	check := permCheck{}
	if dfi, err := nn.stat(rel); err == nil && dfi.IsDir() {
		check.self = accessRead | accessExecute
	}
	if err := nn.checkPerm(call, rel, check); err != nil {
		return nil, err
	}
	fi, err := nn.stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return &hdfspb.GetListingResponseProto{}, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		// Listing a file lists the file itself.
		return &hdfspb.GetListingResponseProto{DirList: &hdfspb.DirectoryListingProto{
			PartialListing: []*hdfspb.HdfsFileStatusProto{nn.status(fi, rel, "")}, RemainingEntries: proto.Uint32(0),
		}}, nil
	}
	entries, err := nn.readDir(rel)
	if err != nil {
		return nil, err
	}
	after := string(req.GetStartAfter())
	start, _ := slices.BinarySearchFunc(entries, after, func(e fs.DirEntry, name string) int {
		switch {
		case e.Name() < name:
			return -1
		case e.Name() > name:
			return 1
		}
		return 0
	})
	if start < len(entries) && entries[start].Name() == after {
		start++
	}
	list := &hdfspb.DirectoryListingProto{PartialListing: []*hdfspb.HdfsFileStatusProto{}}
	i := start
	for ; i < len(entries) && len(list.PartialListing) < listingLimit; i++ {
		// Follow symlinks the way Stat does; skip entries that vanished or
		// dangle.
		crel := path.Join(rel, entries[i].Name())
		cfi, err := nn.root.Stat(crel)
		if err != nil {
			continue
		}
		list.PartialListing = append(list.PartialListing, nn.status(cfi, crel, entries[i].Name()))
	}
	list.RemainingEntries = proto.Uint32(uint32(len(entries) - i))
	return &hdfspb.GetListingResponseProto{DirList: list}, nil
}

func (nn *namenode) mkdirs(_ context.Context, call *ipc.Call, req *hdfspb.MkdirsRequestProto) (*hdfspb.MkdirsResponseProto, error) {
	rel, err := relPath(req.GetSrc())
	if err != nil {
		return nil, err
	}
	nn.mu.Lock()
	defer nn.mu.Unlock()
	// FSDirMkdirOp.mkdirs: the traversal, and WRITE on the last existing
	// ancestor when something is to be made.
	check := permCheck{}
	if _, err := nn.stat(rel); err != nil {
		check.ancestor = accessWrite
	}
	if err := nn.checkPerm(call, rel, check); err != nil {
		return nil, err
	}
	perm := fs.FileMode(req.GetMasked().GetPerm()) & fs.ModePerm
	// Implicit parents get the permission asked for plus u+wx, so that
	// their creator can go on below them (addImplicitUwx).
	if err := nn.mkdirsLocked(call, rel, req.GetSrc(), perm, perm|0o300, req.GetCreateParent()); err != nil {
		return nil, err
	}
	return &hdfspb.MkdirsResponseProto{Result: proto.Bool(true)}, nil
}

// mkdirsLocked creates directory rel (src is its HDFS spelling) with perm
// and, with createParent, its missing parents with parentPerm, owned by the
// caller, in the group of their parent; callers hold mu and checked the
// permissions.
func (nn *namenode) mkdirsLocked(call *ipc.Call, rel, src string, perm, parentPerm fs.FileMode, createParent bool) error {
	if fi, err := nn.stat(rel); err == nil {
		if fi.IsDir() {
			return nil
		}
		return ipc.Errorf(ipc.FileAlreadyExistsException, "Path is not a directory: %s", src)
	}
	// Walk up to the first existing ancestor, then create downwards.
	var missing []string
	for p := rel; p != "."; p = parentOf(p) {
		fi, err := nn.stat(p)
		if err == nil {
			if !fi.IsDir() {
				return ipc.Errorf(ipc.ParentNotDirectoryException, "/%s (is not a directory)", p)
			}
			break
		}
		missing = append(missing, p)
	}
	if len(missing) > 1 && !createParent {
		return ipc.Errorf(ipc.FileNotFoundException, "Parent directory doesn't exist: /%s", parentOf(rel))
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := nn.root.Mkdir(missing[i], 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("mkdirs %s: %w", src, err)
		}
		mode := perm
		if i > 0 {
			mode = parentPerm
		}
		// Chmod after Mkdir so that the process umask does not interfere.
		if err := nn.root.Chmod(missing[i], mode); err != nil {
			return fmt.Errorf("mkdirs %s: %w", src, err)
		}
		nn.created(call, missing[i])
		nn.logCreate(missing[i], false)
	}
	return nil
}

// created records a new inode as the caller's, in its parent's group (as
// HDFS gives a new inode the parent's group).
func (nn *namenode) created(call *ipc.Call, rel string) {
	fi, err := nn.root.Stat(rel)
	if err != nil {
		return
	}
	group := ""
	if pfi, err := nn.root.Stat(parentOf(rel)); err == nil {
		group = nn.ownerOf(inodeOf(pfi), parentOf(rel)).group
	}
	nn.setOwner(inodeOf(fi), rel, ugi.ShortName(call.User), group)
}

func (nn *namenode) delete(_ context.Context, call *ipc.Call, req *hdfspb.DeleteRequestProto) (*hdfspb.DeleteResponseProto, error) {
	rel, err := relPath(req.GetSrc())
	if err != nil {
		return nil, err
	}
	if rel == "." {
		return nil, ipc.Errorf(ipc.IOException, "Cannot delete the root directory")
	}
	nn.mu.Lock()
	defer nn.mu.Unlock()
	// FSDirDeleteOp.delete: WRITE on the parent (and the sticky bit), ALL
	// on every non-empty directory of the tree.
	if err := nn.checkPerm(call, rel, permCheck{parent: accessWrite, sub: accessAll, ignoreEmpty: true}); err != nil {
		return nil, err
	}
	fi, err := nn.stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return &hdfspb.DeleteResponseProto{Result: proto.Bool(false)}, nil
	}
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		entries, err := nn.readDir(rel)
		if err != nil {
			return nil, err
		}
		if len(entries) > 0 && !req.GetRecursive() {
			return nil, ipc.Errorf(ipc.PathIsNotEmptyDirectoryException, "`%s is non empty': Directory is not empty", req.GetSrc())
		}
	}
	nn.forget(rel)
	if err := nn.root.RemoveAll(rel); err != nil {
		return nil, fmt.Errorf("delete %s: %w", req.GetSrc(), err)
	}
	nn.logUnlink(rel)
	for p := range nn.leases {
		if p == rel || (len(p) > len(rel) && p[:len(rel)+1] == rel+"/") {
			delete(nn.leases, p)
		}
	}
	return &hdfspb.DeleteResponseProto{Result: proto.Bool(true)}, nil
}

// rename is the old rename: it returns false instead of failing, and moves
// src into dst when dst is a directory.
func (nn *namenode) rename(_ context.Context, call *ipc.Call, req *hdfspb.RenameRequestProto) (*hdfspb.RenameResponseProto, error) {
	no := &hdfspb.RenameResponseProto{Result: proto.Bool(false)}
	src, err := relPath(req.GetSrc())
	if err != nil {
		return nil, err
	}
	dst, err := relPath(req.GetDst())
	if err != nil {
		return nil, err
	}
	nn.mu.Lock()
	defer nn.mu.Unlock()
	// FSDirRenameOp: into an existing directory, the target is below it;
	// then WRITE on the source's parent and on the target's last existing
	// ancestor.
	target := dst
	if dfi, err := nn.stat(dst); err == nil && dfi.IsDir() && src != "." {
		target = path.Join(dst, path.Base(src))
	}
	if err := nn.renamePerms(call, src, target); err != nil {
		return nil, err
	}
	if src == "." || src == dst {
		return no, nil
	}
	if _, err := nn.stat(src); err != nil {
		return no, nil
	}
	if dfi, err := nn.stat(dst); err == nil {
		if !dfi.IsDir() {
			return no, nil
		}
		dst = path.Join(dst, path.Base(src))
		if _, err := nn.stat(dst); err == nil {
			return no, nil
		}
	} else if pfi, err := nn.stat(parentOf(dst)); err != nil || !pfi.IsDir() {
		return no, nil
	}
	if isWithin(dst, src) {
		return no, nil
	}
	if err := nn.root.Rename(src, dst); err != nil {
		return nil, fmt.Errorf("rename %s to %s: %w", req.GetSrc(), req.GetDst(), err)
	}
	nn.logRename(src, dst)
	return &hdfspb.RenameResponseProto{Result: proto.Bool(true)}, nil
}

// isWithin reports whether rel is dir or below it.
func isWithin(rel, dir string) bool {
	return dir == "." || rel == dir || (len(rel) > len(dir) && rel[:len(dir)+1] == dir+"/")
}

// renamePerms checks a rename's permissions (FSDirRenameOp.renameTo).
func (nn *namenode) renamePerms(call *ipc.Call, src, dst string) error {
	if err := nn.checkPerm(call, src, permCheck{parent: accessWrite}); err != nil {
		return err
	}
	return nn.checkPerm(call, dst, permCheck{ancestor: accessWrite})
}

func (nn *namenode) rename2(_ context.Context, call *ipc.Call, req *hdfspb.Rename2RequestProto) (*hdfspb.Rename2ResponseProto, error) {
	src, err := relPath(req.GetSrc())
	if err != nil {
		return nil, err
	}
	dst, err := relPath(req.GetDst())
	if err != nil {
		return nil, err
	}
	nn.mu.Lock()
	defer nn.mu.Unlock()
	if err := nn.renamePerms(call, src, dst); err != nil {
		return nil, err
	}
	sfi, err := nn.stat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ipc.Errorf(ipc.FileNotFoundException, "rename source %s is not found.", req.GetSrc())
	}
	if err != nil {
		return nil, err
	}
	if src == dst {
		return nil, ipc.Errorf(ipc.FileAlreadyExistsException, "The source %s and destination %s are the same", req.GetSrc(), req.GetDst())
	}
	if src == "." || isWithin(dst, src) {
		return nil, ipc.Errorf(ipc.IOException, "Rename destination %s is a directory or file under source %s", req.GetDst(), req.GetSrc())
	}
	pfi, err := nn.stat(parentOf(dst))
	if err != nil {
		return nil, ipc.Errorf(ipc.FileNotFoundException, "rename destination parent /%s not found.", parentOf(dst))
	}
	if !pfi.IsDir() {
		return nil, ipc.Errorf(ipc.ParentNotDirectoryException, "rename destination parent /%s is a file.", parentOf(dst))
	}
	if dfi, err := nn.stat(dst); err == nil {
		if !req.GetOverwriteDest() {
			return nil, ipc.Errorf(ipc.FileAlreadyExistsException, "rename destination %s already exists", req.GetDst())
		}
		if dfi.IsDir() != sfi.IsDir() {
			return nil, ipc.Errorf(ipc.IOException, "Source %s and destination %s must both be directories or files", req.GetSrc(), req.GetDst())
		}
		if dfi.IsDir() {
			entries, err := nn.readDir(dst)
			if err != nil {
				return nil, err
			}
			if len(entries) > 0 {
				return nil, ipc.Errorf(ipc.IOException, "rename destination directory is not empty: %s", req.GetDst())
			}
			if err := nn.root.Remove(dst); err != nil {
				return nil, fmt.Errorf("rename2: %w", err)
			}
		}
		nn.forget(dst)
	}
	if err := nn.root.Rename(src, dst); err != nil {
		return nil, fmt.Errorf("rename %s to %s: %w", req.GetSrc(), req.GetDst(), err)
	}
	nn.logRename(src, dst)
	return &hdfspb.Rename2ResponseProto{}, nil
}

func (nn *namenode) setPermission(_ context.Context, call *ipc.Call, req *hdfspb.SetPermissionRequestProto) (*hdfspb.SetPermissionResponseProto, error) {
	rel, err := relPath(req.GetSrc())
	if err != nil {
		return nil, err
	}
	// FSDirAttrOp.setPermission: the owner (or a superuser) only.
	if err := nn.checkPerm(call, rel, permCheck{owner: true}); err != nil {
		return nil, err
	}
	perm := req.GetPermission().GetPerm()
	mode := fs.FileMode(perm) & fs.ModePerm
	if perm&0o1000 != 0 {
		mode |= fs.ModeSticky
	}
	if err := nn.root.Chmod(rel, mode); err != nil {
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return nil, notFound(req.GetSrc())
		}
		return nil, fmt.Errorf("setPermission %s: %w", req.GetSrc(), err)
	}
	nn.logMetadata(rel, &hdfspb.MetadataUpdateEventProto{Type: hdfspb.MetadataUpdateType_META_TYPE_PERMS.Enum(),
		Perms: &hdfspb.FsPermissionProto{Perm: proto.Uint32(perm)}})
	return &hdfspb.SetPermissionResponseProto{}, nil
}

func (nn *namenode) setOwnerCall(_ context.Context, call *ipc.Call, req *hdfspb.SetOwnerRequestProto) (*hdfspb.SetOwnerResponseProto, error) {
	rel, err := relPath(req.GetSrc())
	if err != nil {
		return nil, err
	}
	// FSDirAttrOp.setOwner: the owner, who may pick only a group of theirs
	// and give the file to no one else; a superuser may do anything.
	if err := nn.checkPerm(call, rel, permCheck{owner: true}); err != nil {
		return nil, err
	}
	if err := nn.checkChown(call, req.GetUsername(), req.GetGroupname()); err != nil {
		return nil, err
	}
	fi, err := nn.stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(req.GetSrc())
	}
	if err != nil {
		return nil, err
	}
	nn.setOwner(inodeOf(fi), rel, req.GetUsername(), req.GetGroupname())
	o := nn.ownerOf(inodeOf(fi), rel)
	nn.logMetadata(rel, &hdfspb.MetadataUpdateEventProto{Type: hdfspb.MetadataUpdateType_META_TYPE_OWNER.Enum(),
		OwnerName: proto.String(o.user), GroupName: proto.String(o.group)})
	return &hdfspb.SetOwnerResponseProto{}, nil
}

// noChange is how HDFS spells "leave this time alone" (-1 as uint64).
const noChange = ^uint64(0)

func (nn *namenode) setTimes(_ context.Context, call *ipc.Call, req *hdfspb.SetTimesRequestProto) (*hdfspb.SetTimesResponseProto, error) {
	rel, err := relPath(req.GetSrc())
	if err != nil {
		return nil, err
	}
	// FSDirAttrOp.setTimes: WRITE on the file.
	if err := nn.checkPerm(call, rel, permCheck{self: accessWrite}); err != nil {
		return nil, err
	}
	fi, err := nn.stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(req.GetSrc())
	}
	if err != nil {
		return nil, err
	}
	mtime, atime := fi.ModTime(), atimeOf(fi)
	if v := req.GetMtime(); v != noChange {
		mtime = time.UnixMilli(int64(v))
	}
	if v := req.GetAtime(); v != noChange {
		atime = time.UnixMilli(int64(v))
	}
	if err := nn.root.Chtimes(rel, atime, mtime); err != nil {
		return nil, fmt.Errorf("setTimes %s: %w", req.GetSrc(), err)
	}
	nn.logMetadata(rel, &hdfspb.MetadataUpdateEventProto{Type: hdfspb.MetadataUpdateType_META_TYPE_TIMES.Enum(),
		Mtime: proto.Int64(mtime.UnixMilli()), Atime: proto.Int64(atime.UnixMilli())})
	return &hdfspb.SetTimesResponseProto{}, nil
}

func (nn *namenode) getContentSummary(_ context.Context, call *ipc.Call, req *hdfspb.GetContentSummaryRequestProto) (*hdfspb.GetContentSummaryResponseProto, error) {
	rel, err := relPath(req.GetPath())
	if err != nil {
		return nil, err
	}
	// FSDirStatAndListingOp.getContentSummary: READ_EXECUTE on every
	// directory of the tree.
	if err := nn.checkPerm(call, rel, permCheck{sub: accessRead | accessExecute}); err != nil {
		return nil, err
	}
	if _, err := nn.stat(rel); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, notFound(req.GetPath())
		}
		return nil, err
	}
	var length, files, dirs uint64
	err = fs.WalkDir(nn.root.FS(), rel, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs++
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		length += uint64(info.Size())
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("getContentSummary %s: %w", req.GetPath(), err)
	}
	return &hdfspb.GetContentSummaryResponseProto{Summary: &hdfspb.ContentSummaryProto{
		Length: proto.Uint64(length), FileCount: proto.Uint64(files), DirectoryCount: proto.Uint64(dirs),
		Quota: proto.Uint64(noChange), SpaceConsumed: proto.Uint64(length), SpaceQuota: proto.Uint64(noChange),
	}}, nil
}

func (nn *namenode) getFsStats(context.Context, *ipc.Call, *hdfspb.GetFsStatusRequestProto) (*hdfspb.GetFsStatsResponseProto, error) {
	capacity, free := diskUsage(nn.opts.Root)
	used := uint64(0)
	if capacity > free {
		used = capacity - free
	}
	zero := proto.Uint64(0)
	return &hdfspb.GetFsStatsResponseProto{
		Capacity: proto.Uint64(capacity), Used: proto.Uint64(used), Remaining: proto.Uint64(free),
		UnderReplicated: zero, CorruptBlocks: zero, MissingBlocks: zero,
	}, nil
}

func (nn *namenode) getServerDefaults(context.Context, *ipc.Call, *hdfspb.GetServerDefaultsRequestProto) (*hdfspb.GetServerDefaultsResponseProto, error) {
	return &hdfspb.GetServerDefaultsResponseProto{ServerDefaults: &hdfspb.FsServerDefaultsProto{
		BlockSize:           proto.Uint64(uint64(nn.opts.BlockSize)),
		BytesPerChecksum:    proto.Uint32(bytesPerChecksum),
		WritePacketSize:     proto.Uint32(64 << 10),
		Replication:         proto.Uint32(1),
		FileBufferSize:      proto.Uint32(4096),
		EncryptDataTransfer: proto.Bool(false),
		TrashInterval:       proto.Uint64(0),
		ChecksumType:        hdfspb.ChecksumTypeProto_CHECKSUM_CRC32C.Enum(),
	}}, nil
}

func (nn *namenode) renewLease(_ context.Context, _ *ipc.Call, req *hdfspb.RenewLeaseRequestProto) (*hdfspb.RenewLeaseResponseProto, error) {
	nn.mu.Lock()
	defer nn.mu.Unlock()
	now := nn.opts.Now()
	for _, l := range nn.leases {
		if l.client == req.GetClientName() {
			l.renewed = now
		}
	}
	return &hdfspb.RenewLeaseResponseProto{}, nil
}

// getDataEncryptionKey answers "no key": data transfer is not encrypted.
func (nn *namenode) getDataEncryptionKey(context.Context, *ipc.Call, *hdfspb.GetDataEncryptionKeyRequestProto) (*hdfspb.GetDataEncryptionKeyResponseProto, error) {
	return &hdfspb.GetDataEncryptionKeyResponseProto{}, nil
}
