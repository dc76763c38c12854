package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/purge"
	"github.com/gozie/gozie/store"
)

// TestPurgeWiring checks that a server purges by default: the periodic
// purge runs once at start and re-arms itself an interval later, and
// PUT admin/purge answers as Oozie does; with gozie.purge.enabled=false
// no trigger is armed, and the admin endpoint still works.
func TestPurgeWiring(t *testing.T) {
	for _, enabled := range []bool{true, false} {
		dir := t.TempDir()
		flags := map[string]string{"gozie.db.url": "sqlite:" + filepath.Join(dir, "gozie.db"), "gozie.data.dir": dir,
			"gozie.purge.interval": "2h"}
		if !enabled {
			flags["gozie.purge.enabled"] = "false"
		}
		cfg, err := conf.Load(conf.Sources{ConfigDir: dir, LookupEnv: func(string) (string, bool) { return "", false }, Flags: flags})
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		d, err := daemon.Open(ctx, daemon.Options{Config: cfg, Listener: ln})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if d.Purge.Settings().Interval != 2*time.Hour || !d.Purge.Settings().OldCoordActions {
			t.Errorf("purge settings %+v do not follow the configuration", d.Purge.Settings())
		}
		started := time.Now()
		done := make(chan error, 1)
		go func() { done <- d.Run(ctx) }()

		trigger := func() (store.Trigger, error) {
			var tr store.Trigger
			err := d.Store.Tx(ctx, func(x store.Tx) (err error) { tr, err = x.GetTrigger(ctx, purge.Kind, purge.Entity); return })
			return tr, err
		}
		if enabled {
			deadline := time.Now().Add(10 * time.Second)
			for {
				tr, err := trigger()
				if err == nil && tr.LeaseOwner == "" && tr.DueAt.After(started.Add(time.Hour)) {
					break // the first run is over, the next one is due an interval later
				}
				if time.Now().After(deadline) {
					t.Fatalf("purge trigger after start: %+v %v", tr, err)
				}
				time.Sleep(10 * time.Millisecond) // polling a condition, with the deadline above
			}
		} else if _, err := trigger(); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("purge off, but its trigger: %v", err)
		}

		req, err := http.NewRequest(http.MethodPut, "http://"+ln.Addr().String()+"/oozie/v2/admin/purge?wf=30&limit=10&user.name="+cfg.UserName, nil) // an admin by default
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var answer map[string]any
		err = json.NewDecoder(resp.Body).Decode(&answer)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || answer["purge"] != "Purge command executed successfully" {
			t.Errorf("PUT admin/purge: %d %v %v", resp.StatusCode, answer, err)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
