package localcluster_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/testenv/clustertools"
	"github.com/gozie/gozie/testenv/localcluster"
)

// tool runs a cluster tool against c as its users would, through the
// cluster's HADOOP_CONF_DIR.
func tool(t *testing.T, c *localcluster.Cluster, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := clustertools.Env{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string {
		switch k {
		case "HADOOP_CONF_DIR":
			return c.ConfDir
		case "HADOOP_USER_NAME":
			return "alice"
		}
		return ""
	}}
	code := clustertools.Main(context.Background(), args, env)
	return code, out.String(), errOut.String()
}

func TestHAClusterFailsOverWithTheAdminTools(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: t.TempDir(), HA: true, RPCProtection: "privacy"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	p := c.Properties()
	if p["nameNode"] != "hdfs://"+localcluster.HAName || p["resourceManager"] != localcluster.HAName || p["jobTracker"] != localcluster.HAName {
		t.Fatalf("an HA cluster is named by its logical names: %v", p)
	}
	h, err := conf.LoadHadoop(c.ConfDir)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.RMHAIDs(); len(got) != 2 {
		t.Errorf("yarn-site.xml rm-ids = %v", got)
	}
	if v, _ := h.Get("hadoop.rpc.protection"); v != "privacy" {
		t.Errorf("core-site.xml hadoop.rpc.protection = %q", v)
	}
	if v, _ := h.Get("dfs.ha.namenodes." + localcluster.HAName); v != "nn1,nn2" {
		t.Errorf("hdfs-site.xml dfs.ha.namenodes = %q", v)
	}

	write := func(name string) {
		t.Helper()
		if code, _, stderr := tool(t, c, "hdfs", "dfs", "-touchz", "/user/alice/"+name); code != 0 {
			t.Fatalf("hdfs dfs -touchz through the nameservice: %d %s", code, stderr)
		}
	}
	state := func(args ...string) string {
		t.Helper()
		code, out, stderr := tool(t, c, args...)
		if code != 0 {
			t.Fatalf("%v: %d %s", args, code, stderr)
		}
		return strings.TrimSpace(out)
	}
	write("before")
	if got := state("hdfs", "haadmin", "-getServiceState", "nn1"); got != "active" {
		t.Errorf("nn1 is %q at start", got)
	}
	if code, out, _ := tool(t, c, "hdfs", "haadmin", "-failover", "nn1", "nn2"); code != 0 || !strings.Contains(out, "Failover from nn1 to nn2 successful") {
		t.Fatalf("haadmin -failover: %d %q", code, out)
	}
	if got := state("hdfs", "haadmin", "-getServiceState", "nn1"); got != "standby" {
		t.Errorf("nn1 is %q after the failover", got)
	}
	write("after")
	if c.DFS.ActiveNameNode() != 1 {
		t.Errorf("active NameNode %d", c.DFS.ActiveNameNode())
	}
	// As FailoverController refuses: to an active service, to itself, to
	// an id the configuration does not name.
	refusals := func(prog, admin, active, other string) {
		t.Helper()
		for _, r := range []struct{ from, to, msg string }{
			{other, active, "Can't failover to an active service"},
			{active, active, "Can't failover a service to itself"},
			{active, "x3", "Unable to determine service address for"},
		} {
			code, _, stderr := tool(t, c, prog, admin, "-failover", r.from, r.to)
			if code == 0 || !strings.Contains(stderr, "Failover failed: "+r.msg) {
				t.Errorf("%s %s -failover %s %s: %d %q, want %q", prog, admin, r.from, r.to, code, stderr, r.msg)
			}
		}
	}
	refusals("hdfs", "haadmin", "nn2", "nn1")

	if code, out, stderr := tool(t, c, "yarn", "rmadmin", "-failover", "rm1", "rm2"); code != 0 || !strings.Contains(out, "Failover from rm1 to rm2 successful") {
		t.Fatalf("rmadmin -failover: %d %q %s", code, out, stderr)
	}
	if got := state("yarn", "rmadmin", "-getServiceState", "rm2"); got != "active" {
		t.Errorf("rm2 is %q after the failover", got)
	}
	if c.YARN.SchedulerAddr() != c.YARN.SchedulerAddrs()[1] {
		t.Errorf("scheduler %s after the failover, want rm2's %s", c.YARN.SchedulerAddr(), c.YARN.SchedulerAddrs()[1])
	}
	refusals("yarn", "rmadmin", "rm2", "rm1")
	if code, _, stderr := tool(t, c, "yarn", "--daemon", "stop", "resourcemanager"); code != 0 {
		t.Fatalf("yarn --daemon stop resourcemanager: %d %s", code, stderr)
	}
	if got := state("yarn", "rmadmin", "-getServiceState", "rm2"); got != "stopped" {
		t.Errorf("rm2 is %q while stopped", got)
	}
	if code, _, stderr := tool(t, c, "yarn", "rmadmin", "-failover", "rm2", "rm1"); code == 0 ||
		!strings.Contains(stderr, "Failover failed: Unable to get service state for rm1") {
		t.Errorf("rmadmin -failover to a stopped RM: %d %q", code, stderr)
	}
	if code, _, stderr := tool(t, c, "yarn", "--daemon", "start", "resourcemanager"); code != 0 {
		t.Fatalf("yarn --daemon start resourcemanager: %d %s", code, stderr)
	}
	if got := state("yarn", "rmadmin", "-getServiceState", "rm2"); got != "active" {
		t.Errorf("rm2 is %q after the restart", got)
	}
}

