// Package kdc runs a throwaway MIT Kerberos KDC for tests: Debian's krb5kdc on
// a free 127.0.0.1 port, with a fresh database in the test's temporary
// directory and a krb5.conf that points at it (TCP only, AES only, no DNS).
// Nothing is written outside that directory and nothing in /etc is read.
//
// Tests call Start, add the principals they need (AddUser for a user with a
// password, AddService for a service with a random key), export keytabs with
// Keytab, and hand Krb5Conf (or Config) to the Kerberos client under test.
// When the MIT tools (Debian packages krb5-kdc and krb5-admin-server) are not
// installed, Start skips the test, except under CI (CI set), where `make test`
// installs them and their absence fails the test.
package kdc

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/testenv/internal/portpick"
	"github.com/jcmturner/gokrb5/v8/config"
)

// Realm is the realm of every KDC started here.
const Realm = "TEST.LOCAL"

// tools are the MIT programs Start needs.
var tools = []string{"krb5kdc", "kdb5_util", "kadmin.local"}

// KDC is one running KDC.
type KDC struct {
	// Dir is the KDC's private directory: its database, logs, krb5.conf and the keytabs
	// exported with Keytab.
	Dir string
	// Addr is the KDC's address, 127.0.0.1:<port>, for both TCP and UDP.
	Addr string
	// Krb5Conf is the path of a krb5.conf for clients of this KDC (KRB5_CONFIG).
	Krb5Conf string

	env    []string
	cmd    *exec.Cmd
	exited chan error
}

// Options configures Run.
type Options struct {
	// Dir holds the KDC's database and configuration; a database already
	// there is kept, with its principals. Required.
	Dir string
	// Addr is the 127.0.0.1:<port> to listen on; empty means a free port.
	Addr string
}

// Available reports whether the MIT programs a KDC needs are installed,
// naming the first one missing.
func Available() error {
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is not installed (Debian packages krb5-kdc and krb5-admin-server)", tool)
		}
	}
	return nil
}

// Run starts a KDC as opts say and leaves it running until Close: the
// local cluster's KDC, which outlives no test.
func Run(opts Options) (*KDC, error) {
	if err := Available(); err != nil {
		return nil, fmt.Errorf("kdc: %w", err)
	}
	if opts.Dir == "" {
		return nil, fmt.Errorf("kdc: Options.Dir is required")
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("kdc: %w", err)
	}
	k := &KDC{Dir: opts.Dir, Krb5Conf: filepath.Join(opts.Dir, "krb5.conf")}
	k.env = append(os.Environ(), "KRB5_KDC_PROFILE="+filepath.Join(opts.Dir, "kdc.conf"), "KRB5_CONFIG="+k.Krb5Conf)
	if err := os.WriteFile(filepath.Join(opts.Dir, "kadm5.acl"), nil, 0o600); err != nil {
		return nil, fmt.Errorf("kdc: %w", err)
	}
	_, err := os.Stat(filepath.Join(opts.Dir, "principal"))
	created := err == nil
	// A free port may be taken by someone else before krb5kdc binds it:
	// try again with another one (a chosen address is tried once).
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		k.Addr = opts.Addr
		if k.Addr == "" {
			port, err := freePort()
			if err != nil {
				return nil, fmt.Errorf("kdc: %w", err)
			}
			k.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		}
		_, portText, err := net.SplitHostPort(k.Addr)
		if err != nil {
			return nil, fmt.Errorf("kdc: address %q: %w", k.Addr, err)
		}
		port, _ := strconv.Atoi(portText)
		for name, content := range map[string]string{"kdc.conf": kdcConf(port, opts.Dir), "krb5.conf": krb5Conf(k.Addr)} {
			if err := os.WriteFile(filepath.Join(opts.Dir, name), []byte(content), 0o600); err != nil {
				return nil, fmt.Errorf("kdc: %w", err)
			}
		}
		if !created {
			if err := k.exec("kdb5_util", "create", "-s", "-r", Realm, "-P", "master-pw"); err != nil {
				return nil, err
			}
			created = true
		}
		if lastErr = k.serve(); lastErr == nil || opts.Addr != "" {
			break
		}
	}
	if lastErr != nil {
		log, _ := os.ReadFile(filepath.Join(opts.Dir, "kdc.log"))
		return nil, fmt.Errorf("kdc: %w\n%s", lastErr, log)
	}
	return k, nil
}

// Start starts a KDC on a free loopback port and stops it when the test ends.
func Start(t testing.TB) *KDC {
	t.Helper()
	for _, tool := range tools {
		testreq.Program(t, "krb5-kdc and krb5-admin-server", tool)
	}
	k, err := Run(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("%v", err)
	}
	t.Cleanup(func() { k.Close() })
	return k
}

// serve starts krb5kdc and waits until it listens.
func (k *KDC) serve() error {
	cmd := exec.Command("krb5kdc", "-n", "-r", Realm)
	cmd.Env = k.env
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting krb5kdc: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if err := waitListening(k.Addr, exited); err != nil {
		cmd.Process.Kill()
		<-exited
		return err
	}
	k.cmd, k.exited = cmd, exited
	return nil
}

// Close stops the KDC; its database stays in Dir.
func (k *KDC) Close() error {
	if k.cmd == nil {
		return nil
	}
	k.cmd.Process.Kill()
	<-k.exited
	k.cmd = nil
	return nil
}

