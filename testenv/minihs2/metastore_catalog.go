package minihs2

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/apache/thrift/lib/go/thrift"
	hms "github.com/beltran/gohive/hive_metastore"
)

// The metastore's catalog methods (ThriftHiveMetastore in Hive 3's
// hive_metastore.thrift), served over the HiveServer2 catalog of
// MetastoreOptions.Hive with gohive's generated argument and result
// structs, so the wire format is the IDL's. What they refuse, they refuse
// as HMSHandler and ObjectStore do: an unknown database or table is
// NoSuchObjectException "<catalog>.<db>.<table> table not found"
// (ObjectStore.ensureGetMTable), a missing partition NoSuchObjectException
// "partition values=[...]" (ObjectStore.getPartition), a filter on a
// column that is not a partition key MetaException "Specified key <k> is
// not a partitioning key for the table" (ExpressionTree.LeafNode).

// MetastoreCall is one catalog call the metastore served: the method and
// the user it ran as (the Kerberos principal, else the set_ugi user, else
// "" for the metastore's own user).
type MetastoreCall struct {
	Method, User string
}

// metaConn is one client connection's state.
type metaConn struct {
	remote   string
	kerberos bool
	caller   string // the Kerberos principal
	ugi      string // the set_ugi user (not under SASL)
}

func (mc *metaConn) user() string {
	if mc.kerberos {
		return mc.caller
	}
	return mc.ugi
}

// catalogHandler reads a call's arguments into args and returns its
// result struct.
type catalogHandler struct {
	args func() thrift.TStruct
	run  func(m *Metastore, mc *metaConn, args thrift.TStruct) thrift.TStruct
}

var catalogMethods = map[string]catalogHandler{
	"set_ugi": {func() thrift.TStruct { return hms.NewThriftHiveMetastoreSetUgiArgs() }, (*Metastore).setUGI},
	"get_partition": {func() thrift.TStruct { return hms.NewThriftHiveMetastoreGetPartitionArgs() },
		(*Metastore).getPartition},
	"get_partitions_by_filter": {func() thrift.TStruct { return hms.NewThriftHiveMetastoreGetPartitionsByFilterArgs() },
		(*Metastore).getPartitionsByFilter},
	"add_partition": {func() thrift.TStruct { return hms.NewThriftHiveMetastoreAddPartitionArgs() },
		(*Metastore).addPartition},
	"drop_partition": {func() thrift.TStruct { return hms.NewThriftHiveMetastoreDropPartitionArgs() },
		(*Metastore).dropPartition},
	"get_current_notificationEventId": {func() thrift.TStruct { return hms.NewThriftHiveMetastoreGetCurrentNotificationEventIdArgs() },
		(*Metastore).currentEventID},
	"get_next_notification": {func() thrift.TStruct { return hms.NewThriftHiveMetastoreGetNextNotificationArgs() },
		(*Metastore).nextNotification},
}

// callLog records the catalog calls (Metastore.Calls).
type callLog struct {
	mu    sync.Mutex
	calls []MetastoreCall
}

// Calls returns the catalog calls served so far, oldest first.
func (m *Metastore) Calls() []MetastoreCall {
	m.calls.mu.Lock()
	defer m.calls.mu.Unlock()
	return slices.Clone(m.calls.calls)
}

// serveCatalogCall reads the arguments of a catalog method, runs it and
// writes its reply.
func (m *Metastore) serveCatalogCall(ctx context.Context, prot thrift.TProtocol, mc *metaConn, name string, seq int32, h catalogHandler) error {
	args := h.args()
	if err := args.Read(ctx, prot); err != nil {
		return fmt.Errorf("reading %s's arguments: %w", name, err)
	}
	if err := prot.ReadMessageEnd(ctx); err != nil {
		return err
	}
	res := h.run(m, mc, args)
	m.calls.mu.Lock()
	m.calls.calls = append(m.calls.calls, MetastoreCall{Method: name, User: mc.user()})
	m.calls.mu.Unlock()
	if err := prot.WriteMessageBegin(ctx, name, thrift.REPLY, seq); err != nil {
		return err
	}
	if err := res.Write(ctx, prot); err != nil {
		return fmt.Errorf("writing %s's result: %w", name, err)
	}
	if err := prot.WriteMessageEnd(ctx); err != nil {
		return err
	}
	return prot.Flush(ctx)
}

