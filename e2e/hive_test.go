package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHive2ExampleSucceeds runs Oozie's hive2 example unchanged against
// MiniHS2: the script makes an external table over the input directory and
// writes its rows to the output directory through a tagged Tez-like
// application on MiniYARN.
func TestHive2ExampleSucceeds(t *testing.T) {
	t.Parallel()
	apps := examples(t)
	e := localServer(t)
	app := e.copyApp(t, filepath.Join(apps, "hive2"), "hive2")
	input := filepath.Join(e.dir, "dfs", "user", e.user, "examples", "input-data", "table")
	if err := os.MkdirAll(input, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(input, "data.txt"), []byte("1\n2\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
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
	if strings.Join(rows, ",") != "1,2,3" {
		t.Fatalf("output rows %v, want 1,2,3", rows)
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
}
