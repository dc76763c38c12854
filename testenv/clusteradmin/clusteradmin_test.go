package clusteradmin_test

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/testenv/clusteradmin"
)

// fakeCluster records the commands it gets.
type fakeCluster struct{ calls []string }

func (f *fakeCluster) States(s clusteradmin.Service) ([]clusteradmin.DaemonState, error) {
	return []clusteradmin.DaemonState{{ID: "nn1", State: clusteradmin.Active}, {ID: "nn2", State: clusteradmin.Standby}}, nil
}

func (f *fakeCluster) Failover(_ context.Context, s clusteradmin.Service, from, to string) error {
	f.calls = append(f.calls, string(s)+" "+from+">"+to)
	if to == "nn1" {
		return errors.New("Can't failover to an active service")
	}
	return nil
}

func (f *fakeCluster) StopResourceManager() error {
	f.calls = append(f.calls, "stop")
	return nil
}

func (f *fakeCluster) StartResourceManager(context.Context) error {
	f.calls = append(f.calls, "start")
	return nil
}

func serve(t *testing.T, c clusteradmin.Cluster, token string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		clusteradmin.Serve(ctx, l, clusteradmin.Handler(c, token))
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return l.Addr().String()
}

func TestCommandsReachTheCluster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := &fakeCluster{}
	token, err := clusteradmin.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	addr := serve(t, f, token)
	tokenFile := filepath.Join(t.TempDir(), "admin.token")
	if err := clusteradmin.WriteToken(tokenFile, token); err != nil {
		t.Fatal(err)
	}
	c, err := clusteradmin.NewClient(addr, tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Failover(ctx, clusteradmin.NameNode, "nn1", "nn2"); err != nil {
		t.Fatal(err)
	}
	if err := c.Failover(ctx, clusteradmin.NameNode, "nn2", "nn1"); err == nil || err.Error() != "Can't failover to an active service" {
		t.Errorf("a refused failover: %v", err)
	}
	if err := c.StopResourceManager(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.StartResourceManager(ctx); err != nil {
		t.Fatal(err)
	}
	states, err := c.States(ctx, clusteradmin.NameNode)
	if err != nil || len(states) != 2 || states[0].State != clusteradmin.Active {
		t.Errorf("states %+v, %v", states, err)
	}
	if got := strings.Join(f.calls, ","); got != "namenode nn1>nn2,namenode nn2>nn1,stop,start" {
		t.Errorf("calls %s", got)
	}
	if _, err := c.States(ctx, "datanode"); err == nil {
		t.Error("an unknown service was accepted")
	}
}

func TestCallersWithoutTheTokenAreRefused(t *testing.T) {
	t.Parallel()
	f := &fakeCluster{}
	addr := serve(t, f, "right")
	tokenFile := filepath.Join(t.TempDir(), "admin.token")
	if err := clusteradmin.WriteToken(tokenFile, "wrong"); err != nil {
		t.Fatal(err)
	}
	c, err := clusteradmin.NewClient(addr, tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	err = c.StopResourceManager(context.Background())
	if err == nil || !strings.Contains(err.Error(), "admin token") {
		t.Errorf("a wrong token: %v", err)
	}
	if len(f.calls) != 0 {
		t.Errorf("the cluster was commanded: %v", f.calls)
	}
	if _, err := clusteradmin.NewClient("", ""); err == nil {
		t.Error("a cluster without an admin endpoint was accepted")
	}
}
