package metastore

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	hms "github.com/beltran/gohive/hive_metastore"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hcat"
)

// Event types and message formats the watcher reads (Hive's
// MessageBuilder; JSONMessageEncoder "json-0.2" in Hive 3,
// GzipJSONMessageEncoder "gzip(json-2.0)" in Hive 4).
const (
	eventAddPartition = "ADD_PARTITION"
	gzipFormatPrefix  = "gzip"
	// DefaultPollInterval is how often each metastore waited on is asked
	// for new events.
	DefaultPollInterval = time.Second
	// eventBatch is how many events one poll reads at most.
	eventBatch = 1000
	// forgetAfter drops a URI no input check has asked about for this
	// long (its action was killed, timed out or found it by polling
	// elsewhere); a waiting action asks at least every
	// gozie.coord.input-check.max-interval.
	forgetAfter = 24 * time.Hour
)

// NotifyFunc wakes the actions waiting on a dataset URI (the coordinator
// engine's Notify); it returns how many there were.
type NotifyFunc func(ctx context.Context, uri string) (int, error)

// Datasets checks hcat:// dataset URIs and watches the metastores they
// name: Exists registers the URI with its metastore's watch before it asks
// (so an event that lands between the two is not missed) and forgets it
// once it exists; Run polls every watched metastore's notification log and
// calls the notify function for each registered URI an ADD_PARTITION
// event matches, then forgets it (and any URI no check asked about for a
// day). A URI registered on one gozie server is watched by that server;
// the input check's own polling remains the fallback (a metastore without
// DbNotificationListener has no events).
type Datasets struct {
	client   *Client
	interval time.Duration
	log      *slog.Logger

	mu      sync.Mutex
	notify  NotifyFunc
	servers map[string]*watch // by the URIs' server (authority)
}

// watch is one metastore's place in its notification log and the URIs
// waited on there, with when each was last asked about. A metastore with
// no URI left is dropped, so a later watch starts at the log's end rather
// than read a backlog.
type watch struct {
	server hcat.URI
	last   int64
	uris   map[string]watched
}

type watched struct {
	uri   hcat.URI
	asked time.Time
}

// NewDatasets returns a Datasets over client; interval 0 means
// DefaultPollInterval.
func NewDatasets(client *Client, interval time.Duration, log *slog.Logger) *Datasets {
	if interval <= 0 {
		interval = DefaultPollInterval
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Datasets{client: client, interval: interval, log: log, servers: map[string]*watch{}}
}

// SetNotify sets the function events wake actions through.
func (d *Datasets) SetNotify(f NotifyFunc) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.notify = f
}

// Exists reports whether the partitions of an hcat:// URI exist, asked as
// ctx's user (hadoop.AsUser). While they do not, the URI is watched.
func (d *Datasets) Exists(ctx context.Context, uri string) (bool, error) {
	u, err := hcat.Parse(uri)
	if err != nil {
		return false, err
	}
	if err := d.watch(ctx, u); err != nil {
		d.log.Warn("hcat: cannot follow the metastore's notifications; the input check's polling remains", "uri", uri, "err", err)
	}
	ok, err := d.client.Exists(ctx, hadoop.EffectiveUser(ctx), u)
	if ok || err != nil {
		d.forget(u)
	}
	return ok, err
}

// Delete drops the partitions of an hcat:// URI, as ctx's user.
func (d *Datasets) Delete(ctx context.Context, uri string) error {
	u, err := hcat.Parse(uri)
	if err != nil {
		return err
	}
	return d.client.DropPartitions(ctx, hadoop.EffectiveUser(ctx), u)
}

// watch registers u, starting its metastore's watch at the log's current
// event when it is the first URI there.
func (d *Datasets) watch(ctx context.Context, u hcat.URI) error {
	d.mu.Lock()
	w, ok := d.servers[u.Server]
	if ok {
		w.uris[u.Raw] = watched{u, time.Now()}
		d.mu.Unlock()
		return nil
	}
	d.mu.Unlock()
	id, err := d.client.CurrentEventID(ctx, u)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if w, ok = d.servers[u.Server]; !ok {
		w = &watch{server: u, last: id, uris: map[string]watched{}}
		d.servers[u.Server] = w
	}
	w.uris[u.Raw] = watched{u, time.Now()}
	return nil
}

