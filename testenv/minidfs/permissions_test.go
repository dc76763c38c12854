package minidfs_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/minidfs"
	"google.golang.org/protobuf/proto"
)

// permsSetup starts a MiniDFS started by hdfs (its superuser) with the
// homes of alice and bob, carol in group analysts and dave in the
// supergroup (static group mappings), plus conf.
func permsSetup(t *testing.T, conf map[string]string) *minidfs.MiniDFS {
	t.Helper()
	all := map[string]string{"hadoop.user.group.static.mapping.overrides": "carol=analysts;dave=supergroup;alice=;bob="}
	for k, v := range conf {
		all[k] = v
	}
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: "hdfs", Conf: all})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	for _, u := range []string{"alice", "bob"} {
		if err := m.CreateHome(u); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// nnCall makes one ClientProtocol call as user (for realUser, with
// realUser non-empty) over gozie's own IPC client, which keeps the
// NameNode's exception class and message.
func nnCall(t *testing.T, m *minidfs.MiniDFS, user, realUser, method string, req, resp proto.Message) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := ipc.Dial(ctx, ipc.ClientOptions{Addr: m.Addr(), Protocol: ipc.ClientProtocol, User: user, RealUser: realUser})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.Call(ctx, method, req, resp)
}

func mkdirs(src string, perm uint32) *hdfspb.MkdirsRequestProto {
	return &hdfspb.MkdirsRequestProto{Src: proto.String(src), Masked: &hdfspb.FsPermissionProto{Perm: proto.Uint32(perm)},
		CreateParent: proto.Bool(true)}
}

// wantRemote checks that err is the NameNode's exception with exactly msg.
func wantRemote(t *testing.T, what string, err error, class, msg string) {
	t.Helper()
	var re *ipc.RemoteError
	if !errors.As(err, &re) {
		t.Errorf("%s: %v, want %s", what, err, class)
		return
	}
	if re.Class != class || re.Message != msg {
		t.Errorf("%s:\n got %s: %s\nwant %s: %s", what, re.Class, re.Message, class, msg)
	}
}

