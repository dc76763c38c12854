package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/testenv/gitrepo"
)

// TestGitExampleClonesIntoHDFS runs gozie's git example, in the form of
// Oozie's, on the strict local cluster: the launcher clones a repository
// made for the test (file://, on the machine the containers run on) and
// copies its tree into output-data/git. Oozie's own git example clones
// github.com, which tests cannot reach, so only gozie's runs here.
func TestGitExampleClonesIntoHDFS(t *testing.T) {
	t.Parallel()
	src := testapps.App(t, "git")
	files := map[string]string{"README.md": "gozie git example\n", "scripts/load.hql": "SELECT 1;\n"}
	repo, err := gitrepo.Create(filepath.Join(t.TempDir(), "repo"), files)
	if err != nil {
		t.Fatal(err)
	}
	e := exampleServer(t, testapps.Dir())
	node := actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "git")
	app := e.copyApp(t, src, "git")
	// An earlier clone is there: <prepare> deletes it.
	out := "user/" + e.user + "/examples/output-data/git"
	e.putData(t, out+"/stale.txt", "from an earlier run\n")
	id := e.run(t, filepath.Join(app, "job.properties"), "gitUri="+repo.FileURL(), "gitBranch="+gitrepo.DefaultBranch)
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("git example ended %s:\n%s", status, info)
	}
	for name, want := range files {
		b, err := os.ReadFile(filepath.Join(e.dir, "dfs", filepath.FromSlash(out+"/"+name)))
		if err != nil || string(b) != want {
			t.Errorf("%s on the cluster: %q, %v; want %q", name, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(e.dir, "dfs", filepath.FromSlash(out+"/stale.txt"))); !os.IsNotExist(err) {
		t.Errorf("the earlier clone's file is still there: %v", err)
	}
	a := e.jobInfo(t, id).action(t, node.Name)
	var launcher string
	for _, r := range e.yarnApps(t) {
		if r.ApplicationType == launch.ApplicationType {
			launcher = r.ID.String()
		}
	}
	if a.Type != "git" || a.ExternalID == "" || a.ExternalID != launcher || a.ExternalStatus != "SUCCEEDED" {
		t.Errorf("action %+v, want the launcher %s, SUCCEEDED", a, launcher)
	}

	// A repository that is not there fails the clone, and the workflow
	// takes the error transition with the launcher's message.
	id = e.run(t, filepath.Join(app, "job.properties"), "gitUri=file://"+filepath.Join(t.TempDir(), "none"))
	status, info = e.waitJob(t, id, 2*time.Minute)
	a = e.jobInfo(t, id).action(t, node.Name)
	if status != "KILLED" || a.ErrorCode != "JA018" || !strings.Contains(a.ErrorMessage, "unable to clone Git repo") {
		t.Fatalf("clone of a missing repository ended %s, action %+v:\n%s", status, a, info)
	}
}
