package examples_test

import (
	"bytes"
	"context"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie"
	"github.com/gozie/gozie/cli"
	"github.com/gozie/gozie/examples"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/testenv/kdc"
	"github.com/gozie/gozie/testenv/localcluster"
)

func TestPlan(t *testing.T) {
	t.Parallel()
	files, err := examples.Plan(gozie.Apps, examples.Catalogue, "alice")
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]examples.File{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	for _, p := range []string{
		"/user/alice/examples/apps/nightly-hive/workflow.xml",
		"/user/alice/examples/apps/nightly-hive/input/2025-01-01/events.csv",
		"/user/alice/examples/apps/shell/job.properties",
		"/user/alice/examples/input-data/text/lines.txt",
		"/user/alice/examples/input-data/table/numbers.txt",
	} {
		if _, ok := byPath[p]; !ok {
			t.Errorf("the plan has no %s", p)
		}
	}
	if f := byPath["/user/alice/examples/apps/shell/report.sh"]; !f.Script || len(f.Data) == 0 {
		t.Errorf("shell's report.sh: %+v", f)
	}
	if _, ok := byPath["/user/alice/examples/apps/map-reduce/input-data/text/lines.txt"]; ok {
		t.Error("input data installed with the app instead of below examples/input-data")
	}
	// Apps whose input files collide are refused, naming both.
	mr, _ := examples.Find("map-reduce")
	pig := examples.App{Name: "pig", Src: "testdata/apps/pig"}
	if _, err := examples.Plan(gozie.Apps, []examples.App{mr, pig}, "alice"); err == nil || !strings.Contains(err.Error(), "map-reduce and pig ship different") {
		t.Errorf("colliding inputs: %v", err)
	}
}

func TestDefaultUser(t *testing.T) {
	t.Parallel()
	env := func(v string) func(string) string { return func(string) string { return v } }
	if u, _ := examples.DefaultUser("carol", env("dave")); u != "carol" {
		t.Errorf("-user carol gave %q", u)
	}
	if u, _ := examples.DefaultUser("", env("dave")); u != "dave" {
		t.Errorf("USER=dave gave %q", u)
	}
	self, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	if u, err := examples.DefaultUser("", env("")); err != nil || u != self.Username {
		t.Errorf("without $USER: %q %v, want the OS user %q", u, err, self.Username)
	}
}

// TestInstall installs the catalogue into a local cluster through its
// NameNode and checks the files, their owner, and the printed commands;
// a second install replaces the first.
func TestInstall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.WriteProperties(); err != nil {
		t.Fatal(err)
	}
	p := c.Properties()
	for i := range 2 {
		var out, errs bytes.Buffer
		env := examples.Env{Stdout: &out, Stderr: &errs, Getenv: func(string) string { return "" }, Program: "bin/gozie", Dir: dir}
		if code := examples.Main(ctx, []string{"install", "-data-dir", dir, "-user", "alice"}, env); code != 0 {
			t.Fatalf("install %d: exit %d\n%s", i, code, errs.String())
		}
		want := "bin/gozie job -oozie " + cli.DefaultURL + " -config " +
			filepath.Join("dfs", "user", "alice", "examples", "apps", "nightly-hive", "job.properties") +
			" -D nameNode=" + p["nameNode"] + " -D resourceManager=" + p["resourceManager"] + " -D jdbcURL=" + p["hive2JdbcUrl"] + " -run\n"
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
	for _, f := range []string{"/user/alice/examples/apps/shell/report.sh", "/user/alice/examples/input-data/text/lines.txt"} {
		fi, err := c.FS.Stat(ctx, p["nameNode"]+f)
		if err != nil || fi.Owner != "alice" {
			t.Errorf("%s: %+v %v, want alice's", f, fi, err)
		}
	}
	if fi, err := c.FS.Stat(ctx, p["nameNode"]+"/user/alice/examples/apps/shell/report.sh"); err == nil && fi.Mode.Perm() != 0o755 {
		t.Errorf("report.sh is %v, want executable", fi.Mode)
	}
	var out, errs bytes.Buffer
	env := examples.Env{Stdout: &out, Stderr: &errs, Getenv: func(string) string { return "" }, Program: "gozie"}
	if code := examples.Main(ctx, []string{"install", "-data-dir", t.TempDir()}, env); code != 1 || !strings.Contains(errs.String(), "make run") {
		t.Errorf("install without a cluster: exit %d %s", code, errs.String())
	}
}

// TestInstallKerberos: on a Kerberized cluster the apps go in as the
// cluster's user principal, from its keytab; another user is refused.
func TestInstallKerberos(t *testing.T) {
	t.Parallel()
	if err := kdc.Available(); err != nil {
		testreq.Missing(t, "krb5-kdc and krb5-admin-server", err.Error())
	}
	ctx := context.Background()
	dir := t.TempDir()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: dir, Kerberos: true, KerberosUser: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.WriteProperties(); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	env := examples.Env{Stdout: &out, Stderr: &errs, Getenv: func(string) string { return "" }, Program: "gozie"}
	if code := examples.Main(ctx, []string{"install", "-data-dir", dir, "-user", "alice"}, env); code != 0 {
		t.Fatalf("install as alice: exit %d\n%s", code, errs.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "dfs", "user", "alice", "examples", "apps", "shell", "workflow.xml")); err != nil {
		t.Error(err)
	}
	if !strings.Contains(out.String(), "gozie job -auth KERBEROS -oozie ") {
		t.Errorf("the commands do not authenticate with Kerberos:\n%s", out.String())
	}
	errs.Reset()
	if code := examples.Main(ctx, []string{"install", "-data-dir", dir, "-user", "bob"}, env); code != 1 || !strings.Contains(errs.String(), "install with -user alice") {
		t.Errorf("install as bob: exit %d %s", code, errs.String())
	}
}