// TestPermissionChecks: Hadoop's rules (FSPermissionChecker) with Hadoop's
// messages, for the calls that check each kind of access.
func TestPermissionChecks(t *testing.T) {
	t.Parallel()
	m := permsSetup(t, nil)
	alice := newClient(t, "alice", m.Addr())
	for _, step := range []func() error{
		func() error { return alice.MkdirAll("/user/alice/private", 0o700) },
		func() error { return alice.CreateEmptyFile("/user/alice/private/f") },
		func() error { return alice.MkdirAll("/user/alice/data/2024", 0o755) },
		func() error { return alice.CreateEmptyFile("/user/alice/secret") },
		func() error { return alice.Chmod("/user/alice/secret", 0o600) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	const ace = ipc.AccessControlException
	tests := []struct {
		name, user, method string
		req                proto.Message
		resp               proto.Message
		msg                string
	}{
		{"WRITE on the parent to make a directory", "bob", "mkdirs", mkdirs("/user/alice/x", 0o755), &hdfspb.MkdirsResponseProto{},
			`Permission denied: user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x`},
		{"WRITE on the last existing ancestor", "bob", "mkdirs", mkdirs("/user/alice/a/b/c", 0o755), &hdfspb.MkdirsResponseProto{},
			`Permission denied: user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x`},
		{"WRITE on the parent to create a file", "bob", "create", &hdfspb.CreateRequestProto{Src: proto.String("/user/alice/f"),
			Masked: &hdfspb.FsPermissionProto{Perm: proto.Uint32(0o644)}, ClientName: proto.String("c"), CreateFlag: proto.Uint32(1),
			CreateParent: proto.Bool(false), Replication: proto.Uint32(1), BlockSize: proto.Uint64(128 << 20)},
			&hdfspb.CreateResponseProto{},
			`Permission denied: user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x`},
		{"EXECUTE on every ancestor", "bob", "getFileInfo", &hdfspb.GetFileInfoRequestProto{Src: proto.String("/user/alice/private/f")},
			&hdfspb.GetFileInfoResponseProto{},
			`Permission denied: user=bob, access=EXECUTE, inode="/user/alice/private":alice:supergroup:drwx------`},
		{"READ_EXECUTE to list", "bob", "getListing", &hdfspb.GetListingRequestProto{Src: proto.String("/user/alice/private"),
			StartAfter: []byte{}, NeedLocation: proto.Bool(false)}, &hdfspb.GetListingResponseProto{},
			`Permission denied: user=bob, access=READ_EXECUTE, inode="/user/alice/private":alice:supergroup:drwx------`},
		{"READ to open", "bob", "getBlockLocations", &hdfspb.GetBlockLocationsRequestProto{Src: proto.String("/user/alice/secret"),
			Offset: proto.Uint64(0), Length: proto.Uint64(1)}, &hdfspb.GetBlockLocationsResponseProto{},
			`Permission denied: user=bob, access=READ, inode="/user/alice/secret":alice:supergroup:-rw-------`},
		{"WRITE on the parent to delete", "bob", "delete", &hdfspb.DeleteRequestProto{Src: proto.String("/user/alice/data"),
			Recursive: proto.Bool(true)}, &hdfspb.DeleteResponseProto{},
			`Permission denied: user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x`},
		{"WRITE on the source's parent to rename", "bob", "rename2", &hdfspb.Rename2RequestProto{Src: proto.String("/user/alice/secret"),
			Dst: proto.String("/user/bob/secret"), OverwriteDest: proto.Bool(false)}, &hdfspb.Rename2ResponseProto{},
			`Permission denied: user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x`},
		{"WRITE to set times", "bob", "setTimes", &hdfspb.SetTimesRequestProto{Src: proto.String("/user/alice/secret"),
			Mtime: proto.Uint64(0), Atime: proto.Uint64(0)}, &hdfspb.SetTimesResponseProto{},
			`Permission denied: user=bob, access=WRITE, inode="/user/alice/secret":alice:supergroup:-rw-------`},
		{"READ_EXECUTE below for a content summary", "bob", "getContentSummary",
			&hdfspb.GetContentSummaryRequestProto{Path: proto.String("/user/alice")}, &hdfspb.GetContentSummaryResponseProto{},
			`Permission denied: user=bob, access=READ_EXECUTE, inode="/user/alice/private":alice:supergroup:drwx------`},
		{"the owner to chmod", "bob", "setPermission", &hdfspb.SetPermissionRequestProto{Src: proto.String("/user/alice/secret"),
			Permission: &hdfspb.FsPermissionProto{Perm: proto.Uint32(0o777)}}, &hdfspb.SetPermissionResponseProto{},
			`Permission denied. user=bob is not the owner of inode=/user/alice/secret`},
		{"a superuser to give a file away", "alice", "setOwner", &hdfspb.SetOwnerRequestProto{Src: proto.String("/user/alice/secret"),
			Username: proto.String("bob")}, &hdfspb.SetOwnerResponseProto{},
			`User alice is not a super user (non-super user cannot change owner).`},
		{"a member of the group to chgrp", "alice", "setOwner", &hdfspb.SetOwnerRequestProto{Src: proto.String("/user/alice/secret"),
			Groupname: proto.String("analysts")}, &hdfspb.SetOwnerResponseProto{},
			`User alice does not belong to analysts`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wantRemote(t, tt.method, nnCall(t, m, tt.user, "", tt.method, tt.req, tt.resp), ace, tt.msg)
		})
	}
	if _, err := newClient(t, "bob", m.Addr()).Stat("/user/alice/private/f"); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("colinmarc's Stat as bob = %v, want ErrPermission", err)
	}
	// Superusers, the owner and members of the supergroup pass.
	for _, u := range []string{"hdfs", "dave"} {
		if err := nnCall(t, m, u, "", "mkdirs", mkdirs("/user/alice/from-"+u, 0o755), &hdfspb.MkdirsResponseProto{}); err != nil {
			t.Errorf("%s (a superuser) in alice's home: %v", u, err)
		}
	}
	if err := nnCall(t, m, "alice", "", "getBlockLocations", &hdfspb.GetBlockLocationsRequestProto{Src: proto.String("/user/alice/secret"),
		Offset: proto.Uint64(0), Length: proto.Uint64(1)}, &hdfspb.GetBlockLocationsResponseProto{}); err != nil {
		t.Errorf("the owner reading her file: %v", err)
	}
}

