package minidfs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/minidfs"
)

// TestRPCProtection: the NameNode reads hadoop.rpc.protection from Conf.
// It governs SASL connections only, so SIMPLE clients work under privacy as
// on a real NameNode; an unknown level stops the start, naming the key.
func TestRPCProtection(t *testing.T) {
	t.Parallel()
	m, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: "alice",
		Conf: map[string]string{ipc.RPCProtectionKey: "privacy"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	c := newClient(t, "alice", m.Addr())
	if err := c.MkdirAll("/user/alice/p", 0o755); err != nil {
		t.Fatalf("a SIMPLE client under privacy: %v", err)
	}
	if _, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(),
		Conf: map[string]string{ipc.RPCProtectionKey: "privacy,secret"}}); err == nil || !strings.Contains(err.Error(), ipc.RPCProtectionKey) {
		t.Errorf("an unknown level: %v", err)
	}
}

// TestRPCProtectionHA: both NameNodes of an HA pair take
// hadoop.rpc.protection: under privacy a SIMPLE client works on nn1 and,
// after a failover, on nn2.
func TestRPCProtectionHA(t *testing.T) {
	t.Parallel()
	m := startHA(t, minidfs.Options{Conf: map[string]string{ipc.RPCProtectionKey: "privacy"}})
	addrs := m.NameNodeAddrs()
	if err := newClient(t, "alice", addrs[0]).MkdirAll("/p/nn1", 0o755); err != nil {
		t.Fatalf("nn1 under privacy: %v", err)
	}
	if err := m.Failover(1); err != nil {
		t.Fatal(err)
	}
	if err := newClient(t, "alice", addrs[1]).MkdirAll("/p/nn2", 0o755); err != nil {
		t.Fatalf("nn2 under privacy: %v", err)
	}
}
