package minihs2

import (
	"encoding/json"
	"strings"
	"sync"
	"time"
)

// The metastore's notification log, as DbNotificationListener writes it
// (hive.metastore.transactional.event.listeners): one event per change,
// numbered from 1, read back with get_next_notification and
// get_current_notificationEventId. MiniHS2 logs ADD_PARTITION, the event
// an HCatalog dataset waits for, whether the partition came through
// HiveServer2 or the metastore. Messages are Hive 3's JSON (format
// json-0.2, JSONMessageEncoder; JSONAddPartitionMessage's fields).

// Event types and message format of the log (MessageBuilder,
// JSONMessageEncoder.FORMAT).
const (
	EventAddPartition = "ADD_PARTITION"
	messageFormatJSON = "json-0.2"
)

// notificationEvent is one row of NOTIFICATION_LOG.
type notificationEvent struct {
	id      int64
	time    time.Time
	typ     string
	db, tbl string
	message string
}

// notificationLog is the log; its own lock, since it is written under the
// catalog's.
type notificationLog struct {
	mu     sync.Mutex
	server string // the metastore URI written into messages
	events []notificationEvent
}

// addPartitionMessage is JSONAddPartitionMessage's JSON.
type addPartitionMessage struct {
	Server           string              `json:"server"`
	ServicePrincipal string              `json:"servicePrincipal"`
	DB               string              `json:"db"`
	Table            string              `json:"table"`
	TableType        string              `json:"tableType"`
	Timestamp        int64               `json:"timestamp"`
	Partitions       []map[string]string `json:"partitions"`
}

// addPartitions logs the ADD_PARTITION event of parts added to t.
func (l *notificationLog) addPartitions(t table, parts []partition, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	msg := addPartitionMessage{Server: l.server, DB: t.db, Table: t.name, TableType: "MANAGED_TABLE", Timestamp: now.Unix()}
	if t.external {
		msg.TableType = "EXTERNAL_TABLE"
	}
	for _, p := range parts {
		kv := make(map[string]string, len(t.partCols))
		for i, c := range t.partCols {
			kv[strings.ToLower(c.name)] = p.values[i]
		}
		msg.Partitions = append(msg.Partitions, kv)
	}
	data, _ := json.Marshal(msg)
	l.events = append(l.events, notificationEvent{id: int64(len(l.events)) + 1, time: now, typ: EventAddPartition,
		db: t.db, tbl: t.name, message: string(data)})
}

// since returns the events after id, at most max of them (max ≤ 0: all),
// oldest first (ObjectStore.getNextNotification).
func (l *notificationLog) since(id int64, max int) []notificationEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	if id < 0 {
		id = 0
	}
	if id >= int64(len(l.events)) {
		return nil
	}
	out := l.events[id:]
	if max > 0 && len(out) > max {
		out = out[:max]
	}
	return append([]notificationEvent(nil), out...)
}

// current returns the id of the last event, 0 when there is none.
func (l *notificationLog) current() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int64(len(l.events))
}

func (l *notificationLog) setServer(uri string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.server = uri
}
