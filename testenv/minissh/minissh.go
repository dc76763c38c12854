// Package minissh is an SSH server for tests, built on
// golang.org/x/crypto/ssh: it listens on a loopback port and runs exec
// requests with /bin/sh, as an OpenSSH sshd with public-key authentication
// only would, so that the ssh action's real client code can be tested end
// to end.
//
// # Users
//
// The server cannot switch users: every command runs as the OS user
// running the tests, whatever name the client logged in with. What it
// does check is the name: a login is accepted only for a user that has
// authorized keys (Authorize, the stand-in for ~<user>/.ssh/authorized_keys)
// and only with one of that user's keys, so a client that logs in as the
// wrong user, or with a key nobody authorized, is refused as sshd refuses
// it. The command's environment names the login user (USER, LOGNAME).
//
// # What it refuses, as OpenSSH does
//
//   - password and keyboard-interactive authentication (PasswordAuthentication
//     no): the client sees "unable to authenticate ... attempted methods
//     [none publickey], no supported methods remain";
//   - a key that is not among the login user's authorized keys, and a login
//     user with no authorized keys;
//   - env requests (AcceptEnv unset): answered false and ignored.
//
// Left out: shells, terminals (pty-req), subsystems (sftp) and port
// forwarding, which OpenSSH allows by default, are refused; only exec
// requests run.
//
// A command's stdout and stderr travel on the channel, its stdin is the
// channel's input, and its end is reported as OpenSSH reports it: an
// "exit-status" request, or "exit-signal" with the signal's name when a
// signal killed it. Processes a command leaves in the background with its
// output redirected outlive the session, as under sshd; Close kills the
// process groups of the commands it started (not those that left them with
// setsid).
package minissh

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"

	"github.com/gozie/gozie/testenv/internal/portpick"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// Options configures Start.
type Options struct {
	// Addr is the listen address; empty means a free loopback port.
	Addr string
	// HostKey is the server's host key; nil generates an Ed25519 key.
	HostKey gossh.Signer
	// Shell runs the commands (Shell -c command); empty means /bin/sh.
	Shell string
	// Home is the login's home directory (HOME, and where commands start);
	// empty means the home of the OS user running the tests.
	Home string
	// Env is added to every command's environment (PATH, ...); the
	// process's PATH is used when Env has none.
	Env map[string]string
	// Logger receives the server's diagnostics; nil discards them.
	Logger *slog.Logger
}

// Server is a running SSH server.
type Server struct {
	ln      net.Listener
	cfg     *gossh.ServerConfig
	hostKey gossh.Signer
	opts    Options
	log     *slog.Logger

	mu         sync.Mutex
	authorized map[string][]gossh.PublicKey // login user → keys
	conns      map[net.Conn]bool
	procs      map[int]bool // process group ids of running commands
	closed     bool
	wg         sync.WaitGroup
}

// Start listens and serves until Close.
func Start(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.Shell == "" {
		opts.Shell = "/bin/sh"
	}
	if opts.Home == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("minissh: %w", err)
		}
		opts.Home = home
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	hostKey := opts.HostKey
	if hostKey == nil {
		var err error
		if hostKey, err = NewKey(); err != nil {
			return nil, err
		}
	}
	s := &Server{hostKey: hostKey, opts: opts, log: log,
		authorized: map[string][]gossh.PublicKey{}, conns: map[net.Conn]bool{}, procs: map[int]bool{}}
	s.cfg = &gossh.ServerConfig{PublicKeyCallback: s.checkKey, ServerVersion: "SSH-2.0-OpenSSH_9.2p1 minissh"}
	s.cfg.AddHostKey(hostKey)
	ln, err := portpick.Listen(context.Background(), opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("minissh: listening on %s: %w", opts.Addr, err)
	}
	s.ln = ln
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// NewKey generates an Ed25519 key, for host keys and clients' keys.
func NewKey() (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("minissh: generating a key: %w", err)
	}
	return gossh.NewSignerFromKey(priv)
}

// NewKeyFile generates an Ed25519 key and writes it to path in OpenSSH's
// private key format (mode 0600, no passphrase), as ssh-keygen would.
func NewKeyFile(path string) (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("minissh: generating a key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		return nil, fmt.Errorf("minissh: encoding a key: %w", err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		return nil, fmt.Errorf("minissh: %w", err)
	}
	return gossh.NewSignerFromKey(priv)
}

// Authorize adds key to user's authorized keys.
func (s *Server) Authorize(user string, key gossh.PublicKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.authorized[user] = append(s.authorized[user], key)
}

// Addr is the host:port the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Port is the port the server listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// HostKey is the server's public host key.
func (s *Server) HostKey() gossh.PublicKey { return s.hostKey.PublicKey() }

// KnownHostsLine is the known_hosts line of the server's host key under
// the name host (localhost, 127.0.0.1, ...) at the server's port, in
// OpenSSH's form ([host]:port for a port other than 22).
func (s *Server) KnownHostsLine(host string) string {
	addr := knownhosts.Normalize(net.JoinHostPort(host, strconv.Itoa(s.Port())))
	return knownhosts.Line([]string{addr}, s.HostKey())
}

