package minidfs_test

import (
	"context"
	"testing"

	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/minidfs"
	"google.golang.org/protobuf/proto"
)

// TestEditStreamHA: the edit stream is the active NameNode's (a READ
// operation: the standby answers StandbyException); after a failover the
// new active one serves the same transactions, for the pair shares one
// journal.
func TestEditStreamHA(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := startHA(t, minidfs.Options{})
	addrs := m.NameNodeAddrs()
	nn1, nn2 := dialNN(t, addrs[0], "alice"), dialNN(t, addrs[1], "alice")
	mk := &hdfspb.MkdirsRequestProto{Src: proto.String("/flags"), Masked: &hdfspb.FsPermissionProto{Perm: proto.Uint32(0o755)}, CreateParent: proto.Bool(true)}
	if err := nn1.Call(ctx, "mkdirs", mk, &hdfspb.MkdirsResponseProto{}); err != nil {
		t.Fatal(err)
	}
	req := &hdfspb.GetEditsFromTxidRequestProto{Txid: proto.Int64(1)}
	if err := nn2.Call(ctx, "getEditsFromTxid", req, &hdfspb.GetEditsFromTxidResponseProto{}); !remote(err, ipc.StandbyException, "") {
		t.Errorf("getEditsFromTxid on the standby: %v, want a StandbyException", err)
	}
	if err := m.Failover(1); err != nil {
		t.Fatal(err)
	}
	resp := &hdfspb.GetEditsFromTxidResponseProto{}
	if err := nn2.Call(ctx, "getEditsFromTxid", req, resp); err != nil {
		t.Fatal(err)
	}
	l := resp.GetEventsList()
	if l.GetFirstTxid() != 1 || len(l.GetBatch()) == 0 || l.GetBatch()[0].GetEvents()[0].GetType() != hdfspb.EventType_EVENT_CREATE {
		t.Errorf("the new active NameNode's stream: %v, want the CREATE of /flags first", l)
	}
}
