package localcluster_test

import (
	"context"
	"os"
	osuser "os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/testenv/localcluster"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// TestSSHHost: the cluster's SSH host lets gozie's key (sshKeyFile) log in
// as the OS user, checked against sshKnownHosts as localhost, runs
// commands in sshHome, and after a restart on the same directory it is
// the same host: same port, same host key, so known_hosts stays true.
func TestSSHHost(t *testing.T) {
	dir := t.TempDir()
	self, err := osuser.Current()
	if err != nil {
		t.Fatal(err)
	}
	var first map[string]string
	for round := range 2 {
		c, err := localcluster.Start(context.Background(), localcluster.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		p := c.Properties()
		if round == 0 {
			first = p
		} else if p["sshPort"] != first["sshPort"] {
			t.Errorf("the SSH port moved across a restart: %s, then %s", first["sshPort"], p["sshPort"])
		}
		out := sshRun(t, p, self.Username, "pwd")
		c.Close()
		if out != p["sshHome"] {
			t.Errorf("round %d: pwd on the host %q, want %s", round, out, p["sshHome"])
		}
	}
}

// sshRun runs command on the cluster's SSH host as user, as the ssh
// action logs in, and returns its output.
func sshRun(t *testing.T, p map[string]string, user, command string) string {
	t.Helper()
	b, err := os.ReadFile(p["sshKeyFile"])
	if err != nil {
		t.Fatal(err)
	}
	key, err := gossh.ParsePrivateKey(b)
	if err != nil {
		t.Fatal(err)
	}
	hk, err := knownhosts.New(p["sshKnownHosts"])
	if err != nil {
		t.Fatal(err)
	}
	c, err := gossh.Dial("tcp", "localhost:"+p["sshPort"], &gossh.ClientConfig{User: user,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(key)}, HostKeyCallback: hk})
	if err != nil {
		t.Fatalf("logging in to the SSH host: %v", err)
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Output(command)
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	return filepath.Clean(strings.TrimSpace(string(out)))
}