func TestAdminEndpointNeedsTheClusterToken(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c, err := localcluster.Start(context.Background(), localcluster.Options{Dir: dir, HA: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fi, err := os.Stat(filepath.Join(dir, "admin.token"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("admin token mode %v, want 0600", fi.Mode().Perm())
	}
	if err := os.WriteFile(filepath.Join(dir, "admin.token"), []byte("guess\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := tool(t, c, "hdfs", "haadmin", "-failover", "nn1", "nn2")
	if code == 0 || !strings.Contains(stderr, "admin token") {
		t.Errorf("a wrong token: %d %q", code, stderr)
	}
	if c.DFS.ActiveNameNode() != 0 {
		t.Error("a caller without the token failed the NameNodes over")
	}
}

func TestToolsWithoutHA(t *testing.T) {
	t.Parallel()
	c, err := localcluster.Start(context.Background(), localcluster.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if code, _, stderr := tool(t, c, "hdfs", "haadmin", "-failover", "nn1", "nn2"); code == 0 || !strings.Contains(stderr, "HA is not enabled") {
		t.Errorf("haadmin on a cluster without HA: %d %q", code, stderr)
	}
	if code, _, stderr := tool(t, c, "yarn", "--daemon", "stop", "resourcemanager"); code != 0 {
		t.Fatalf("stop: %d %s", code, stderr)
	}
	if _, err := c.FS.Stat(context.Background(), c.Properties()["nameNode"]+"/"); err != nil {
		t.Errorf("HDFS is down with the ResourceManager: %v", err)
	}
	if code, _, stderr := tool(t, c, "yarn", "--daemon", "stop", "resourcemanager"); code == 0 {
		t.Errorf("stopping a stopped ResourceManager: %d %q", code, stderr)
	}
	if code, _, stderr := tool(t, c, "yarn", "--daemon", "start", "resourcemanager"); code != 0 {
		t.Fatalf("start: %d %s", code, stderr)
	}
}

func TestPortsKeptAcrossRestarts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	first, err := localcluster.Start(ctx, localcluster.Options{Dir: dir, HA: true})
	if err != nil {
		t.Fatal(err)
	}
	before := first.Properties()
	beforeSched := first.YARN.SchedulerAddrs()
	beforeNN := first.DFS.NameNodeAddrs()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := localcluster.Start(ctx, localcluster.Options{Dir: dir, HA: true})
	if err != nil {
		t.Fatalf("restart on the same ports: %v", err)
	}
	defer again.Close()
	after := again.Properties()
	for _, k := range []string{"resourceManagerWebapp", "hive2JdbcUrl"} {
		if before[k] != after[k] {
			t.Errorf("%s moved from %s to %s across a restart", k, before[k], after[k])
		}
	}
	if strings.Join(beforeSched, ",") != strings.Join(again.YARN.SchedulerAddrs(), ",") ||
		strings.Join(beforeNN, ",") != strings.Join(again.DFS.NameNodeAddrs(), ",") {
		t.Errorf("scheduler %v → %v, NameNodes %v → %v", beforeSched, again.YARN.SchedulerAddrs(), beforeNN, again.DFS.NameNodeAddrs())
	}

	// A second cluster pinned to the same ports is refused, naming one. Its
	// start waits for a busy port only as long as its context lets it: a
	// short one, since these ports stay busy (the restarted cluster holds
	// them).
	pinned, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if c, err := localcluster.Start(pinned, localcluster.Options{Dir: t.TempDir(), HA: true, BasePort: portOf(t, beforeNN[0])}); err == nil {
		c.Close()
		t.Error("a cluster started on ports in use")
	} else if !strings.Contains(err.Error(), beforeNN[0]) {
		t.Errorf("the refusal does not name the port: %v", err)
	}
}

func portOf(t *testing.T, hostport string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(hostport)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
