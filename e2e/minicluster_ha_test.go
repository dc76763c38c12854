package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/testenv/localcluster"
)

// TestMiniclusterHAKeepsItsPorts runs `gozie minicluster -ha
// -rpc-protection integrity` as an operator would: local-cluster.properties
// names the nameservice and the RM cluster id, the cluster's configuration
// holds both HA pairs and the protection, and a stop (Ctrl-C) and start on
// the same data dir takes the same ports again, where the administrator's
// failover commands reach it.
func TestMiniclusterHAKeepsItsPorts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"minicluster", "-data-dir", dir, "-ha", "-rpc-protection", "integrity"}
	first := start(t, "local cluster started", args...)
	p := readCluster(t, dir)
	ns := localcluster.HAName
	if p["nameNode"] != "hdfs://"+ns || p["resourceManager"] != ns || p["jobTracker"] != ns {
		t.Fatalf("local-cluster.properties does not name the cluster by its logical names: %v", p)
	}
	h, err := conf.LoadHadoop(p["hadoopConfDir"])
	if err != nil {
		t.Fatal(err)
	}
	nns, _ := h.Get("dfs.ha.namenodes." + ns)
	protection, _ := h.Get("hadoop.rpc.protection")
	if nns != "nn1,nn2" || len(h.RMHAIDs()) != 2 || protection != "integrity" {
		t.Errorf("the cluster's configuration: NameNodes %q, rm-ids %v, hadoop.rpc.protection %q", nns, h.RMHAIDs(), protection)
	}
	ports := func() string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, localcluster.PortsFile))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	before := ports()

	if err := first.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-first.done
	_ = first.cmd.Wait()
	start(t, "local cluster started", args...)
	if after := ports(); after != before {
		t.Errorf("the ports moved across a restart:\n%s\nthen\n%s", before, after)
	}
	again := readCluster(t, dir)
	for _, k := range []string{"nameNode", "resourceManager", "resourceManagerWebapp", "hive2JdbcUrl"} {
		if p[k] != again[k] {
			t.Errorf("%s moved from %s to %s across the restart", k, p[k], again[k])
		}
	}
	h2, err := conf.LoadHadoop(again["hadoopConfDir"])
	if err != nil {
		t.Fatal(err)
	}
	if a, b := h.SchedulerAddresses(), h2.SchedulerAddresses(); len(a) != 2 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("the schedulers moved from %v to %v", a, b)
	}

	// The administrator's commands reach the restarted cluster.
	admin := &env{dir: dir, cluster: again}
	if out := admin.tool(t, "yarn", "rmadmin", "-failover", "rm1", "rm2"); !strings.Contains(out, "Failover from rm1 to rm2 successful") {
		t.Errorf("yarn rmadmin -failover: %q", out)
	}
	if out := admin.tool(t, "hdfs", "haadmin", "-failover", "nn1", "nn2"); !strings.Contains(out, "Failover from nn1 to nn2 successful") {
		t.Errorf("hdfs haadmin -failover: %q", out)
	}
	if out := admin.tool(t, "hdfs", "haadmin", "-getServiceState", "nn2"); strings.TrimSpace(out) != "active" {
		t.Errorf("nn2 is %q after the failover", out)
	}
}
