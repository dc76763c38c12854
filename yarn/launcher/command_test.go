package launcher

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop"
)

func envMap(kvs []string) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

func TestShellCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeScript(t, dir, "run.sh", "#!/bin/sh\n", 0o755)
	f := newFiles(dir)
	f.tokens = filepath.Join(dir, actionTokensFile)
	spec := &Spec{
		Type: TypeShell, ChildTag: "tag-child", Env: map[string]string{"FROM_SPEC": "s"},
		Shell: &ShellSpec{Exec: "scripts/run.sh", Args: []string{"a b", "c"}, EnvVars: []string{"P=$PATH:/opt", "EMPTYOK=x=y", "HOME_COPY=${HOME}"}},
	}
	container := []string{"PATH=/usr/bin:/bin", "HOME=/home/alice", "HADOOP_TOKEN_FILE_LOCATION=/c/tokens", "KEEP=1"}
	launched := time.UnixMilli(1234)
	c, err := shellCommand(spec, container, f, launched)
	if err != nil {
		t.Fatal(err)
	}
	if c.path != filepath.Join(dir, "run.sh") {
		t.Errorf("path %q: the exec's base name is looked up in the working directory", c.path)
	}
	if !slices.Equal(c.args, []string{"run.sh", "a b", "c"}) || c.dir != dir {
		t.Errorf("args %q dir %q", c.args, c.dir)
	}
	env := envMap(c.env)
	want := map[string]string{
		"PATH":                       ".:/usr/bin:/bin",
		"P":                          ".:/usr/bin:/bin:/opt",
		"EMPTYOK":                    "x=y",
		"HOME_COPY":                  "/home/alice",
		"KEEP":                       "1",
		"FROM_SPEC":                  "s",
		"HADOOP_TOKEN_FILE_LOCATION": f.tokens,
		"OOZIE_ACTION_CONF_XML":      f.actionConf,
		propOutput:                   f.output,
		"GOZIE_OUTPUT_PROPERTIES":    f.output,
		"GOZIE_EXTERNAL_CHILD_IDS":   f.childIDs,
		propLaunchTime:               "1234",
		"GOZIE_CHILD_TAG":            "tag-child",
	}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("env %s = %q, want %q", k, env[k], v)
		}
	}
	if !slices.IsSorted(c.env) {
		t.Errorf("environment not in key order: %q", c.env)
	}

	spec.Shell.Exec = "missing.sh"
	if _, err := shellCommand(spec, container, f, launched); err == nil || !strings.Contains(err.Error(), "missing.sh") {
		t.Errorf("missing exec: %v", err)
	}
	// Commands from PATH work too.
	spec.Shell.Exec = "/any/dir/sh"
	if c, err := shellCommand(spec, container, f, launched); err != nil || filepath.Base(c.path) != "sh" {
		t.Errorf("sh from PATH: %q, %v", c.path, err)
	}
}

func TestShellCommandWithoutTokens(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec := &Spec{Type: TypeShell, Shell: &ShellSpec{Exec: "sh"}}
	c, err := shellCommand(spec, []string{"PATH=/bin:/usr/bin", "HADOOP_TOKEN_FILE_LOCATION=/c/tokens"}, newFiles(dir), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := envMap(c.env)["HADOOP_TOKEN_FILE_LOCATION"]; ok {
		t.Errorf("the container's token file (with the AMRM token) leaked to the command")
	}
}

func TestJavaCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := t.TempDir()
	java := filepath.Join(home, "bin", "java")
	if err := os.MkdirAll(filepath.Dir(java), 0o755); err != nil {
		t.Fatal(err)
	}
	writeScript(t, filepath.Dir(java), "java", "#!/bin/sh\n", 0o755)
	f := newFiles(dir)
	spec := &Spec{Type: TypeJava, Java: &JavaSpec{MainClass: "org.example.Main", Opts: []string{"-Xmx100m", "-Dx=1"}, Args: []string{"a", "b"}}}
	tests := []struct {
		name      string
		container []string
		classpath string
		wantCP    string
	}{
		{"container CLASSPATH", []string{"JAVA_HOME=" + home, "CLASSPATH=/c/*:/d"}, "", "/c/*:/d"},
		{"spec class path wins", []string{"JAVA_HOME=" + home, "CLASSPATH=/c/*"}, "/spec", "/spec"},
		{"working directory by default", []string{"JAVA_HOME=" + home}, "", dir + ":" + dir + "/*"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := *spec
			j := *spec.Java
			j.Classpath = tt.classpath
			s.Java = &j
			c, err := javaCommand(&s, tt.container, f, time.UnixMilli(5))
			if err != nil {
				t.Fatal(err)
			}
			want := []string{java, "-Xmx100m", "-Dx=1",
				"-Doozie.action.conf.xml=" + f.actionConf, "-Doozie.action.output.properties=" + f.output,
				"-Doozie.action.externalChildIDs=" + f.childIDs, "-Doozie.job.launch.time=5",
				"-cp", tt.wantCP, "org.example.Main", "a", "b"}
			if c.path != java || !slices.Equal(c.args, want) {
				t.Errorf("command %q %q\nwant %q", c.path, c.args, want)
			}
		})
	}
	if _, err := javaCommand(spec, []string{"JAVA_HOME=" + t.TempDir()}, f, time.Now()); err == nil {
		t.Error("a JAVA_HOME without bin/java should fail")
	}
}