// setUGI is set_ugi: without SASL it names the connection's user
// (TUGIBasedProcessor); the answer is the groups with the user added
// (HMSHandler.set_ugi).
func (m *Metastore) setUGI(mc *metaConn, a thrift.TStruct) thrift.TStruct {
	args := a.(*hms.ThriftHiveMetastoreSetUgiArgs)
	if !mc.kerberos {
		mc.ugi = args.UserName
	}
	return &hms.ThriftHiveMetastoreSetUgiResult{Success: append(slices.Clone(args.GroupNames), args.UserName)}
}

// tableNotFound is ensureGetMTable's NoSuchObjectException.
func tableNotFound(db, table string) *hms.NoSuchObjectException {
	return &hms.NoSuchObjectException{Message: fmt.Sprintf("hive.%s.%s table not found", strings.ToLower(db), strings.ToLower(table))}
}

// partitionStruct renders a partition as the metastore returns it.
func partitionStruct(t table, p partition) *hms.Partition {
	cols := make([]*hms.FieldSchema, len(t.cols))
	for i, c := range t.cols {
		cols[i] = &hms.FieldSchema{Name: strings.ToLower(c.name), Type: c.typ}
	}
	return &hms.Partition{Values: slices.Clone(p.values), DbName: t.db, TableName: t.name,
		CreateTime: int32(p.created.Unix()), Parameters: map[string]string{},
		Sd: &hms.StorageDescriptor{Cols: cols, Location: p.location,
			InputFormat:  "org.apache.hadoop.mapred.TextInputFormat",
			OutputFormat: "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
			SerdeInfo: &hms.SerDeInfo{SerializationLib: "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe",
				Parameters: map[string]string{"field.delim": t.fieldDelim, "serialization.format": t.fieldDelim}},
			Parameters: map[string]string{}}}
}

func (m *Metastore) getPartition(_ *metaConn, a thrift.TStruct) thrift.TStruct {
	args := a.(*hms.ThriftHiveMetastoreGetPartitionArgs)
	res := hms.NewThriftHiveMetastoreGetPartitionResult()
	t, ok := m.opts.Hive.cat.table(args.DbName, args.TblName)
	if !ok {
		res.O2 = tableNotFound(args.DbName, args.TblName)
		return res
	}
	p, ok := m.opts.Hive.cat.partition(t.db, t.name, args.PartVals)
	if !ok {
		res.O2 = &hms.NoSuchObjectException{Message: "partition values=[" + strings.Join(args.PartVals, ", ") + "]"}
		return res
	}
	res.Success = partitionStruct(t, p)
	return res
}

func (m *Metastore) getPartitionsByFilter(_ *metaConn, a thrift.TStruct) thrift.TStruct {
	args := a.(*hms.ThriftHiveMetastoreGetPartitionsByFilterArgs)
	res := hms.NewThriftHiveMetastoreGetPartitionsByFilterResult()
	t, ok := m.opts.Hive.cat.table(args.DbName, args.TblName)
	if !ok {
		res.O2 = tableNotFound(args.DbName, args.TblName)
		return res
	}
	f, err := parsePartitionFilter(args.Filter)
	if err != nil {
		res.O1 = &hms.MetaException{Message: err.Error()}
		return res
	}
	if err := f.check(t); err != nil {
		res.O1 = &hms.MetaException{Message: err.Error()}
		return res
	}
	res.Success = []*hms.Partition{}
	for _, p := range m.opts.Hive.cat.partitionsOf(t.db, t.name) {
		if args.MaxParts >= 0 && len(res.Success) >= int(args.MaxParts) {
			break
		}
		if f.match(t, p.values) {
			res.Success = append(res.Success, partitionStruct(t, p))
		}
	}
	return res
}

