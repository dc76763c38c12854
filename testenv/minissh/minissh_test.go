package minissh

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// setup starts a server whose user alice authorized key, with a fresh
// home directory.
func setup(t *testing.T) (*Server, gossh.Signer, string) {
	t.Helper()
	home := t.TempDir()
	s, err := Start(Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	key, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	s.Authorize("alice", key.PublicKey())
	return s, key, home
}

func dial(s *Server, user string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", s.Addr(), &gossh.ClientConfig{User: user, Auth: auth,
		HostKeyCallback: gossh.FixedHostKey(s.HostKey())})
}

// TestExecRunsCommandsInHome: an exec request runs its command with
// /bin/sh in the login's home, with the login user's name, its stdin
// and stdout on the channel and its exit status reported.
func TestExecRunsCommandsInHome(t *testing.T) {
	t.Parallel()
	s, key, home := setup(t)
	c, err := dial(s, "alice", gossh.PublicKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	sess.Stdin = strings.NewReader("from stdin\n")
	out, err := sess.Output(`cat >in.txt; echo "$USER $(pwd)"; exit 3`)
	var ee *gossh.ExitError
	if !errors.As(err, &ee) || ee.ExitStatus() != 3 {
		t.Fatalf("exit: %v, want status 3", err)
	}
	if got := strings.TrimSpace(string(out)); got != "alice "+home {
		t.Errorf("output %q, want alice and the home %s", got, home)
	}
	if b, err := os.ReadFile(filepath.Join(home, "in.txt")); err != nil || string(b) != "from stdin\n" {
		t.Errorf("in.txt %q, %v", b, err)
	}
}

// TestSignalIsReported: a command killed by a signal ends with
// exit-signal, as under sshd.
func TestSignalIsReported(t *testing.T) {
	t.Parallel()
	s, key, _ := setup(t)
	c, err := dial(s, "alice", gossh.PublicKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	err = sess.Run(`kill -s KILL $$`)
	var ee *gossh.ExitError
	if !errors.As(err, &ee) || ee.Signal() != "KILL" {
		t.Fatalf("exit: %v, want signal KILL", err)
	}
}

// TestRefusals: what sshd with public-key authentication only refuses is
// refused: a password, a key nobody authorized, a user with no keys, a
// key authorized for another user, and env requests; so are what minissh
// leaves out, a shell and port forwarding.
func TestRefusals(t *testing.T) {
	t.Parallel()
	s, key, _ := setup(t)
	other, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	s.Authorize("bob", other.PublicKey())
	for name, login := range map[string]struct {
		user string
		auth gossh.AuthMethod
	}{
		"password":            {"alice", gossh.Password("secret")},
		"unknown key":         {"alice", gossh.PublicKeys(mustKey(t))},
		"user without keys":   {"carol", gossh.PublicKeys(key)},
		"another user's key":  {"alice", gossh.PublicKeys(other)},
		"key of another user": {"bob", gossh.PublicKeys(key)},
	} {
		if c, err := dial(s, login.user, login.auth); err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
			if c != nil {
				c.Close()
			}
			t.Errorf("%s: login %v, want unable to authenticate", name, err)
		}
	}
	c, err := dial(s, "alice", gossh.PublicKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Setenv("GOZIE", "x"); err == nil {
		t.Error("env request accepted")
	}
	if err := sess.Shell(); err == nil {
		t.Error("shell request accepted")
	}
	if _, err := c.Dial("tcp", s.Addr()); err == nil {
		t.Error("port forwarding accepted")
	}
}

func mustKey(t *testing.T) gossh.Signer {
	t.Helper()
	k, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}
