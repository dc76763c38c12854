package localcluster_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/testenv/minijhs"
	"github.com/gozie/gozie/yarn"
)

// TestJobHistoryServerNamedInMapredSite: the cluster runs a JobHistory
// server, keeps its port across restarts, and names it in its
// mapred-site.xml with job ACLs on, where gozie's server and the AMs find
// it.
func TestJobHistoryServerNamedInMapredSite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	addr := c.JobHistory.Addr()
	h, err := conf.LoadHadoop(c.ConfDir)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.GetDefault(minijhs.WebAppAddressKey, ""); got != addr {
		t.Errorf("%s = %q, want the server's %s", minijhs.WebAppAddressKey, got, addr)
	}
	if got := h.GetDefault(minijhs.ACLsEnabledKey, ""); got != "true" {
		t.Errorf("%s = %q, want true", minijhs.ACLsEnabledKey, got)
	}
	client, err := launch.NewJobHistory(addr, yarn.PseudoAuth{User: "alice"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Counters(ctx, "job_1_1"); !errors.Is(err, launch.ErrJobNotInHistory) {
		t.Errorf("an unknown job: %v, want ErrJobNotInHistory", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := localcluster.Start(ctx, localcluster.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.JobHistory.Addr() != addr {
		t.Errorf("after a restart the JobHistory server is at %s, was %s", again.JobHistory.Addr(), addr)
	}
}
