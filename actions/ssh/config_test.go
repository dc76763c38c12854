package ssh

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/testenv/minissh"
	gossh "golang.org/x/crypto/ssh"
)

// writeProtectedKey writes a passphrase-protected key to path.
func writeProtectedKey(t *testing.T, path string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKeyWithPassphrase(priv, "", []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDefaultIdentities: without settings the executor takes ssh's
// default identities and known_hosts of the server's user, skipping a
// default key it cannot use (a server that runs no ssh action must
// start); a configured key it cannot use stops it.
func TestDefaultIdentities(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := filepath.Join(home, ".ssh")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	writeProtectedKey(t, filepath.Join(dir, "id_rsa"))
	if _, err := minissh.NewKeyFile(filepath.Join(dir, "id_ed25519")); err != nil {
		t.Fatal(err)
	}
	x, err := New(Config{})
	if err != nil {
		t.Fatalf("New with default identities: %v", err)
	}
	if len(x.signers) != 1 || x.cfg.KnownHostsFile != filepath.Join(dir, "known_hosts") || x.cfg.Port != 22 {
		t.Errorf("%d keys, known hosts %s, port %d; want the one usable key, ~/.ssh/known_hosts, 22",
			len(x.signers), x.cfg.KnownHostsFile, x.cfg.Port)
	}
	for name, file := range map[string]string{"protected": filepath.Join(dir, "id_rsa"), "missing": filepath.Join(dir, "nope")} {
		if _, err := New(Config{KeyFiles: []string{file}}); err == nil || !strings.Contains(err.Error(), file) {
			t.Errorf("%s configured key: %v, want an error naming it", name, err)
		}
	}
}

// TestNoKeyIsAuthFailed: a server with no key at all starts, and an ssh
// action then fails to log in with AUTH_FAILED, naming the setting.
func TestNoKeyIsAuthFailed(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	x, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = x.Start(context.Background(), newRun(t, `<host>127.0.0.1</host><command>true</command>`))
	wantErr(t, "no key", err, actions.NonTransient, CodeAuthFailed)
	if err == nil || !strings.Contains(err.Error(), "gozie.action.ssh.key-files") {
		t.Errorf("error %v does not name the setting", err)
	}
}
