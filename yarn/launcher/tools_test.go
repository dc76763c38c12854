package launcher

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestOutputScanner(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		stdout   string
		stderr   string
		apps     []string
		newID    string
		code     string
		msg      string
		lastLine string
	}{
		{name: "tez query",
			stderr: "INFO  : Compiling command\nINFO  : Executing on YARN cluster with App id application_1700000000000_0007\n" +
				"INFO  : Executing on YARN cluster with App id application_1700000000000_0007\n",
			apps: []string{"application_1700000000000_0007"}, newID: "application_1700000000000_0007",
			lastLine: "INFO  : Executing on YARN cluster with App id application_1700000000000_0007"},
		{name: "mr job lines", stderr: "INFO  : Ended Job = job_1700000000000_0003\nRunning with YARN Application = application_1_2",
			apps: []string{"application_1700000000000_0003", "application_1_2"}, newID: "application_1700000000000_0003",
			lastLine: "Running with YARN Application = application_1_2"},
		{name: "mapred submit", stdout: "Created job job_1700000000000_0009\r\n",
			stderr: "INFO impl.YarnClientImpl: Submitted application application_1700000000000_0009\n",
			apps:   []string{"application_1700000000000_0009"}, newID: "application_1700000000000_0009",
			lastLine: "INFO impl.YarnClientImpl: Submitted application application_1700000000000_0009"},
		{name: "beeline error",
			stderr: "Error: Error while compiling statement: FAILED: SemanticException [Error 10001]: Line 1:14 Table not found 'x' (state=42S02,code=10001)\n",
			code:   "10001", msg: "Error while compiling statement: FAILED: SemanticException [Error 10001]: Line 1:14 Table not found 'x'",
			lastLine: "Error: Error while compiling statement: FAILED: SemanticException [Error 10001]: Line 1:14 Table not found 'x' (state=42S02,code=10001)"},
		{name: "last error wins", stderr: "Error: first (state=1,code=1)\nError: second (state=08S01,code=2)",
			code: "2", msg: "second", lastLine: "Error: second (state=08S01,code=2)"},
		{name: "nothing", stdout: "+----+\n| a |\n", lastLine: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &outputScanner{}
			out, errs := sc.stream(false), sc.stream(true)
			// Written in pieces, as pipes deliver them.
			for _, w := range []struct {
				s    *scanStream
				text string
			}{{out, tt.stdout}, {errs, tt.stderr}} {
				for i := 0; i < len(w.text); i += 7 {
					w.s.Write([]byte(w.text[i:min(i+7, len(w.text))]))
				}
				w.s.flush()
			}
			if got := sc.childApps(); !slices.Equal(got, tt.apps) {
				t.Errorf("apps %v, want %v", got, tt.apps)
			}
			if got := sc.newID(); got != tt.newID {
				t.Errorf("newID %q, want %q", got, tt.newID)
			}
			code, msg, ok := sc.hiveError()
			if code != tt.code || msg != tt.msg || ok != (tt.code != "") {
				t.Errorf("hiveError %q %q %v, want %q %q", code, msg, ok, tt.code, tt.msg)
			}
			if got := sc.lastError(); got != tt.lastLine {
				t.Errorf("lastError %q, want %q", got, tt.lastLine)
			}
		})
	}
}

func TestHiveCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	writeScript(t, bin, "beeline", "#!/bin/sh\n", 0o755)
	f := newFiles(dir)
	container := []string{"PATH=" + bin + ":/usr/bin"}
	spec := &Spec{Type: TypeHive, User: "alice", ChildTag: "t-child", Hive: &HiveSpec{
		JDBCURL: "jdbc:hive2://h:10000/db;auth=noSasl", Script: "script.q", Params: []string{"IN=/a", "OUT=/b=c"},
		HiveConf: map[string]string{"z": "1", "a.b": "x y"}, Args: []string{"--silent=true"},
	}}
	c, err := hiveCommand(spec, container, f, time.UnixMilli(5))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"beeline", "-u", "jdbc:hive2://h:10000/db;auth=noSasl", "-n", "alice", "-p", "DUMMY",
		"-d", "org.apache.hive.jdbc.HiveDriver", "--hiveconf", "a.b=x y", "--hiveconf", "z=1",
		"--hivevar", "IN=/a", "--hivevar", "OUT=/b=c", "--silent=true", "-f", "script.q"}
	if c.path != filepath.Join(bin, "beeline") || !slices.Equal(c.args, want) {
		t.Errorf("command %q %q, want %q", c.path, c.args, want)
	}
	if got := strings.Join(redactArgs(c.args), " "); strings.Contains(got, "DUMMY") {
		t.Errorf("the password is logged: %s", got)
	}
	// An inline query goes through a file; a password replaces DUMMY.
	spec.Hive.Script, spec.Hive.Query, spec.Hive.Password = "", "SELECT 1;", "secret"
	if c, err = hiveCommand(spec, container, f, time.UnixMilli(5)); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, queryFile)); err != nil || string(b) != "SELECT 1;" {
		t.Errorf("query file %q, %v", b, err)
	}
	if !slices.Contains(c.args, "secret") || c.args[len(c.args)-1] != queryFile {
		t.Errorf("args %q", c.args)
	}
	// Without beeline on PATH the command cannot be built.
	if _, err := hiveCommand(spec, []string{"PATH=/nonexistent"}, f, time.UnixMilli(5)); err == nil {
		t.Error("no error without beeline")
	}
}

func TestMapReduceCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeScript(t, dir, "mapred", "#!/bin/sh\n", 0o755)
	f := newFiles(dir)
	c, err := mapReduceCommand(&Spec{Type: TypeMapReduce, MapReduce: &MapReduceSpec{}}, []string{"PATH=" + dir}, f, time.UnixMilli(1))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"mapred", "job", "-submit", f.actionConf}; !slices.Equal(c.args, want) {
		t.Errorf("args %q, want %q", c.args, want)
	}
}

func TestValidateHiveAndMapReduceSpecs(t *testing.T) {
	t.Parallel()
	base := func() *Spec {
		return &Spec{Version: SpecVersion, ActionDir: "hdfs://nn/x", Type: TypeHive,
			Hive: &HiveSpec{JDBCURL: "jdbc:hive2://h/db", Script: "s.q"}}
	}
	bad := map[string]func(*Spec){
		"no hive":         func(s *Spec) { s.Hive = nil },
		"no url":          func(s *Spec) { s.Hive.JDBCURL = " " },
		"script & query":  func(s *Spec) { s.Hive.Query = "SELECT 1" },
		"neither":         func(s *Spec) { s.Hive.Script = "" },
		"absolute script": func(s *Spec) { s.Hive.Script = "/etc/passwd" },
		"bad param":       func(s *Spec) { s.Hive.Params = []string{"NOEQUALS"} },
		"mr without spec": func(s *Spec) { s.Type, s.Hive = TypeMapReduce, nil },
	}
	if err := base().Validate(); err != nil {
		t.Fatalf("a good hive spec: %v", err)
	}
	for name, change := range bad {
		s := base()
		change(s)
		if err := s.Validate(); !errors.Is(err, ErrBadSpec) {
			t.Errorf("%s: Validate = %v, want ErrBadSpec", name, err)
		}
	}
	mr := &Spec{Version: SpecVersion, ActionDir: "hdfs://nn/x", Type: TypeMapReduce, MapReduce: &MapReduceSpec{}}
	if err := mr.Validate(); err != nil {
		t.Errorf("a good map-reduce spec: %v", err)
	}
}
