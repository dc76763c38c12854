package minidfs_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/minidfs"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/spnego"
)

// TestWebHDFSKerberos: a Kerberized NameNode's WebHDFS takes SPNEGO only
// (user.name is answered with the 401 challenge), and its redirects carry
// a delegation token, the only thing its DataNode takes.
func TestWebHDFSKerberos(t *testing.T) {
	t.Parallel()
	k := kdc.Start(t)
	k.AddUser(t, "alice", "alicepw")
	k.AddService(t, "nn/localhost")
	k.AddService(t, "HTTP/localhost")
	kt, err := keytab.Load(k.Keytab(t, "services.keytab", "nn/localhost", "HTTP/localhost"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := minidfs.Start(context.Background(), minidfs.Options{
		Root: t.TempDir(), Superuser: "hdfs",
		Kerberos:          &ipc.KerberosOptions{Keytab: kt, Service: "nn", Host: "localhost"},
		WebKerberos:       &minidfs.WebKerberosOptions{Keytab: kt, Principal: kdc.Principal("HTTP/localhost")},
		NameNodeHTTPAddrs: []string{"localhost:0"}, DataNodeHTTPAddr: "localhost:0",
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.CreateHome("alice"); err != nil {
		t.Fatal(err)
	}
	base := "http://" + m.HTTPAddr() + minidfs.WebHDFSPrefix

	resp, err := http.Get(base + "/user/alice?op=GETFILESTATUS&user.name=alice")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != "Negotiate" {
		t.Errorf("user.name on a Kerberized NameNode = %d %v, want 401 Negotiate", resp.StatusCode, resp.Header)
	}

	cl := krbclient.NewWithPassword("alice", kdc.Realm, "alicepw", k.Config(t), krbclient.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		t.Fatal(err)
	}
	defer cl.Destroy()
	c := spnego.NewClient(cl, nil, "HTTP/localhost")
	do := func(method, path string, body []byte) (int, http.Header, string) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequest(method, base+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	if st, _, body := do("PUT", "/user/alice/k?op=MKDIRS", nil); st != 200 || !strings.Contains(body, "true") {
		t.Fatalf("SPNEGO MKDIRS = %d %s", st, body)
	}
	if st, h, body := do("PUT", "/user/alice/k/f.txt?op=CREATE", []byte("over SPNEGO\n")); st != 201 {
		t.Fatalf("SPNEGO CREATE = %d %v %s", st, h, body)
	}
	if b, err := os.ReadFile(filepath.Join(m.Root(), "user/alice/k/f.txt")); err != nil || string(b) != "over SPNEGO\n" {
		t.Errorf("the created file holds %q, %v", b, err)
	}
	if st, _, body := do("GET", "/user/alice/k/f.txt?op=GETFILESTATUS", nil); st != 200 || !strings.Contains(body, `"owner":"alice"`) {
		t.Errorf("GETFILESTATUS = %d %s", st, body)
	}
	if st, _, body := do("GET", "/user/alice/k/f.txt?op=OPEN", nil); st != 200 || body != "over SPNEGO\n" {
		t.Errorf("SPNEGO OPEN = %d %q", st, body)
	}

	// The DataNode takes the NameNode's token only.
	dn := "http://" + m.DataNodeHTTPAddr() + minidfs.WebHDFSPrefix + "/user/alice/k/f.txt?op=OPEN&namenoderpcaddress=" + m.Addr()
	for what, u := range map[string]string{"no token": dn + "&user.name=alice", "a forged token": dn + "&delegation=AAAA"} {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		wantWebError(t, "the DataNode with "+what, resp.StatusCode, b, 403, "java.lang.SecurityException", "Failed to obtain user group information")
	}
}
