package localcluster

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	osuser "os/user"
	"path/filepath"
	"strconv"

	"github.com/gozie/gozie/testenv/minissh"
	gossh "golang.org/x/crypto/ssh"
)

// sshPort is the ports-file name of the SSH host's port.
const sshPort = "ssh"

// The SSH host's files, below <Dir>/ssh: its host key, the key gozie logs
// in with (authorized for the cluster's OS user), the known_hosts file
// that vouches for the host as localhost and 127.0.0.1, and home/, the
// users' home directory on the host, where ssh actions' runs leave their
// directories.
const (
	sshDirName     = "ssh"
	sshHostKeyName = "host_ed25519"
	sshClientKey   = "id_ed25519"
	sshKnownHosts  = "known_hosts"
	sshHomeName    = "home"
)

// startSSH starts the cluster's SSH host (package minissh) on addr, for
// ssh actions: gozie's key is authorized for the OS user running the
// cluster, the user jobs of `gozie server -local` run as. Keys are kept
// in <Dir>/ssh across restarts, so the known_hosts file stays true.
func (c *Cluster) startSSH(addr string, log *slog.Logger) error {
	dir := filepath.Join(c.dir, sshDirName)
	home := filepath.Join(dir, sshHomeName)
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	hostKey, err := loadOrCreateKey(filepath.Join(dir, sshHostKeyName))
	if err != nil {
		return err
	}
	clientKey, err := loadOrCreateKey(filepath.Join(dir, sshClientKey))
	if err != nil {
		return err
	}
	self, err := osuser.Current()
	if err != nil {
		return err
	}
	c.SSH, err = minissh.Start(minissh.Options{Addr: addr, HostKey: hostKey, Home: home, Logger: log})
	if err != nil {
		return fmt.Errorf("starting the SSH host: %w", err)
	}
	c.SSH.Authorize(self.Username, clientKey.PublicKey())
	known := c.SSH.KnownHostsLine("localhost") + "\n" + c.SSH.KnownHostsLine("127.0.0.1") + "\n"
	return os.WriteFile(filepath.Join(dir, sshKnownHosts), []byte(known), 0o600)
}

// loadOrCreateKey reads the private key at path, or creates one there.
func loadOrCreateKey(path string) (gossh.Signer, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return minissh.NewKeyFile(path)
	}
	if err != nil {
		return nil, err
	}
	return gossh.ParsePrivateKey(b)
}

// sshProperties are the SSH host's entries of Properties: sshPort,
// sshKeyFile (gozie's private key) and sshKnownHosts.
func (c *Cluster) sshProperties() map[string]string {
	if c.SSH == nil {
		return nil
	}
	dir := filepath.Join(c.dir, sshDirName)
	return map[string]string{
		"sshPort":       strconv.Itoa(c.SSH.Port()),
		"sshKeyFile":    filepath.Join(dir, sshClientKey),
		"sshKnownHosts": filepath.Join(dir, sshKnownHosts),
		"sshHome":       filepath.Join(dir, sshHomeName),
	}
}
