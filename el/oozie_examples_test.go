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

	"github.com/gozie/gozie/internal/testapps"
)

// exampleTexts returns every attribute value and text of the XML files under dir that
// contains an expression, keyed by "file: text", and the number of XML files.
func exampleTexts(t *testing.T, dir string) (texts map[string]string, files int) {
	t.Helper()
	texts = map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".xml") {
			return err
		}
		files++
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
	return texts, files
}

// TestExamplesParse parses every expression of the example apps' XML files (gozie's own, and
// Oozie's when GOZIE_OOZIE_EXAMPLES names them).
func TestExamplesParse(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		texts, files := exampleTexts(t, apps)
		// Every app parameterizes its paths, so there are more expressions than files.
		if files == 0 || len(texts) < 2*files {
			t.Fatalf("found only %d texts with expressions in %d XML files under %s", len(texts), files, apps)
		}
		for where, text := range texts {
			if _, err := Parse(text); err != nil {
				t.Errorf("%s: %v", where, err)
			}
		}
	})
}

// TestOozieExampleDecisions evaluates the decision predicates of Oozie's example apps with
// functions standing in for the workflow package's.
func TestOozieExampleDecisions(t *testing.T) {
	t.Parallel()
	texts, _ := exampleTexts(t, testapps.OozieDir(t))
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

// TestExampleDecisions evaluates the decision predicates of gozie's own example apps with
// functions standing in for the workflow package's: true with the action data their scripts
// print, false when that data is wrong.
func TestExampleDecisions(t *testing.T) {
	t.Parallel()
	texts, _ := exampleTexts(t, testapps.Dir())
	good := map[string]map[string]string{
		"report":      {"argc": "2", "user": "alice", "greeting": "hello"},
		"report-args": {"argc": "2", "arg.0": "hello", "arg.1": "alice"},
	}
	env := func(data map[string]map[string]string) *Env {
		r := NewRegistry()
		r.RegisterArity("wf:actionData", 1, func(_ *Env, args []any) (any, error) { return data[ToString(args[0])], nil })
		r.RegisterArity("wf:user", 0, func(*Env, []any) (any, error) { return "alice", nil })
		r.RegisterArity("wf:conf", 1, func(_ *Env, args []any) (any, error) {
			return map[string]string{"greeting": "hello"}[ToString(args[0])], nil
		})
		return &Env{Funcs: Basic().With(r), Vars: MapVars(map[string]any{})}
	}
	decisions := 0
	for where, text := range texts {
		// The predicates over the report steps' data; other apps' decisions
		// (datelist-java-main, ssh, hadoop-el) are run end to end in e2e.
		if !strings.Contains(text, "wf:actionData('report") || !strings.Contains(text, " eq ") {
			continue
		}
		decisions++
		if ok, err := env(good).EvalBool(text); err != nil || !ok {
			t.Errorf("%s = %v, %v, want true", where, ok, err)
		}
		wrong := map[string]map[string]string{"report": {"argc": "1"}, "report-args": {"argc": "1"}}
		if ok, err := env(wrong).EvalBool(text); err != nil || ok {
			t.Errorf("%s with one argument = %v, %v, want false", where, ok, err)
		}
	}
	if decisions < 2 {
		t.Errorf("found %d decision predicates on action data, want the shell's and java-main's", decisions)
	}
}