// addPartition is add_partition: the table must exist
// (InvalidObjectException), the values match its partition keys
// (MetaException) and the partition be new (AlreadyExistsException). The
// directory is made and an ADD_PARTITION event logged, as for ALTER TABLE
// ... ADD PARTITION.
func (m *Metastore) addPartition(_ *metaConn, a thrift.TStruct) thrift.TStruct {
	args := a.(*hms.ThriftHiveMetastoreAddPartitionArgs)
	res := hms.NewThriftHiveMetastoreAddPartitionResult()
	np := args.NewPart_
	if np == nil {
		res.O3 = &hms.MetaException{Message: "Partition cannot be null."}
		return res
	}
	t, ok := m.opts.Hive.cat.table(np.DbName, np.TableName)
	if !ok {
		res.O1 = &hms.InvalidObjectException{Message: "Unable to add partition because table or database do not exist"}
		return res
	}
	if len(np.Values) != len(t.partCols) {
		keys := make([]string, len(t.partCols))
		for i, c := range t.partCols {
			keys[i] = strings.ToLower(c.name)
		}
		res.O3 = &hms.MetaException{Message: fmt.Sprintf("Invalid partition key & values; keys [%s], values [%s]",
			strings.Join(keys, ", "), strings.Join(np.Values, ", "))}
		return res
	}
	p := partition{values: slices.Clone(np.Values)}
	if np.Sd != nil {
		p.location = np.Sd.Location
	}
	added, err := m.opts.Hive.addPartitions(m.ctx, t, []partition{p}, false)
	var he *hiveError
	switch {
	case errors.As(err, &he) && strings.Contains(he.msg, "AlreadyExistsException"):
		res.O2 = &hms.AlreadyExistsException{Message: "Partition already exists: " + partName(t.partCols, p.values)}
	case err != nil:
		res.O3 = &hms.MetaException{Message: err.Error()}
	default:
		res.Success = partitionStruct(t, added[0])
	}
	return res
}

func (m *Metastore) currentEventID(*metaConn, thrift.TStruct) thrift.TStruct {
	return &hms.ThriftHiveMetastoreGetCurrentNotificationEventIdResult{
		Success: &hms.CurrentNotificationEventId{EventId: m.opts.Hive.cat.log.current()}}
}

func (m *Metastore) nextNotification(_ *metaConn, a thrift.TStruct) thrift.TStruct {
	args := a.(*hms.ThriftHiveMetastoreGetNextNotificationArgs)
	resp := &hms.NotificationEventResponse{Events: []*hms.NotificationEvent{}}
	if args.Rqst != nil {
		max := 0
		if args.Rqst.MaxEvents != nil {
			max = int(*args.Rqst.MaxEvents)
		}
		for _, e := range m.opts.Hive.cat.log.since(args.Rqst.LastEvent, max) {
			if slices.Contains(args.Rqst.EventTypeSkipList, e.typ) {
				continue
			}
			db, tbl, format, cat := e.db, e.tbl, messageFormatJSON, "hive"
			resp.Events = append(resp.Events, &hms.NotificationEvent{EventId: e.id, EventTime: int32(e.time.Unix()),
				EventType: e.typ, DbName: &db, TableName: &tbl, Message: e.message, MessageFormat: &format, CatName: &cat})
		}
	}
	return &hms.ThriftHiveMetastoreGetNextNotificationResult{Success: resp}
}

// dropPartition is drop_partition: the partition must exist
// (NoSuchObjectException "partition values=[...]", ObjectStore.getPartition);
// with deleteData a managed table's partition directory goes too
// (HMSHandler.drop_partition_common).
func (m *Metastore) dropPartition(_ *metaConn, a thrift.TStruct) thrift.TStruct {
	args := a.(*hms.ThriftHiveMetastoreDropPartitionArgs)
	res := hms.NewThriftHiveMetastoreDropPartitionResult()
	t, ok := m.opts.Hive.cat.table(args.DbName, args.TblName)
	if !ok {
		res.O1 = tableNotFound(args.DbName, args.TblName)
		return res
	}
	p, ok := m.opts.Hive.cat.dropPartition(t.db, t.name, args.PartVals)
	if !ok {
		res.O1 = &hms.NoSuchObjectException{Message: "partition values=[" + strings.Join(args.PartVals, ", ") + "]"}
		return res
	}
	if args.DeleteData && !t.external {
		if err := m.opts.Hive.opts.FS.RemoveAll(m.ctx, p.location); err != nil {
			res.O2 = &hms.MetaException{Message: fmt.Sprintf("Got exception: %v", err)}
			return res
		}
	}
	done := true
	res.Success = &done
	return res
}
