package minidfs_test

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/minidfs"
	"google.golang.org/protobuf/proto"
)

// startHA starts an HA MiniDFS (alice is the superuser, blocks are small)
// with opts' other fields.
func startHA(t *testing.T, opts minidfs.Options) *minidfs.MiniDFS {
	t.Helper()
	opts.HA = true
	if opts.Root == "" {
		opts.Root = t.TempDir()
	}
	opts.BlockSize = 128 << 10
	opts.Superuser = "alice"
	m, err := minidfs.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// dialNN opens a raw ClientProtocol connection to one NameNode as user.
func dialNN(t *testing.T, addr, user string) *ipc.Client {
	t.Helper()
	c, err := ipc.Dial(context.Background(), ipc.ClientOptions{Addr: addr, Protocol: ipc.ClientProtocol, User: user})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestHAPair: an HA MiniDFS is two NameNodes, nn1 active and nn2 standby,
// over one namespace, named by a nameservice that only ClientConf maps to
// them. What one NameNode records in memory (owners) the other serves
// after a failover: two MiniDFS on one root would not share it.
func TestHAPair(t *testing.T) {
	t.Parallel()
	m := startHA(t, minidfs.Options{})
	addrs := m.NameNodeAddrs()
	if len(addrs) != 2 || addrs[0] == addrs[1] {
		t.Fatalf("NameNodeAddrs = %v", addrs)
	}
	if m.URI() != "hdfs://minicluster" || m.Nameservice() != "minicluster" {
		t.Errorf("URI = %q, Nameservice = %q", m.URI(), m.Nameservice())
	}
	want := map[string]string{
		"dfs.nameservices":                               "minicluster",
		"dfs.ha.namenodes.minicluster":                   "nn1,nn2",
		"dfs.namenode.rpc-address.minicluster.nn1":       addrs[0],
		"dfs.namenode.rpc-address.minicluster.nn2":       addrs[1],
		"dfs.client.failover.proxy.provider.minicluster": minidfs.FailoverProxyProvider,
	}
	if got := m.ClientConf(); !maps.Equal(got, want) {
		t.Errorf("ClientConf = %v, want %v", got, want)
	}
	if m.ActiveNameNode() != 0 || m.Addr() != addrs[0] {
		t.Errorf("at start: active %d, Addr %s; want nn1 (%s)", m.ActiveNameNode(), m.Addr(), addrs[0])
	}

	c1 := newClient(t, "alice", addrs[0])
	if err := c1.MkdirAll("/ha", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c1.CreateEmptyFile("/ha/f"); err != nil {
		t.Fatal(err)
	}
	if err := c1.Chown("/ha/f", "bob", "analysts"); err != nil {
		t.Fatal(err)
	}
	if _, err := newClient(t, "alice", addrs[1]).Stat("/ha"); err == nil || !strings.Contains(err.Error(), ipc.StandbyException) {
		t.Errorf("Stat on the standby nn2 = %v, want a StandbyException", err)
	}

	if err := m.Failover(1); err != nil {
		t.Fatal(err)
	}
	if m.ActiveNameNode() != 1 || m.Addr() != addrs[1] {
		t.Errorf("after Failover(1): active %d, Addr %s; want nn2 (%s)", m.ActiveNameNode(), m.Addr(), addrs[1])
	}
	fi, err := newClient(t, "alice", addrs[1]).Stat("/ha/f")
	if err != nil {
		t.Fatal(err)
	}
	if hfi := fi.(*hdfs.FileInfo); hfi.Owner() != "bob" || hfi.OwnerGroup() != "analysts" {
		t.Errorf("owner on nn2 = %s:%s, want bob:analysts (set through nn1)", hfi.Owner(), hfi.OwnerGroup())
	}
	if _, err := c1.Stat("/ha"); err == nil || !strings.Contains(err.Error(), ipc.StandbyException) {
		t.Errorf("Stat on nn1 after the failover = %v, want a StandbyException", err)
	}
	// A client given both NameNodes follows the active one.
	both := newClient(t, "alice", addrs...)
	if _, err := both.Stat("/ha/f"); err != nil {
		t.Errorf("Stat through both NameNodes: %v", err)
	}
}

// TestHAStandbyAnswers: a standby refuses every client call with the
// StandbyException Hadoop's StandbyState.checkOperation raises, naming the
// category FSNamesystem checks first (addBlock: READ); the active
// NameNode serves them; getDataEncryptionKey is not checked.
func TestHAStandbyAnswers(t *testing.T) {
	t.Parallel()
	m := startHA(t, minidfs.Options{})
	addrs := m.NameNodeAddrs()
	active, standby := dialNN(t, addrs[0], "alice"), dialNN(t, addrs[1], "alice")
	perm := &hdfspb.FsPermissionProto{Perm: proto.Uint32(0o755)}
	calls := []struct {
		method   string
		req      proto.Message
		resp     proto.Message
		category string // "" when a standby serves it
	}{
		{"getFileInfo", &hdfspb.GetFileInfoRequestProto{Src: proto.String("/")}, &hdfspb.GetFileInfoResponseProto{}, "READ"},
		{"getListing", &hdfspb.GetListingRequestProto{Src: proto.String("/"), StartAfter: []byte{}, NeedLocation: proto.Bool(false)}, &hdfspb.GetListingResponseProto{}, "READ"},
		{"getServerDefaults", &hdfspb.GetServerDefaultsRequestProto{}, &hdfspb.GetServerDefaultsResponseProto{}, "READ"},
		{"getFsStats", &hdfspb.GetFsStatusRequestProto{}, &hdfspb.GetFsStatsResponseProto{}, "READ"},
		{"mkdirs", &hdfspb.MkdirsRequestProto{Src: proto.String("/d"), Masked: perm, CreateParent: proto.Bool(true)}, &hdfspb.MkdirsResponseProto{}, "WRITE"},
		{"create", &hdfspb.CreateRequestProto{Src: proto.String("/d/f"), Masked: perm, ClientName: proto.String("c1"), CreateFlag: proto.Uint32(1),
			CreateParent: proto.Bool(false), Replication: proto.Uint32(1), BlockSize: proto.Uint64(128 << 10)}, &hdfspb.CreateResponseProto{}, "WRITE"},
		{"addBlock", &hdfspb.AddBlockRequestProto{Src: proto.String("/d/f"), ClientName: proto.String("c1")}, &hdfspb.AddBlockResponseProto{}, "READ"},
		{"renewLease", &hdfspb.RenewLeaseRequestProto{ClientName: proto.String("c1")}, &hdfspb.RenewLeaseResponseProto{}, "WRITE"},
		{"complete", &hdfspb.CompleteRequestProto{Src: proto.String("/d/f"), ClientName: proto.String("c1")}, &hdfspb.CompleteResponseProto{}, "WRITE"},
		{"getDataEncryptionKey", &hdfspb.GetDataEncryptionKeyRequestProto{}, &hdfspb.GetDataEncryptionKeyResponseProto{}, ""},
	}
	ctx := context.Background()
	for _, c := range calls {
		err := standby.Call(ctx, c.method, c.req, c.resp)
		var re *ipc.RemoteError
		if c.category == "" {
			if err != nil {
				t.Errorf("%s on the standby: %v, want it served", c.method, err)
			}
		} else if !errors.As(err, &re) || re.Class != ipc.StandbyException ||
			re.Message != "Operation category "+c.category+" is not supported in state standby. Visit https://s.apache.org/sbnn-error" {
			t.Errorf("%s on the standby: %v, want a StandbyException for category %s", c.method, err, c.category)
		}
		// In order, on the active NameNode every call succeeds.
		if err := active.Call(ctx, c.method, c.req, c.resp); err != nil {
			t.Errorf("%s on the active NameNode: %v", c.method, err)
		}
	}
}

// fakeClock is a settable clock for lease bookkeeping.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestHALeaseSurvivesFailover: a writer's lease is the namespace's, so it
// holds on the new active NameNode, which renews every lease as it takes
// over (FSNamesystem.startActiveServices): 100 seconds after the create,
// but 50 after the failover, another client still may not take the file,
// and the writer completes it through the new active.
func TestHALeaseSurvivesFailover(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	m := startHA(t, minidfs.Options{Now: clock.Now})
	addrs := m.NameNodeAddrs()
	ctx := context.Background()
	perm := &hdfspb.FsPermissionProto{Perm: proto.Uint32(0o644)}
	create := &hdfspb.CreateRequestProto{Src: proto.String("/f"), Masked: perm, ClientName: proto.String("writer"), CreateFlag: proto.Uint32(1),
		CreateParent: proto.Bool(false), Replication: proto.Uint32(1), BlockSize: proto.Uint64(128 << 10)}
	if err := dialNN(t, addrs[0], "alice").Call(ctx, "create", create, &hdfspb.CreateResponseProto{}); err != nil {
		t.Fatal(err)
	}
	clock.advance(50 * time.Second)
	if err := m.Failover(1); err != nil {
		t.Fatal(err)
	}
	clock.advance(50 * time.Second)
	nn2 := dialNN(t, addrs[1], "alice")
	err := nn2.Call(ctx, "append", &hdfspb.AppendRequestProto{Src: proto.String("/f"), ClientName: proto.String("thief")}, &hdfspb.AppendResponseProto{})
	var re *ipc.RemoteError
	if !errors.As(err, &re) || re.Class != ipc.AlreadyBeingCreatedException {
		t.Errorf("another client's append after the failover = %v, want AlreadyBeingCreatedException", err)
	}
	complete := &hdfspb.CompleteResponseProto{}
	if err := nn2.Call(ctx, "complete", &hdfspb.CompleteRequestProto{Src: proto.String("/f"), ClientName: proto.String("writer")}, complete); err != nil || !complete.GetResult() {
		t.Errorf("the writer's complete on nn2 = %v, %v", complete.GetResult(), err)
	}
}

// TestHAWriteAcrossFailover: colinmarc's writer, given both NameNodes,
// carries a file through a failover (blocks allocated on nn1, then on
// nn2), and the data is whole. (One failover: colinmarc skips a NameNode
// for 5 seconds after its StandbyException, so a failover back within
// that time needs gozie's client, tested in package hadoop.)
func TestHAWriteAcrossFailover(t *testing.T) {
	t.Parallel()
	m := startHA(t, minidfs.Options{})
	c := newClient(t, "alice", m.NameNodeAddrs()...)
	w, err := c.Create("/data.bin")
	if err != nil {
		t.Fatal(err)
	}
	data := randomBytes(2*(200<<10) + 17)
	half := len(data) / 2
	if _, err := w.Write(data[:half]); err != nil {
		t.Fatal(err)
	}
	if err := m.Failover(1); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data[half:]); err != nil {
		t.Fatalf("write after the failover: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(m.Root(), "data.bin")); err != nil || !bytes.Equal(got, data) {
		t.Errorf("backing file: %d bytes, %v; want %d", len(got), err, len(data))
	}
}

// TestHATransitions: the failover hooks refuse what haadmin refuses.
func TestHATransitions(t *testing.T) {
	t.Parallel()
	m := startHA(t, minidfs.Options{Nameservice: "prod"})
	if m.URI() != "hdfs://prod" {
		t.Errorf("URI = %s", m.URI())
	}
	if err := m.Failover(0); err == nil || !strings.Contains(err.Error(), "Can't failover to an active service") {
		t.Errorf("Failover to the active nn1 = %v", err)
	}
	if err := m.Failover(2); err == nil {
		t.Error("Failover(2) succeeded")
	}
	if err := m.TransitionToActive(1); err == nil || !strings.Contains(err.Error(), "transitionToActive: Node nn1 is already active") {
		t.Errorf("TransitionToActive(nn2) with nn1 active = %v", err)
	}
	if err := m.TransitionToStandby(0); err != nil {
		t.Fatal(err)
	}
	if m.ActiveNameNode() != -1 || m.Addr() != m.NameNodeAddrs()[0] {
		t.Errorf("with both standby: active %d, Addr %s", m.ActiveNameNode(), m.Addr())
	}
	if err := m.TransitionToActive(1); err != nil || m.ActiveNameNode() != 1 {
		t.Errorf("TransitionToActive(nn2) = %v, active %d", err, m.ActiveNameNode())
	}
	if err := m.Failover(0); err != nil || m.ActiveNameNode() != 0 {
		t.Errorf("Failover(nn1) = %v, active %d", err, m.ActiveNameNode())
	}

	plain := startDFS(t, minidfs.Options{})
	if err := plain.Failover(0); err == nil {
		t.Error("Failover on a non-HA MiniDFS succeeded")
	}
	if plain.ActiveNameNode() != 0 || len(plain.ClientConf()) != 0 || plain.URI() != "hdfs://"+plain.Addr() {
		t.Errorf("non-HA: active %d, ClientConf %v, URI %s", plain.ActiveNameNode(), plain.ClientConf(), plain.URI())
	}

	for _, o := range []minidfs.Options{
		{HA: true, NameNodeAddrs: []string{"127.0.0.1:0"}},
		{NameNodeAddrs: []string{"127.0.0.1:0", "127.0.0.1:0"}},
		{HA: true, Nameservice: "host:8020"},
	} {
		o.Root = t.TempDir()
		if m, err := minidfs.Start(context.Background(), o); err == nil {
			m.Close()
			t.Errorf("Start(%+v) succeeded", o)
		}
	}
}

// startDFS starts a MiniDFS with opts and alice as the superuser.
func startDFS(t *testing.T, opts minidfs.Options) *minidfs.MiniDFS {
	t.Helper()
	if opts.Root == "" {
		opts.Root = t.TempDir()
	}
	opts.Superuser = "alice"
	m, err := minidfs.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// TestFixedAddrs: the NameNodes and the DataNode listen where
// Options.NameNodeAddrs and DataNodeAddr say, so a cluster started again
// on the same root keeps its addresses; a taken port fails Start, naming
// it, and leaves no server behind; a configured host name is what clients
// are given.
func TestFixedAddrs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	first, err := minidfs.Start(context.Background(), minidfs.Options{Root: root, HA: true})
	if err != nil {
		t.Fatal(err)
	}
	nnAddrs, dnAddr := first.NameNodeAddrs(), first.DataNodeAddr()
	first.Close()
	again := startDFS(t, minidfs.Options{Root: root, HA: true, NameNodeAddrs: nnAddrs, DataNodeAddr: dnAddr})
	if got := again.NameNodeAddrs(); !slices.Equal(got, nnAddrs) || again.DataNodeAddr() != dnAddr {
		t.Errorf("restarted on %v and %s, want %v and %s", got, again.DataNodeAddr(), nnAddrs, dnAddr)
	}
	c := newClient(t, "alice", nnAddrs...)
	if err := c.MkdirAll("/again", 0o755); err != nil {
		t.Errorf("through the kept addresses: %v", err)
	}

	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	busy := taken.Addr().String()
	free := freeAddr(t)
	for _, o := range []minidfs.Options{
		{HA: true, NameNodeAddrs: []string{free, busy}},
		{DataNodeAddr: busy, NameNodeAddrs: []string{free}},
	} {
		o.Root = t.TempDir()
		m, err := minidfs.Start(context.Background(), o)
		if err == nil {
			m.Close()
			t.Fatalf("Start on the taken %s succeeded", busy)
		}
		if !strings.Contains(err.Error(), busy) {
			t.Errorf("Start on the taken %s: %v, want the address named", busy, err)
		}
		// Nothing of the failed start still listens.
		l, err := net.Listen("tcp", free)
		if err != nil {
			t.Errorf("%s still taken after a failed Start: %v", free, err)
		} else {
			l.Close()
		}
	}

	named := startDFS(t, minidfs.Options{HA: true, NameNodeAddrs: []string{"localhost:0", ""}})
	if got := named.NameNodeAddrs(); !strings.HasPrefix(got[0], "localhost:") || !strings.HasPrefix(got[1], "127.0.0.1:") {
		t.Errorf("NameNodeAddrs = %v, want localhost:<port> and 127.0.0.1:<port>", got)
	}
}

// freeAddr returns a loopback address no one listens on (just now).
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
