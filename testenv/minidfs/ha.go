package minidfs

import (
	"fmt"
	"net"
	"strings"
	"sync"

	"github.com/gozie/gozie/hadoop/ipc"
)

// HA facts: the default nameservice of an HA MiniDFS, the ids of its two
// NameNodes, and the client configuration keys that map a nameservice to
// them (DFSConfigKeys, HdfsClientConfigKeys).
const (
	// DefaultNameservice is Options.Nameservice's default: a logical name
	// that no DNS resolves, so clients reach the pair only through
	// ClientConf.
	DefaultNameservice = "minicluster"
	// FailoverProxyProvider is the dfs.client.failover.proxy.provider.<ns>
	// value ClientConf gives: the provider that tries the configured
	// NameNodes in order.
	FailoverProxyProvider = "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider"

	nameservicesKey      = "dfs.nameservices"
	haNameNodesKeyPrefix = "dfs.ha.namenodes."
	rpcAddressKeyPrefix  = "dfs.namenode.rpc-address."
	proxyProviderPrefix  = "dfs.client.failover.proxy.provider."
)

// nameNodeIDs are the ids of an HA pair's NameNodes, in order
// (dfs.ha.namenodes.<ns>).
var nameNodeIDs = []string{"nn1", "nn2"}

// opCategory is the operation category a NameNode checks its HA state
// against before serving a call (NameNode.OperationCategory).
type opCategory string

const (
	// opRead and opWrite are refused by a standby; opUnchecked is served
	// in any state.
	opRead      opCategory = "READ"
	opWrite     opCategory = "WRITE"
	opUnchecked opCategory = "UNCHECKED"
)

// haState is the HA state of every NameNode of a MiniDFS (one for a
// non-HA MiniDFS, always active). Each call holds mu shared for its whole
// run and a transition holds it exclusively, so a call that passed the
// check on a NameNode finishes before that NameNode leaves the active
// state, as FSNamesystem's calls re-check under its lock.
type haState struct {
	mu     sync.RWMutex
	active []bool
}

func newHAState(n int) *haState {
	s := &haState{active: make([]bool, n)}
	s.active[0] = true
	return s
}

// enter checks that NameNode nn may serve a call of category cat
// (StandbyState.checkOperation) and, if so, holds the state until the
// returned release is called.
func (s *haState) enter(nn int, cat opCategory) (release func(), err error) {
	s.mu.RLock()
	if cat != opUnchecked && !s.active[nn] {
		s.mu.RUnlock()
		return nil, ipc.Errorf(ipc.StandbyException,
			"Operation category %s is not supported in state standby. Visit https://s.apache.org/sbnn-error", cat)
	}
	return s.mu.RUnlock, nil
}

// activeIndex returns the active NameNode's index, or -1.
func (s *haState) activeIndex() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for i, a := range s.active {
		if a {
			return i
		}
	}
	return -1
}

// nameNode is one NameNode of a MiniDFS: its IPC server and the address
// clients are given for it.
type nameNode struct {
	id   string // nn1, nn2; "" for a non-HA MiniDFS
	srv  *ipc.Server
	addr string
}

// advertised is the host:port clients are given for a server listening on
// listen and bound to bound: the configured host (a name such as
// localhost stays a name, which Kerberos service principals need) with the
// bound port, or the bound address when no usable host was configured.
func advertised(listen, bound string) string {
	host, _, err := net.SplitHostPort(listen)
	if err != nil || host == "" {
		return bound
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		return bound
	}
	_, port, err := net.SplitHostPort(bound)
	if err != nil {
		return bound
	}
	return net.JoinHostPort(host, port)
}

// checkHA validates the HA and listen-address options.
func checkHA(opts *Options) error {
	n := 1
	if opts.HA {
		n = len(nameNodeIDs)
		if opts.Nameservice == "" {
			opts.Nameservice = DefaultNameservice
		}
		if strings.ContainsAny(opts.Nameservice, ":/.,@ ") {
			return fmt.Errorf("minidfs: Options.Nameservice %q is not a nameservice id", opts.Nameservice)
		}
	}
	if len(opts.NameNodeAddrs) != 0 && len(opts.NameNodeAddrs) != n {
		return fmt.Errorf("minidfs: Options.NameNodeAddrs has %d addresses for %d NameNodes", len(opts.NameNodeAddrs), n)
	}
	return nil
}

