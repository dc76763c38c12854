package hadoop

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gozie/gozie/hadoop/hadooppb/hdfspb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/proto"
)

// EditEventType names an event of the NameNode's edit stream, as HDFS
// inotify's Event.EventType does.
type EditEventType string

// The events of HDFS inotify (hdfs/inotify/Event.java): a file written by a
// client is a CREATE then a CLOSE; a rename is one RENAME.
const (
	EditCreate   EditEventType = "CREATE"
	EditClose    EditEventType = "CLOSE"
	EditAppend   EditEventType = "APPEND"
	EditRename   EditEventType = "RENAME"
	EditMetadata EditEventType = "METADATA"
	EditUnlink   EditEventType = "UNLINK"
	EditTruncate EditEventType = "TRUNCATE"
)

// EditEvent is one event of a transaction of the edit stream.
type EditEvent struct {
	Txid int64
	Type EditEventType
	// Path is the path the event is about (a rename's source).
	Path string
	// Dest is a rename's destination.
	Dest string
	// Size is a closed or truncated file's length.
	Size int64
	// Time is when it happened, where the event says (create, close,
	// rename, unlink, truncate).
	Time time.Time
	// Dir reports a CREATE of a directory.
	Dir bool
}

// EditBatch answers one read of the edit stream: the events of the
// transactions from FirstTxid to LastTxid (both -1 when nothing was read)
// and the last transaction the NameNode has synced.
type EditBatch struct {
	FirstTxid, LastTxid, SyncTxid int64
	Events                        []EditEvent
}

// ErrMissingEvents reports a read of the edit stream that did not start at
// the transaction asked for: the NameNode no longer keeps the edits in
// between (they were purged), so events were lost, as HDFS's
// DFSInotifyEventInputStream reports with a MissingEventsException.
var ErrMissingEvents = errors.New("hadoop: edits of the NameNode's edit stream are missing (purged)")

// CurrentEditLogTxid returns the last transaction id the active NameNode of
// uri's filesystem has written (-1 while its edit log is not open for
// writing), as the Resolver's own identity. Only HDFS superusers may ask
// (AccessControlException otherwise, which errors.Is matches with
// fs.ErrPermission).
func (r *Resolver) CurrentEditLogTxid(ctx context.Context, uri string) (int64, error) {
	loc, err := r.parse(uri)
	if err != nil {
		return 0, err
	}
	if loc.scheme != "hdfs" {
		return 0, fmt.Errorf("hadoop: %s has no edit stream (not HDFS)", uri)
	}
	resp := &hdfspb.GetCurrentEditLogTxidResponseProto{}
	if err := r.nameNodeCall(ctx, loc.authority, "", "getCurrentEditLogTxid", &hdfspb.GetCurrentEditLogTxidRequestProto{}, resp); err != nil {
		return 0, fmt.Errorf("hadoop: the current transaction of hdfs://%s: %w", loc.authority, err)
	}
	return resp.GetTxid(), nil
}

// EditsFromTxid reads the edit stream of uri's filesystem from transaction
// txid on (at most the NameNode's dfs.namenode.inotify.max.events.per.rpc
// events), as the Resolver's own identity, who must be an HDFS superuser.
// When the NameNode no longer keeps txid, the batch it answers starts
// later; EditsFromTxid then returns it with an error matching
// ErrMissingEvents.
func (r *Resolver) EditsFromTxid(ctx context.Context, uri string, txid int64) (EditBatch, error) {
	loc, err := r.parse(uri)
	if err != nil {
		return EditBatch{}, err
	}
	if loc.scheme != "hdfs" {
		return EditBatch{}, fmt.Errorf("hadoop: %s has no edit stream (not HDFS)", uri)
	}
	return editsFromTxid(ctx, loc.authority, txid, func(req, resp proto.Message) error {
		return r.nameNodeCall(ctx, loc.authority, "", "getEditsFromTxid", req, resp)
	})
}