func (d *Datasets) forget(u hcat.URI) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if w, ok := d.servers[u.Server]; ok {
		delete(w.uris, u.Raw)
		d.dropIfIdle(w)
	}
}

// dropIfIdle drops a watch with no URI left; d.mu is held.
func (d *Datasets) dropIfIdle(w *watch) {
	if len(w.uris) == 0 && d.servers[w.server.Server] == w {
		delete(d.servers, w.server.Server)
	}
}

// Watched returns the URIs being watched (for tests and diagnostics).
func (d *Datasets) Watched() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, w := range d.servers {
		for raw := range w.uris {
			out = append(out, raw)
		}
	}
	return out
}

// Run polls the watched metastores every interval until ctx ends.
func (d *Datasets) Run(ctx context.Context) {
	t := time.NewTicker(d.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		d.Poll(ctx)
	}
}

// Poll reads each watched metastore's new events once and wakes the
// actions waiting on the partitions they added.
func (d *Datasets) Poll(ctx context.Context) {
	d.mu.Lock()
	var ws []*watch
	stale := time.Now().Add(-forgetAfter)
	for _, w := range d.servers {
		for raw, x := range w.uris {
			if x.asked.Before(stale) {
				delete(w.uris, raw)
			}
		}
		d.dropIfIdle(w)
		if len(w.uris) > 0 {
			ws = append(ws, w)
		}
	}
	d.mu.Unlock()
	for _, w := range ws {
		if err := d.pollOne(ctx, w); err != nil && ctx.Err() == nil {
			d.log.Warn("hcat: reading the metastore's notifications", "server", w.server.Server, "err", err)
		}
	}
}

func (d *Datasets) pollOne(ctx context.Context, w *watch) error {
	d.mu.Lock()
	after := w.last
	d.mu.Unlock()
	events, err := d.client.NextEvents(ctx, w.server, after, eventBatch, nil)
	if err != nil {
		return err
	}
	var woken []string
	for _, e := range events {
		woken = append(woken, d.matches(w, e)...)
		after = max(after, e.EventId)
	}
	d.mu.Lock()
	w.last = max(w.last, after)
	notify := d.notify
	d.mu.Unlock()
	for _, uri := range woken {
		if notify == nil {
			continue
		}
		n, err := notify(ctx, uri)
		if err != nil {
			return fmt.Errorf("waking the actions waiting on %s: %w", uri, err)
		}
		d.log.Info("hcat partition added", "uri", uri, "actions", n)
	}
	return nil
}

// matches returns (and forgets) the watched URIs an ADD_PARTITION event
// satisfies.
func (d *Datasets) matches(w *watch, e *hms.NotificationEvent) []string {
	if e.EventType != eventAddPartition {
		return nil
	}
	msg, err := decodeAddPartition(e)
	if err != nil {
		d.log.Warn("hcat: unreadable ADD_PARTITION event", "event_id", e.EventId, "err", err)
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for raw, x := range w.uris {
		for _, p := range msg.Partitions {
			if x.uri.Matches(msg.DB, msg.Table, p) {
				out = append(out, raw)
				delete(w.uris, raw)
				break
			}
		}
	}
	d.dropIfIdle(w)
	return out
}

// addPartitionMessage holds the fields of Hive's JSONAddPartitionMessage
// the watcher reads.
type addPartitionMessage struct {
	DB         string              `json:"db"`
	Table      string              `json:"table"`
	Partitions []map[string]string `json:"partitions"`
}

// decodeAddPartition reads an event's message: JSON, or base64 of gzipped
// JSON for the gzip formats.
func decodeAddPartition(e *hms.NotificationEvent) (addPartitionMessage, error) {
	var msg addPartitionMessage
	data := []byte(e.Message)
	if e.MessageFormat != nil && strings.HasPrefix(*e.MessageFormat, gzipFormatPrefix) {
		raw, err := base64.StdEncoding.DecodeString(e.Message)
		if err != nil {
			return msg, fmt.Errorf("decoding base64: %w", err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return msg, fmt.Errorf("gunzip: %w", err)
		}
		if data, err = io.ReadAll(io.LimitReader(zr, 64<<20)); err != nil {
			return msg, fmt.Errorf("gunzip: %w", err)
		}
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		return msg, err
	}
	if msg.DB == "" && e.DbName != nil {
		msg.DB = *e.DbName
	}
	if msg.Table == "" && e.TableName != nil {
		msg.Table = *e.TableName
	}
	return msg, nil
}