func TestJavaFailure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		stderr string
		want   string
		ok     bool
	}{
		{"log line\nException in thread \"main\" java.lang.IllegalStateException: boom now\n\tat A.main(A.java:3)\n", "boom now", true},
		{"Exception in thread \"main\" java.lang.NullPointerException\n\tat A.main(A.java:3)\n", "java.lang.NullPointerException", true},
		{"Error: Could not find or load main class a.B\nCaused by: java.lang.ClassNotFoundException: a.B\n", "Error: Could not find or load main class a.B", true},
		{"just a log line\n", "", false},
	}
	for _, tt := range tests {
		got, ok := javaFailure(tt.stderr)
		if got != tt.want || ok != tt.ok {
			t.Errorf("javaFailure(%q) = %q, %v; want %q, %v", tt.stderr, got, ok, tt.want, tt.ok)
		}
	}
}

func TestReadOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "out")
	tests := []struct {
		name    string
		content string
		max     int
		wantErr string
	}{
		{"under", "a=1\n", 10, ""},
		{"exactly the limit", "a=12345\n", 8, ""},
		{"one byte over", "a=123456\n", 8, "output.properties data exceeds its limit [8]"},
	}
	for _, tt := range tests {
		if err := os.WriteFile(p, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readOutput(p, tt.max)
		if tt.wantErr == "" && (err != nil || got != tt.content) {
			t.Errorf("%s: readOutput = %q, %v", tt.name, got, err)
		}
		if tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
		}
	}
	if got, err := readOutput(filepath.Join(dir, "none"), 10); got != "" || err != nil {
		t.Errorf("missing file: %q, %v", got, err)
	}
}

func TestReadChildIDs(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "ids")
	if err := os.WriteFile(p, []byte("application_1_0001, application_1_0002\napplication_1_0003\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ids, err := readChildIDs(p)
	if err != nil || !slices.Equal(ids, []string{"application_1_0001", "application_1_0002", "application_1_0003"}) {
		t.Errorf("ids %q, %v", ids, err)
	}
}

func TestWriteActionTokensDropsTheAMRMToken(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "container_tokens")
	creds := &hadoop.Credentials{
		Tokens: map[string]hadoop.Token{
			"sched:8030": {Identifier: []byte("am"), Password: []byte("p"), Kind: hadoop.KindAMRMToken, Service: "sched:8030"},
			"nn:8020":    {Identifier: []byte("dt"), Password: []byte("q"), Kind: hadoop.KindHDFSDelegationToken, Service: "nn:8020"},
		},
		Secrets: map[string][]byte{"s": []byte("v")},
	}
	if err := hadoop.WriteTokenFile(src, creds, hadoop.TokenFormatWritable); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, actionTokensFile)
	ok, err := writeActionTokens(src, dst)
	if err != nil || !ok {
		t.Fatalf("writeActionTokens = %v, %v", ok, err)
	}
	got, err := hadoop.ReadTokenFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, has := got.TokenOfKind(hadoop.KindAMRMToken); has {
		t.Error("the AMRM token reached the action's token file")
	}
	if tok, has := got.TokenOfKind(hadoop.KindHDFSDelegationToken); !has || string(tok.Password) != "q" || string(got.Secrets["s"]) != "v" {
		t.Errorf("delegation token or secret lost: %+v", got)
	}
	if ok, err := writeActionTokens("", dst); ok || err != nil {
		t.Errorf("no container token file: %v, %v", ok, err)
	}
}
