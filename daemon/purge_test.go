package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/purge"
	"github.com/gozie/gozie/store"
)

// TestPurgeWiring checks that a server purges by default: the periodic
// purge runs once at start and re-arms itself an interval later, and
// PUT admin/purge answers as Oozie does; with gozie.purge.enabled=false
// no trigger is armed, and the admin endpoint still works.
func TestPurgeWiring(t *testing.T) {
	for _, enabled := range []bool{true, false} {
		started := time.Now()
		s := serve(t, map[string]string{"gozie.purge.interval": "2h", "gozie.purge.enabled": strconv.FormatBool(enabled)})
		d := s.d
		if d.Purge.Settings().Interval != 2*time.Hour || !d.Purge.Settings().OldCoordActions {
			t.Errorf("purge settings %+v do not follow the configuration", d.Purge.Settings())
		}
		ctx := context.Background()
		trigger := func() (store.Trigger, error) {
			var tr store.Trigger
			err := d.Store.Tx(ctx, func(x store.Tx) (err error) { tr, err = x.GetTrigger(ctx, purge.Kind, purge.Entity); return })
			return tr, err
		}
		if enabled {
			// The first run is over when the next one is due an interval later.
			testwait.Poll{Timeout: 10 * time.Second, Every: 10 * time.Millisecond}.WaitForLast(t, "the first purge to end",
				func() (bool, string) {
					tr, err := trigger()
					return err == nil && tr.LeaseOwner == "" && tr.DueAt.After(started.Add(time.Hour)), fmt.Sprintf("%+v %v", tr, err)
				})
		} else if _, err := trigger(); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("purge off, but its trigger: %v", err)
		}

		// The user the server runs as is an admin by default.
		status, code, out := s.call(t, http.MethodPut, "/v2/admin/purge?wf=30&limit=10", s.cfg.UserName, "")
		var answer map[string]any
		err := json.Unmarshal([]byte(out), &answer)
		if err != nil || status != http.StatusOK || answer["purge"] != "Purge command executed successfully" {
			t.Errorf("PUT admin/purge: %d %s %v %v", status, code, answer, err)
		}
	}
}
