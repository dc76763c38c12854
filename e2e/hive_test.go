package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testapps"
)

// TestHive2ExampleSucceeds runs the hive2 example unchanged (gozie's own,
// and Oozie's when testapps.OozieEnv names it) against MiniHS2: the script
// makes an external table over the input directory and writes its rows to
// the output directory through a tagged Tez-like application on MiniYARN.
func TestHive2ExampleSucceeds(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := localServer(t)
		src := filepath.Join(apps, "hive2")
		node := actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "hive2")
		app := e.copyApp(t, src, "hive2")
		want := strings.Fields(stagedFile(t, e.stageInput(t, src, map[string]string{"table/data.txt": "1\n2\n3\n"}), "table"))
		id := e.run(t, filepath.Join(app, "job.properties"), "jdbcURL="+e.cluster["hive2JdbcUrl"])
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("hive2 example ended %s:\n%s", status, info)
		}
		out := filepath.Join(e.dir, "dfs", "user", e.user, "examples", "output-data", "hive2")
		entries, err := os.ReadDir(out)
		if err != nil || len(entries) == 0 {
			t.Fatalf("no output in %s: %v", out, err)
		}
		var rows []string
		for _, en := range entries {
			b, err := os.ReadFile(filepath.Join(out, en.Name()))
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, strings.Fields(string(b))...)
		}
		if !slices.Equal(rows, want) {
			t.Fatalf("output rows %v, want %v", rows, want)
		}
		tez := 0
		for _, a := range e.yarnApps(t) {
			if a.ApplicationType == "TEZ" {
				tez++
			}
		}
		if tez != 1 {
			t.Fatalf("%d Tez applications, want the one the INSERT ran as", tez)
		}
		if a := e.jobInfo(t, id).action(t, node.Name); a.Status != "OK" || a.ExternalStatus != "SUCCEEDED" {
			t.Errorf("hive2 action %+v", a)
		}
	})
}
