package yarn_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testproc"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// amModeEnv makes the test binary act as an ApplicationMaster inside a
// miniyarn container instead of running tests.
const amModeEnv = "GOZIE_YARN_TEST_AM_MODE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(amModeEnv); mode != "" {
		os.Exit(runTestAM(mode))
	}
	os.Exit(m.Run())
}

// runTestAM is the helper ApplicationMaster. Modes:
//
//	succeed     register, heartbeat, unregister SUCCEEDED
//	fail        register, unregister FAILED with a message
//	no-unreg    register, heartbeat, exit 0 without unregistering
//	run         register, then heartbeat until killed
func runTestAM(mode string) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	am, err := yarn.NewAMClientFromEnv(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "connect:", err)
		return 2
	}
	defer am.Close()
	reg, err := am.Register(ctx, "127.0.0.1", "")
	if err != nil {
		fmt.Fprintln(os.Stderr, "register:", err)
		return 2
	}
	fmt.Printf("registered queue=%s max=%d\n", reg.Queue, reg.MaxResource.MemoryMB)
	if err := am.Heartbeat(ctx, 0.5); err != nil {
		fmt.Fprintln(os.Stderr, "heartbeat:", err)
		return 2
	}
	switch mode {
	case "succeed":
		err = am.Unregister(ctx, yarn.FinalSucceeded, "all good", "http://127.0.0.1/history")
	case "fail":
		err = am.Unregister(ctx, yarn.FinalFailed, "action failed: exit code 7", "")
	case "no-unreg":
		return 0
	case "run":
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for range tick.C {
			if err := am.Heartbeat(ctx, 0.25); err != nil {
				fmt.Fprintln(os.Stderr, "heartbeat:", err)
				return 3
			}
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", mode)
		return 2
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "unregister:", err)
		return 2
	}
	return 0
}

func submitAM(t *testing.T, c *yarn.Client, mode string) yarn.ApplicationID {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return submit(t, c, "'"+exe+"' -test.run=^$ 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.Environment = yarn.EntryMap[string]{amModeEnv: mode}
	})
}

func TestApplicationMasterProtocol(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{}) // strict: only an unregistered AM succeeds
	c := newClient(t, rm.WebURL())
	tests := []struct {
		mode        string
		state       yarn.AppState
		final       yarn.FinalStatus
		diagnostics []string
	}{
		{"succeed", yarn.StateFinished, yarn.FinalSucceeded, []string{"all good"}},
		{"fail", yarn.StateFinished, yarn.FinalFailed, []string{"action failed: exit code 7"}},
		{"no-unreg", yarn.StateFailed, yarn.FinalFailed, []string{
			"failed 1 times due to AM Container for appattempt_", "exited with  exitCode: 0\nFailing this attempt.", "Failing the application.",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			id := submitAM(t, c, tc.mode)
			r := waitDone(t, c, id)
			if r.State != tc.state || r.FinalStatus != tc.final {
				t.Fatalf("ended %s/%s (diag %q), want %s/%s", r.State, r.FinalStatus, r.Diagnostics, tc.state, tc.final)
			}
			for _, d := range tc.diagnostics {
				if !strings.Contains(r.Diagnostics, d) {
					t.Errorf("diagnostics %q lack %q", r.Diagnostics, d)
				}
			}
		})
	}
}

func TestKillRunningApplicationMaster(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{})
	c := newClient(t, rm.WebURL())
	id := submitAM(t, c, "run")
	r := waitApp(t, c, id, "the AM to register and report progress", func(r yarn.AppReport) bool {
		return r.State == yarn.StateRunning && r.Progress == 25
	})
	if r.TrackingUI != yarn.TrackingAM {
		t.Errorf("running AM tracking UI %q", r.TrackingUI)
	}
	pgid := rm.ContainerProcessGroup(id)
	if pgid <= 0 {
		t.Fatal("no process group for the running AM")
	}
	if err := c.Kill(ctxT(t), id); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	r = waitDone(t, c, id)
	if r.State != yarn.StateKilled || r.FinalStatus != yarn.FinalKilled {
		t.Fatalf("after kill: %s/%s", r.State, r.FinalStatus)
	}
	testproc.WaitGroupGone(t, waitTimeout, pgid)
}

func TestAMClientRejectsBadTokens(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{})
	ctx := ctxT(t)
	forged := hadoop.Token{Identifier: []byte{0x0a, 0x00}, Password: []byte("not the password"), Kind: hadoop.KindAMRMToken}
	am, err := yarn.NewAMClient(ctx, rm.SchedulerAddr(), forged)
	if err == nil {
		_, err = am.Register(ctx, "h", "")
		am.Close()
	}
	if err == nil {
		t.Fatal("a forged AMRM token registered")
	}
	if _, err := yarn.NewAMClient(ctx, rm.SchedulerAddr(), hadoop.Token{}); err == nil {
		t.Error("an empty token was accepted")
	}
	if _, err := yarn.AMRMToken(t.TempDir() + "/missing"); err == nil {
		t.Error("AMRMToken of a missing file succeeded")
	}
	empty := t.TempDir() + "/tokens"
	if err := hadoop.WriteTokenFile(empty, &hadoop.Credentials{}, hadoop.TokenFormatWritable); err != nil {
		t.Fatal(err)
	}
	if _, err := yarn.AMRMToken(empty); err == nil || errors.Is(err, os.ErrNotExist) {
		t.Errorf("AMRMToken of a file without one: %v", err)
	}
}
