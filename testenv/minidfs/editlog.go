package minidfs

import (
	"context"
	"io/fs"
	"strconv"
	"sync"

	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/proto"
)

// Keys of the NameNode's edit stream (HDFS inotify).
const (
	// InotifyMaxEventsKey is dfs.namenode.inotify.max.events.per.rpc: a
	// getEditsFromTxid answer stops after the transaction that reaches it.
	InotifyMaxEventsKey = "dfs.namenode.inotify.max.events.per.rpc"
	// DefaultInotifyMaxEvents is its hdfs-default.xml value.
	DefaultInotifyMaxEvents = 1000
)

// editLog is the NameNode's journal of namespace changes, as HDFS
// inotify reads it: each change is one transaction with its events,
// numbered from 1. Entries before first have been purged (PurgeEdits),
// as a NameNode drops old edit segments after a checkpoint.
type editLog struct {
	mu      sync.Mutex
	last    int64       // the last transaction written (0: none yet)
	first   int64       // the first transaction kept
	entries []editEntry // transactions first..last
}

// editEntry is one transaction and its events.
type editEntry struct {
	txid   int64
	events []*hdfspb.EventProto
}

func newEditLog() *editLog { return &editLog{first: 1} }

// append writes one transaction with events and returns its id.
func (l *editLog) append(events ...*hdfspb.EventProto) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last++
	l.entries = append(l.entries, editEntry{txid: l.last, events: events})
	return l.last
}

// purge drops the transactions up to and including txid.
func (l *editLog) purge(txid int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := int(min(txid, l.last) - l.first + 1)
	if n <= 0 {
		return
	}
	l.entries = append([]editEntry(nil), l.entries[n:]...)
	l.first += int64(n)
}

// read answers getEditsFromTxid from txid as NameNodeRpcServer.
// getEventBatchList does: past the last synced transaction nothing (first
// and last -1); a txid already purged reads from the first kept one (the
// client sees the gap in firstTxid); it stops after the transaction that
// reaches maxEvents.
func (l *editLog) read(txid int64, maxEvents int) *hdfspb.EventsListProto {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := &hdfspb.EventsListProto{FirstTxid: proto.Int64(-1), LastTxid: proto.Int64(-1), SyncTxid: proto.Int64(l.last)}
	if txid > l.last {
		return out
	}
	start := max(txid, l.first) - l.first
	total := 0
	for _, e := range l.entries[start:] {
		if out.GetFirstTxid() == -1 {
			out.FirstTxid = proto.Int64(e.txid)
		}
		out.LastTxid = proto.Int64(e.txid)
		out.Batch = append(out.Batch, &hdfspb.EventBatchProto{Txid: proto.Int64(e.txid), Events: e.events})
		if total += len(e.events); total >= maxEvents {
			break
		}
	}
	return out
}

// event encodes one event of type t.
func event(t hdfspb.EventType, m proto.Message) *hdfspb.EventProto {
	b, err := proto.Marshal(m)
	if err != nil {
		panic("minidfs: encoding an inotify event: " + err.Error()) // all required fields are set
	}
	return &hdfspb.EventProto{Type: t.Enum(), Contents: b}
}

// logCreate logs the creation of the file or directory at rel (OP_ADD or
// OP_MKDIR), owned as the namespace now says.
func (nn *namenode) logCreate(rel string, overwrite bool) {
	fi, err := nn.root.Stat(rel)
	if err != nil {
		return
	}
	o := nn.ownerOf(inodeOf(fi), rel)
	typ := hdfspb.INodeType_I_TYPE_FILE
	m := &hdfspb.CreateEventProto{Path: proto.String(hdfsPath(rel)), Ctime: proto.Int64(fi.ModTime().UnixMilli()),
		OwnerName: proto.String(o.user), GroupName: proto.String(o.group),
		Perms: &hdfspb.FsPermissionProto{Perm: proto.Uint32(uint32(fi.Mode().Perm()))}}
	if fi.IsDir() {
		typ = hdfspb.INodeType_I_TYPE_DIRECTORY
	} else {
		m.Replication = proto.Int32(1)
		m.Overwrite = proto.Bool(overwrite)
		m.DefaultBlockSize = proto.Int64(nn.opts.BlockSize)
	}
	m.Type = typ.Enum()
	nn.edits.append(event(hdfspb.EventType_EVENT_CREATE, m))
}

// logClose logs a file closed by its writer (OP_CLOSE).
func (nn *namenode) logClose(rel string, fi fs.FileInfo) {
	nn.edits.append(event(hdfspb.EventType_EVENT_CLOSE, &hdfspb.CloseEventProto{Path: proto.String(hdfsPath(rel)),
		FileSize: proto.Int64(fi.Size()), Timestamp: proto.Int64(fi.ModTime().UnixMilli())}))
}

