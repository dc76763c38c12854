package hadoop

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// TestResolverSimpleRefusedByKerberizedNameNode: a Resolver without
// Kerberos (hadoop.security.authentication=simple) on a Kerberos-only
// NameNode fails with the NameNode's own refusal and the setting to
// change, as its own user and as a proxy, on the first call and on later
// ones, instead of colinmarc's "unexpected sequence number"; the error is a
// refusal (fs.ErrPermission), which no retry can cure.
func TestResolverSimpleRefusedByKerberizedNameNode(t *testing.T) {
	t.Parallel()
	m, _ := kerberosDFS(t, "authentication")
	const refusal = "org.apache.hadoop.security.AccessControlException: SIMPLE authentication is not enabled.  Available:[TOKEN, KERBEROS]"
	tests := []struct {
		name     string
		hint     string
		user     string
		wantHint string
	}{
		{name: "own user, default hint", user: "", wantHint: DefaultSimpleRefusedHint},
		{name: "proxy, configured hint", user: "bob", hint: "set hadoop.security.authentication=kerberos in core-site.xml of gozie.hadoop.conf.dir",
			wantHint: "set hadoop.security.authentication=kerberos in core-site.xml of gozie.hadoop.conf.dir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := NewResolver(ResolverConfig{DefaultFS: m.URI(), User: "gozie", SimpleRefusedHint: tt.hint})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			ctx := ctxT(t)
			if tt.user != "" {
				ctx = AsUser(ctx, tt.user)
			}
			for i := range 3 {
				_, err := r.Stat(ctx, "/user/bob")
				var se *SimpleRefusedError
				if !errors.As(err, &se) || se.NameNode != m.Addr() {
					t.Fatalf("call %d: Stat = %v, want a *SimpleRefusedError of %s", i, err, m.Addr())
				}
				msg := err.Error()
				if !strings.Contains(msg, refusal) || !strings.Contains(msg, tt.wantHint) || strings.Contains(msg, "sequence number") {
					t.Errorf("call %d: %q, want the NameNode's %q and the hint %q", i, msg, refusal, tt.wantHint)
				}
				if !errors.Is(err, fs.ErrPermission) {
					t.Errorf("call %d: %v does not match fs.ErrPermission", i, err)
				}
			}
		})
	}
}

// TestNameNodeCallsSimpleRefused: the calls gozie makes over its own IPC
// client (the edit stream, delegation tokens) report a Kerberized
// NameNode's refusal of SIMPLE as the HDFS client does, with the hint.
func TestNameNodeCallsSimpleRefused(t *testing.T) {
	t.Parallel()
	m, _ := kerberosDFS(t, "authentication")
	const hint = "set hadoop.security.authentication=kerberos"
	r, err := NewResolver(ResolverConfig{DefaultFS: m.URI(), User: "hdfs", SimpleRefusedHint: hint})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stream, err := r.EditStream(m.URI())
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	_, streamErr := stream.CurrentEditLogTxid(ctxT(t))
	_, txidErr := r.CurrentEditLogTxid(ctxT(t), m.URI())
	for what, err := range map[string]error{"EditStream.CurrentEditLogTxid": streamErr, "CurrentEditLogTxid": txidErr} {
		var se *SimpleRefusedError
		if !errors.As(err, &se) || se.NameNode != m.Addr() || !strings.Contains(err.Error(), "SIMPLE authentication is not enabled") ||
			!strings.Contains(err.Error(), hint) || !errors.Is(err, fs.ErrPermission) {
			t.Errorf("%s = %v, want a *SimpleRefusedError of %s with the hint", what, err, m.Addr())
		}
	}
}
