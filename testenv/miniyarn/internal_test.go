package miniyarn

import (
	"bytes"
	"encoding/base64"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/hadoop"
)

func TestVLongMatchesHadoop(t *testing.T) {
	t.Parallel()
	// Encodings as WritableUtils.writeVLong produces them.
	tests := []struct {
		v    int64
		want []byte
	}{
		{0, []byte{0x00}},
		{127, []byte{0x7f}},
		{-112, []byte{0x90}},
		{128, []byte{0x8f, 0x80}},
		{255, []byte{0x8f, 0xff}},
		{256, []byte{0x8e, 0x01, 0x00}},
		{-113, []byte{0x87, 0x70}},
		{-1000, []byte{0x86, 0x03, 0xe7}},
		{math.MaxInt64, []byte{0x88, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{math.MinInt64, []byte{0x80, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		writeVLong(&b, tc.v)
		if !bytes.Equal(b.Bytes(), tc.want) {
			t.Errorf("writeVLong(%d) = % x, want % x", tc.v, b.Bytes(), tc.want)
		}
		got, err := readVLong(bytes.NewReader(tc.want))
		if err != nil || got != tc.v {
			t.Errorf("readVLong(% x) = %d, %v; want %d", tc.want, got, err, tc.v)
		}
	}
}

func TestTokenURLString(t *testing.T) {
	t.Parallel()
	tok := hadoop.Token{Identifier: bytes.Repeat([]byte{7}, 200), Password: []byte("pw"), Kind: hadoop.KindHDFSDelegationToken, Service: "ha-hdfs:ns1"}
	s := encodeTokenURLString(tok)
	if strings.ContainsAny(s, "+/=") {
		t.Errorf("%q is not unpadded URL-safe base64", s)
	}
	// Writable layout: vint(200) is two bytes, then the identifier, and so on.
	raw, _ := base64.RawURLEncoding.DecodeString(s)
	if raw[0] != 0x8f || raw[1] != 200 || len(raw) != 2+200+1+2+1+len(tok.Kind)+1+len(tok.Service) {
		t.Errorf("layout % x…", raw[:4])
	}
	back, err := decodeTokenURLString(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Identifier, tok.Identifier) || string(back.Password) != "pw" || back.Kind != tok.Kind || back.Service != tok.Service {
		t.Errorf("round trip %+v", back)
	}
	for _, bad := range []string{"!!", "", "AQ", s + "AAAA", s[:len(s)-3]} {
		if _, err := decodeTokenURLString(bad); err == nil {
			t.Errorf("decodeTokenURLString(%q) succeeded", bad)
		}
	}
}

func FuzzDecodeTokenURLString(f *testing.F) {
	f.Add(encodeTokenURLString(hadoop.Token{Identifier: []byte("i"), Password: []byte("p"), Kind: "K", Service: "S"}))
	f.Add("AAAAAA")
	f.Add("j_____8")
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := decodeTokenURLString(s)
		if err != nil {
			return
		}
		back, err := decodeTokenURLString(encodeTokenURLString(tok))
		if err != nil || !bytes.Equal(back.Identifier, tok.Identifier) || back.Kind != tok.Kind {
			t.Fatalf("re-encoding %+v: %+v, %v", tok, back, err)
		}
	})
}

func TestExpandVars(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"{{JAVA_HOME}}/bin/java -cp {{PWD}}<CPS>lib/*", "$JAVA_HOME/bin/java -cp $PWD:lib/*"},
		{"run 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", "run 1>/logs/c1/stdout 2>/logs/c1/stderr"},
		{"{{not a var}} {{}} {{A1_B}}", "{{not a var}} {{}} $A1_B"},
	}
	for _, tc := range tests {
		if got := expandVars(tc.in, "/logs/c1"); got != tc.want {
			t.Errorf("expandVars(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLaunchScriptQuoting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "it's a file")
	if err := os.WriteFile(target, []byte("linked\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []envVar{{"LOG_DIRS", dir}, {"A", `x "y" \z $HOME`}, {"B", "$A-suffix"}}
	script := launchScript(env, map[string]string{"d/link's": target}, `printf '%s|%s\n' "$A" "$B"; cat "d/link's"`)
	path := filepath.Join(dir, "launch.sh")
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/bash", path)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/h"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("script failed: %v\n%s", err, script)
	}
	lines := strings.Split(string(out), "\n")
	want := `x "y" \z /h|x "y" \z /h-suffix`
	if !strings.Contains(string(out), want+"\nlinked\n") {
		t.Errorf("output %q, want lines %q and linked", lines, want)
	}
}

func TestArchivesCannotEscape(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"../evil", "a/../../evil", "/abs/ok"} {
		p, err := safeJoin(dir, name)
		if name == "/abs/ok" {
			if err != nil || p != filepath.Join(dir, "abs/ok") {
				t.Errorf("safeJoin(%q) = %q, %v", name, p, err)
			}
			continue
		}
		if err == nil && !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			t.Errorf("safeJoin(%q) = %q escapes %s", name, p, dir)
		}
		if err != nil && !errors.Is(err, errArchiveEscape) {
			t.Errorf("safeJoin(%q) error %v", name, err)
		}
	}
	plain := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, err := unpackArchive(plain, filepath.Join(dir, "out")); ok || err != nil {
		t.Errorf("a .txt was unpacked: %v %v", ok, err)
	}
	broken := filepath.Join(dir, "broken.zip")
	if err := os.WriteFile(broken, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, err := unpackArchive(broken, filepath.Join(dir, "out2")); !ok || err == nil {
		t.Errorf("a broken zip unpacked: %v %v", ok, err)
	}
}
