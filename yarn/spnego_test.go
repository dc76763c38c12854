package yarn_test

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"google.golang.org/protobuf/encoding/protowire"
)

// kerberizedRM is a Kerberized MiniYARN (SPNEGO principal HTTP/localhost)
// with proxy-user rules letting gozie act for alice, and a login of
// gozie/localhost.
type kerberizedRM struct {
	rm    *miniyarn.RM
	gozie *krbclient.Client
	addr  string // the web address by the host name of the SPNEGO principal
	clock *testClock
}

// testClock is a settable clock for the RM.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func startKerberizedRM(t *testing.T) *kerberizedRM {
	t.Helper()
	k := kdc.Start(t)
	k.AddUser(t, "gozie/localhost", "gozie-pw")
	k.AddService(t, "HTTP/localhost")
	kt, err := keytab.Load(k.Keytab(t, "http.keytab", "HTTP/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	cl := krbclient.NewWithPassword("gozie/localhost", kdc.Realm, "gozie-pw", k.Config(t), krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Destroy)
	clock := &testClock{now: time.Now()}
	rm := startRM(t, miniyarn.Options{
		Lenient:  true,
		Now:      clock.Now,
		Kerberos: &miniyarn.KerberosOptions{Keytab: kt, Principal: kdc.Principal("HTTP/localhost")},
		Conf: map[string]string{
			"hadoop.proxyuser.gozie.users": "alice",
			"hadoop.proxyuser.gozie.hosts": "*",
		},
	})
	addr := strings.Replace(rm.WebAddr(), "127.0.0.1:", "localhost:", 1)
	return &kerberizedRM{rm: rm, gozie: cl, addr: addr, clock: clock}
}

// negotiationCounter counts the requests that carry a SPNEGO token.
type negotiationCounter struct {
	n    atomic.Int32
	next http.RoundTripper
}

func (c *negotiationCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasPrefix(r.Header.Get("Authorization"), "Negotiate ") {
		c.n.Add(1)
	}
	return c.next.RoundTrip(r)
}

func (k *kerberizedRM) client(t *testing.T, principal string) (*yarn.Client, *negotiationCounter) {
	t.Helper()
	auth, err := yarn.NewSPNEGOAuth(k.gozie, principal)
	if err != nil {
		t.Fatal(err)
	}
	counter := &negotiationCounter{next: http.DefaultTransport}
	c, err := yarn.NewClient(yarn.Config{Addresses: []string{k.addr}, Auth: auth, Retry: fastRetry,
		HTTPClient: &http.Client{Transport: counter}})
	if err != nil {
		t.Fatal(err)
	}
	return c, counter
}

// TestSPNEGOActsForTheUser: the client negotiates once for HTTP/<rm host>
// (_HOST of the RM's principal), then rides the hadoop.auth cookie; doAs
// makes alice the application's user.
func TestSPNEGOActsForTheUser(t *testing.T) {
	t.Parallel()
	k := startKerberizedRM(t)
	c, counter := k.client(t, "HTTP/_HOST@"+kdc.Realm)
	ctx := hadoop.AsUser(ctxT(t), "alice")
	for range 3 {
		if _, err := c.NewApplication(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := counter.n.Load(); n != 1 {
		t.Errorf("%d negotiations for 3 requests, want 1 (the cookie after the first)", n)
	}
	id := submit(t, c, "true", nil)
	rep, err := c.App(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// submit runs as the principal itself (no doAs): gozie.
	if rep.User != "gozie" {
		t.Errorf("app of the principal belongs to %q, want gozie", rep.User)
	}
	na, err := c.NewApplication(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sc := yarn.ApplicationSubmissionContext{ApplicationID: na.ApplicationID,
		AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{"true"}}, MaxAppAttempts: 1}
	if err := c.Submit(ctx, sc); err != nil {
		t.Fatal(err)
	}
	if rep, err = c.App(ctx, na.ApplicationID); err != nil || rep.User != "alice" {
		t.Errorf("app submitted for alice: user %q, %v", rep.User, err)
	}
	var re *yarn.RemoteError
	if _, err := c.NewApplication(hadoop.AsUser(ctxT(t), "bob")); !errors.As(err, &re) || re.StatusCode != http.StatusForbidden {
		t.Errorf("doAs bob, whom no rule allows: %v, want 403", err)
	}
}

// TestSPNEGORenegotiatesOnExpiredCookie: once the RM no longer takes the
// cookie (expired), its 401 Negotiate makes the client negotiate again,
// within the same call.
func TestSPNEGORenegotiatesOnExpiredCookie(t *testing.T) {
	t.Parallel()
	k := startKerberizedRM(t)
	c, counter := k.client(t, "")
	if _, err := c.NewApplication(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	k.clock.advance(11 * time.Hour) // past the cookie's validity
	if _, err := c.NewApplication(ctxT(t)); err != nil {
		t.Fatalf("after the cookie expired: %v", err)
	}
	if n := counter.n.Load(); n != 2 {
		t.Errorf("%d negotiations, want 2", n)
	}
}

// TestKerberizedRMRefusesSimple: a Kerberized RM answers a user.name
// client 401 with a Negotiate challenge.
func TestKerberizedRMRefusesSimple(t *testing.T) {
	t.Parallel()
	k := startKerberizedRM(t)
	c, err := yarn.NewClient(yarn.Config{Addresses: []string{k.addr}, Auth: yarn.PseudoAuth{User: "gozie"}, Retry: fastRetry})
	if err != nil {
		t.Fatal(err)
	}
	var re *yarn.RemoteError
	if _, err := c.NewApplication(ctxT(t)); !errors.As(err, &re) || re.StatusCode != http.StatusUnauthorized {
		t.Fatalf("SIMPLE client: %v, want 401", err)
	}
}

// TestRMDelegationToken: a SPNEGO caller gets an RM_DELEGATION_TOKEN of
// the doAs user, renewable by the renewer's short name; a SIMPLE caller
// gets RMWebServices' 403.
func TestRMDelegationToken(t *testing.T) {
	t.Parallel()
	k := startKerberizedRM(t)
	c, _ := k.client(t, "HTTP/_HOST@"+kdc.Realm)
	tok, err := c.DelegationToken(hadoop.AsUser(ctxT(t), "alice"), "rm/localhost@"+kdc.Realm)
	if err != nil {
		t.Fatal(err)
	}
	if tok.Kind != hadoop.KindRMDelegationToken || tok.Service != "" || len(tok.Password) != 20 {
		t.Errorf("token %+v", tok)
	}
	fields := protoStrings(t, tok.Identifier)
	if fields[1] != "alice" || fields[2] != "rm" {
		t.Errorf("identifier owner %q renewer %q, want alice and rm", fields[1], fields[2])
	}

	simple := startRM(t, miniyarn.Options{Lenient: true})
	sc := newClient(t, simple.WebURL())
	_, err = sc.DelegationToken(ctxT(t), "yarn")
	var re *yarn.RemoteError
	if !errors.As(err, &re) || re.StatusCode != http.StatusForbidden ||
		!strings.Contains(re.Body, "Expected auth type is kerberos, got type simple") {
		t.Errorf("SIMPLE caller: %v", err)
	}
}

// protoStrings returns the string fields of a protobuf message by number.
func protoStrings(t *testing.T, b []byte) map[protowire.Number]string {
	t.Helper()
	out := map[protowire.Number]string{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad identifier")
		}
		b = b[n:]
		if typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			out[num] = string(v)
			n = m
		} else {
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			t.Fatalf("bad identifier")
		}
		b = b[n:]
	}
	return out
}

// TestKerberizedLocalizationNeedsHDFSToken: a Kerberized NodeManager
// localizes hdfs:// resources only with an HDFS delegation token of the
// submission; without one the attempt fails with the localizer's
// authentication error.
func TestKerberizedLocalizationNeedsHDFSToken(t *testing.T) {
	t.Parallel()
	k := startKerberizedRM(t)
	c, _ := k.client(t, "")
	id := submit(t, c, "true", func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.LocalResources = yarn.EntryMap[yarn.LocalResource]{
			"run.sh": {Resource: "hdfs://localhost:9/run.sh", Type: yarn.ResourceFile, Visibility: yarn.VisibilityApplication, Timestamp: 1},
		}
	})
	rep := waitDone(t, c, id)
	if rep.FinalStatus != yarn.FinalFailed || !strings.Contains(rep.Diagnostics, "Client cannot authenticate via:[TOKEN, KERBEROS]") {
		t.Errorf("without an HDFS token: %s/%s %q", rep.State, rep.FinalStatus, rep.Diagnostics)
	}
}

// TestRMDelegationTokenAuthenticates: a job's client without a ticket
// reaches a Kerberized RM with an RM delegation token (TokenAuth) and acts
// as its owner; a forged token and one past its renew date are 403, and a
// token caller may not ask for more tokens.
func TestRMDelegationTokenAuthenticates(t *testing.T) {
	t.Parallel()
	k := startKerberizedRM(t)
	c, _ := k.client(t, "HTTP/_HOST@"+kdc.Realm)
	tok, err := c.DelegationToken(hadoop.AsUser(ctxT(t), "alice"), "rm/localhost@"+kdc.Realm)
	if err != nil {
		t.Fatal(err)
	}
	with := func(tok hadoop.Token) *yarn.Client {
		t.Helper()
		tc, err := yarn.NewClient(yarn.Config{Addresses: []string{"http://" + k.addr}, Auth: yarn.TokenAuth{Token: tok}})
		if err != nil {
			t.Fatal(err)
		}
		return tc
	}
	forbidden := func(what string, err error, text string) {
		t.Helper()
		var re *yarn.RemoteError
		if !errors.As(err, &re) || re.StatusCode != http.StatusForbidden || !strings.Contains(re.Error(), text) {
			t.Errorf("%s: %v, want 403 %q", what, err, text)
		}
	}
	na, err := with(tok).NewApplication(ctxT(t))
	if err != nil {
		t.Fatalf("an RM token's owner: %v", err)
	}
	if na.ApplicationID.Sequence == 0 {
		t.Errorf("new application %+v", na)
	}
	_, err = with(tok).DelegationToken(ctxT(t), "rm")
	forbidden("a token caller asking for a token", err, "Kerberos authenticated channel")

	forged := tok
	forged.Password = append([]byte{}, tok.Password...)
	forged.Password[0] ^= 1
	_, err = with(forged).NewApplication(ctxT(t))
	forbidden("a forged token", err, "can't be found in cache")

	k.clock.advance(miniyarn.DefaultTokenRenewInterval + time.Minute)
	_, err = with(tok).NewApplication(ctxT(t))
	forbidden("an expired token", err, "is expired")
}
