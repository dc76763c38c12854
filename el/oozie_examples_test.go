package el

import (
	"encoding/xml"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// examplesDir holds Oozie's example applications, in the shared reference folder next to the
// repository; the path is relative to this package's directory.
var examplesDir = filepath.Join("..", "..", "shared", "oozie-reference", "examples")

// exampleTexts returns every attribute value and text of the example apps' XML files that
// contains an expression, keyed by "file: text".
func exampleTexts(t *testing.T) map[string]string {
	t.Helper()
	if _, err := os.Stat(examplesDir); err != nil {
		t.Skipf("Oozie example apps not available: %v", err)
	}
	texts := map[string]string{}
	err := filepath.WalkDir(examplesDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".xml") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		dec := xml.NewDecoder(f)
		for {
			tok, err := dec.Token()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			var found []string
			switch tok := tok.(type) {
			case xml.StartElement:
				for _, a := range tok.Attr {
					found = append(found, a.Value)
				}
			case xml.CharData:
				found = append(found, string(tok))
			}
			for _, s := range found {
				if Contains(s) {
					texts[path+": "+s] = s
				}
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return texts
}

// TestOozieExamplesParse parses every expression of Oozie's example applications.
func TestOozieExamplesParse(t *testing.T) {
	t.Parallel()
	texts := exampleTexts(t)
	if len(texts) < 100 {
		t.Fatalf("found only %d texts with expressions in %s", len(texts), examplesDir)
	}
	for where, text := range texts {
		if _, err := Parse(text); err != nil {
			t.Errorf("%s: %v", where, err)
		}
	}
}

// TestOozieExampleDecisions evaluates the decision predicates of the example apps with
// functions standing in for the workflow package's.
func TestOozieExampleDecisions(t *testing.T) {
	t.Parallel()
	texts := exampleTexts(t)
	counters := map[string]map[string]int64{
		"RECORDS": {"MAP_IN": 10, "MAP_OUT": 10, "REDUCE_IN": 10, "REDUCE_OUT": 10, "GROUPS": 3},
	}
	r := NewRegistry()
	r.RegisterArity("hadoop:counters", 1, func(*Env, []any) (any, error) { return counters, nil })
	r.RegisterArity("wf:actionData", 1, func(_ *Env, args []any) (any, error) {
		return map[string]string{"my_output": "Hello Oozie", "datelist": "2010-01-01T00:00Z"}, nil
	})
	r.RegisterArity("wf:user", 0, func(*Env, []any) (any, error) { return "alice", nil })
	var checked []string
	r.RegisterArity("fs:exists", 1, func(_ *Env, args []any) (any, error) {
		checked = append(checked, ToString(args[0]))
		return true, nil
	})
	vars := map[string]any{
		// Oozie binds the counter-group constants to strings; the stand-in uses the same names.
		"RECORDS": "RECORDS", "MAP_IN": "MAP_IN", "MAP_OUT": "MAP_OUT", "REDUCE_IN": "REDUCE_IN",
		"REDUCE_OUT": "REDUCE_OUT", "GROUPS": "GROUPS",
		"nameNode": "hdfs://nn", "examplesRoot": "examples", "EXPECTED_DATE_RANGE": "2010-01-01T00:00Z",
	}
	env := &Env{Funcs: Basic().With(r), Vars: MapVars(vars)}
	decisions := 0
	for where, text := range texts {
		if !strings.Contains(text, "hadoop:counters") && !strings.Contains(text, "fs:exists") &&
			!strings.Contains(text, " eq ") && !strings.Contains(text, "==") {
			continue
		}
		decisions++
		ok, err := env.EvalBool(text)
		if err != nil || !ok {
			t.Errorf("%s = %v, %v, want true", where, ok, err)
		}
	}
	if decisions < 3 {
		t.Errorf("found %d decision predicates, want at least 3", decisions)
	}
	want := "hdfs://nn/user/alice/examples/output-data/demo/mr-node"
	if len(checked) != 1 || checked[0] != want {
		t.Errorf("fs:exists called with %q, want [%q]", checked, want)
	}
}
