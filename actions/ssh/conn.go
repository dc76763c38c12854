package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/actions"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// Bounds of what a remote command's answer keeps.
const (
	// remoteStatusUnknown is the status of a remote shell cut short.
	remoteStatusUnknown = -1
	// maxRemoteMessageBytes bounds the stderr kept for messages.
	maxRemoteMessageBytes = 1024
)

// target is where a run's commands go: the remote user and host.
type target struct {
	user, host string
}

// String is user@host, Oozie's tracker URI of an ssh action.
func (t target) String() string { return t.user + "@" + t.host }

// resolveTarget applies Oozie's user@host rules to the host element: the
// job's user is the remote user, and a user@host naming another user is
// refused unless allowUserAtHost.
func resolveTarget(host, jobUser string, allowUserAtHost bool) (target, error) {
	host = strings.TrimSpace(host)
	user, h, hasUser := strings.Cut(host, "@")
	if !hasUser {
		return target{user: jobUser, host: host}, nil
	}
	if !allowUserAtHost && !strings.HasPrefix(strings.ToLower(host), jobUser+"@") {
		return target{}, actions.Errorf(actions.ActionError, CodeUserMismatch,
			"user mismatch between gozie user [%s] and ssh host [%s]", jobUser, host)
	}
	if allowUserAtHost {
		return target{user: user, host: h}, nil
	}
	return target{user: jobUser, host: h}, nil
}

// hostKeyError is a host key the known_hosts file does not vouch for.
type hostKeyError struct {
	host, file string
	key        gossh.PublicKey
	changed    bool
}

func (e *hostKeyError) Error() string {
	if e.changed {
		return fmt.Sprintf("the host key of %s (%s %s) is not the one %s lists for it: refusing to connect "+
			"(the host was reinstalled, or someone is in the middle)", e.host, e.key.Type(), gossh.FingerprintSHA256(e.key), e.file)
	}
	return fmt.Sprintf("host %s is not in %s (its key is %s %s): refusing to connect to an unknown host; "+
		"add its key after checking the fingerprint", e.host, e.file, e.key.Type(), gossh.FingerprintSHA256(e.key))
}

// hostKeyCallback checks host keys against file, read now; a missing file
// knows no host.
func hostKeyCallback(file string) (gossh.HostKeyCallback, error) {
	check := func(string, net.Addr, gossh.PublicKey) error { return &knownhosts.KeyError{} }
	if _, err := os.Stat(file); !errors.Is(err, fs.ErrNotExist) {
		cb, err := knownhosts.New(file)
		if err != nil {
			return nil, fmt.Errorf("reading known hosts %s: %w", file, err)
		}
		check = cb
	}
	return func(host string, remote net.Addr, key gossh.PublicKey) error {
		err := check(host, remote, key)
		var ke *knownhosts.KeyError
		if errors.As(err, &ke) {
			return &hostKeyError{host: host, file: file, key: key, changed: len(ke.Want) > 0}
		}
		var re *knownhosts.RevokedError
		if errors.As(err, &re) {
			return &hostKeyError{host: host, file: file, key: key, changed: true}
		}
		return err
	}, nil
}

// dial connects to t as its user with the server's keys, checking the
// host's key.
func (e *Executor) dial(ctx context.Context, t target) (*gossh.Client, error) {
	if len(e.signers) == 0 {
		return nil, actions.Errorf(actions.NonTransient, CodeAuthFailed,
			"no private key to log in to %s with: set gozie.action.ssh.key-files", t)
	}
	hk, err := hostKeyCallback(e.cfg.KnownHostsFile)
	if err != nil {
		return nil, actions.Errorf(actions.NonTransient, CodeAuthFailed, "%v", err)
	}
	var hostErr *hostKeyError
	cc := &gossh.ClientConfig{
		User: t.user,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(e.signers...)},
		HostKeyCallback: func(host string, remote net.Addr, key gossh.PublicKey) error {
			err := hk(host, remote, key)
			errors.As(err, &hostErr)
			return err
		},
		Timeout: e.cfg.ConnectTimeout,
	}
	addr := net.JoinHostPort(t.host, strconv.Itoa(e.cfg.Port))
	d := net.Dialer{Timeout: e.cfg.ConnectTimeout}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, dialError(t, err)
	}
	// The handshake is bounded too: a host that accepts and says nothing.
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	defer stop()
	_ = nc.SetDeadline(time.Now().Add(e.cfg.ConnectTimeout))
	conn, chans, reqs, err := gossh.NewClientConn(nc, addr, cc)
	if err != nil {
		nc.Close()
		return nil, handshakeError(t, hostErr, err)
	}
	_ = nc.SetDeadline(time.Time{})
	return gossh.NewClient(conn, chans, reqs), nil
}

// dialError classifies a failed TCP connection as Oozie does: a name that
// does not resolve and an unreachable host are transient.
func dialError(t target, err error) error {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return actions.Errorf(actions.Transient, CodeHostResolution, "Could not resolve hostname %s: %v", t.host, err)
	}
	return actions.Errorf(actions.Transient, CodeCouldNotConnect, "connecting to %s: %v", t, err)
}

// handshakeError classifies a failed SSH handshake: a refused host key or
// refused keys need a person; anything else is a connection problem.
func handshakeError(t target, hostErr *hostKeyError, err error) error {
	if hostErr != nil {
		return actions.Errorf(actions.NonTransient, CodeAuthFailed, "%v", hostErr)
	}
	if strings.Contains(err.Error(), "unable to authenticate") {
		return actions.Errorf(actions.NonTransient, CodeAuthFailed,
			"Permission denied (publickey): %s did not accept the server's keys for user %s: %v", t.host, t.user, err)
	}
	return actions.Errorf(actions.Transient, CodeCouldNotConnect, "SSH handshake with %s: %v", t, err)
}

// result is how a remote command ended.
type result struct {
	stdout, stderr string
	status         int // remoteStatusUnknown when the command was cut short
}

// runRemote runs script on the client with stdin, keeping at most maxOut bytes of
// stdout (and maxRemoteMessageBytes of stderr).
func runRemote(ctx context.Context, c *gossh.Client, script, stdin string, maxOut int) (result, error) {
	s, err := c.NewSession()
	if err != nil {
		return result{}, fmt.Errorf("opening an SSH session: %w", err)
	}
	defer s.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	var out, errb limitedBuffer
	out.max, errb.max = maxOut, maxRemoteMessageBytes
	s.Stdout, s.Stderr = &out, &errb
	if stdin != "" {
		s.Stdin = strings.NewReader(stdin)
	}
	err = s.Run(script)
	res := result{stdout: out.String(), stderr: errb.String()}
	var ee *gossh.ExitError
	switch {
	case err == nil:
		return res, nil
	case errors.As(err, &ee) && ee.Signal() == "":
		res.status = ee.ExitStatus()
		return res, nil
	case errors.As(err, &ee):
		res.status = remoteStatusUnknown
		return res, fmt.Errorf("the remote shell was killed by signal %s", ee.Signal())
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, fmt.Errorf("running a remote command: %w", err)
}

// limitedBuffer keeps the first max bytes written (and one more, to tell
// "at the limit" from "over it") and drops the rest.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max + 1 - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

var _ io.Writer = (*limitedBuffer)(nil)
