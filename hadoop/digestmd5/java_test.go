package digestmd5

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testreq"
)

// update regenerates testdata/java_vectors.json with the JDK's DIGEST-MD5.
var update = flag.Bool("update", false, "regenerate testdata/java_vectors.json with the JDK (needs javac)")

const vectorsFile = "testdata/java_vectors.json"

// javaVector is one exchange between the JDK's DIGEST-MD5 client and
// server, captured by testdata/SaslPeer.java ("pair"): the three messages
// and the messages each side wrapped.
type javaVector struct {
	Name         string   `json:"name"`
	User         string   `json:"user"`
	Password     string   `json:"password"`
	Cipher       string   `json:"cipher,omitempty"`
	Messages     []string `json:"messages"` // base64
	Challenge    string   `json:"challenge"`
	Response     string   `json:"response"`
	Rspauth      string   `json:"rspauth"`
	Qop          string   `json:"qop"`
	ClientWraps  []string `json:"client_wraps"`
	ServerWraps  []string `json:"server_wraps"`
	ServerQops   string   `json:"server_qops"`
	ClientQops   string   `json:"client_qops"`
	JavaVersion  string   `json:"java_version,omitempty"`
	CapturedWith string   `json:"captured_with,omitempty"`
}

// vectorCases are the exchanges captured: every qop, every cipher, and
// user names that exercise the ISO 8859-1 / UTF-8 rule.
var vectorCases = []struct {
	name, serverQops, clientQops, cipher, user, password string
}{
	{"auth", "auth-conf,auth-int,auth", "auth", "", "dG9rZW4=", "cGFzcw=="},
	{"auth-int", "auth-conf,auth-int,auth", "auth-int", "", "dG9rZW4=", "cGFzcw=="},
	{"auth-conf 3des", "auth-conf", "auth-conf", Cipher3DES, "dG9rZW4=", "cGFzcw=="},
	{"auth-conf rc4", "auth-conf", "auth-conf", CipherRC4, "dG9rZW4=", "cGFzcw=="},
	{"auth-conf des", "auth-conf", "auth-conf", CipherDES, "dG9rZW4=", "cGFzcw=="},
	{"auth-conf rc4-56", "auth-conf", "auth-conf", CipherRC456, "dG9rZW4=", "cGFzcw=="},
	{"auth-conf rc4-40", "auth-conf", "auth-conf", CipherRC440, "dG9rZW4=", "cGFzcw=="},
	{"latin-1 user", "auth-int", "auth-int", "", "ünï", "pässwörd"},
	{"utf-8 user", "auth-conf", "auth-conf", Cipher3DES, "用户", "密码"},
}

// vectorMessages are wrapped by both sides: empty-ish, block-aligned and
// unaligned lengths, and one of several DES blocks.
func vectorMessages() [][]byte {
	return [][]byte{
		[]byte("hello"),
		[]byte("exactly 22 bytes......"), // 22+10 = 32: a full block of padding
		bytes.Repeat([]byte{0, 1, 2, 0xff}, 75),
	}
}

// javaPeer is a running testdata/SaslPeer.java.
type javaPeer struct {
	in  io.WriteCloser
	out *bufio.Scanner
}

func startJavaPeer(t *testing.T) *javaPeer {
	t.Helper()
	javac := testreq.Program(t, "default-jdk-headless", "javac")
	java := testreq.Program(t, "default-jdk-headless", "java")
	dir := t.TempDir()
	if out, err := exec.Command(javac, "-d", dir, filepath.Join("testdata", "SaslPeer.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	cmd := exec.Command(java, "-cp", dir, "SaslPeer")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	// The JDK logs every MAC it refuses; show its log only on failure.
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
		if t.Failed() {
			t.Logf("java stderr:\n%s", stderr.String())
		}
	})
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	return &javaPeer{in: in, out: sc}
}

// do sends one command and returns the answer's words; "error ..."
// answers become errors.
func (p *javaPeer) do(cmd ...string) ([]string, error) {
	if _, err := fmt.Fprintln(p.in, strings.Join(cmd, " ")); err != nil {
		return nil, err
	}
	if !p.out.Scan() {
		return nil, fmt.Errorf("java peer ended: %v", p.out.Err())
	}
	line := p.out.Text()
	if rest, ok := strings.CutPrefix(line, "error "); ok {
		return nil, errors.New(rest)
	}
	return strings.Fields(line), nil
}

func b64(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	return base64.StdEncoding.EncodeToString(b)
}

