package minidfs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/testenv/minidfs"
)

// webSetup starts a MiniDFS with permissions (superuser hdfs; alice and
// bob have homes) whose gozie may act for anyone from the loopback host.
func webSetup(t *testing.T, conf map[string]string) *minidfs.MiniDFS {
	t.Helper()
	all := minidfs.ProxyUserConf("gozie")
	for k, v := range conf {
		all[k] = v
	}
	return permsSetup(t, all)
}

// webReq makes a WebHDFS request as a real client does, following the
// NameNode's redirect to the DataNode (net/http re-sends a PUT's body on a
// 307), and returns the status, the final response's headers and body.
func webReq(t *testing.T, m *minidfs.MiniDFS, method, path string, q url.Values, body []byte) (int, http.Header, []byte) {
	t.Helper()
	u := "http://" + m.HTTPAddr() + minidfs.WebHDFSPrefix + path + "?" + q.Encode()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

func as(user string, kv ...string) url.Values {
	q := url.Values{}
	if user != "" {
		q.Set("user.name", user)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return q
}

// wantWebError checks a RemoteException answer.
func wantWebError(t *testing.T, what string, status int, body []byte, wantStatus int, class, msg string) {
	t.Helper()
	var e struct {
		RemoteException struct{ Exception, JavaClassName, Message string }
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("%s: %d %s: %v", what, status, body, err)
	}
	r := e.RemoteException
	simple := class[strings.LastIndexAny(class, ".$")+1:]
	if status != wantStatus || r.JavaClassName != class || r.Exception != simple || !strings.Contains(r.Message, msg) {
		t.Errorf("%s = %d %+v, want %d %s containing %q", what, status, r, wantStatus, class, msg)
	}
}

// putRPC writes a file through the RPC client.
func putRPC(t *testing.T, c *hdfs.Client, path, data string) {
	t.Helper()
	w, err := c.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(data)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

type fileStatus struct {
	PathSuffix, Type, Owner, Group, Permission string
	Length                                     int64
}

func TestWebHDFSOperations(t *testing.T) {
	t.Parallel()
	m := webSetup(t, nil)
	alice := newClient(t, "alice", m.Addr())

	st, _, body := webReq(t, m, "PUT", "/user/alice/web/in", as("alice", "op", "MKDIRS", "permission", "750"), nil)
	if st != 200 || strings.TrimSpace(string(body)) != `{"boolean":true}` {
		t.Fatalf("MKDIRS = %d %s", st, body)
	}
	if fi, err := alice.Stat("/user/alice/web/in"); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o750 {
		t.Fatalf("the RPC view of the new directory: %v %v", fi, err)
	}

	// CREATE: the NameNode redirects, the client sends the data to the
	// DataNode, which answers 201 with the file's hdfs:// location.
	data := []byte("one\ntwo\nthree\n")
	st, h, body := webReq(t, m, "PUT", "/user/alice/web/in/a.txt", as("alice", "op", "CREATE"), data)
	if st != http.StatusCreated || h.Get("Location") != "hdfs://"+m.Addr()+"/user/alice/web/in/a.txt" {
		t.Fatalf("CREATE = %d %v %s", st, h, body)
	}
	if got, err := alice.ReadFile("/user/alice/web/in/a.txt"); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("RPC read of the WebHDFS file = %q, %v", got, err)
	}
	st, _, body = webReq(t, m, "PUT", "/user/alice/web/in/a.txt", as("alice", "op", "CREATE"), []byte("x"))
	wantWebError(t, "CREATE over a file", st, body, 403, "org.apache.hadoop.fs.FileAlreadyExistsException", "already exists")
	if st, _, body = webReq(t, m, "PUT", "/user/alice/web/in/a.txt", as("alice", "op", "CREATE", "overwrite", "true"), data); st != 201 {
		t.Fatalf("CREATE overwrite=true = %d %s", st, body)
	}

	// A file written over RPC reads over WebHDFS, whole and in part.
	putRPC(t, alice, "/user/alice/web/in/b.txt", "0123456789")
	if st, _, body = webReq(t, m, "GET", "/user/alice/web/in/b.txt", as("alice", "op", "OPEN"), nil); st != 200 || string(body) != "0123456789" {
		t.Errorf("OPEN = %d %q", st, body)
	}
	if st, _, body = webReq(t, m, "GET", "/user/alice/web/in/b.txt", as("alice", "op", "OPEN", "offset", "3", "length", "4"), nil); st != 200 || string(body) != "3456" {
		t.Errorf("OPEN offset=3 length=4 = %d %q", st, body)
	}
	st, _, body = webReq(t, m, "GET", "/user/alice/web/in/b.txt", as("alice", "op", "OPEN", "offset", "10"), nil)
	wantWebError(t, "OPEN past the end", st, body, 403, "java.io.IOException", "Offset=10 out of the range [0, 10)")

	// noredirect: the DataNode URL as JSON.
	st, _, body = webReq(t, m, "GET", "/user/alice/web/in/b.txt", as("alice", "op", "OPEN", "noredirect", "true"), nil)
	var loc struct{ Location string }
	if err := json.Unmarshal(body, &loc); err != nil || st != 200 || !strings.HasPrefix(loc.Location, "http://"+m.DataNodeHTTPAddr()+"/webhdfs/v1/user/alice/web/in/b.txt?") {
		t.Errorf("OPEN noredirect = %d %s (%v)", st, body, err)
	}

	st, _, body = webReq(t, m, "GET", "/user/alice/web/in", as("alice", "op", "LISTSTATUS"), nil)
	var list struct {
		FileStatuses struct{ FileStatus []fileStatus }
	}
	if err := json.Unmarshal(body, &list); err != nil || st != 200 {
		t.Fatalf("LISTSTATUS = %d %s", st, body)
	}
	want := []fileStatus{{"a.txt", "FILE", "alice", "supergroup", "644", int64(len(data))}, {"b.txt", "FILE", "alice", "supergroup", "644", 10}}
	if got := list.FileStatuses.FileStatus; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("LISTSTATUS = %+v, want %+v", got, want)
	}
	st, _, body = webReq(t, m, "GET", "/user/alice/web", as("alice", "op", "LISTSTATUS"), nil)
	if st != 200 || !strings.Contains(string(body), `"childrenNum":2,`) {
		t.Errorf("LISTSTATUS's directory entry = %d %s, want childrenNum 2", st, body)
	}
	st, _, body = webReq(t, m, "GET", "/user/alice/web/in", as("alice", "op", "GETFILESTATUS"), nil)
	var one struct{ FileStatus fileStatus }
	if err := json.Unmarshal(body, &one); err != nil || st != 200 || one.FileStatus.Type != "DIRECTORY" || one.FileStatus.Permission != "750" {
		t.Errorf("GETFILESTATUS = %d %s", st, body)
	}

	st, _, body = webReq(t, m, "PUT", "/user/alice/web/in/a.txt", as("alice", "op", "RENAME", "destination", "/user/alice/web/in/c.txt"), nil)
	if st != 200 || strings.TrimSpace(string(body)) != `{"boolean":true}` {
		t.Fatalf("RENAME = %d %s", st, body)
	}
	if _, err := alice.Stat("/user/alice/web/in/c.txt"); err != nil {
		t.Errorf("the renamed file over RPC: %v", err)
	}
	st, _, body = webReq(t, m, "PUT", "/user/alice/web/in/missing", as("alice", "op", "RENAME", "destination", "/user/alice/web/x"), nil)
	if st != 200 || strings.TrimSpace(string(body)) != `{"boolean":false}` {
		t.Errorf("RENAME of a missing file = %d %s", st, body)
	}

	st, _, body = webReq(t, m, "DELETE", "/user/alice/web", as("alice", "op", "DELETE"), nil)
	wantWebError(t, "DELETE of a non-empty directory", st, body, 403, "org.apache.hadoop.fs.PathIsNotEmptyDirectoryException", "is non empty")
	st, _, body = webReq(t, m, "DELETE", "/user/alice/web", as("alice", "op", "DELETE", "recursive", "true"), nil)
	if st != 200 || strings.TrimSpace(string(body)) != `{"boolean":true}` {
		t.Fatalf("DELETE recursive = %d %s", st, body)
	}
	if _, err := os.Stat(filepath.Join(m.Root(), "user/alice/web")); !os.IsNotExist(err) {
		t.Errorf("deleted directory still there: %v", err)
	}
	st, _, body = webReq(t, m, "GET", "/user/alice", as("alice", "op", "GETHOMEDIRECTORY"), nil)
	if st != 200 || strings.TrimSpace(string(body)) != `{"Path":"/user/alice"}` {
		t.Errorf("GETHOMEDIRECTORY = %d %s", st, body)
	}
}

func TestWebHDFSRefusals(t *testing.T) {
	t.Parallel()
	m := webSetup(t, nil)

	// The NameNode's own permission checks, as the caller.
	st, _, body := webReq(t, m, "PUT", "/user/alice/x.txt", as("bob", "op", "CREATE"), []byte("x"))
	wantWebError(t, "bob's CREATE in alice's home", st, body, 403, "org.apache.hadoop.security.AccessControlException",
		`Permission denied: user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x`)
	st, _, body = webReq(t, m, "PUT", "/user/alice/d", as("bob", "op", "MKDIRS"), nil)
	wantWebError(t, "bob's MKDIRS in alice's home", st, body, 403, "org.apache.hadoop.security.AccessControlException", "user=bob, access=WRITE")
	if _, err := os.Stat(filepath.Join(m.Root(), "user/alice/x.txt")); !os.IsNotExist(err) {
		t.Errorf("the refused CREATE left a file: %v", err)
	}

	st, _, body = webReq(t, m, "GET", "/user/alice/nothing", as("alice", "op", "GETFILESTATUS"), nil)
	wantWebError(t, "GETFILESTATUS of a missing file", st, body, 404, "java.io.FileNotFoundException", "File does not exist: /user/alice/nothing")
	st, _, body = webReq(t, m, "GET", "/user/alice/nothing", as("alice", "op", "OPEN"), nil)
	wantWebError(t, "OPEN of a missing file", st, body, 404, "java.io.FileNotFoundException", "File /user/alice/nothing not found.")
	st, _, body = webReq(t, m, "GET", "/user/alice/nothing", as("alice", "op", "LISTSTATUS"), nil)
	wantWebError(t, "LISTSTATUS of a missing directory", st, body, 404, "java.io.FileNotFoundException", "File /user/alice/nothing does not exist.")

	st, _, body = webReq(t, m, "GET", "/user/alice", as("alice", "op", "BOGUS"), nil)
	wantWebError(t, "an unknown op", st, body, 400, "java.lang.IllegalArgumentException",
		`Invalid value for webhdfs parameter "op": No enum constant org.apache.hadoop.hdfs.web.resources.GetOpParam.Op.BOGUS`)
	st, _, body = webReq(t, m, "GET", "/user/alice", as("alice", "op", "MKDIRS"), nil)
	wantWebError(t, "a PUT op by GET", st, body, 400, "java.lang.IllegalArgumentException", "GetOpParam.Op.MKDIRS")
	st, _, body = webReq(t, m, "GET", "/user/alice", as("alice", "op", "GETCONTENTSUMMARY"), nil)
	wantWebError(t, "an op left out", st, body, 400, "java.lang.UnsupportedOperationException", "op=GETCONTENTSUMMARY is not supported")
	st, _, body = webReq(t, m, "DELETE", "/user/alice", as("alice", "op", "DELETE", "recursive", "maybe"), nil)
	wantWebError(t, "a bad boolean", st, body, 400, "java.lang.IllegalArgumentException", `webhdfs parameter "recursive"`)
	st, _, body = webReq(t, m, "PUT", "/user/alice", as("alice", "op", "RENAME", "destination", "relative"), nil)
	wantWebError(t, "a relative destination", st, body, 400, "java.lang.IllegalArgumentException", "is not an absolute path")
	st, _, body = webReq(t, m, "GET", "/user/alice", as("1bad user", "op", "GETFILESTATUS"), nil)
	wantWebError(t, "a user name out of the domain", st, body, 400, "java.lang.IllegalArgumentException", `webhdfs parameter "user.name"`)

	// The DataNode answers what its WebHdfsHandler answers.
	dn := "http://" + m.DataNodeHTTPAddr() + minidfs.WebHDFSPrefix + "/user/alice?user.name=alice"
	for _, c := range []struct{ query, msg string }{
		{"&op=OPEN", "namenoderpcaddress is not specified."},
		{"&op=MKDIRS&namenoderpcaddress=" + m.Addr(), "Invalid operation MKDIRS"},
	} {
		resp, err := http.Get(dn + c.query)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		wantWebError(t, "the DataNode's "+c.query, resp.StatusCode, b, 400, "java.lang.IllegalArgumentException", c.msg)
	}

	// doas: gozie may act for bob; bob may not act for alice.
	if st, _, body = webReq(t, m, "PUT", "/user/bob/by-proxy", as("gozie", "op", "MKDIRS", "doas", "bob"), nil); st != 200 {
		t.Fatalf("gozie doas=bob MKDIRS = %d %s", st, body)
	}
	st, _, body = webReq(t, m, "GET", "/user/bob/by-proxy", as("gozie", "op", "GETFILESTATUS", "doas", "bob"), nil)
	var one struct{ FileStatus fileStatus }
	if err := json.Unmarshal(body, &one); err != nil || st != 200 || one.FileStatus.Owner != "bob" {
		t.Errorf("a proxy's directory: %d %s, want bob's", st, body)
	}
	st, _, body = webReq(t, m, "GET", "/user/alice", as("bob", "op", "GETFILESTATUS", "doas", "alice"), nil)
	wantWebError(t, "bob doas=alice", st, body, 403, "java.lang.SecurityException",
		"Failed to obtain user group information: org.apache.hadoop.security.authorize.AuthorizationException: User: bob is not allowed to impersonate alice")

	// Anonymous callers are the static user, dr.who.
	st, _, body = webReq(t, m, "PUT", "/user/alice/anon", as("", "op", "MKDIRS"), nil)
	wantWebError(t, "an anonymous MKDIRS in alice's home", st, body, 403, "org.apache.hadoop.security.AccessControlException", "user=dr.who")
}

func TestWebHDFSAnonymousRefused(t *testing.T) {
	t.Parallel()
	m := webSetup(t, map[string]string{minidfs.AnonymousAllowedKey: "false"})
	st, h, _ := webReq(t, m, "GET", "/", as("", "op", "LISTSTATUS"), nil)
	if st != http.StatusUnauthorized || h.Get("WWW-Authenticate") != "PseudoAuth" {
		t.Errorf("anonymous LISTSTATUS = %d %v, want 401 PseudoAuth", st, h)
	}
	if st, _, body := webReq(t, m, "GET", "/", as("alice", "op", "LISTSTATUS"), nil); st != 200 {
		t.Errorf("alice's LISTSTATUS = %d %s", st, body)
	}
}

// TestWebHDFSStandby: a standby NameNode's WebHDFS answers as its RPC
// server does, and the HTTP addresses are in the client configuration.
func TestWebHDFSStandby(t *testing.T) {
	t.Parallel()
	m := startHA(t, minidfs.Options{})
	addrs := m.HTTPAddrs()
	conf := m.HTTPConf()
	if len(addrs) != 2 || conf["dfs.namenode.http-address."+minidfs.DefaultNameservice+".nn2"] != addrs[1] {
		t.Fatalf("HTTP addresses %v, conf %v", addrs, conf)
	}
	resp, err := http.Get("http://" + addrs[1] + "/webhdfs/v1/?op=LISTSTATUS&user.name=alice")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	wantWebError(t, "LISTSTATUS on the standby", resp.StatusCode, body, 403, "org.apache.hadoop.ipc.StandbyException", "Operation category READ is not supported in state standby")
	if err := m.Failover(1); err != nil {
		t.Fatal(err)
	}
	if st, _, body := webReq(t, m, "GET", "/", as("alice", "op", "LISTSTATUS"), nil); st != 200 {
		t.Errorf("LISTSTATUS on the new active = %d %s", st, body)
	}
}

// TestWebHDFSPython drives WebHDFS with Python's standard library, as
// Python clients (and Hue) do: the two-step CREATE by hand, the rest with
// urllib.
func TestWebHDFSPython(t *testing.T) {
	t.Parallel()
	python := testreq.Program(t, "python3", "python3")
	m := webSetup(t, nil)
	alice := newClient(t, "alice", m.Addr())
	putRPC(t, alice, "/user/alice/from-rpc.txt", "written over RPC\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, filepath.Join("testdata", "webhdfs_client.py"), "http://"+m.HTTPAddr()).CombinedOutput()
	if err != nil {
		t.Fatalf("webhdfs_client.py: %v\n%s", err, out)
	}
	for _, line := range []string{
		"mkdirs True",
		"create 201 hdfs://" + m.Addr() + "/user/alice/py/in/data.txt",
		"list data.txt FILE alice",
		"read 'written over RPC\\n'",
		"rename True",
		"refused 403 AccessControlException",
		"missing 404 FileNotFoundException",
		"delete True",
	} {
		if !strings.Contains(string(out), line+"\n") {
			t.Errorf("python output lacks %q:\n%s", line, out)
		}
	}
	if got, err := alice.ReadFile("/user/alice/py/out.txt"); err != nil || string(got) != "from python\n" {
		t.Errorf("RPC read of the file Python wrote = %q, %v", got, err)
	}
}
