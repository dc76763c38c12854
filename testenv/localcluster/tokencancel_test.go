package localcluster_test

import (
	"context"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/krblogin"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/yarn"
)

// tokenWait bounds each wait on the cluster.
const tokenWait = time.Minute

// tokenCluster is a Kerberized cluster and its user's clients.
type tokenCluster struct {
	t     *testing.T
	ctx   context.Context
	nn    string
	hconf map[string]string
	krb   *hadoop.ResolverConfig
	yc    *yarn.Client
}

// TestEndedApplicationsTokensAreCancelled: on the Kerberized cluster the
// RM cancels the HDFS and RM delegation tokens of an ended application
// unless its submission said cancel-tokens-when-complete=false; a token
// submitted by several applications takes the flag of the first, and is
// cancelled only when the last of them has ended. With HA NameNodes the
// RM reaches the active one through the nameservice.
func TestEndedApplicationsTokensAreCancelled(t *testing.T) {
	t.Parallel()
	if err := kdc.Available(); err != nil {
		testreq.Missing(t, "krb5-kdc and krb5-admin-server", err.Error())
	}
	for _, ha := range []bool{false, true} {
		t.Run(map[bool]string{false: "single", true: "ha"}[ha], func(t *testing.T) {
			t.Parallel()
			tokensCancelled(t, startTokenCluster(t, ha))
		})
	}
}

func tokensCancelled(t *testing.T, tc *tokenCluster) {
	no := false

	// Kept: submitted with false; first submitted with false, then by an
	// application with the default; first with the default, and another
	// application that said false still runs.
	t2 := tc.hdfsToken()
	b := tc.submit(&no, t2)
	t5 := tc.hdfsToken()
	e := tc.submit(&no, t5)
	f := tc.submit(nil, t5)
	t4 := tc.hdfsToken()
	cApp := tc.submit(nil, t4)
	d := tc.submit(&no, t4)
	for _, id := range []yarn.ApplicationID{b, e, f, cApp} {
		tc.end(id)
	}

	// Cancelled: the default. The RM cancels in order, so once these are
	// gone every earlier decision has been carried out.
	t1 := tc.hdfsToken()
	r1, err := tc.yc.DelegationToken(tc.ctx, kdc.Principal(localcluster.ResourceManagerPrincipal))
	if err != nil {
		t.Fatal(err)
	}
	if !tc.rmTokenAlive(r1) {
		t.Fatal("a new RM delegation token does not authenticate")
	}
	a := tc.submit(nil, t1, r1)
	tc.end(a)
	testwait.WaitFor(t, tokenWait, "the HDFS token of an ended application to be cancelled", func() bool { return !tc.hdfsAlive(t1) })
	testwait.WaitFor(t, tokenWait, "the RM token of an ended application to be cancelled", func() bool { return !tc.rmTokenAlive(r1) })

	for name, tok := range map[string]hadoop.Token{"submitted with false": t2, "first submitted with false": t5,
		"still held by a running application": t4} {
		if !tc.hdfsAlive(tok) {
			t.Errorf("the token %s was cancelled", name)
		}
	}
	tc.end(d)
	testwait.WaitFor(t, tokenWait, "the shared token to be cancelled when its last application ended",
		func() bool { return !tc.hdfsAlive(t4) })
}

func startTokenCluster(t *testing.T, ha bool) *tokenCluster {
	t.Helper()
	ctx := t.Context()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: t.TempDir(), Kerberos: true, KerberosUser: "alice", HA: ha})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := c.Properties()
	krb, err := krblogin.Login(krblogin.Config{Principal: p["userPrincipal"], Keytab: p["userKeytab"], Krb5Conf: p["krb5Config"]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(krb.Destroy)
	h, err := conf.LoadHadoop(c.ConfDir)
	if err != nil {
		t.Fatal(err)
	}
	auth, err := yarn.NewSPNEGOAuth(krb, "HTTP/_HOST@"+kdc.Realm)
	if err != nil {
		t.Fatal(err)
	}
	yc, err := yarn.NewClient(yarn.Config{Addresses: []string{p["resourceManagerWebapp"]}, Auth: auth})
	if err != nil {
		t.Fatal(err)
	}
	return &tokenCluster{t: t, ctx: ctx, nn: p["nameNode"], hconf: h.Map(),
		krb: &hadoop.ResolverConfig{Conf: h.Map(), Kerberos: krb}, yc: yc}
}

// hdfsToken gets a new HDFS delegation token of the user that the RM may
// renew (a new client each time: clients cache their tokens).
func (tc *tokenCluster) hdfsToken() hadoop.Token {
	tc.t.Helper()
	r, err := hadoop.NewResolver(*tc.krb)
	if err != nil {
		tc.t.Fatal(err)
	}
	defer r.Close()
	tok, err := r.DelegationToken(tc.ctx, tc.nn, "alice", "rm")
	if err != nil {
		tc.t.Fatal(err)
	}
	if !tc.hdfsAlive(tok) {
		tc.t.Fatal("a new HDFS delegation token does not authenticate")
	}
	return tok
}

// hdfsAlive reports whether the NameNode still takes tok (TOKEN
// authentication).
func (tc *tokenCluster) hdfsAlive(tok hadoop.Token) bool {
	tc.t.Helper()
	r, err := hadoop.NewResolver(hadoop.ResolverConfig{Conf: tc.hconf, User: "alice", Tokens: []hadoop.Token{tok}})
	if err != nil {
		tc.t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Stat(tc.ctx, tc.nn+"/user/alice")
	return err == nil
}

// rmTokenAlive reports whether the RM still takes tok on its REST API.
func (tc *tokenCluster) rmTokenAlive(tok hadoop.Token) bool {
	tc.t.Helper()
	yc, err := yarn.NewClient(yarn.Config{Addresses: tc.yc.Addresses(), Auth: yarn.TokenAuth{Token: tok}})
	if err != nil {
		tc.t.Fatal(err)
	}
	_, err = yc.ClusterInfo(tc.ctx)
	return err == nil
}

// submit starts an application that runs until killed, with toks as its
// credentials and cancel as its cancel-tokens-when-complete.
func (tc *tokenCluster) submit(cancel *bool, toks ...hadoop.Token) yarn.ApplicationID {
	tc.t.Helper()
	na, err := tc.yc.NewApplication(tc.ctx)
	if err != nil {
		tc.t.Fatal(err)
	}
	sc := yarn.ApplicationSubmissionContext{
		ApplicationID: na.ApplicationID, ApplicationName: "tokens",
		AMContainerSpec:          yarn.ContainerLaunchContext{Commands: yarn.Commands{"exec sleep 300"}, Credentials: yarn.TokenCredentials(toks)},
		MaxAppAttempts:           1,
		Resource:                 &yarn.Resource{MemoryMB: 256, VCores: 1},
		CancelTokensWhenComplete: cancel,
	}
	if err := tc.yc.Submit(tc.ctx, sc); err != nil {
		tc.t.Fatal(err)
	}
	return na.ApplicationID
}

// end kills an application and waits for its final state.
func (tc *tokenCluster) end(id yarn.ApplicationID) {
	tc.t.Helper()
	if err := tc.yc.Kill(tc.ctx, id); err != nil {
		tc.t.Fatal(err)
	}
	testwait.WaitFor(tc.t, tokenWait, id.String()+" to end", func() bool {
		st, err := tc.yc.State(tc.ctx, id)
		return err == nil && st.Final()
	})
}
