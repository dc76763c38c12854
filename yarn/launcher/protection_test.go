package launcher

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// TestRegistersUnderRPCProtection registers the launcher with a MiniYARN
// scheduler that requires hadoop.rpc.protection=privacy, with a real
// attempt's AMRM token: the launcher reads the level from the container's
// HADOOP_CONF_DIR and registers over SASL-wrapped IPC; without that
// configuration (authentication, the default) the scheduler refuses it.
func TestRegistersUnderRPCProtection(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rm, na, tokens := startWaitingAttempt(ctx, t, miniyarn.Options{Conf: map[string]string{ipc.RPCProtectionKey: "privacy"}})

	confDir := t.TempDir()
	var core strings.Builder
	if err := conf.WriteConfigurationXML(&core, conf.NewProperties(ipc.RPCProtectionKey, "privacy")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(confDir, "core-site.xml"), []byte(core.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	launcherIn := func(env map[string]string) *launcher {
		env["HADOOP_TOKEN_FILE_LOCATION"] = tokens
		env["NM_HOST"] = "127.0.0.1"
		return &launcher{spec: &Spec{SchedulerAddress: rm.SchedulerAddr()},
			env: Env{Getenv: func(k string) string { return env[k] }}, log: slog.New(slog.DiscardHandler)}
	}

	if _, err := launcherIn(map[string]string{}).connect(ctx); !errors.Is(err, ipc.ErrNoCommonProtection) {
		t.Fatalf("without the cluster's configuration: %v, want ErrNoCommonProtection", err)
	}
	if r, _ := rm.App(na.ApplicationID); r.State != yarn.StateAccepted {
		t.Fatalf("a refused launcher changed the application to %s", r.State)
	}

	am, err := launcherIn(map[string]string{"HADOOP_CONF_DIR": confDir}).connect(ctx)
	if err != nil {
		t.Fatalf("registering with privacy: %v", err)
	}
	defer am.Close()
	if am.Protection() != ipc.ProtectionPrivacy {
		t.Errorf("negotiated %s, want privacy", am.Protection())
	}
	if err := am.Heartbeat(ctx, 0.5); err != nil {
		t.Fatalf("heartbeat: %v", err)
	}
	if r, _ := rm.App(na.ApplicationID); r.State != yarn.StateRunning || r.Progress != 50 {
		t.Errorf("after registering and a heartbeat: %s, progress %v", r.State, r.Progress)
	}

	bad := launcherIn(map[string]string{"HADOOP_CONF_DIR": t.TempDir()})
	if err := os.WriteFile(filepath.Join(bad.env.Getenv("HADOOP_CONF_DIR"), "core-site.xml"),
		[]byte(strings.Replace(core.String(), "<value>privacy<", "<value>secret<", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := bad.connect(ctx); err == nil || !strings.Contains(err.Error(), ipc.RPCProtectionKey) {
		t.Errorf("an unknown protection level: %v", err)
	}
}

// startWaitingAttempt starts a MiniYARN RM with opts and submits an
// application whose container copies its token file to the returned path
// and waits; it returns once the copy exists.
func startWaitingAttempt(ctx context.Context, t *testing.T, opts miniyarn.Options) (*miniyarn.RM, yarn.NewApplication, string) {
	t.Helper()
	opts.WorkDir = t.TempDir()
	opts.KillGrace = 100 * time.Millisecond
	rm, err := miniyarn.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rm.Close() })
	client, err := yarn.NewClient(yarn.Config{Addresses: []string{rm.WebURL()}, Auth: yarn.PseudoAuth{User: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	tokens := filepath.Join(t.TempDir(), "tokens")
	na, err := client.NewApplication(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = client.Submit(ctx, yarn.ApplicationSubmissionContext{
		ApplicationID:   na.ApplicationID,
		ApplicationName: "gozie:T=shell:" + t.Name(),
		AMContainerSpec: yarn.ContainerLaunchContext{
			Commands:    yarn.Commands{`cp "$HADOOP_TOKEN_FILE_LOCATION" "$TOKENS_COPY.tmp" && mv "$TOKENS_COPY.tmp" "$TOKENS_COPY"; exec sleep 300`},
			Environment: yarn.EntryMap[string]{"TOKENS_COPY": tokens},
		},
		MaxAppAttempts: 1,
		Resource:       &yarn.Resource{MemoryMB: 512, VCores: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := os.Stat(tokens); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the container never copied its token file")
		case <-tick.C:
		}
	}
	return rm, na, tokens
}
