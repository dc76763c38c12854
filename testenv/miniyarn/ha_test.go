package miniyarn_test

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
	"google.golang.org/protobuf/proto"
)

// rawAM drives the ApplicationMasterProtocol over one connection, without
// any of yarn.AMClient's recovery, to see exactly what the RM answers.
type rawAM struct {
	t    *testing.T
	conn *ipc.Client
}

func dialRawAM(t *testing.T, addr string, tok hadoop.Token) (*rawAM, error) {
	t.Helper()
	conn, err := ipc.Dial(ctxT(t), ipc.ClientOptions{Addr: addr, Protocol: ipc.ApplicationMasterProtocol, Token: tok.IPC()})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { conn.Close() })
	return &rawAM{t: t, conn: conn}, nil
}

func mustDialRawAM(t *testing.T, addr string, tok hadoop.Token) *rawAM {
	t.Helper()
	am, err := dialRawAM(t, addr, tok)
	if err != nil {
		t.Fatalf("connecting to the scheduler at %s: %v", addr, err)
	}
	return am
}

func (a *rawAM) register() error {
	return a.conn.Call(ctxT(a.t), "registerApplicationMaster",
		&yarnpb.RegisterApplicationMasterRequestProto{Host: proto.String("h"), RpcPort: proto.Int32(-1)},
		&yarnpb.RegisterApplicationMasterResponseProto{})
}

func (a *rawAM) allocate(responseID int32) (*yarnpb.AllocateResponseProto, error) {
	var resp yarnpb.AllocateResponseProto
	err := a.conn.Call(ctxT(a.t), "allocate", &yarnpb.AllocateRequestProto{ResponseId: proto.Int32(responseID), Progress: proto.Float32(0.5)}, &resp)
	return &resp, err
}

func (a *rawAM) finish() (bool, error) {
	var resp yarnpb.FinishApplicationMasterResponseProto
	err := a.conn.Call(ctxT(a.t), "finishApplicationMaster", &yarnpb.FinishApplicationMasterRequestProto{
		FinalApplicationStatus: yarnpb.FinalApplicationStatusProto_APP_SUCCEEDED.Enum()}, &resp)
	return resp.GetIsUnregistered(), err
}

// remoteClass returns the exception class of a RemoteError, "" for others.
func remoteClass(err error) string {
	var re *ipc.RemoteError
	if errors.As(err, &re) {
		return re.Class
	}
	return ""
}

// refuses reports whether nothing listens at addr.
func refuses(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return errors.Is(err, syscall.ECONNREFUSED)
	}
	c.Close()
	return false
}

// waitState polls the RM's own report until the application is in state.
func waitState(t *testing.T, rm *miniyarn.RM, id yarn.ApplicationID, state yarn.AppState) {
	t.Helper()
	testwait.WaitForLast(t, waitTimeout, id.String()+" to be "+string(state), func() (bool, string) {
		r, _ := rm.App(id)
		return r.State == state, string(r.State)
	})
}

