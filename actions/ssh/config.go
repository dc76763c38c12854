package ssh

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Defaults of Config.
const (
	// DefaultPort is SSH's port.
	DefaultPort = 22
	// DefaultConnectTimeout is Oozie's ssh ConnectTimeout=20.
	DefaultConnectTimeout = 20 * time.Second
	// DefaultMaxOutputData is Oozie's oozie.servlet.CallbackServlet.max.data.len.
	DefaultMaxOutputData = 2048
)

// Config configures the executor.
type Config struct {
	// KeyFiles are the private keys (OpenSSH or PEM, without passphrase)
	// the server authenticates with; empty means those of
	// ~/.ssh/id_ed25519, id_ecdsa and id_rsa that exist, as ssh does.
	KeyFiles []string
	// KnownHostsFile lists the hosts' keys (OpenSSH's known_hosts
	// format); empty means ~/.ssh/known_hosts. A host not in it is
	// refused. It is read at every connection, so added hosts count at
	// once.
	KnownHostsFile string
	// Port is the hosts' SSH port; zero means DefaultPort.
	Port int
	// AllowUserAtHost lets user@host name a user other than the job's.
	AllowUserAtHost bool
	// ConnectTimeout bounds connecting and the SSH handshake; zero means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// MaxOutputData bounds capture-output in bytes; zero means
	// DefaultMaxOutputData.
	MaxOutputData int
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger

	// defaultKeys: KeyFiles are ssh's default identities, not chosen, so
	// one that cannot be used is skipped rather than refused.
	defaultKeys bool
}

// defaultKeyNames are ssh's default identities, in its order.
var defaultKeyNames = []string{"id_ed25519", "id_ecdsa", "id_rsa"}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() (Config, error) {
	if c.Port == 0 {
		c.Port = DefaultPort
	}
	if c.ConnectTimeout == 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.MaxOutputData == 0 {
		c.MaxOutputData = DefaultMaxOutputData
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.KnownHostsFile == "" || len(c.KeyFiles) == 0 {
		home, err := os.UserHomeDir()
		if err != nil {
			return c, fmt.Errorf("ssh action: no home directory for the default keys and known_hosts: %w", err)
		}
		if c.KnownHostsFile == "" {
			c.KnownHostsFile = filepath.Join(home, ".ssh", "known_hosts")
		}
		if len(c.KeyFiles) == 0 {
			c.defaultKeys = true
			for _, n := range defaultKeyNames {
				if p := filepath.Join(home, ".ssh", n); fileExists(p) {
					c.KeyFiles = append(c.KeyFiles, p)
				}
			}
		}
	}
	return c, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// loadSigners reads the private keys of c.KeyFiles: an explicitly
// configured key that cannot be used is an error; a default identity
// (a passphrase-protected ~/.ssh/id_rsa of a server that runs no ssh
// actions) is skipped with a warning.
func loadSigners(c Config) ([]gossh.Signer, error) {
	var out []gossh.Signer
	for _, f := range c.KeyFiles {
		s, err := loadSigner(f)
		if err != nil && c.defaultKeys {
			c.Logger.Warn("skipping a default SSH identity", "file", f, "err", err)
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func loadSigner(f string) (gossh.Signer, error) {
	b, err := os.ReadFile(f)
	if err != nil {
		return nil, fmt.Errorf("ssh action: reading private key %s: %w", f, err)
	}
	s, err := gossh.ParsePrivateKey(b)
	var pe *gossh.PassphraseMissingError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("ssh action: private key %s is protected by a passphrase, which gozie cannot enter", f)
	}
	if err != nil {
		return nil, fmt.Errorf("ssh action: parsing private key %s: %w", f, err)
	}
	return s, nil
}