func unb64(t *testing.T, s string) []byte {
	t.Helper()
	if s == "-" {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestJavaVectors replays exchanges captured from the JDK's DIGEST-MD5:
// the Go server must accept the Java client's response and answer the
// same rspauth, the Go client must compute the same response to the Java
// server's challenge, and both sides must wrap byte for byte what Java
// wrapped and unwrap what Java wrapped. It needs no JDK.
func TestJavaVectors(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	var vectors []javaVector
	if err := json.Unmarshal(b, &vectors); err != nil {
		t.Fatal(err)
	}
	if len(vectors) != len(vectorCases) {
		t.Fatalf("%s has %d vectors, want %d (go test -update)", vectorsFile, len(vectors), len(vectorCases))
	}
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			checkVector(t, v)
		})
	}
}

func checkVector(t *testing.T, v javaVector) {
	t.Helper()
	challenge, response, rspauth := unb64(t, v.Challenge), unb64(t, v.Response), unb64(t, v.Rspauth)
	ch, err := parseDirectives(string(challenge))
	if err != nil {
		t.Fatal(err)
	}
	rd, err := parseDirectives(string(response))
	if err != nil {
		t.Fatal(err)
	}
	var msgs [][]byte
	for _, m := range v.Messages {
		msgs = append(msgs, unb64(t, m))
	}

	// The Go server, with the Java server's nonce, against the Java client.
	srv := &Server{Realm: "default", ServerName: "default", Qops: splitList(v.ServerQops),
		Nonce:    func() (string, error) { return ch.get("nonce"), nil },
		Password: func(u string) (string, error) { return map[string]string{v.User: v.Password}[u], nil }}
	if v.Cipher != "" {
		srv.Ciphers = []string{v.Cipher}
	}
	if _, err := srv.Challenge(); err != nil {
		t.Fatal(err)
	}
	got, err := srv.Respond(response)
	if err != nil {
		t.Fatalf("Go server refused the Java client's response: %v", err)
	}
	if !bytes.Equal(got, rspauth) {
		t.Errorf("Go server rspauth %q, Java's %q", got, rspauth)
	}
	if srv.Qop() != v.Qop || srv.Username() != v.User {
		t.Errorf("Go server negotiated %q for %q, Java %q", srv.Qop(), srv.Username(), v.Qop)
	}

	// The Go client, with the Java client's cnonce, against the Java server.
	cl := &Client{Username: v.User, Password: v.Password, ServerName: "default", Qops: splitList(v.ClientQops),
		CNonce: func() (string, error) { return rd.get("cnonce"), nil }}
	if v.Cipher != "" {
		cl.Ciphers = []string{v.Cipher}
	}
	mine, err := cl.Respond(challenge)
	if err != nil {
		t.Fatalf("Go client refused the Java server's challenge: %v", err)
	}
	md, err := parseDirectives(string(mine))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"response", "qop", "cipher", "nc", "digest-uri", "realm", "username"} {
		if md.get(k) != rd.get(k) {
			t.Errorf("Go client %s=%q, Java's %q", k, md.get(k), rd.get(k))
		}
	}
	if err := cl.Verify(rspauth); err != nil {
		t.Fatalf("Go client refused the Java server's rspauth: %v", err)
	}

	cLayer, sLayer := cl.SecurityLayer(), srv.SecurityLayer()
	if v.Qop == QopAuth {
		if cLayer != nil || sLayer != nil {
			t.Fatal("a security layer for qop auth")
		}
		return
	}
	if cLayer == nil || sLayer == nil || cLayer.Cipher() != v.Cipher || sLayer.Cipher() != v.Cipher {
		t.Fatalf("layers %v %v, want cipher %q", cLayer, sLayer, v.Cipher)
	}
	for i, m := range msgs {
		if w := cLayer.Wrap(m); !bytes.Equal(w, unb64(t, v.ClientWraps[i])) {
			t.Errorf("message %d: the Go client wraps\n%x\nJava's client wrapped\n%x", i, w, unb64(t, v.ClientWraps[i]))
		}
		if w := sLayer.Wrap(m); !bytes.Equal(w, unb64(t, v.ServerWraps[i])) {
			t.Errorf("message %d: the Go server wraps\n%x\nJava's server wrapped\n%x", i, w, unb64(t, v.ServerWraps[i]))
		}
	}
	// Fresh layers unwrap what Java wrapped, in order.
	cl2, srv2 := replay(t, v, ch, rd, challenge, response, rspauth)
	for i, m := range msgs {
		got, err := srv2.Unwrap(unb64(t, v.ClientWraps[i]))
		if err != nil || !bytes.Equal(got, m) {
			t.Errorf("message %d: Go server unwrapped Java's client message to %q, %v", i, got, err)
		}
		got, err = cl2.Unwrap(unb64(t, v.ServerWraps[i]))
		if err != nil || !bytes.Equal(got, m) {
			t.Errorf("message %d: Go client unwrapped Java's server message to %q, %v", i, got, err)
		}
	}
}

