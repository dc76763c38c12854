package launcher

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// writeSite writes one *-site.xml of a Hadoop configuration directory.
func writeSite(t *testing.T, dir, name string, pairs ...string) {
	t.Helper()
	var b strings.Builder
	if err := conf.WriteConfigurationXML(&b, conf.NewProperties(pairs...)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// deadAddr is a loopback address nothing listens on.
func deadAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestRegistersThroughHadoopConfDir registers the launcher as on a real
// cluster: the AMRM token has an empty service, the spec names no
// scheduler, and the container's HADOOP_CONF_DIR does: first MiniYARN's
// generated one, then an RM HA configuration whose first rm-id's scheduler
// refuses connections, which the launcher fails over past.
func TestRegistersThroughHadoopConfDir(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rm, na, tokens := startWaitingAttempt(ctx, t, miniyarn.Options{})
	creds, err := hadoop.ReadTokenFile(tokens)
	if err != nil {
		t.Fatal(err)
	}
	if tok, ok := creds.TokenOfKind(hadoop.KindAMRMToken); !ok || tok.Service != "" {
		t.Fatalf("the AMRM token %+v should have an empty service, as a real RM writes it", tok)
	}
	launcherIn := func(confDir string) *launcher {
		env := map[string]string{"HADOOP_TOKEN_FILE_LOCATION": tokens, "NM_HOST": "127.0.0.1", "HADOOP_CONF_DIR": confDir}
		return &launcher{spec: &Spec{}, env: Env{Getenv: func(k string) string { return env[k] }}, log: slog.New(slog.DiscardHandler)}
	}

	// An HA configuration: rm1 is down (a standby runs no scheduler), rm2 is
	// the RM.
	haDir := t.TempDir()
	writeSite(t, haDir, "yarn-site.xml",
		"yarn.resourcemanager.ha.enabled", "true",
		"yarn.resourcemanager.ha.rm-ids", "rm1,rm2",
		"yarn.resourcemanager.scheduler.address.rm1", deadAddr(t),
		"yarn.resourcemanager.scheduler.address.rm2", rm.SchedulerAddr())
	am, err := launcherIn(haDir).connect(ctx)
	if err != nil {
		t.Fatalf("registering through the HA configuration: %v", err)
	}
	if err := am.Heartbeat(ctx, 0.5); err != nil {
		t.Fatalf("heartbeat: %v", err)
	}
	if r, _ := rm.App(na.ApplicationID); r.State != yarn.StateRunning {
		t.Errorf("after registering: %s, want RUNNING", r.State)
	}
	am.Close()

	// The NodeManager's own configuration also names the scheduler (the
	// attempt is registered already, which the RM says so).
	if _, err := launcherIn(rm.HadoopConfDir()).connect(ctx); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("registering again through the NodeManager's configuration: %v, want the RM's refusal", err)
	}

	// Only dead schedulers: the error names them (a max-wait below the
	// retry interval makes Hadoop's clients, and the launcher, connect
	// once).
	deadDir := t.TempDir()
	dead := deadAddr(t)
	writeSite(t, deadDir, "yarn-site.xml", "yarn.resourcemanager.scheduler.address", dead,
		"yarn.resourcemanager.connect.max-wait.ms", "0")
	if _, err := launcherIn(deadDir).connect(ctx); err == nil || !strings.Contains(err.Error(), dead) {
		t.Errorf("with a dead scheduler: %v", err)
	}
}

// TestOpensHDFSThroughHadoopConfDir runs a launcher whose name node is an HA
// nameservice (hdfs://mycluster) that only the container's hdfs-site.xml
// maps to MiniDFS: the launcher that cannot register still leaves its
// failure result in the action directory, which it reaches only through
// that configuration.
func TestOpensHDFSThroughHadoopConfDir(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root := t.TempDir()
	dfs, err := minidfs.Start(ctx, minidfs.Options{Root: root, CreateHomes: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	confDir := t.TempDir()
	writeSite(t, confDir, "hdfs-site.xml",
		"dfs.nameservices", "mycluster",
		"dfs.ha.namenodes.mycluster", "nn1",
		"dfs.namenode.rpc-address.mycluster.nn1", dfs.Addr())
	env := map[string]string{"HADOOP_CONF_DIR": confDir} // no token file: registration fails
	l := &launcher{
		spec: &Spec{Version: SpecVersion, User: "alice", NameNode: "hdfs://mycluster", ActionDir: "hdfs://mycluster/user/alice/action"},
		env:  Env{Getenv: func(k string) string { return env[k] }, Now: time.Now},
		log:  slog.New(slog.DiscardHandler),
	}
	if code := l.run(ctx); code != ExitFailed {
		t.Fatalf("exit code %d, want %d", code, ExitFailed)
	}
	b, err := os.ReadFile(filepath.Join(root, "user", "alice", "action", ResultFile))
	if err != nil {
		t.Fatalf("the result file did not reach hdfs://mycluster: %v", err)
	}
	if !strings.Contains(string(b), "registering with the ResourceManager") {
		t.Errorf("result %s", b)
	}
}
