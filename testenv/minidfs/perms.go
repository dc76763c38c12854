package minidfs

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/internal/ugi"
)

// access is Hadoop's FsAction: read, write and execute bits.
type access uint8

const (
	accessExecute access = 1
	accessWrite   access = 2
	accessRead    access = 4
	accessAll            = accessRead | accessWrite | accessExecute
)

// String is the FsAction's name, as AccessControlException messages show
// it ("access=WRITE").
func (a access) String() string {
	return [...]string{"NONE", "EXECUTE", "WRITE", "WRITE_EXECUTE", "READ", "READ_EXECUTE", "READ_WRITE", "ALL"}[a&accessAll]
}

// inode is what a permission check needs of one path component.
type inode struct {
	rel    string // relative to the root ("." for /)
	exists bool
	dir    bool
	owner  owner
	perm   uint32 // rwxrwxrwx and the sticky bit (0o1000)
}

// hdfsPath is the inode's path as HDFS messages spell it.
func (n inode) hdfsPath() string {
	if n.rel == "." {
		return "/"
	}
	return "/" + n.rel
}

// String renders the inode as FSPermissionChecker does after the path:
// owner:group:drwxr-xr-x (FsPermission.toString, t or T for the sticky
// bit).
func (n inode) String() string {
	kind := "-"
	if n.dir {
		kind = "d"
	}
	return n.owner.user + ":" + n.owner.group + ":" + kind + permString(n.perm)
}

func permString(perm uint32) string {
	const sym = "rwxrwxrwx"
	b := []byte(sym)
	for i := range b {
		if perm&(1<<(8-i)) == 0 {
			b[i] = '-'
		}
	}
	if perm&0o1000 != 0 {
		if b[8] == 'x' {
			b[8] = 't'
		} else {
			b[8] = 'T'
		}
	}
	return string(b)
}

// inodeOfRel describes rel (missing: exists is false).
func (nn *namenode) inodeOfRel(rel string) inode {
	n := inode{rel: rel}
	fi, err := nn.stat(rel)
	if err != nil {
		return n
	}
	n.exists, n.dir = true, fi.IsDir()
	n.owner = nn.ownerOf(inodeOf(fi), rel)
	n.perm = permBits(fi)
	return n
}

func permBits(fi fs.FileInfo) uint32 {
	perm := uint32(fi.Mode().Perm())
	if fi.Mode()&os.ModeSticky != 0 {
		perm |= 0o1000
	}
	return perm
}

// inodes describes every component of rel from the root down; the ones
// after the first missing one are missing too.
func (nn *namenode) inodes(rel string) []inode {
	out := []inode{nn.inodeOfRel(".")}
	if rel == "." {
		return out
	}
	parts := strings.Split(rel, "/")
	missing := false
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		if missing {
			out = append(out, inode{rel: p})
			continue
		}
		n := nn.inodeOfRel(p)
		missing = !n.exists
		out = append(out, n)
	}
	return out
}

// permCheck is what one operation asks of FSPermissionChecker.checkPermission:
// the owner of the path, an access on its last existing ancestor, on its
// parent, on itself, and on every directory below it (sub; directories
// without children are skipped with ignoreEmpty).
type permCheck struct {
	owner                   bool
	ancestor, parent, self  access
	sub                     access
	ignoreEmpty, noTraverse bool
}

// caller is the user of a call as the permission checker sees it.
type caller struct {
	user   string // short name
	groups []string
}

func (nn *namenode) caller(call *ipc.Call) caller {
	u := ugi.ShortName(call.User)
	return caller{user: u, groups: nn.groups.Of(u)}
}

// superuser reports the NameNode's superuser (the user that started it) or
// a member of the supergroup (dfs.permissions.superusergroup): they pass
// every check (FSPermissionChecker.isSuperUser).
func (nn *namenode) superuser(c caller) bool {
	return c.user == nn.opts.Superuser || slices.Contains(c.groups, nn.supergroup)
}

// checkPerm applies Hadoop's permission rules (FSPermissionChecker) to a
// call on rel: EXECUTE on every existing ancestor directory, then what c
// asks. A refusal is an AccessControlException with Hadoop's message.
// Callers that change the namespace hold mu.
func (nn *namenode) checkPerm(call *ipc.Call, rel string, c permCheck) error {
	if !nn.permissions {
		return nil
	}
	who := nn.caller(call)
	if nn.superuser(who) {
		return nil
	}
	nodes := nn.inodes(rel)
	last := len(nodes) - 1
	ancestor := last - 1
	for ancestor >= 0 && !nodes[ancestor].exists {
		ancestor--
	}
	for i := 0; i <= ancestor && !c.noTraverse; i++ {
		if !nodes[i].dir {
			break // the operation reports the file in the way
		}
		if err := nn.require(who, nodes[i], accessExecute); err != nil {
			return err
		}
	}
	if c.parent&accessWrite != 0 && last > 0 && nodes[last].exists {
		if err := stickyBit(who, nodes[last-1], nodes[last]); err != nil {
			return err
		}
	}
	if c.ancestor != 0 && last > 0 && ancestor >= 0 {
		if err := nn.require(who, nodes[ancestor], c.ancestor); err != nil {
			return err
		}
	}
	if c.parent != 0 && last > 0 {
		if err := nn.require(who, nodes[last-1], c.parent); err != nil {
			return err
		}
	}
	if c.self != 0 {
		if err := nn.require(who, nodes[last], c.self); err != nil {
			return err
		}
	}
	if c.sub != 0 && nodes[last].dir {
		if err := nn.requireBelow(who, nodes[last], c.sub, c.ignoreEmpty); err != nil {
			return err
		}
	}
	if c.owner && nodes[last].exists && nodes[last].owner.user != who.user {
		return ipc.Errorf(ipc.AccessControlException, "Permission denied. user=%s is not the owner of inode=%s", who.user, nodes[last].hdfsPath())
	}
	return nil
}