// replay runs the vector's exchange again for new layers with fresh
// sequence numbers.
func replay(t *testing.T, v javaVector, ch, rd directives, challenge, response, rspauth []byte) (client, server *SecurityLayer) {
	t.Helper()
	srv := &Server{Realm: "default", ServerName: "default", Qops: splitList(v.ServerQops),
		Nonce:    func() (string, error) { return ch.get("nonce"), nil },
		Password: func(string) (string, error) { return v.Password, nil }}
	cl := &Client{Username: v.User, Password: v.Password, ServerName: "default", Qops: splitList(v.ClientQops),
		CNonce: func() (string, error) { return rd.get("cnonce"), nil }}
	if v.Cipher != "" {
		srv.Ciphers, cl.Ciphers = []string{v.Cipher}, []string{v.Cipher}
	}
	if _, err := srv.Challenge(); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Respond(response); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Respond(challenge); err != nil {
		t.Fatal(err)
	}
	if err := cl.Verify(rspauth); err != nil {
		t.Fatal(err)
	}
	return cl.SecurityLayer(), srv.SecurityLayer()
}

// TestJavaInterop runs the Go client against the JDK's DIGEST-MD5 server
// and the JDK's client against the Go server, live, for every qop and
// cipher, with messages both ways; then the refusals of a qop mismatch.
// With -update it also recaptures testdata/java_vectors.json.
func TestJavaInterop(t *testing.T) {
	t.Parallel()
	java := startJavaPeer(t)
	for _, tc := range vectorCases {
		t.Run(tc.name, func(t *testing.T) {
			goClientJavaServer(t, java, tc.serverQops, tc.clientQops, tc.cipher, tc.user, tc.password)
			javaClientGoServer(t, java, tc.serverQops, tc.clientQops, tc.cipher, tc.user, tc.password)
		})
	}
	t.Run("mismatch", func(t *testing.T) {
		// hadoop.rpc.protection=privacy on the server, authentication on
		// the client: neither side's client goes on.
		ans, err := java.do("server", "auth-conf", b64([]byte("u")), b64([]byte("p")))
		if err != nil {
			t.Fatal(err)
		}
		cl := &Client{Username: "u", Password: "p", ServerName: "default"}
		if _, err := cl.Respond(unb64(t, ans[1])); !errors.Is(err, ErrNoCommonQop) {
			t.Errorf("Go client against a privacy-only Java server: %v, want ErrNoCommonQop", err)
		}
		srv := &Server{Realm: "default", ServerName: "default", Qops: []string{QopAuthConf},
			Password: func(string) (string, error) { return "p", nil }}
		ch, err := srv.Challenge()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := java.do("client", "auth", b64([]byte("u")), b64([]byte("p"))); err != nil {
			t.Fatal(err)
		}
		if _, err := java.do("challenge", b64(ch)); err == nil || !strings.Contains(err.Error(), "No common protection layer") {
			t.Errorf("Java client against a privacy-only Go server: %v", err)
		}
	})
	if *update {
		recordVectors(t, java)
	}
}

func goClientJavaServer(t *testing.T, java *javaPeer, serverQops, clientQops, cipher, user, password string) {
	t.Helper()
	ans, err := java.do("server", serverQops, b64([]byte(user)), b64([]byte(password)))
	if err != nil {
		t.Fatal(err)
	}
	cl := &Client{Username: user, Password: password, ServerName: "default", Qops: splitList(clientQops)}
	if cipher != "" {
		cl.Ciphers = []string{cipher}
	}
	resp, err := cl.Respond(unb64(t, ans[1]))
	if err != nil {
		t.Fatalf("Go client: %v", err)
	}
	ans, err = java.do("response", b64(resp))
	if err != nil {
		t.Fatalf("the Java server refused the Go client: %v", err)
	}
	if ans[2] != clientQops {
		t.Errorf("Java server negotiated %s, want %s", ans[2], clientQops)
	}
	if err := cl.Verify(unb64(t, ans[1])); err != nil {
		t.Fatalf("Go client refused the Java server's rspauth: %v", err)
	}
	exchange(t, java, cl.SecurityLayer(), clientQops)
}