// waitListening polls addr until it accepts a TCP connection, the KDC exits or 10 seconds
// pass.
func waitListening(addr string, exited <-chan error) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case werr := <-exited:
			return fmt.Errorf("krb5kdc exited before listening: %v", werr)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("krb5kdc did not listen on %s: %w", addr, err)
		}
		time.Sleep(20 * time.Millisecond) // polling a port, bounded by the deadline
	}
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago,
// below the ephemeral range (see portpick), so that a restarted KDC can
// take it again.
func freePort() (int, error) {
	l, err := portpick.Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// kdcConf is the KDC's own profile (KRB5_KDC_PROFILE).
func kdcConf(port int, dir string) string {
	return fmt.Sprintf(`[kdcdefaults]
 kdc_listen = 127.0.0.1:%[1]d
 kdc_tcp_listen = 127.0.0.1:%[1]d
[realms]
 %[2]s = {
  database_name = %[3]s/principal
  key_stash_file = %[3]s/stash
  acl_file = %[3]s/kadm5.acl
  max_life = 1h
  max_renewable_life = 1d
  supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
 }
[logging]
 kdc = FILE:%[3]s/kdc.log
`, port, Realm, dir)
}

// krb5Conf is the clients' krb5.conf: TCP only (udp_preference_limit = 1), AES only, no
// DNS, and localhost in the test realm.
func krb5Conf(addr string) string {
	return fmt.Sprintf(`[libdefaults]
 default_realm = %[2]s
 dns_lookup_kdc = false
 dns_lookup_realm = false
 rdns = false
 udp_preference_limit = 1
 default_tkt_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
 default_tgs_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
 permitted_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
[realms]
 %[2]s = {
  kdc = %[1]s
 }
[domain_realm]
 localhost = %[2]s
`, addr, Realm)
}

// Env returns the process environment with KRB5_CONFIG and KRB5_KDC_PROFILE pointing at
// this KDC, for running MIT tools such as kinit against it.
func (k *KDC) Env() []string { return append([]string(nil), k.env...) }

// Config returns the parsed krb5.conf for gokrb5 clients.
func (k *KDC) Config(t testing.TB) *config.Config {
	t.Helper()
	cfg, err := config.Load(k.Krb5Conf)
	if err != nil {
		t.Fatalf("kdc: loading krb5.conf: %v", err)
	}
	return cfg
}

// AddPrincipal adds the principal name with password, or with a random
// key when password is empty (a service). A principal that exists is kept.
func (k *KDC) AddPrincipal(name, password string) error {
	q := "addprinc -randkey " + name
	if password != "" {
		q = "addprinc -pw " + password + " " + name
	}
	err := k.exec("kadmin.local", "-r", Realm, "-q", q)
	if err != nil && strings.Contains(err.Error(), "already exists") {
		return nil
	}
	return err
}

// ExportKeytab exports the keys of principals into the keytab file
// (relative to Dir unless absolute), without changing them, and returns
// its path.
func (k *KDC) ExportKeytab(file string, principals ...string) (string, error) {
	if !filepath.IsAbs(file) {
		file = filepath.Join(k.Dir, file)
	}
	return file, k.exec("kadmin.local", "-r", Realm, "-q", "ktadd -k "+file+" -norandkey "+strings.Join(principals, " "))
}

// AddUser adds the principal name (e.g. "alice" or "hue/gw1") with a password.
func (k *KDC) AddUser(t testing.TB, name, password string) {
	t.Helper()
	k.kadmin(t, "addprinc -pw "+password+" "+name)
}

// AddService adds the principal name (e.g. "HTTP/localhost") with a random key.
func (k *KDC) AddService(t testing.TB, name string) {
	t.Helper()
	k.kadmin(t, "addprinc -randkey "+name)
}

// Keytab exports the keys of principals into the keytab file (relative to Dir unless
// absolute) and returns its path. Services' keys are exported as they are, so a password
// of a user added with AddUser keeps working.
func (k *KDC) Keytab(t testing.TB, file string, principals ...string) string {
	t.Helper()
	path, err := k.ExportKeytab(file, principals...)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return path
}

// Principal returns name@Realm.
func Principal(name string) string { return name + "@" + Realm }

// Kinit obtains a ticket-granting ticket for principal with its keytab into the credential
// cache file ccache, with MIT's kinit (Debian package krb5-user); it skips the test when
// kinit is not installed, like Start.
func (k *KDC) Kinit(t testing.TB, principal, keytab, ccache string) {
	t.Helper()
	testreq.Program(t, "krb5-user", "kinit")
	k.run(t, "kinit", "-k", "-t", keytab, "-c", "FILE:"+ccache, principal)
}

// kadmin runs one kadmin.local query on the KDC's database.
func (k *KDC) kadmin(t testing.TB, query string) {
	t.Helper()
	k.run(t, "kadmin.local", "-r", Realm, "-q", query)
}

// run runs an MIT tool with the KDC's environment and fails the test if it fails.
func (k *KDC) run(t testing.TB, args ...string) {
	t.Helper()
	if err := k.exec(args...); err != nil {
		t.Fatalf("%v", err)
	}
}

// exec runs an MIT tool with the KDC's environment.
func (k *KDC) exec(args ...string) error {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = k.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("kdc: %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	// kadmin.local reports some failures (an unknown principal in ktadd) on stderr
	// with a zero exit status.
	if args[0] == "kadmin.local" && strings.Contains(string(out), "kadmin.local: ") {
		return fmt.Errorf("kdc: %s:\n%s", strings.Join(args, " "), out)
	}
	return nil
}
