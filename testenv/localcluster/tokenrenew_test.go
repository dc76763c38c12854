package localcluster_test

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/yarn"
)

// TestNewApplicationsTokensAreRenewed: the Kerberized RM renews each new
// delegation token of a submission as its own principal before it accepts
// the application, and rejects the application (FAILED, "Failed to renew
// token: Kind: ...") when one does not renew: a renewer other than the RM,
// a cancelled token. A token a running application already holds is not
// renewed again.
func TestNewApplicationsTokensAreRenewed(t *testing.T) {
	t.Parallel()
	if err := kdc.Available(); err != nil {
		testreq.Missing(t, "krb5-kdc and krb5-admin-server", err.Error())
	}
	tc := startTokenCluster(t, false)

	good := tc.hdfsToken()
	rmTok, err := tc.yc.DelegationToken(tc.ctx, kdc.Principal(localcluster.ResourceManagerPrincipal))
	if err != nil {
		t.Fatal(err)
	}
	accepted := tc.submit(nil, good, rmTok)
	tc.waitAccepted(accepted)

	r, err := hadoop.NewResolver(*tc.krb)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	aliceRenews, err := r.DelegationToken(tc.ctx, tc.nn, "alice", "alice")
	if err != nil {
		t.Fatal(err)
	}
	aliceRenewsRM, err := tc.yc.DelegationToken(tc.ctx, kdc.Principal("alice"))
	if err != nil {
		t.Fatal(err)
	}
	cancelled := tc.hdfsToken()
	if err := r.CancelDelegationToken(tc.ctx, tc.nn, cancelled); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		tok  hadoop.Token
		kind string
	}{
		"an HDFS token alice renews": {aliceRenews, hadoop.KindHDFSDelegationToken},
		"an RM token alice renews":   {aliceRenewsRM, hadoop.KindRMDelegationToken},
		"a cancelled HDFS token":     {cancelled, hadoop.KindHDFSDelegationToken},
	} {
		id := tc.submit(nil, good, c.tok)
		rep := tc.waitEnded(id)
		want := "Failed to renew token: Kind: " + c.kind + ", Service: " + c.tok.Service + ", Ident: ("
		if rep.State != yarn.StateFailed || rep.FinalStatus != yarn.FinalFailed || !strings.HasPrefix(rep.Diagnostics, want) {
			t.Errorf("submitted with %s: %s/%s %q, want FAILED/FAILED %q...", name, rep.State, rep.FinalStatus, rep.Diagnostics, want)
		}
	}

	// Held by the running application: not renewed again, so the second
	// submission is accepted even though its owner cancelled it since.
	if err := r.CancelDelegationToken(tc.ctx, tc.nn, good); err != nil {
		t.Fatal(err)
	}
	tc.waitAccepted(tc.submit(nil, good))
}

// waitAccepted waits until an application is past its submission, and
// fails the test if it ended instead.
func (tc *tokenCluster) waitAccepted(id yarn.ApplicationID) {
	tc.t.Helper()
	var rep yarn.AppReport
	testwait.WaitFor(tc.t, tokenWait, id.String()+" to be accepted", func() bool {
		var err error
		rep, err = tc.yc.App(tc.ctx, id)
		return err == nil && (rep.State == yarn.StateAccepted || rep.State == yarn.StateRunning || rep.State.Final())
	})
	if rep.State.Final() {
		tc.t.Fatalf("%s ended %s: %s", id, rep.State, rep.Diagnostics)
	}
}

// waitEnded waits for an application's final report.
func (tc *tokenCluster) waitEnded(id yarn.ApplicationID) yarn.AppReport {
	tc.t.Helper()
	var rep yarn.AppReport
	testwait.WaitFor(tc.t, tokenWait, id.String()+" to end", func() bool {
		var err error
		rep, err = tc.yc.App(tc.ctx, id)
		return err == nil && rep.State.Final()
	})
	return rep
}