// TestGroupClassAndStickyBit: a member of a file's group gets the group's
// bits; in a sticky directory only an entry's owner (or the directory's)
// removes it; deleting a tree needs ALL on every non-empty directory in it.
func TestGroupClassAndStickyBit(t *testing.T) {
	t.Parallel()
	m := permsSetup(t, nil)
	root := newClient(t, "hdfs", m.Addr())
	for _, step := range []func() error{
		func() error { return root.MkdirAll("/shared", 0o755) },
		func() error { return root.MkdirAll("/shared/analysts", 0o750) },
		func() error { return root.Chown("/shared/analysts", "hdfs", "analysts") },
		func() error { return root.MkdirAll("/tmp", 0o777) },
		func() error { return root.Chmod("/tmp", 0o1777) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	list := &hdfspb.GetListingRequestProto{Src: proto.String("/shared/analysts"), StartAfter: []byte{}, NeedLocation: proto.Bool(false)}
	if err := nnCall(t, m, "carol", "", "getListing", list, &hdfspb.GetListingResponseProto{}); err != nil {
		t.Errorf("carol (analysts) listing a drwxr-x--- directory of analysts: %v", err)
	}
	wantRemote(t, "bob listing it", nnCall(t, m, "bob", "", "getListing", list, &hdfspb.GetListingResponseProto{}),
		ipc.AccessControlException, `Permission denied: user=bob, access=READ_EXECUTE, inode="/shared/analysts":hdfs:analysts:drwxr-x---`)

	alice := newClient(t, "alice", m.Addr())
	if err := alice.CreateEmptyFile("/tmp/a"); err != nil {
		t.Fatal(err)
	}
	wantRemote(t, "bob deleting alice's file in /tmp",
		nnCall(t, m, "bob", "", "delete", &hdfspb.DeleteRequestProto{Src: proto.String("/tmp/a"), Recursive: proto.Bool(false)},
			&hdfspb.DeleteResponseProto{}),
		ipc.AccessControlException, `Permission denied by sticky bit: user=bob, path="/tmp/a":alice:supergroup:-rw-r--r--, parent="/tmp":hdfs:supergroup:drwxrwxrwt`)
	if err := alice.Remove("/tmp/a"); err != nil {
		t.Errorf("alice deleting her own file in /tmp: %v", err)
	}

	bob := newClient(t, "bob", m.Addr())
	if err := bob.MkdirAll("/user/bob/shared", 0o777); err != nil {
		t.Fatal(err)
	}
	if err := bob.Chmod("/user/bob/shared", 0o777); err != nil {
		t.Fatal(err)
	}
	if err := alice.MkdirAll("/user/bob/shared/alices", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := alice.CreateEmptyFile("/user/bob/shared/alices/f"); err != nil {
		t.Fatal(err)
	}
	wantRemote(t, "bob deleting a tree with alice's non-empty directory",
		nnCall(t, m, "bob", "", "delete", &hdfspb.DeleteRequestProto{Src: proto.String("/user/bob/shared"), Recursive: proto.Bool(true)},
			&hdfspb.DeleteResponseProto{}),
		ipc.AccessControlException, `Permission denied: user=bob, access=ALL, inode="/user/bob/shared/alices":alice:supergroup:drwxr-xr-x`)
}

// TestOwnership: what a user makes is the user's, in its parent's group;
// directories made on the way get u+wx; /user/<u> made by CreateHome (or
// found on disk) is <u>'s.
func TestOwnership(t *testing.T) {
	t.Parallel()
	m := permsSetup(t, nil)
	root := newClient(t, "hdfs", m.Addr())
	if err := root.MkdirAll("/user/bob/team", 0o775); err != nil {
		t.Fatal(err)
	}
	if err := root.Chown("/user/bob/team", "bob", "analysts"); err != nil {
		t.Fatal(err)
	}
	bob := newClient(t, "bob", m.Addr())
	if err := bob.MkdirAll("/user/bob/team/a/b", 0o500); err != nil {
		t.Fatal(err)
	}
	if err := bob.CreateEmptyFile("/user/bob/f"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path, owner, group string
		perm               fs.FileMode
	}{
		{"/user/bob", "bob", "supergroup", 0o755},
		{"/user/bob/f", "bob", "supergroup", 0o644},
		{"/user/bob/team/a", "bob", "analysts", 0o700}, // made on the way: 0500 plus u+wx
		{"/user/bob/team/a/b", "bob", "analysts", 0o500},
		{"/user", "hdfs", "supergroup", 0o755},
	} {
		fi, err := root.Stat(tt.path)
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		h := fi.(*hdfs.FileInfo)
		if h.Owner() != tt.owner || h.OwnerGroup() != tt.group || fi.Mode().Perm() != tt.perm {
			t.Errorf("%s: %s:%s %v, want %s:%s %v", tt.path, h.Owner(), h.OwnerGroup(), fi.Mode().Perm(), tt.owner, tt.group, tt.perm)
		}
	}
}

// TestProxyUsers: a connection whose context names a real user (a proxy
// for the effective one) is accepted only under the hadoop.proxyuser rules
// (DefaultImpersonationProvider), and refused the way Hadoop's Server
// refuses it: a FATAL_UNAUTHORIZED AuthorizationException for call id -3.
// An accepted proxy acts as the effective user.
func TestProxyUsers(t *testing.T) {
	t.Parallel()
	const authz = ipc.AuthorizationException
	tests := []struct {
		name  string
		conf  map[string]string
		user  string
		allow bool
		msg   string
	}{
		{name: "no rules", user: "bob", msg: "User: gozie is not allowed to impersonate bob"},
		{name: "allowed user", user: "bob", allow: true,
			conf: map[string]string{"hadoop.proxyuser.gozie.users": "alice,bob", "hadoop.proxyuser.gozie.hosts": "127.0.0.1"}},
		{name: "another user", user: "bob", msg: "User: gozie is not allowed to impersonate bob",
			conf: map[string]string{"hadoop.proxyuser.gozie.users": "alice", "hadoop.proxyuser.gozie.hosts": "*"}},
		{name: "allowed group", user: "carol", allow: true,
			conf: map[string]string{"hadoop.proxyuser.gozie.groups": "analysts", "hadoop.proxyuser.gozie.hosts": "localhost"}},
		{name: "outside the groups", user: "bob", msg: "User: gozie is not allowed to impersonate bob",
			conf: map[string]string{"hadoop.proxyuser.gozie.groups": "analysts", "hadoop.proxyuser.gozie.hosts": "*"}},
		{name: "wildcard", user: "bob", allow: true,
			conf: map[string]string{"hadoop.proxyuser.gozie.groups": "*", "hadoop.proxyuser.gozie.hosts": "127.0.0.0/8"}},
		{name: "another host", user: "bob", msg: "Unauthorized connection for super-user: gozie from IP 127.0.0.1",
			conf: map[string]string{"hadoop.proxyuser.gozie.users": "*", "hadoop.proxyuser.gozie.hosts": "10.1.2.3"}},
		{name: "no hosts", user: "bob", msg: "Unauthorized connection for super-user: gozie from IP 127.0.0.1",
			conf: map[string]string{"hadoop.proxyuser.gozie.users": "*"}},
		{name: "rules of another proxy", user: "bob", msg: "User: gozie is not allowed to impersonate bob",
			conf: map[string]string{"hadoop.proxyuser.oozie.users": "*", "hadoop.proxyuser.oozie.hosts": "*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := permsSetup(t, tt.conf)
			err := nnCall(t, m, tt.user, "gozie", "getFileInfo", &hdfspb.GetFileInfoRequestProto{Src: proto.String("/")},
				&hdfspb.GetFileInfoResponseProto{})
			if tt.allow {
				if err != nil {
					t.Fatalf("gozie for %s: %v", tt.user, err)
				}
				return
			}
			wantRemote(t, "gozie for "+tt.user, err, authz, tt.msg)
			var re *ipc.RemoteError
			if errors.As(err, &re) && (!re.Fatal || re.Code != ipc.CodeUnauthorized) {
				t.Errorf("refusal fatal %v code %v, want FATAL_UNAUTHORIZED", re.Fatal, re.Code)
			}
		})
	}

	// An allowed proxy is the effective user: bob's rights, bob's files.
	m := permsSetup(t, map[string]string{"hadoop.proxyuser.gozie.users": "*", "hadoop.proxyuser.gozie.hosts": "127.0.0.1"})
	wantRemote(t, "gozie for bob in alice's home",
		nnCall(t, m, "bob", "gozie", "mkdirs", mkdirs("/user/alice/x", 0o755), &hdfspb.MkdirsResponseProto{}),
		ipc.AccessControlException, `Permission denied: user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x`)
	if err := nnCall(t, m, "bob", "gozie", "mkdirs", mkdirs("/user/bob/x", 0o755), &hdfspb.MkdirsResponseProto{}); err != nil {
		t.Fatal(err)
	}
	fi, err := newClient(t, "hdfs", m.Addr()).Stat("/user/bob/x")
	if err != nil || fi.(*hdfs.FileInfo).Owner() != "bob" {
		t.Errorf("made by gozie for bob: %v, %v", fi, err)
	}
}

// TestCreateHomes: with CreateHomes, a user's first call gives the user a
// home, as the administrator of a cluster does; without it there is none.
func TestCreateHomes(t *testing.T) {
	t.Parallel()
	for _, create := range []bool{true, false} {
		m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: "hdfs", CreateHomes: create})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		erin := newClient(t, "erin", m.Addr())
		err = erin.MkdirAll("/user/erin/out", 0o755)
		if create != (err == nil) {
			t.Errorf("CreateHomes %v: mkdir in erin's home: %v", create, err)
		}
		if !create {
			continue
		}
		fi, err := erin.Stat("/user/erin")
		if err != nil || fi.(*hdfs.FileInfo).Owner() != "erin" || fi.Mode().Perm() != 0o755 {
			t.Errorf("erin's home: %v, %v", fi, err)
		}
	}
}

// TestPermissionsOff: dfs.permissions.enabled=false checks nothing.
func TestPermissionsOff(t *testing.T) {
	t.Parallel()
	m := permsSetup(t, map[string]string{minidfs.PermissionsEnabledKey: "false"})
	if err := nnCall(t, m, "bob", "", "mkdirs", mkdirs("/user/alice/x", 0o755), &hdfspb.MkdirsResponseProto{}); err != nil {
		t.Errorf("permissions off: %v", err)
	}
}
