package hadoop

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2/hadoopconf"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/minidfs"
)

// syncBuffer is a log sink safe for the servers' goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) count(s string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Count(b.buf.String(), s)
}

// TestResolverWaitsForAnActiveNameNode: a call made while both NameNodes
// are standby (the moment of a failover between them) is refused by every
// entry of the client's NameNode list, then tried again with the policy's
// waits until a NameNode becomes active, and succeeds, as Hadoop's
// client fails over; colinmarc alone would have failed at once.
func TestResolverWaitsForAnActiveNameNode(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), HA: true, Superuser: "gozie",
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	conf := hadoopconf.HadoopConf{FailoverMaxAttemptsKey: "60", FailoverSleepBaseKey: "100", FailoverSleepMaxKey: "500"}
	for k, v := range m.ClientConf() {
		conf[k] = v
	}
	r, err := NewResolver(ResolverConfig{DefaultFS: m.URI(), Conf: conf, User: "gozie"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := m.TransitionToStandby(0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- r.MkdirAll(ctx, "/late", 0o755) }()

	// Every entry of the list refused the call once: the first attempt
	// failed as a whole.
	const refused = "a standby NameNode refused a call"
	testwait.Poll{Timeout: 30 * time.Second, Every: 10 * time.Millisecond}.WaitForLast(t,
		fmt.Sprintf("%d refusals logged", failoverEntries), func() (bool, string) {
			select {
			case err := <-done:
				t.Fatalf("MkdirAll ended while no NameNode was active: %v", err)
			default:
			}
			n := logs.count(refused)
			return n >= failoverEntries, fmt.Sprintf("%d logged", n)
		})
	if err := m.TransitionToActive(1); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("MkdirAll once nn2 became active: %v", err)
	}
	if fi, err := r.Stat(ctx, "/late"); err != nil || !fi.IsDir {
		t.Errorf("Stat(/late) = %+v, %v", fi, err)
	}
}

func TestFailoverAddresses(t *testing.T) {
	t.Parallel()
	got := failoverAddresses([]string{"a:1", "b:2", "c:3"})
	if len(got) < failoverEntries || got[0] != "a:1" || got[1] != "b:2" || got[2] != "c:3" || got[3] != "a:1" {
		t.Errorf("failoverAddresses = %v", got)
	}
}
