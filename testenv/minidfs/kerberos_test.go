package minidfs_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/minidfs"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

const testRealm = "TEST.LOCAL"

// kdc is a throwaway MIT KDC for one test.
type kdc struct {
	dir, krb5conf string
	env           []string
}

// startKDC runs krb5kdc on a free loopback port with a fresh database
// holding alice (password alicepw) and nn/localhost (in nn.keytab). It
// skips the test when the MIT KDC is not installed, except under CI, where
// `make test` installs it and its absence is a failure.
func startKDC(t *testing.T) *kdc {
	t.Helper()
	for _, tool := range []string{"krb5kdc", "kdb5_util", "kadmin.local"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s not installed: make test installs krb5-kdc and krb5-admin-server", tool)
			}
			t.Skipf("%s not installed (Debian packages krb5-kdc, krb5-admin-server)", tool)
		}
	}
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	k := &kdc{dir: dir, krb5conf: filepath.Join(dir, "krb5.conf")}
	files := map[string]string{
		"kdc.conf": fmt.Sprintf(`[kdcdefaults]
 kdc_listen = 127.0.0.1:%[1]s
 kdc_tcp_listen = 127.0.0.1:%[1]s
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
`, port, testRealm, dir),
		"krb5.conf": fmt.Sprintf(`[libdefaults]
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
  kdc = 127.0.0.1:%[1]s
 }
[domain_realm]
 localhost = %[2]s
`, port, testRealm),
		"kadm5.acl": "",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	k.env = append(os.Environ(), "KRB5_KDC_PROFILE="+filepath.Join(dir, "kdc.conf"), "KRB5_CONFIG="+k.krb5conf)
	run := func(args ...string) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = k.env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	run("kdb5_util", "create", "-s", "-r", testRealm, "-P", "master-pw")
	run("kadmin.local", "-r", testRealm, "-q", "addprinc -pw alicepw alice")
	run("kadmin.local", "-r", testRealm, "-q", "addprinc -randkey nn/localhost")
	run("kadmin.local", "-r", testRealm, "-q", "ktadd -k "+filepath.Join(dir, "nn.keytab")+" nn/localhost")

	cmd := exec.Command("krb5kdc", "-n", "-r", testRealm)
	cmd.Env = k.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "kdc.log"))
			t.Fatalf("KDC did not start listening: %v\n%s", err, log)
		}
		time.Sleep(20 * time.Millisecond) // polling a port with a deadline
	}
	return k
}

func TestKerberos(t *testing.T) {
	t.Parallel()
	k := startKDC(t)
	kt, err := keytab.Load(filepath.Join(k.dir, "nn.keytab"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := minidfs.Start(context.Background(), minidfs.Options{
		Root:     t.TempDir(),
		Kerberos: &ipc.KerberosOptions{Keytab: kt, Service: "nn", Host: "localhost"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	_, port, _ := net.SplitHostPort(m.Addr())

	cfg, err := config.Load(k.krb5conf)
	if err != nil {
		t.Fatal(err)
	}
	cl := krbclient.NewWithPassword("alice", testRealm, "alicepw", cfg, krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		t.Fatal(err)
	}
	defer cl.Destroy()
	c, err := hdfs.NewClient(hdfs.ClientOptions{
		Addresses:                    []string{"localhost:" + port},
		KerberosClient:               cl,
		KerberosServicePrincipleName: "nn/_HOST",
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.MkdirAll("/secure/dir", 0o755); err != nil {
		t.Fatalf("MkdirAll over Kerberos: %v", err)
	}
	data := bytes.Repeat([]byte("kerberos "), 1000)
	w, err := c.Create("/secure/dir/f")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := c.ReadFile("/secure/dir/f"); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadFile: %d bytes, %v", len(got), err)
	}
	fi, err := c.Stat("/secure/dir/f")
	if err != nil {
		t.Fatal(err)
	}
	if owner := fi.(*hdfs.FileInfo).Owner(); owner != "alice" {
		t.Errorf("owner = %q, want alice (the principal's short name)", owner)
	}

	// A SIMPLE client is turned away.
	simple, err := hdfs.NewClient(hdfs.ClientOptions{Addresses: []string{m.Addr()}, User: "mallory"})
	if err != nil {
		t.Fatal(err)
	}
	defer simple.Close()
	if _, err := simple.Stat("/secure"); err == nil {
		t.Error("SIMPLE client was served by a Kerberos-only NameNode")
	}
}
