package daemon_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/bundle/bundlerun"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow/wfrun"
)

// openFull opens a daemon with every component on (SLA service and periodic
// purge included, the defaults), without running it.
func openFull(t *testing.T) *daemon.Daemon {
	t.Helper()
	dir := t.TempDir()
	cfg, err := conf.Load(conf.Sources{ConfigDir: dir, LookupEnv: func(string) (string, bool) { return "", false },
		Flags: map[string]string{"gozie.db.url": "sqlite:" + filepath.Join(dir, "gozie.db"), "gozie.data.dir": dir}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	d, err := daemon.Open(context.Background(), daemon.Options{Config: cfg, Listener: ln})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Store.Close() })
	return d
}

// TestSafeModeHoldsNewWorkKinds: SAFEMODE holds the kinds registered as
// starting new work, which are exactly the list daemon.go kept by hand
// before the registrations said it.
func TestSafeModeHoldsNewWorkKinds(t *testing.T) {
	d := openFull(t)
	handKept := []store.TriggerKind{wfrun.KindActionStart, wfrun.KindActionRetry, coordrun.KindMaterialize,
		coordrun.KindStart, bundlerun.KindKickoff}
	slices.Sort(handKept)
	if got := d.Engine.NewWorkKinds(); !slices.Equal(got, handKept) {
		t.Fatalf("kinds that start new work: %v, want %v", got, handKept)
	}
	if err := d.REST.SetSystemMode(server.ModeSafe); err != nil {
		t.Fatal(err)
	}
	if got := d.Engine.Held(); !slices.Equal(got, handKept) {
		t.Fatalf("SAFEMODE holds %v, want %v", got, handKept)
	}
	if err := d.REST.SetSystemMode(server.ModeNormal); err != nil {
		t.Fatal(err)
	}
	if got := d.Engine.Held(); len(got) != 0 {
		t.Fatalf("NORMAL holds %v, want none", got)
	}
}

// Markers of the generated table of kinds in the engine's package doc.
const (
	kindTableStart = "GOZIE_UPDATE_DOC=1.\n//\n"
	kindTableEnd   = "package engine\n"
)

// TestEngineDocListsKinds: the table of kinds in the engine's package doc
// lists exactly the kinds a full server registers, with their properties.
// GOZIE_UPDATE_DOC=1 rewrites it.
func TestEngineDocListsKinds(t *testing.T) {
	d := openFull(t)
	want := engine.KindTable(d.Engine.Kinds())
	path := filepath.Join("..", "engine", "engine.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	i := strings.Index(text, kindTableStart)
	j := strings.Index(text, kindTableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no generated table of kinds (between %q and %q)", path, kindTableStart, kindTableEnd)
	}
	i += len(kindTableStart)
	if got := text[i:j]; got != want {
		if os.Getenv("GOZIE_UPDATE_DOC") == "1" {
			if err := os.WriteFile(path, []byte(text[:i]+want+text[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s lists the kinds\n%s\nbut the server registers\n%s\n(GOZIE_UPDATE_DOC=1 rewrites it)", path, got, want)
	}
}

// TestQueueDumpNamesRegisteredKinds: the kinds the admin queue dump shows are
// the registry's: every waiting trigger of a fresh server (the periodic
// purge's) is of a registered kind, named as registered.
func TestQueueDumpNamesRegisteredKinds(t *testing.T) {
	d := openFull(t)
	var ts []store.Trigger
	err := d.Store.Tx(context.Background(), func(x store.Tx) (err error) {
		ts, err = x.ListTriggers(context.Background(), false, 100)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) == 0 {
		t.Fatal("no waiting trigger: the periodic purge's is armed at open")
	}
	for _, tr := range ts {
		if !d.Engine.Registered(tr.Kind) {
			t.Errorf("queued trigger %s/%s is of no registered kind", tr.Kind, tr.EntityID)
		}
	}
}