// TestSchedulerOnlyOnTheActiveRM: each RM of an HA group has its own
// scheduler address, and only the active one's listens; a failover moves
// it and drops the AMs' connections, and the new active RM, which recovered
// the applications, tells their AMs to register again: allocate and
// finishApplicationMaster answer ApplicationMasterNotRegisteredException
// until they do, the application being ACCEPTED meanwhile.
func TestSchedulerOnlyOnTheActiveRM(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Standbys: 1})
	addrs := c.rm.SchedulerAddrs()
	if len(addrs) != 2 || addrs[0] == addrs[1] || c.rm.SchedulerAddr() != addrs[0] || c.rm.Active() != 0 {
		t.Fatalf("SchedulerAddrs %v, SchedulerAddr %s, active %d", addrs, c.rm.SchedulerAddr(), c.rm.Active())
	}
	if !refuses(addrs[1]) {
		t.Fatalf("the standby's scheduler %s accepts connections", addrs[1])
	}
	id, out := submitWaitingAM(t, c)
	tok, err := yarn.AMRMToken(out)
	if err != nil {
		t.Fatal(err)
	}
	am := mustDialRawAM(t, addrs[0], tok)
	if err := am.register(); err != nil {
		t.Fatal(err)
	}
	if _, err := am.allocate(0); err != nil {
		t.Fatal(err)
	}

	if err := c.rm.Failover(1); err != nil {
		t.Fatal(err)
	}
	if c.rm.SchedulerAddr() != addrs[1] || !slices.Equal(c.rm.SchedulerAddrs(), addrs) {
		t.Fatalf("after the failover: SchedulerAddr %s, SchedulerAddrs %v", c.rm.SchedulerAddr(), c.rm.SchedulerAddrs())
	}
	if _, err := am.allocate(1); err == nil || remoteClass(err) != "" {
		t.Fatalf("a call on the old active RM's connection: %v, want a dropped connection", err)
	}
	if !refuses(addrs[0]) {
		t.Fatalf("the old active RM's scheduler %s still accepts connections", addrs[0])
	}
	if r, _ := c.rm.App(id); r.State != yarn.StateAccepted {
		t.Errorf("a recovered application whose AM has not registered again is %s, want ACCEPTED", r.State)
	}
	am = mustDialRawAM(t, addrs[1], tok)
	_, err = am.allocate(1)
	if remoteClass(err) != ipc.ApplicationMasterNotRegisteredException ||
		!strings.Contains(err.Error(), "AM is not registered for known application attempt: appattempt_") ||
		!strings.Contains(err.Error(), "or RM had restarted after AM registered.  AM should re-register.") {
		t.Fatalf("allocate before registering again: %v", err)
	}
	if _, err := am.finish(); remoteClass(err) != ipc.ApplicationMasterNotRegisteredException ||
		!strings.Contains(err.Error(), "Application Master is trying to unregister before registering for: "+id.String()) {
		t.Fatalf("finishApplicationMaster before registering again: %v", err)
	}
	if err := am.register(); err != nil {
		t.Fatalf("registering again: %v", err)
	}
	if resp, err := am.allocate(0); err != nil || resp.GetResponseId() != 1 {
		t.Fatalf("allocate after registering again: %v, %v; want responseId 1", resp, err)
	}
	if r, _ := c.rm.App(id); r.State != yarn.StateRunning {
		t.Errorf("after registering again: %s, want RUNNING", r.State)
	}
	states := c.states(id)
	if want := []yarn.AppState{yarn.StateRunning, yarn.StateAccepted, yarn.StateRunning}; !slices.Equal(states[len(states)-3:], want) {
		t.Errorf("transitions %v, want them to end %v", states, want)
	}

	// No RM active: no scheduler listens.
	if err := c.rm.Failover(-1); err != nil {
		t.Fatal(err)
	}
	if !refuses(addrs[0]) || !refuses(addrs[1]) || c.rm.SchedulerAddr() != "" {
		t.Errorf("with no active RM a scheduler listens (SchedulerAddr %q)", c.rm.SchedulerAddr())
	}
	if err := c.rm.Failover(0); err != nil {
		t.Fatal(err)
	}
	am = mustDialRawAM(t, addrs[0], tok)
	if _, err := am.allocate(1); remoteClass(err) != ipc.ApplicationMasterNotRegisteredException {
		t.Errorf("allocate on rm1 active again: %v, want ApplicationMasterNotRegisteredException", err)
	}
}

