package xmltree_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/xmltree"
)

// TestReadExamples reads every XML file of the example apps (gozie's own, and Oozie's when
// GOZIE_OOZIE_EXAMPLES names them) and checks each element's line against the file's text.
func TestReadExamples(t *testing.T) {
	t.Parallel()
	testapps.Each(t, readExamples)
}

func readExamples(t *testing.T, dir string) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
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
