package yarn_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// fastAMRetry keeps trying for a minute with short pauses.
var fastAMRetry = yarn.AMRetry{MaxWait: time.Minute, Interval: 10 * time.Millisecond,
	FailoverBase: 10 * time.Millisecond, FailoverMax: 20 * time.Millisecond}

// waitingAttempt submits an application whose container copies its token
// file out and sleeps, and returns the application and its AMRM token.
func waitingAttempt(t *testing.T, rm *miniyarn.RM) (yarn.ApplicationID, hadoop.Token) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "tokens")
	id := submit(t, newClient(t, rm.WebURL()), `cp "$HADOOP_TOKEN_FILE_LOCATION" "$TOKENS_COPY.tmp" && mv "$TOKENS_COPY.tmp" "$TOKENS_COPY"; exec sleep 300`,
		func(sc *yarn.ApplicationSubmissionContext) {
			sc.AMContainerSpec.Environment = yarn.EntryMap[string]{"TOKENS_COPY": out}
		})
	testwait.Poll{Timeout: waitTimeout, Every: 10 * time.Millisecond}.WaitFor(t, "the container to copy its token file",
		func() bool { _, err := os.Stat(out); return err == nil })
	tok, err := yarn.AMRMToken(out)
	if err != nil {
		t.Fatal(err)
	}
	return id, tok
}

// registeredAM dials the RM's schedulers with tok and registers.
func registeredAM(t *testing.T, rm *miniyarn.RM, tok hadoop.Token, retry yarn.AMRetry) *yarn.AMClient {
	t.Helper()
	am, err := yarn.DialAM(ctxT(t), yarn.AMConfig{SchedulerAddrs: rm.SchedulerAddrs(), Token: tok, Retry: retry})
	if err != nil {
		t.Fatalf("DialAM: %v", err)
	}
	t.Cleanup(func() { am.Close() })
	if _, err := am.Register(ctxT(t), "127.0.0.1", ""); err != nil {
		t.Fatalf("Register: %v", err)
	}
	return am
}

func appState(t *testing.T, rm *miniyarn.RM, id yarn.ApplicationID) yarn.AppReport {
	t.Helper()
	r, ok := rm.App(id)
	if !ok {
		t.Fatalf("%s unknown", id)
	}
	return r
}

// TestAMClientFailsOverAndRegistersAgain: after a failover the client
// finds the new active RM's scheduler and, told it is not registered,
// registers again and repeats the call; unregistering works on either RM.
func TestAMClientFailsOverAndRegistersAgain(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{Standbys: 1, FinishingGrace: 100 * time.Millisecond})
	id, tok := waitingAttempt(t, rm)
	am := registeredAM(t, rm, tok, yarn.AMRetry{HA: true, MaxWait: time.Minute, FailoverBase: 10 * time.Millisecond, FailoverMax: 20 * time.Millisecond})
	if err := am.Heartbeat(ctxT(t), 0.2); err != nil {
		t.Fatal(err)
	}
	if err := rm.Failover(1); err != nil {
		t.Fatal(err)
	}
	if err := am.Heartbeat(ctxT(t), 0.4); err != nil {
		t.Fatalf("heartbeat after a failover: %v", err)
	}
	if r := appState(t, rm, id); r.State != yarn.StateRunning || r.Progress != 40 || am.Addr() != rm.SchedulerAddrs()[1] {
		t.Errorf("after the failover: %s, progress %v, scheduler %s", r.State, r.Progress, am.Addr())
	}
	if err := rm.Failover(0); err != nil {
		t.Fatal(err)
	}
	if err := am.Unregister(ctxT(t), yarn.FinalSucceeded, "", ""); err != nil {
		t.Fatalf("unregistering after a second failover: %v", err)
	}
	if r := appState(t, rm, id); r.State != yarn.StateFinished || r.FinalStatus != yarn.FinalSucceeded {
		t.Errorf("ended %s/%s", r.State, r.FinalStatus)
	}
}

// TestAMClientRidesOutARestart: calls made while the RM is down keep
// trying until it is back, then register again.
func TestAMClientRidesOutARestart(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{FinishingGrace: 100 * time.Millisecond})
	id, tok := waitingAttempt(t, rm)
	am := registeredAM(t, rm, tok, fastAMRetry)
	for _, call := range []struct {
		name string
		do   func(context.Context) error
	}{
		{"heartbeat", func(ctx context.Context) error { return am.Heartbeat(ctx, 0.5) }},
		{"unregister", func(ctx context.Context) error { return am.Unregister(ctx, yarn.FinalFailed, "the action failed", "") }},
	} {
		if err := rm.Stop(); err != nil {
			t.Fatal(err)
		}
		errc := make(chan error, 1)
		go func() { errc <- call.do(ctxT(t)) }()
		if err := rm.StartAgain(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		if err := <-errc; err != nil {
			t.Fatalf("%s across a restart: %v", call.name, err)
		}
	}
	if r := appState(t, rm, id); r.State != yarn.StateFinished || r.FinalStatus != yarn.FinalFailed || r.Diagnostics != "the action failed" {
		t.Errorf("ended %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
}

// TestAMClientTakesTheRolledToken: the token an allocate answer carries
// after a key roll authenticates the client's later connections, so that
// once the old key is dropped the client still reconnects.
func TestAMClientTakesTheRolledToken(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{Standbys: 1})
	id, tok := waitingAttempt(t, rm)
	am := registeredAM(t, rm, tok, yarn.AMRetry{HA: true, MaxWait: time.Minute, FailoverBase: 10 * time.Millisecond, FailoverMax: 20 * time.Millisecond})
	if err := rm.RollAMRMKey(); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the first answer carries the token, the second acknowledges it
		if err := am.Heartbeat(ctxT(t), 0.5); err != nil {
			t.Fatal(err)
		}
	}
	if string(am.Token().Identifier) == string(tok.Identifier) || !rm.AMRMTokenCurrent(id) {
		t.Fatal("the client did not take the rolled token")
	}
	if err := rm.ActivateAMRMKey(); err != nil {
		t.Fatal(err)
	}
	if err := rm.Failover(1); err != nil {
		t.Fatal(err)
	}
	if err := am.Heartbeat(ctxT(t), 0.5); err != nil {
		t.Fatalf("heartbeat on a new connection after the old key was dropped: %v", err)
	}
	// The container's own token is refused now.
	old, err := yarn.DialAM(ctxT(t), yarn.AMConfig{SchedulerAddrs: rm.SchedulerAddrs(), Token: tok, Retry: fastAMRetry})
	var re *ipc.RemoteError
	if err == nil {
		old.Close()
	}
	if !errors.As(err, &re) || re.Class != ipc.InvalidTokenException {
		t.Errorf("the old token after the activation: %v, want InvalidToken at once", err)
	}
}