// logRename logs a rename (OP_RENAME_OLD or OP_RENAME).
func (nn *namenode) logRename(src, dst string) {
	nn.edits.append(event(hdfspb.EventType_EVENT_RENAME, &hdfspb.RenameEventProto{SrcPath: proto.String(hdfsPath(src)),
		DestPath: proto.String(hdfsPath(dst)), Timestamp: proto.Int64(nn.opts.Now().UnixMilli())}))
}

// logUnlink logs a delete (OP_DELETE).
func (nn *namenode) logUnlink(rel string) {
	nn.edits.append(event(hdfspb.EventType_EVENT_UNLINK, &hdfspb.UnlinkEventProto{Path: proto.String(hdfsPath(rel)),
		Timestamp: proto.Int64(nn.opts.Now().UnixMilli())}))
}

// logAppend logs a file reopened for append (OP_APPEND).
func (nn *namenode) logAppend(rel string) {
	nn.edits.append(event(hdfspb.EventType_EVENT_APPEND, &hdfspb.AppendEventProto{Path: proto.String(hdfsPath(rel))}))
}

// logTruncate logs a truncate (OP_TRUNCATE).
func (nn *namenode) logTruncate(rel string, size int64) {
	nn.edits.append(event(hdfspb.EventType_EVENT_TRUNCATE, &hdfspb.TruncateEventProto{Path: proto.String(hdfsPath(rel)),
		FileSize: proto.Int64(size), Timestamp: proto.Int64(nn.opts.Now().UnixMilli())}))
}

// logMetadata logs a change of times, owner or permission (OP_TIMES,
// OP_SET_OWNER, OP_SET_PERMISSIONS) with what m says of it.
func (nn *namenode) logMetadata(rel string, m *hdfspb.MetadataUpdateEventProto) {
	m.Path = proto.String(hdfsPath(rel))
	nn.edits.append(event(hdfspb.EventType_EVENT_METADATA, m))
}

// hdfsPath is the absolute HDFS path of rel.
func hdfsPath(rel string) string {
	if rel == "." {
		return "/"
	}
	return "/" + rel
}

// checkSuperuser refuses a caller who is not an HDFS superuser, as
// FSNamesystem.checkSuperuserPrivilege does (nobody is refused with
// dfs.permissions.enabled=false).
func (nn *namenode) checkSuperuser(call *ipc.Call) error {
	if !nn.permissions {
		return nil
	}
	who := nn.caller(call)
	if nn.superuser(who) {
		return nil
	}
	return ipc.Errorf(ipc.AccessControlException, "Access denied for user %s. Superuser privilege is required", who.user)
}

// getCurrentEditLogTxid returns the last transaction written, to
// superusers only (NameNodeRpcServer.getCurrentEditLogTxid).
func (nn *namenode) getCurrentEditLogTxid(_ context.Context, call *ipc.Call, _ *hdfspb.GetCurrentEditLogTxidRequestProto) (*hdfspb.GetCurrentEditLogTxidResponseProto, error) {
	if err := nn.checkSuperuser(call); err != nil {
		return nil, err
	}
	nn.edits.mu.Lock()
	defer nn.edits.mu.Unlock()
	return &hdfspb.GetCurrentEditLogTxidResponseProto{Txid: proto.Int64(nn.edits.last)}, nil
}

// getEditsFromTxid reads the edit stream, to superusers only
// (NameNodeRpcServer.getEditsFromTxid).
func (nn *namenode) getEditsFromTxid(_ context.Context, call *ipc.Call, req *hdfspb.GetEditsFromTxidRequestProto) (*hdfspb.GetEditsFromTxidResponseProto, error) {
	if err := nn.checkSuperuser(call); err != nil {
		return nil, err
	}
	maxEvents := DefaultInotifyMaxEvents
	if v, err := strconv.Atoi(nn.opts.Conf[InotifyMaxEventsKey]); err == nil && v > 0 {
		maxEvents = v
	}
	return &hdfspb.GetEditsFromTxidResponseProto{EventsList: nn.edits.read(req.GetTxid(), maxEvents)}, nil
}

// LastTxid returns the id of the last transaction of the edit stream.
func (m *MiniDFS) LastTxid() int64 {
	m.nn.edits.mu.Lock()
	defer m.nn.edits.mu.Unlock()
	return m.nn.edits.last
}

// PurgeEdits drops the transactions of the edit stream up to and
// including txid, as a NameNode purges old edit segments after a
// checkpoint (beyond dfs.namenode.num.extra.edits.retained): a reader
// asking for one of them is answered from the first one kept.
func (m *MiniDFS) PurgeEdits(txid int64) { m.nn.edits.purge(txid) }