// ClientConf returns the hdfs-site.xml properties a client needs to reach
// the cluster through its nameservice (the way a cluster's administrator
// writes them): dfs.nameservices, dfs.ha.namenodes.<ns>,
// dfs.namenode.rpc-address.<ns>.<nn> for nn1 and nn2, and
// dfs.client.failover.proxy.provider.<ns>. A non-HA MiniDFS needs none:
// its URI names the NameNode, and the map is empty.
func (m *MiniDFS) ClientConf() map[string]string {
	conf := map[string]string{}
	if !m.opts.HA {
		return conf
	}
	ns := m.opts.Nameservice
	conf[nameservicesKey] = ns
	conf[haNameNodesKeyPrefix+ns] = strings.Join(nameNodeIDs, ",")
	for _, n := range m.nns {
		conf[rpcAddressKeyPrefix+ns+"."+n.id] = n.addr
	}
	conf[proxyProviderPrefix+ns] = FailoverProxyProvider
	return conf
}

// NameNodeAddrs returns the host:port of every NameNode, in order (nn1,
// nn2 for an HA pair).
func (m *MiniDFS) NameNodeAddrs() []string {
	addrs := make([]string, len(m.nns))
	for i, n := range m.nns {
		addrs[i] = n.addr
	}
	return addrs
}

// ActiveNameNode returns the index of the active NameNode (0 for nn1, 1
// for nn2), or -1 while none is (after TransitionToStandby). A non-HA
// MiniDFS's one NameNode is always active.
func (m *MiniDFS) ActiveNameNode() int { return m.ha.activeIndex() }

// Failover makes NameNode active (0 for nn1, 1 for nn2) the active one and
// the other standby, as "hdfs haadmin -failover nn1 nn2" does for active
// 1: the target must be standby ("Can't failover to an active service",
// FailoverController.preFailoverChecks). Nothing is lost: both NameNodes
// serve one namespace, and the new active renews every lease, so writers
// carry on through it (FSNamesystem.startActiveServices,
// LeaseManager.renewAllLeases). The switch is atomic: a call running on
// the old active finishes first, and no call sees both standby.
func (m *MiniDFS) Failover(active int) error {
	if err := m.checkIndex("failover", active); err != nil {
		return err
	}
	m.ha.mu.Lock()
	defer m.ha.mu.Unlock()
	if m.ha.active[active] {
		return fmt.Errorf("minidfs: failover to %s: Can't failover to an active service", m.nns[active].id)
	}
	for i := range m.ha.active {
		m.ha.active[i] = i == active
	}
	m.nn.renewAllLeases()
	return nil
}

// TransitionToStandby makes NameNode nn standby, as "hdfs haadmin
// -transitionToStandby" does; a NameNode already standby stays so. With
// both standby, clients get StandbyException from each until one is made
// active.
func (m *MiniDFS) TransitionToStandby(nn int) error {
	if err := m.checkIndex("transitionToStandby", nn); err != nil {
		return err
	}
	m.ha.mu.Lock()
	defer m.ha.mu.Unlock()
	m.ha.active[nn] = false
	return nil
}

// TransitionToActive makes NameNode nn active, as "hdfs haadmin
// -transitionToActive" does; it refuses while the other is active
// (HAAdmin.isOtherTargetNodeActive: "transitionToActive: Node nn1 is
// already active"). Like Failover, it renews every lease.
func (m *MiniDFS) TransitionToActive(nn int) error {
	if err := m.checkIndex("transitionToActive", nn); err != nil {
		return err
	}
	m.ha.mu.Lock()
	defer m.ha.mu.Unlock()
	for i, a := range m.ha.active {
		if a && i != nn {
			return fmt.Errorf("minidfs: transitionToActive: Node %s is already active", m.nns[i].id)
		}
	}
	if !m.ha.active[nn] {
		m.ha.active[nn] = true
		m.nn.renewAllLeases()
	}
	return nil
}

// checkIndex refuses HA transitions on a non-HA MiniDFS and unknown
// NameNodes.
func (m *MiniDFS) checkIndex(op string, nn int) error {
	if !m.opts.HA {
		return fmt.Errorf("minidfs: %s: not an HA MiniDFS (Options.HA)", op)
	}
	if nn < 0 || nn >= len(m.nns) {
		return fmt.Errorf("minidfs: %s: no NameNode %d (0 is nn1, 1 is nn2)", op, nn)
	}
	return nil
}

// renewAllLeases restarts every writer's soft limit, as a NameNode
// becoming active does: clients renewed with the old active only.
func (nn *namenode) renewAllLeases() {
	nn.mu.Lock()
	defer nn.mu.Unlock()
	now := nn.opts.Now()
	for _, l := range nn.leases {
		l.renewed = now
	}
}