func javaClientGoServer(t *testing.T, java *javaPeer, serverQops, clientQops, cipher, user, password string) {
	t.Helper()
	srv := &Server{Realm: "default", ServerName: "default", Qops: splitList(serverQops),
		Password: func(u string) (string, error) {
			if u != user {
				return "", errors.New("unknown user")
			}
			return password, nil
		}}
	if cipher != "" {
		srv.Ciphers = []string{cipher}
	}
	ch, err := srv.Challenge()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"client", clientQops, b64([]byte(user)), b64([]byte(password))}
	if _, err := java.do(args...); err != nil {
		t.Fatal(err)
	}
	ans, err := java.do("challenge", b64(ch))
	if err != nil {
		t.Fatalf("the Java client refused the Go server's challenge: %v", err)
	}
	rsp, err := srv.Respond(unb64(t, ans[1]))
	if err != nil {
		t.Fatalf("the Go server refused the Java client: %v", err)
	}
	if srv.Qop() != clientQops {
		t.Errorf("Go server negotiated %s, want %s", srv.Qop(), clientQops)
	}
	if ans, err = java.do("rspauth", b64(rsp)); err != nil {
		t.Fatalf("the Java client refused the Go server's rspauth: %v", err)
	} else if ans[1] != clientQops {
		t.Errorf("Java client completed with %s", ans[1])
	}
	exchange(t, java, srv.SecurityLayer(), clientQops)
}

// exchange wraps messages on the Go side for Java to unwrap and the other
// way round, then checks that Java discards a tampered Go message (the
// JDK drops a message whose MAC fails) and that Go refuses a replayed Java
// message.
func exchange(t *testing.T, java *javaPeer, l *SecurityLayer, qop string) {
	t.Helper()
	if qop == QopAuth {
		if l != nil {
			t.Fatal("a security layer for qop auth")
		}
		return
	}
	if l == nil || l.Qop() != qop {
		t.Fatalf("layer %v, want qop %s", l, qop)
	}
	var last []byte
	for i, m := range append(vectorMessages(), bytes.Repeat([]byte("big"), 24000)) {
		ans, err := java.do("unwrap", b64(l.Wrap(m)))
		if err != nil || !bytes.Equal(unb64(t, ans[1]), m) {
			t.Fatalf("message %d: Java unwrapped the Go message to %d bytes, %v", i, len(ans), err)
		}
		ans, err = java.do("wrap", b64(m))
		if err != nil {
			t.Fatal(err)
		}
		last = unb64(t, ans[1])
		got, err := l.Unwrap(last)
		if err != nil || !bytes.Equal(got, m) {
			t.Fatalf("message %d: Go unwrapped the Java message to %d bytes, %v", i, len(got), err)
		}
	}
	// Java drops a message whose MAC fails (it unwraps to nothing).
	w := l.Wrap([]byte("tampered"))
	w[0] ^= 0x80
	if ans, err := java.do("unwrap", b64(w)); err == nil && ans[1] != "-" {
		t.Errorf("Java accepted a tampered Go message: %v", ans)
	}
	// A replayed message fails its sequence number (auth-int) or, under a
	// cipher whose state moved on, its MAC (auth-conf).
	if _, err := l.Unwrap(last); !errors.Is(err, ErrSequence) && !(qop == QopAuthConf && errors.Is(err, ErrIntegrity)) {
		t.Errorf("a replayed Java message: %v", err)
	}
}

// recordVectors captures java_vectors.json.
func recordVectors(t *testing.T, java *javaPeer) {
	var msgs []string
	for _, m := range vectorMessages() {
		msgs = append(msgs, b64(m))
	}
	version, _ := exec.Command("java", "-version").CombinedOutput()
	var out []javaVector
	for _, tc := range vectorCases {
		cipher := tc.cipher
		if cipher == "" {
			cipher = "-"
		}
		ans, err := java.do("pair", tc.serverQops, tc.clientQops, cipher, b64([]byte(tc.user)), b64([]byte(tc.password)), strings.Join(msgs, ","))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var v javaVector
		if err := json.Unmarshal([]byte(strings.Join(ans, " ")), &v); err != nil {
			t.Fatal(err)
		}
		v.Name, v.User, v.Password, v.Cipher, v.Messages = tc.name, tc.user, tc.password, tc.cipher, msgs
		v.ServerQops, v.ClientQops = tc.serverQops, tc.clientQops
		v.JavaVersion = strings.SplitN(strings.TrimSpace(string(version)), "\n", 2)[0]
		v.CapturedWith = "testdata/SaslPeer.java pair"
		out = append(out, v)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vectorsFile, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
