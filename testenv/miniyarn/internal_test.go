package miniyarn

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

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