// TestYarnSiteNamesEveryRM: under HA the NodeManager's yarn-site.xml (and
// YarnSite) is an RM HA configuration naming every rm-id's scheduler and
// web address, as clients read them; without HA, the one scheduler.
func TestYarnSiteNamesEveryRM(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true, Standbys: 1, ClusterID: "prod-yarn"})
	site := c.rm.YarnSite()
	for k, want := range map[string]string{
		"yarn.resourcemanager.ha.enabled":                    "true",
		"yarn.resourcemanager.cluster-id":                    "prod-yarn",
		"yarn.resourcemanager.ha.rm-ids":                     "rm1,rm2",
		"yarn.resourcemanager.ha.automatic-failover.enabled": "false",
		"yarn.resourcemanager.scheduler.address.rm2":         c.rm.SchedulerAddrs()[1],
		"yarn.resourcemanager.webapp.address.rm1":            c.rm.WebAddrs()[0],
		"yarn.client.failover-sleep-base-ms":                 "100",
	} {
		if site[k] != want {
			t.Errorf("%s = %q, want %q", k, site[k], want)
		}
	}
	if _, ok := site["yarn.resourcemanager.scheduler.address"]; ok {
		t.Error("an HA configuration names a scheduler without an rm-id")
	}
	h, err := conf.LoadHadoop(c.rm.HadoopConfDir())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.RMHAIDs(), c.rm.RMIDs()) || !slices.Equal(h.SchedulerAddresses(), c.rm.SchedulerAddrs()) {
		t.Errorf("the containers' configuration: rm-ids %v, schedulers %v; want %v, %v", h.RMHAIDs(), h.SchedulerAddresses(), c.rm.RMIDs(), c.rm.SchedulerAddrs())
	}
	retry, err := yarn.AMRetryFromConf(h)
	if err != nil || !retry.HA || retry.FailoverBase != 100*time.Millisecond || retry.MaxWait != time.Minute {
		t.Errorf("retry settings %+v, %v", retry, err)
	}

	plain := setup(t, miniyarn.Options{Lenient: true})
	site = plain.rm.YarnSite()
	if site["yarn.resourcemanager.scheduler.address"] != plain.rm.SchedulerAddr() || site["yarn.resourcemanager.ha.enabled"] != "" {
		t.Errorf("without HA: %v", site)
	}
	if got := setup(t, miniyarn.Options{Lenient: true, Standbys: 1}).rm.YarnSite()["yarn.resourcemanager.cluster-id"]; got != miniyarn.DefaultClusterID {
		t.Errorf("default cluster id %q", got)
	}
}

// freeAddr is a loopback address nothing listens on at the moment.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestFixedAddrs starts an RM group on given addresses, and refuses a taken
// one, naming it.
func TestFixedAddrs(t *testing.T) {
	t.Parallel()
	addrs := miniyarn.Addrs{
		Web:         []string{freeAddr(t), ""},
		Scheduler:   []string{freeAddr(t), freeAddr(t)},
		NodeManager: freeAddr(t),
	}
	c := setup(t, miniyarn.Options{Lenient: true, Standbys: 1, Addrs: addrs})
	if c.rm.WebAddrs()[0] != addrs.Web[0] || c.rm.WebAddrs()[1] == "" || !slices.Equal(c.rm.SchedulerAddrs(), addrs.Scheduler) ||
		c.rm.NodeManagerAddr() != addrs.NodeManager {
		t.Errorf("addresses: web %v, scheduler %v, NM %s; want %+v", c.rm.WebAddrs(), c.rm.SchedulerAddrs(), c.rm.NodeManagerAddr(), addrs)
	}

	// The same addresses again after the RM closed, with its connections
	// in TIME_WAIT (the server closed them first), as a local cluster
	// restarted on the same data directory binds them.
	conns := []net.Conn{}
	for _, a := range []string{addrs.Scheduler[0], addrs.Web[0]} {
		conn, err := net.Dial("tcp", a)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, conn)
	}
	if err := c.rm.Close(); err != nil {
		t.Fatal(err)
	}
	for _, conn := range conns {
		conn.Close()
	}
	again, err := miniyarn.Start(context.Background(), miniyarn.Options{WorkDir: t.TempDir(), Standbys: 1, Addrs: addrs})
	if err != nil {
		t.Fatalf("starting again on the same addresses: %v", err)
	}
	defer again.Close()
	if !slices.Equal(again.SchedulerAddrs(), addrs.Scheduler) || again.WebAddrs()[0] != addrs.Web[0] {
		t.Errorf("started again on %v %v, want %+v", again.SchedulerAddrs(), again.WebAddrs(), addrs)
	}

	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, a := range []miniyarn.Addrs{
		{Scheduler: []string{"", taken.Addr().String()}},
		{Web: []string{taken.Addr().String(), ""}},
		{NodeManager: taken.Addr().String()},
	} {
		rm, err := miniyarn.Start(context.Background(), miniyarn.Options{WorkDir: t.TempDir(), Standbys: 1, Addrs: a})
		if err == nil {
			rm.Close()
			t.Errorf("Start with the taken %s succeeded", taken.Addr())
		} else if !strings.Contains(err.Error(), taken.Addr().String()) {
			t.Errorf("Start with a taken port: %v, want the address named", err)
		}
	}
	if _, err := miniyarn.Start(context.Background(), miniyarn.Options{WorkDir: t.TempDir(), Addrs: miniyarn.Addrs{Web: []string{"", ""}}}); err == nil {
		t.Error("two web addresses for one RM were accepted")
	}
}
