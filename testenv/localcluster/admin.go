package localcluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/gozie/gozie/testenv/clusteradmin"
)

// adminServer serves the cluster's admin commands (package clusteradmin)
// on a loopback port, to callers holding the token of tokenFile.
type adminServer struct {
	addr      string
	tokenFile string
	cancel    context.CancelFunc
	done      chan struct{}
}

func startAdmin(c *Cluster, addr, tokenFile string) (*adminServer, error) {
	token, err := clusteradmin.NewToken()
	if err != nil {
		return nil, err
	}
	if err := clusteradmin.WriteToken(tokenFile, token); err != nil {
		return nil, err
	}
	l, err := listen(addr)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &adminServer{addr: l.Addr().String(), tokenFile: tokenFile, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		clusteradmin.Serve(ctx, l, clusteradmin.Handler(&haControl{c: c}, token))
	}()
	return a, nil
}

func (a *adminServer) close() {
	a.cancel()
	<-a.done
}

// haControl is the cluster as its administrator commands it.
type haControl struct {
	c *Cluster

	mu        sync.Mutex // one command at a time, as an operator runs them
	rmStopped bool
}

var _ clusteradmin.Cluster = (*haControl)(nil)

// ids are the HA ids of service s: nn1, nn2 or rm1, rm2 under HA.
func (h *haControl) ids(s clusteradmin.Service) ([]string, error) {
	if !h.c.ha {
		return nil, fmt.Errorf("%s HA is not enabled on this cluster (start it with -ha)", s)
	}
	if s == clusteradmin.NameNode {
		return []string{"nn1", "nn2"}, nil
	}
	return []string{"rm1", "rm2"}, nil
}

func (h *haControl) States(s clusteradmin.Service) ([]clusteradmin.DaemonState, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids, err := h.ids(s)
	if err != nil {
		return nil, err
	}
	active := h.c.YARN.Active()
	if s == clusteradmin.NameNode {
		active = h.c.DFS.ActiveNameNode()
	}
	out := make([]clusteradmin.DaemonState, len(ids))
	for i, id := range ids {
		st := clusteradmin.Standby
		switch {
		case s == clusteradmin.ResourceManager && h.rmStopped:
			st = clusteradmin.Stopped
		case i == active:
			st = clusteradmin.Active
		}
		out[i] = clusteradmin.DaemonState{ID: id, State: st}
	}
	return out, nil
}

// Failover refuses what FailoverController.preFailoverChecks refuses: an
// unknown id, a service failing over to itself, a target that is already
// active or not running.
func (h *haControl) Failover(_ context.Context, s clusteradmin.Service, from, to string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids, err := h.ids(s)
	if err != nil {
		return err
	}
	fi, ti := slices.Index(ids, from), slices.Index(ids, to)
	for _, bad := range []struct {
		i  int
		id string
	}{{fi, from}, {ti, to}} {
		if bad.i < 0 {
			//lint:ignore ST1005 Hadoop's FailoverController message, verbatim
			return fmt.Errorf("Unable to determine service address for %s '%s' (HA ids: %v)", s, bad.id, ids)
		}
	}
	if fi == ti {
		//lint:ignore ST1005 Hadoop's FailoverController message, verbatim
		return errors.New("Can't failover a service to itself")
	}
	if s == clusteradmin.NameNode {
		if h.c.DFS.ActiveNameNode() == ti {
			//lint:ignore ST1005 Hadoop's FailoverController message, verbatim
			return errors.New("Can't failover to an active service")
		}
		return h.c.DFS.Failover(ti)
	}
	if h.rmStopped {
		// A stopped RM does not answer getServiceStatus.
		//lint:ignore ST1005 Hadoop's FailoverController message, verbatim
		return fmt.Errorf("Unable to get service state for %s", to)
	}
	if h.c.YARN.Active() == ti {
		//lint:ignore ST1005 Hadoop's FailoverController message, verbatim
		return errors.New("Can't failover to an active service")
	}
	return h.c.YARN.Failover(ti)
}

func (h *haControl) StopResourceManager() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rmStopped {
		return errors.New("resourcemanager is not running")
	}
	if err := h.c.YARN.Stop(); err != nil {
		return err
	}
	h.rmStopped = true
	return nil
}

func (h *haControl) StartResourceManager(ctx context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.rmStopped {
		return errors.New("resourcemanager is running")
	}
	if err := h.c.YARN.StartAgain(ctx); err != nil {
		return err
	}
	h.rmStopped = false
	return nil
}