// TestAMClientGivesUp: with nothing listening, a call tries as often as
// the retry policy allows and names the addresses in its error.
func TestAMClientGivesUp(t *testing.T) {
	t.Parallel()
	var dead []string
	for range 2 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		dead = append(dead, l.Addr().String())
		l.Close()
	}
	tok := hadoop.Token{Identifier: []byte("id"), Password: []byte("pw"), Kind: hadoop.KindAMRMToken}
	for _, tc := range []struct {
		name  string
		addrs []string
		retry yarn.AMRetry
		tries string
	}{
		{"once", dead[:1], yarn.AMRetry{}, "(1 tries)"},
		{"fixed interval", dead[:1], yarn.AMRetry{MaxWait: 50 * time.Millisecond, Interval: 10 * time.Millisecond}, "(6 tries)"},
		{"each address once", dead, yarn.AMRetry{}, "(2 tries)"},
		{"failovers", dead, yarn.AMRetry{HA: true, MaxWait: 40 * time.Millisecond, FailoverBase: 10 * time.Millisecond, FailoverMax: 10 * time.Millisecond}, "(5 tries)"},
	} {
		_, err := yarn.DialAM(ctxT(t), yarn.AMConfig{SchedulerAddrs: tc.addrs, Token: tok, Retry: tc.retry})
		if err == nil || !strings.Contains(err.Error(), tc.tries) || !strings.Contains(err.Error(), strings.Join(tc.addrs, ", ")) {
			t.Errorf("%s: %v, want %s naming %v", tc.name, err, tc.tries, tc.addrs)
		}
	}
}

func TestAMRetryFromConf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		pairs []string
		want  yarn.AMRetry
		err   string
	}{
		{"Hadoop's defaults", nil, yarn.AMRetry{MaxWait: 15 * time.Minute, Interval: 30 * time.Second,
			FailoverBase: 30 * time.Second, FailoverMax: 30 * time.Second}, ""},
		{"HA", []string{"yarn.resourcemanager.ha.enabled", "true", "yarn.resourcemanager.connect.max-wait.ms", "60000",
			"yarn.resourcemanager.connect.retry-interval.ms", "100", "yarn.client.failover-sleep-base-ms", "50",
			"yarn.client.failover-sleep-max-ms", "400", "yarn.client.failover-max-attempts", "7"},
			yarn.AMRetry{HA: true, MaxWait: time.Minute, Interval: 100 * time.Millisecond,
				FailoverBase: 50 * time.Millisecond, FailoverMax: 400 * time.Millisecond, MaxFailovers: 7}, ""},
		{"forever", []string{"yarn.resourcemanager.connect.max-wait.ms", "-1", "yarn.resourcemanager.connect.retry-interval.ms", "10"},
			yarn.AMRetry{MaxWait: -time.Millisecond, Interval: 10 * time.Millisecond, FailoverBase: 10 * time.Millisecond, FailoverMax: 10 * time.Millisecond}, ""},
		{"max-wait below the interval connects once", []string{"yarn.resourcemanager.connect.max-wait.ms", "5"},
			yarn.AMRetry{Interval: 30 * time.Second, FailoverBase: 30 * time.Second, FailoverMax: 30 * time.Second}, ""},
		{"no failovers", []string{"yarn.client.failover-max-attempts", "0"},
			yarn.AMRetry{MaxWait: 15 * time.Minute, Interval: 30 * time.Second, FailoverBase: 30 * time.Second, FailoverMax: 30 * time.Second, MaxFailovers: -1}, ""},
		{"not a number", []string{"yarn.client.failover-sleep-base-ms", "soon"}, yarn.AMRetry{}, "yarn.client.failover-sleep-base-ms"},
		{"negative max-wait", []string{"yarn.resourcemanager.connect.max-wait.ms", "-5"}, yarn.AMRetry{}, "can be -1"},
	}
	for _, tt := range tests {
		got, err := yarn.AMRetryFromConf(conf.NewHadoop(conf.NewProperties(tt.pairs...), nil))
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, want an error naming %q", tt.name, err, tt.err)
			}
		case err != nil || got != tt.want:
			t.Errorf("%s: %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
	if got, err := yarn.AMRetryFromConf(nil); err != nil || got.MaxWait != yarn.DefaultConnectMaxWait {
		t.Errorf("nil configuration: %+v, %v", got, err)
	}
}
