package clustertools_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/testenv/clustertools"
)

func TestHadoopFS(t *testing.T) {
	t.Parallel()
	e := setup(t)
	local := filepath.Join(t.TempDir(), "local.txt")
	if err := os.WriteFile(local, []byte("from local\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		args []string
		code int
		out  string // a part of stdout
	}{
		{[]string{"hadoop", "fs", "-mkdir", "/user/alice/a/b"}, 1, ""},
		{[]string{"hadoop", "fs", "-mkdir", "-p", "/user/alice/a/b"}, 0, ""},
		{[]string{"hadoop", "fs", "-test", "-d", "/user/alice/a/b"}, 0, ""},
		{[]string{"hadoop", "fs", "-put", local, "a/b"}, 0, ""},
		{[]string{"hadoop", "fs", "-put", local, "a/b"}, 1, ""},
		{[]string{"hdfs", "dfs", "-cat", "/user/alice/a/b/local.txt"}, 0, "from local"},
		{[]string{"hadoop", "fs", "-ls", "/user/alice/a/b"}, 0, "Found 1 items"},
		{[]string{"hadoop", "fs", "-ls", "-R", "/user/alice/a"}, 0, "/user/alice/a/b/local.txt"},
		{[]string{"hadoop", "fs", "-du", "-s", "/user/alice/a"}, 0, "11  "},
		{[]string{"hadoop", "fs", "-cp", "/user/alice/a/b/local.txt", "/user/alice/copy.txt"}, 0, ""},
		{[]string{"hadoop", "fs", "-mv", "/user/alice/copy.txt", "/user/alice/moved.txt"}, 0, ""},
		{[]string{"hadoop", "fs", "-test", "-e", "/user/alice/copy.txt"}, 1, ""},
		{[]string{"hadoop", "fs", "-test", "-s", "/user/alice/moved.txt"}, 0, ""},
		{[]string{"hadoop", "fs", "-touchz", "/user/alice/a/_DONE"}, 0, ""},
		{[]string{"hadoop", "fs", "-test", "-z", "/user/alice/a/_DONE"}, 0, ""},
		{[]string{"hadoop", "fs", "-cat", "/user/alice/a/*/local.txt"}, 0, "from local"},
		{[]string{"hadoop", "fs", "-rm", "/user/alice/a"}, 1, ""},
		{[]string{"hadoop", "fs", "-rm", "-r", "-skipTrash", "/user/alice/a"}, 0, "Deleted"},
		{[]string{"hadoop", "fs", "-test", "-e", "/user/alice/a"}, 1, ""},
		{[]string{"hadoop", "fs", "-rm", "-f", "/user/alice/nothing"}, 0, ""},
		{[]string{"hadoop", "fs", "-cat", "/user/alice/nothing"}, 1, ""},
		{[]string{"hadoop", "fs", "-frobnicate"}, 2, ""},
		{[]string{"hadoop", "version"}, 0, "Hadoop"},
	}
	for _, s := range steps {
		r := e.run(t, ctxT(t), s.args...)
		if r.code != s.code || !strings.Contains(r.stdout, s.out) {
			t.Errorf("%q: exit %d, stdout %q (stderr %q); want exit %d with %q", s.args, r.code, r.stdout, r.stderr, s.code, s.out)
		}
	}
	if got := e.read(t, "/user/alice/moved.txt"); got != "from local\n" {
		t.Errorf("moved file holds %q", got)
	}
	back := filepath.Join(t.TempDir(), "back.txt")
	if r := e.run(t, ctxT(t), "hadoop", "fs", "-get", "/user/alice/moved.txt", back); r.code != 0 {
		t.Fatalf("-get: %s", r.stderr)
	}
	if b, err := os.ReadFile(back); err != nil || string(b) != "from local\n" {
		t.Errorf("-get wrote %q, %v", b, err)
	}
}

func TestToolsNeedTheClusterConfiguration(t *testing.T) {
	t.Parallel()
	var stderr syncBuffer
	code := clustertools.Main(ctxT(t), []string{"hadoop", "fs", "-ls", "/"}, clustertools.Env{Stderr: &stderr})
	if code == 0 || !strings.Contains(stderr.String(), "HADOOP_CONF_DIR") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if code := clustertools.Main(ctxT(t), []string{"nosuchtool"}, clustertools.Env{}); code != 2 {
		t.Errorf("unknown tool: exit %d", code)
	}
}

// TestInstalledWrappersRunTheBinary runs the wrapper scripts as a
// container's shell would.
func TestInstalledWrappersRunTheBinary(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "bin with space")
	if err := clustertools.Install(dir, binary); err != nil {
		t.Fatal(err)
	}
	for _, name := range clustertools.Tools {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm()&0o111 == 0 {
			t.Errorf("wrapper %s: %v", name, err)
		}
	}
	cmd := exec.Command("/bin/sh", "-c", "hadoop version")
	cmd.Env = []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "gozie stand-in") {
		t.Errorf("hadoop version through the wrapper: %v %s", err, out)
	}
	if err := clustertools.Install(dir, "relative/gozie"); err == nil {
		t.Error("Install accepted a relative binary path")
	}
}