// require is FSPermissionChecker.check: the owner's bits for the owner,
// the group's for a member of the inode's group, the others' otherwise. A
// missing inode is not checked.
func (nn *namenode) require(who caller, n inode, want access) error {
	if !n.exists {
		return nil
	}
	var have access
	switch {
	case n.owner.user == who.user:
		have = access(n.perm >> 6 & 7)
	case slices.Contains(who.groups, n.owner.group):
		have = access(n.perm >> 3 & 7)
	default:
		have = access(n.perm & 7)
	}
	if have&want == want {
		return nil
	}
	return ipc.Errorf(ipc.AccessControlException, "Permission denied: user=%s, access=%s, inode=%q:%s", who.user, want, n.hdfsPath(), n)
}

// requireBelow is FSPermissionChecker.checkSubAccess: want on dir and every
// directory below it.
func (nn *namenode) requireBelow(who caller, dir inode, want access, ignoreEmpty bool) error {
	entries, err := nn.readDir(dir.rel)
	if err != nil {
		return nil // vanished: the operation reports it
	}
	if !(ignoreEmpty && len(entries) == 0) {
		if err := nn.require(who, dir, want); err != nil {
			return err
		}
	}
	for _, e := range entries {
		child := nn.inodeOfRel(path.Join(dir.rel, e.Name()))
		if child.dir {
			if err := nn.requireBelow(who, child, want, ignoreEmpty); err != nil {
				return err
			}
		}
	}
	return nil
}

// stickyBit is FSPermissionChecker.checkStickyBit: in a directory with the
// sticky bit, only the directory's owner and the entry's owner may remove
// or rename the entry.
func stickyBit(who caller, parent, n inode) error {
	if parent.perm&0o1000 == 0 || parent.owner.user == who.user || n.owner.user == who.user {
		return nil
	}
	return ipc.Errorf(ipc.AccessControlException, "Permission denied by sticky bit: user=%s, path=%q:%s, parent=%q:%s",
		who.user, n.hdfsPath(), n, parent.hdfsPath(), parent)
}

// checkChown is FSDirAttrOp.setOwner's rule beyond ownership: only a
// superuser gives a file away, and a user may only pick a group of theirs.
func (nn *namenode) checkChown(call *ipc.Call, user, group string) error {
	if !nn.permissions {
		return nil
	}
	who := nn.caller(call)
	if nn.superuser(who) {
		return nil
	}
	if user != "" && user != who.user {
		return ipc.Errorf(ipc.AccessControlException, "User %s is not a super user (non-super user cannot change owner).", who.user)
	}
	if group != "" && !slices.Contains(who.groups, group) {
		return ipc.Errorf(ipc.AccessControlException, "User %s does not belong to %s", who.user, group)
	}
	return nil
}

// homeOwner is the owner of a path that was not created through MiniDFS:
// the namespace lives on a local disk that records no HDFS owners, so a
// file found under /user/<u> is <u>'s (as if <u> had put it there, which
// is what a test copying a fixture into a home means) and any other the
// superuser's, the NameNode's own user.
func (nn *namenode) homeOwner(rel string) owner {
	if rest, ok := strings.CutPrefix(rel, "user/"); ok {
		if u, _, _ := strings.Cut(rest, "/"); u != "" {
			return owner{user: u, group: nn.opts.Group}
		}
	}
	return owner{user: nn.opts.Owner, group: nn.opts.Group}
}

// createHome makes /user/<u> owned by u (and /user if missing), as a
// cluster's administrator does for a new user; an existing home is given to
// u. Callers hold mu.
func (nn *namenode) createHome(u string) error {
	if u == "" || strings.ContainsAny(u, "/@") || u == "." || u == ".." {
		return fmt.Errorf("minidfs: %q cannot have a home", u)
	}
	for _, dir := range []string{"user", "user/" + u} {
		if err := nn.root.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
			return fmt.Errorf("minidfs: creating /%s: %w", dir, err)
		}
	}
	fi, err := nn.root.Stat("user/" + u)
	if err != nil {
		return fmt.Errorf("minidfs: /user/%s: %w", u, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("minidfs: /user/%s is not a directory", u)
	}
	nn.setOwner(inodeOf(fi), "user/"+u, u, nn.opts.Group)
	return nil
}