// checkKey accepts key for the login user c.User() only if the user
// authorized it (sshd's AuthorizedKeysFile of that user).
func (s *Server) checkKey(c gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
	s.mu.Lock()
	keys := s.authorized[c.User()]
	s.mu.Unlock()
	for _, k := range keys {
		if k.Type() == key.Type() && string(k.Marshal()) == string(key.Marshal()) {
			return &gossh.Permissions{}, nil
		}
	}
	s.log.Info("minissh: refused public key", "user", c.User(), "key", gossh.FingerprintSHA256(key))
	return nil, fmt.Errorf("public key %s is not authorized for user %s", gossh.FingerprintSHA256(key), c.User())
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			nc.Close()
			return
		}
		s.conns[nc] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serve(nc)
			s.mu.Lock()
			delete(s.conns, nc)
			s.mu.Unlock()
		}()
	}
}

func (s *Server) serve(nc net.Conn) {
	defer nc.Close()
	conn, chans, reqs, err := gossh.NewServerConn(nc, s.cfg)
	if err != nil {
		s.log.Debug("minissh: handshake failed", "remote", nc.RemoteAddr(), "err", err)
		return
	}
	defer conn.Close()
	go gossh.DiscardRequests(reqs)
	var wg sync.WaitGroup
	for nch := range chans {
		if nch.ChannelType() != "session" {
			_ = nch.Reject(gossh.Prohibited, "administratively prohibited: open failed")
			continue
		}
		ch, creqs, err := nch.Accept()
		if err != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.session(conn.User(), ch, creqs)
		}()
	}
	wg.Wait()
}

// session serves one session channel: the first exec request runs its
// command; everything else is refused.
func (s *Server) session(user string, ch gossh.Channel, reqs <-chan *gossh.Request) {
	defer ch.Close()
	for req := range reqs {
		if req.Type != "exec" {
			_ = req.Reply(false, nil)
			continue
		}
		var p struct{ Command string }
		if err := gossh.Unmarshal(req.Payload, &p); err != nil {
			_ = req.Reply(false, nil)
			continue
		}
		_ = req.Reply(true, nil)
		go gossh.DiscardRequests(reqs)
		s.exec(user, p.Command, ch)
		return
	}
}

// exec runs command as sshd would for user (without the switch of user)
// and reports how it ended.
func (s *Server) exec(user, command string, ch gossh.Channel) {
	cmd := exec.Command(s.opts.Shell, "-c", command)
	cmd.Env = s.environ(user)
	cmd.Dir = s.opts.Home
	cmd.Stdout, cmd.Stderr = ch, ch.Stderr()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// The channel's input is copied by hand: Wait must not wait for a
	// client that never closes its side.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		sendExit(ch, 255)
		return
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(ch.Stderr(), "%s: %v\n", s.opts.Shell, err)
		sendExit(ch, 127)
		return
	}
	go func() {
		_, _ = io.Copy(stdin, ch)
		stdin.Close()
	}()
	pgid := cmd.Process.Pid
	s.track(pgid)
	defer s.untrack(pgid)
	err = cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		sendExit(ch, 0)
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			sendSignal(ch, ws.Signal())
			return
		}
		sendExit(ch, ee.ExitCode())
	default:
		s.log.Warn("minissh: command failed", "user", user, "err", err)
		sendExit(ch, 255)
	}
}

// environ is a login's environment: the login user's names, Options.Home
// and Options.Env.
func (s *Server) environ(user string) []string {
	env := map[string]string{"USER": user, "LOGNAME": user, "SHELL": s.opts.Shell, "PATH": os.Getenv("PATH"),
		"HOME": s.opts.Home}
	for k, v := range s.opts.Env {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

func sendExit(ch gossh.Channel, code int) {
	_, _ = ch.SendRequest("exit-status", false, gossh.Marshal(struct{ Status uint32 }{uint32(code)}))
}

// sendSignal reports a command killed by sig as OpenSSH does: the signal's
// name without "SIG".
func sendSignal(ch gossh.Channel, sig syscall.Signal) {
	names := map[syscall.Signal]string{syscall.SIGKILL: "KILL", syscall.SIGTERM: "TERM", syscall.SIGINT: "INT",
		syscall.SIGHUP: "HUP", syscall.SIGPIPE: "PIPE", syscall.SIGQUIT: "QUIT", syscall.SIGSEGV: "SEGV",
		syscall.SIGABRT: "ABRT", syscall.SIGUSR1: "USR1", syscall.SIGUSR2: "USR2", syscall.SIGALRM: "ALRM"}
	name, ok := names[sig]
	if !ok {
		name = "SIG" + strconv.Itoa(int(sig))
	}
	_, _ = ch.SendRequest("exit-signal", false, gossh.Marshal(struct {
		Signal     string
		CoreDumped bool
		Error      string
		Lang       string
	}{Signal: name}))
}

func (s *Server) track(pgid int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.procs[pgid] = true
}

func (s *Server) untrack(pgid int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.procs, pgid)
}

// Close stops listening, drops every connection and kills the process
// groups of the commands still running.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	err := s.ln.Close()
	for c := range s.conns {
		c.Close()
	}
	for pgid := range s.procs {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}
