package e2e

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/yarn"
)

// TestConsecutiveRunsShareTheUsersToken runs the shell example twice, one
// run after the other, as the Kerberos user. gozie hands both launches the
// user's cached HDFS delegation token; the RM of the Kerberized cluster
// cancels a finished application's tokens unless its submission said
// cancel-tokens-when-complete=false, so the second run succeeds only
// because the first launch's submission said false. The second run starts
// once the first run's application has ended in the RM's eyes (its AM
// container gone), when the RM decides what becomes of its tokens.
func TestConsecutiveRunsShareTheUsersToken(t *testing.T) {
	t.Parallel()
	k := kerberizedServer(t)
	shell := k.copyApp(t, filepath.Join("..", "testdata", "apps", "shell"), "shell")
	yc := k.yarnKerberos(t)
	for run := 1; run <= 2; run++ {
		id := k.krbRun(t, filepath.Join(shell, "job.properties"))
		if status, info := k.krbWait(t, id, 2*time.Minute); status != "SUCCEEDED" {
			t.Fatalf("run %d ended %s:\n%s", run, status, info)
		}
		testwait.WaitForLast(t, 2*time.Minute, "every YARN application to end", func() (bool, string) {
			reports, err := yc.Apps(t.Context(), yarn.AppsFilter{})
			if err != nil || len(reports) < run {
				return false, fmt.Sprintf("%d applications (%v)", len(reports), err)
			}
			for _, r := range reports {
				// The state endpoint answers the RMAppState: FINISHING
				// while the AM container outlives its unregistration.
				if st, err := yc.State(t.Context(), r.ID); err != nil || !st.Final() {
					return false, fmt.Sprintf("%s is %s (%v)", r.ID, st, err)
				}
			}
			return true, ""
		})
	}
}
