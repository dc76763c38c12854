package xmltree_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/xmltree"
)

// TestReadOozieExamples reads every XML file of Oozie's example apps (kept next to the
// repository, in ../shared/oozie-reference/examples/apps) and checks each element's line
// against the file's text. The test is skipped when the examples are not there.
func TestReadOozieExamples(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "oozie-reference", "examples", "apps"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("Oozie's example apps are not available: %v", err)
	}
	var files []string
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".xml") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no XML files under %s", dir)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		root, err := xmltree.Read(data, 64)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if !strings.HasPrefix(root.Name().Space, "uri:oozie:") {
			t.Errorf("%s: root <%s> in namespace %q", path, root.Name().Local, root.Name().Space)
		}
		lines := bytes.Split(data, []byte("\n"))
		checkLines(t, path, lines, root)
	}
}

// checkLines verifies that every element starts on the line Line reports: that line holds
// the element's name just after "<" or after a namespace prefix's colon.
func checkLines(t *testing.T, path string, lines [][]byte, n *xmltree.Node) {
	t.Helper()
	if n.Line() < 1 || n.Line() > len(lines) {
		t.Errorf("%s: %s is outside the file's %d lines", path, n.Where(), len(lines))
		return
	}
	if !bytes.Contains(lines[n.Line()-1], []byte("<"+n.Name().Local)) &&
		!bytes.Contains(lines[n.Line()-1], []byte(":"+n.Name().Local)) {
		t.Errorf("%s: %s, but that line is %q", path, n.Where(), lines[n.Line()-1])
	}
	for _, c := range n.Children() {
		checkLines(t, path, lines, c)
	}
}