// editsFromTxid makes a getEditsFromTxid call with call and decodes it.
func editsFromTxid(ctx context.Context, authority string, txid int64, call func(req, resp proto.Message) error) (EditBatch, error) {
	resp := &hdfspb.GetEditsFromTxidResponseProto{}
	req := &hdfspb.GetEditsFromTxidRequestProto{Txid: proto.Int64(txid)}
	if err := call(req, resp); err != nil {
		return EditBatch{}, fmt.Errorf("hadoop: the edits of hdfs://%s from transaction %d: %w", authority, txid, err)
	}
	b, err := DecodeEditBatch(resp.GetEventsList())
	if err != nil {
		return EditBatch{}, fmt.Errorf("hadoop: the edits of hdfs://%s from transaction %d: %w", authority, txid, err)
	}
	if b.LastTxid != -1 && b.FirstTxid != txid {
		return b, fmt.Errorf("hadoop: hdfs://%s: asked from transaction %d, the NameNode answered from %d: %w",
			authority, txid, b.FirstTxid, ErrMissingEvents)
	}
	return b, nil
}

// EditStream reads the edit stream of one HDFS filesystem over one kept
// connection to its active NameNode, as the Resolver's own identity: a
// follower reading several times a second would otherwise authenticate
// (Kerberos included) at every read. A connection that fails, or a
// NameNode that turns standby, is dropped and the NameNodes of the
// filesystem tried again in order at the next call.
type EditStream struct {
	r         *Resolver
	authority string

	mu sync.Mutex
	c  *ipc.Client
}

// EditStream returns the edit stream of uri's filesystem (hdfs:// only).
func (r *Resolver) EditStream(uri string) (*EditStream, error) {
	loc, err := r.parse(uri)
	if err != nil {
		return nil, err
	}
	if loc.scheme != "hdfs" {
		return nil, fmt.Errorf("hadoop: %s has no edit stream (not HDFS)", uri)
	}
	return &EditStream{r: r, authority: loc.authority}, nil
}

// CurrentEditLogTxid is Resolver.CurrentEditLogTxid on the kept
// connection.
func (s *EditStream) CurrentEditLogTxid(ctx context.Context) (int64, error) {
	resp := &hdfspb.GetCurrentEditLogTxidResponseProto{}
	if err := s.call(ctx, "getCurrentEditLogTxid", &hdfspb.GetCurrentEditLogTxidRequestProto{}, resp); err != nil {
		return 0, fmt.Errorf("hadoop: the current transaction of hdfs://%s: %w", s.authority, err)
	}
	return resp.GetTxid(), nil
}

// EditsFromTxid is Resolver.EditsFromTxid on the kept connection.
func (s *EditStream) EditsFromTxid(ctx context.Context, txid int64) (EditBatch, error) {
	return editsFromTxid(ctx, s.authority, txid, func(req, resp proto.Message) error {
		return s.call(ctx, "getEditsFromTxid", req, resp)
	})
}

// Close drops the connection.
func (s *EditStream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == nil {
		return nil
	}
	err := s.c.Close()
	s.c = nil
	return err
}

