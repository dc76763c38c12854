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
