package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNightlyHiveExample runs the project's example pipeline
// (examples/nightly-hive, hive2 → fs → shell) the way the README tells a
// newcomer to: copied unchanged into the local cluster, with the cluster's
// addresses from local-cluster.properties, on the strictest cluster: HA
// NameNodes and ResourceManagers named by their logical names, RPC privacy.
func TestNightlyHiveExample(t *testing.T) {
	t.Parallel()
	e := strictServer(t)
	app := e.copyApp(t, filepath.Join("..", "examples", "nightly-hive"), "nightly-hive")
	out, err := e.cli(t, "validate", filepath.Join(app, "workflow.xml"))
	if err != nil || !strings.Contains(out, "Valid workflow-app") {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	id := e.run(t, filepath.Join(app, "job.properties"), "jdbcURL="+e.cluster["hive2JdbcUrl"])
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("nightly-hive ended %s:\n%s", status, info)
	}
	day := "user/" + e.user + "/examples/nightly-hive/output/2025-01-01"
	if got := e.readData(t, day); got != "u001,1250\nu003,499\nu005,9900\nu001,300\n" {
		t.Errorf("published rows %q", got)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "dfs", filepath.FromSlash(day), "_SUCCESS")); err != nil {
		t.Errorf("no _SUCCESS: %v", err)
	}
	j := e.jobInfo(t, id)
	if j.action(t, "aggregate").Type != "hive2" || j.action(t, "publish").Type != "fs" {
		t.Errorf("actions %+v", j.Actions)
	}
	if data := j.action(t, "report").Data; !strings.Contains(data, "rows=4") {
		t.Errorf("the report's captured output %q does not count 4 rows", data)
	}
}