// call makes one call on the kept connection, or finds the active
// NameNode when there is none (or it failed): the answer of an active
// NameNode, refusals included, keeps the connection.
func (s *EditStream) call(ctx context.Context, method string, req, resp proto.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c != nil {
		err := s.c.Call(ctx, method, req, resp)
		if activeAnswer(err) {
			return err
		}
		s.c.Close()
		s.c = nil
		if ctx.Err() != nil {
			return err
		}
	}
	addrs, err := NameNodes(s.r.cfg.Conf, s.authority)
	if err != nil {
		return err
	}
	var errs []error
	for _, addr := range addrs {
		opts := s.r.nameNodeOptions(addr, "")
		c, err := ipc.Dial(ctx, opts)
		if err == nil {
			// A refusal of SIMPLE is no active NameNode's answer: the
			// connection is closed, the error says what to configure.
			err = s.r.simpleRefused(addr, opts, c.Call(ctx, method, req, resp))
			if activeAnswer(err) {
				s.c = c
				return err
			}
			c.Close()
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
		if ctx.Err() != nil {
			break
		}
	}
	return errors.Join(errs...)
}

// activeAnswer reports an answer of an active NameNode: a result or a
// remote error other than StandbyException.
func activeAnswer(err error) bool {
	var re *ipc.RemoteError
	return err == nil || (errors.As(err, &re) && re.Class != ipc.StandbyException)
}

// DecodeEditBatch turns a getEditsFromTxid answer into an EditBatch.
func DecodeEditBatch(l *hdfspb.EventsListProto) (EditBatch, error) {
	b := EditBatch{FirstTxid: l.GetFirstTxid(), LastTxid: l.GetLastTxid(), SyncTxid: l.GetSyncTxid()}
	for _, batch := range l.GetBatch() {
		for _, e := range batch.GetEvents() {
			ev, err := decodeEditEvent(batch.GetTxid(), e)
			if err != nil {
				return EditBatch{}, err
			}
			b.Events = append(b.Events, ev)
		}
	}
	return b, nil
}

// decodeEditEvent decodes one event of transaction txid.
func decodeEditEvent(txid int64, e *hdfspb.EventProto) (EditEvent, error) {
	ev := EditEvent{Txid: txid}
	var err error
	c := e.GetContents()
	switch e.GetType() {
	case hdfspb.EventType_EVENT_CREATE:
		m := &hdfspb.CreateEventProto{}
		err = proto.Unmarshal(c, m)
		ev.Type, ev.Path, ev.Time, ev.Dir = EditCreate, m.GetPath(), time.UnixMilli(m.GetCtime()), m.GetType() == hdfspb.INodeType_I_TYPE_DIRECTORY
	case hdfspb.EventType_EVENT_CLOSE:
		m := &hdfspb.CloseEventProto{}
		err = proto.Unmarshal(c, m)
		ev.Type, ev.Path, ev.Size, ev.Time = EditClose, m.GetPath(), m.GetFileSize(), time.UnixMilli(m.GetTimestamp())
	case hdfspb.EventType_EVENT_APPEND:
		m := &hdfspb.AppendEventProto{}
		err = proto.Unmarshal(c, m)
		ev.Type, ev.Path = EditAppend, m.GetPath()
	case hdfspb.EventType_EVENT_RENAME:
		m := &hdfspb.RenameEventProto{}
		err = proto.Unmarshal(c, m)
		ev.Type, ev.Path, ev.Dest, ev.Time = EditRename, m.GetSrcPath(), m.GetDestPath(), time.UnixMilli(m.GetTimestamp())
	case hdfspb.EventType_EVENT_METADATA:
		m := &hdfspb.MetadataUpdateEventProto{}
		err = proto.Unmarshal(c, m)
		ev.Type, ev.Path = EditMetadata, m.GetPath()
	case hdfspb.EventType_EVENT_UNLINK:
		m := &hdfspb.UnlinkEventProto{}
		err = proto.Unmarshal(c, m)
		ev.Type, ev.Path, ev.Time = EditUnlink, m.GetPath(), time.UnixMilli(m.GetTimestamp())
	case hdfspb.EventType_EVENT_TRUNCATE:
		m := &hdfspb.TruncateEventProto{}
		err = proto.Unmarshal(c, m)
		ev.Type, ev.Path, ev.Size, ev.Time = EditTruncate, m.GetPath(), m.GetFileSize(), time.UnixMilli(m.GetTimestamp())
	default:
		return EditEvent{}, fmt.Errorf("event of transaction %d: unknown type %d", txid, e.GetType())
	}
	if err != nil {
		return EditEvent{}, fmt.Errorf("%s event of transaction %d: %w", ev.Type, txid, err)
	}
	return ev, nil
}
