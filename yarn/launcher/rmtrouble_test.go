package launcher

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// launcherModeEnv makes the test binary run Main, as `gozie launcher`
// does, instead of the tests: the containers below run the real launcher.
const launcherModeEnv = "GOZIE_LAUNCHER_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(launcherModeEnv) != "" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
		code := Main(ctx, os.Args[1:], OSEnv())
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// troubleTimeout bounds each test below.
const troubleTimeout = 2 * time.Minute

// liveLauncher is a real launcher running a shell action in a MiniYARN
// container: the command marks that it started and waits for release.
type liveLauncher struct {
	t         *testing.T
	rm        *miniyarn.RM
	client    *yarn.Client
	id        yarn.ApplicationID
	actionDir string
	release   string

	mu          sync.Mutex
	transitions []yarn.AppState
}

// startLauncher starts an RM with opts and a launcher whose action runs
// until release; it returns once the action's command runs and the
// launcher registered.
func startLauncher(ctx context.Context, t *testing.T, opts miniyarn.Options) *liveLauncher {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	l := &liveLauncher{t: t, actionDir: filepath.Join(dir, "action"), release: filepath.Join(dir, "release")}
	started := filepath.Join(dir, "started")
	if err := os.Mkdir(l.actionDir, 0o755); err != nil {
		t.Fatal(err)
	}
	opts.WorkDir = t.TempDir()
	opts.KillGrace = 100 * time.Millisecond
	opts.OnTransition = func(_ yarn.ApplicationID, s yarn.AppState) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.transitions = append(l.transitions, s)
	}
	if l.rm, err = miniyarn.Start(ctx, opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.rm.Close() })
	var urls []string
	for _, a := range l.rm.WebAddrs() {
		urls = append(urls, "http://"+a)
	}
	if l.client, err = yarn.NewClient(yarn.Config{Addresses: urls, Auth: yarn.PseudoAuth{User: "alice"}}); err != nil {
		t.Fatal(err)
	}

	spec := &Spec{
		Version: SpecVersion, Type: TypeShell, ActionID: "0000001-" + t.Name() + "-W@sh",
		ActionDir: "file://" + l.actionDir, Heartbeat: Duration(100 * time.Millisecond),
		Shell: &ShellSpec{Exec: "sh", Args: []string{"-c", `touch "$STARTED"; while [ ! -e "$RELEASE" ]; do sleep 0.05; done`},
			EnvVars: []string{"STARTED=" + started, "RELEASE=" + l.release}},
	}
	b, err := spec.Encode()
	if err != nil {
		t.Fatal(err)
	}
	specPath := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(specPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	na, err := l.client.NewApplication(ctx)
	if err != nil {
		t.Fatal(err)
	}
	l.id = na.ApplicationID
	err = l.client.Submit(ctx, yarn.ApplicationSubmissionContext{
		ApplicationID:   na.ApplicationID,
		ApplicationName: "gozie:T=shell:" + t.Name(),
		AMContainerSpec: yarn.ContainerLaunchContext{
			Commands:    yarn.Commands{"'" + exe + "' -spec '" + specPath + "' 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"},
			Environment: yarn.EntryMap[string]{launcherModeEnv: "1"},
		},
		// A second attempt would run the command again: the tests want one.
		MaxAppAttempts: 2,
		Resource:       &yarn.Resource{MemoryMB: 512, VCores: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	l.waitFor(ctx, "the action's command to start and the launcher to register", func() bool {
		_, err := os.Stat(started)
		r, _ := l.rm.App(l.id)
		return err == nil && r.State == yarn.StateRunning
	})
	return l
}

// waitFor polls cond until it holds.
func (l *liveLauncher) waitFor(ctx context.Context, what string, cond func() bool) {
	l.t.Helper()
	timeout := testwait.Timeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	testwait.Poll{Timeout: timeout, Every: 10 * time.Millisecond}.WaitForLast(l.t, what, func() (bool, string) {
		if cond() {
			return true, ""
		}
		r, _ := l.rm.App(l.id)
		return false, fmt.Sprintf("the application is %s/%s %q; logs in %s", r.State, r.FinalStatus, r.Diagnostics, r.AMContainerLogs)
	})
}

// finish releases the command and checks the run's end: the application
// SUCCEEDED with one attempt, the only application, and a result file that
// says so; the launcher registered again (RUNNING → ACCEPTED → RUNNING)
// when reregistered is set.
func (l *liveLauncher) finish(ctx context.Context, reregistered bool) {
	l.t.Helper()
	if err := os.WriteFile(l.release, nil, 0o644); err != nil {
		l.t.Fatal(err)
	}
	l.waitFor(ctx, "the launcher to unregister", func() bool {
		r, _ := l.rm.App(l.id)
		return r.State.Final()
	})
	r, _ := l.rm.App(l.id)
	if r.State != yarn.StateFinished || r.FinalStatus != yarn.FinalSucceeded {
		l.t.Fatalf("the application ended %s/%s %q, want FINISHED/SUCCEEDED", r.State, r.FinalStatus, r.Diagnostics)
	}
	if n := len(l.rm.Apps()); n != 1 {
		l.t.Errorf("%d applications, want 1", n)
	}
	attempts, err := l.client.Attempts(ctx, l.id)
	if err != nil || len(attempts) != 1 {
		l.t.Errorf("attempts %+v, %v; want exactly one", attempts, err)
	}
	raw, err := os.ReadFile(filepath.Join(l.actionDir, ResultFile))
	if err != nil {
		l.t.Fatalf("no result file: %v", err)
	}
	if res, err := ParseResult(raw); err != nil || !res.Succeeded() {
		l.t.Errorf("result %s, %v", raw, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	resync := []yarn.AppState{yarn.StateRunning, yarn.StateAccepted, yarn.StateRunning}
	found := false
	for i := range l.transitions {
		if slices.Equal(l.transitions[i:min(i+3, len(l.transitions))], resync) {
			found = true
		}
	}
	if found != reregistered {
		l.t.Errorf("transitions %v: registered again %v, want %v", l.transitions, found, reregistered)
	}
}

// TestLauncherSurvivesAnRMFailover fails the RM over while the action
// runs: the launcher finds the new active RM's scheduler, registers again
// and unregisters there; the run SUCCEEDED with one attempt.
func TestLauncherSurvivesAnRMFailover(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), troubleTimeout)
	defer cancel()
	l := startLauncher(ctx, t, miniyarn.Options{Standbys: 1})
	if err := l.rm.Failover(1); err != nil {
		t.Fatal(err)
	}
	l.waitFor(ctx, "the launcher to register with rm2", func() bool {
		r, _ := l.rm.App(l.id)
		return r.State == yarn.StateRunning
	})
	l.finish(ctx, true)
}

// TestLauncherSurvivesAWorkPreservingRestart restarts the RM while the
// action runs.
func TestLauncherSurvivesAWorkPreservingRestart(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), troubleTimeout)
	defer cancel()
	l := startLauncher(ctx, t, miniyarn.Options{})
	if err := l.rm.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	l.waitFor(ctx, "the launcher to register again", func() bool {
		r, _ := l.rm.App(l.id)
		return r.State == yarn.StateRunning
	})
	l.finish(ctx, true)
}

// TestLauncherTakesARolledAMRMToken rolls the AMRM master key while the
// action runs, waits for the launcher to hold the new token, activates the
// key (the container's own token is refused from then on) and fails over,
// so that the launcher must connect with the rolled token.
func TestLauncherTakesARolledAMRMToken(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), troubleTimeout)
	defer cancel()
	l := startLauncher(ctx, t, miniyarn.Options{Standbys: 1})
	if err := l.rm.RollAMRMKey(); err != nil {
		t.Fatal(err)
	}
	l.waitFor(ctx, "the launcher to take the rolled token", func() bool { return l.rm.AMRMTokenCurrent(l.id) })
	if err := l.rm.ActivateAMRMKey(); err != nil {
		t.Fatal(err)
	}
	if err := l.rm.Failover(1); err != nil {
		t.Fatal(err)
	}
	l.finish(ctx, true)
}
