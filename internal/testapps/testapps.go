// Package testapps finds the workflow, coordinator and bundle apps that tests
// run.
//
// Every default test runs gozie's own apps, written for the project in
// Oozie's dialect under testdata/apps at the repository's root; Dir finds
// them wherever the test runs. Oozie's own example apps are an optional
// compatibility suite: OozieDir finds them through the one environment variable
// OozieEnv (`.ci/run` sets it when they are beside the repository) and skips
// the test, with a line saying how to run it, when the variable is unset.
package testapps

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// OozieEnv names the environment variable that holds the path of Oozie's
// examples/apps folder (from an Oozie source tree or release).
const OozieEnv = "GOZIE_OOZIE_EXAMPLES"

// SkipOozie is the skip reason of every compatibility test when OozieEnv is
// unset; `make test` groups the skips under it.
const SkipOozie = "Oozie's example apps are not run: set " + OozieEnv + " to the examples/apps folder of an Oozie source tree to run them"

// Dir returns the absolute path of gozie's own example apps.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("testapps: no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "apps")
}

// App returns the path of gozie's own app name, failing tb if it is missing.
func App(tb testing.TB, name string) string {
	tb.Helper()
	dir := filepath.Join(Dir(), name)
	if _, err := os.Stat(dir); err != nil {
		tb.Fatalf("gozie's example app %s: %v", name, err)
	}
	return dir
}

// OozieDir returns the path of Oozie's example apps from OozieEnv. When the
// variable is unset the test is skipped with SkipOozie; when it names a
// folder that is not there, the test fails: whoever set it meant the suite
// to run.
func OozieDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv(OozieEnv)
	if dir == "" {
		tb.Skip(SkipOozie)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		tb.Fatalf("%s=%s: %v", OozieEnv, dir, err)
	}
	if fi, err := os.Stat(filepath.Join(abs, "shell", "workflow.xml")); err != nil || !fi.Mode().IsRegular() {
		tb.Fatalf("%s=%s does not hold Oozie's example apps (no shell/workflow.xml): %v", OozieEnv, dir, err)
	}
	return abs
}

// The names of the two sources of apps, as Each names its subtests and Source
// reports them.
const (
	Gozie = "gozie"
	Oozie = "oozie"
)

// Each runs fn as two subtests: Gozie on gozie's own apps and Oozie on
// Oozie's (skipped as OozieDir skips). fn gets the root folder of the apps;
// the two trees use the same app folder names (shell, map-reduce, aggregator,
// …).
func Each(t *testing.T, fn func(t *testing.T, apps string)) {
	t.Helper()
	t.Run(Gozie, func(t *testing.T) { fn(t, Dir()) })
	t.Run(Oozie, func(t *testing.T) { fn(t, OozieDir(t)) })
}

// Source names the source of the apps folder that Each passed: Gozie for
// gozie's own, Oozie otherwise. Tests key what differs between the two (node
// names, expected values) by it.
func Source(apps string) string {
	if apps == Dir() {
		return Gozie
	}
	return Oozie
}
