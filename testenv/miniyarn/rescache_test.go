package miniyarn_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// TestPrivateResourcesAreCachedPerUser: a PRIVATE resource is localized once
// per user and later containers of that user link the cached copy without
// reading the source again (so they run even after the source is gone), as
// a NodeManager's private tracker does; an APPLICATION resource, a new
// timestamp of the same file and another user's PRIVATE request are
// downloaded again, and so fail once the source is gone.
func TestPrivateResourcesAreCachedPerUser(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	script := writeFile(t, filepath.Join(src, "run.sh"), "echo cached-ran\n")
	size, mtime := statMillis(t, script)
	c := setup(t, miniyarn.Options{Lenient: true})
	resource := func(v yarn.LocalResourceVisibility, timestamp int64) func(*yarn.ApplicationSubmissionContext) {
		return func(sc *yarn.ApplicationSubmissionContext) {
			sc.AMContainerSpec.LocalResources = yarn.EntryMap[yarn.LocalResource]{
				"run.sh": {Resource: "file://" + script, Type: yarn.ResourceFile, Visibility: v, Size: size, Timestamp: timestamp},
			}
		}
	}
	const command = "bash ./run.sh > <LOG_DIR>/stdout"
	if r := c.waitDone(t, c.submit(t, command, resource(yarn.VisibilityPrivate, mtime))); !r.Succeeded() {
		t.Fatalf("first run: %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	r := c.waitDone(t, c.submit(t, command, resource(yarn.VisibilityPrivate, mtime)))
	if !r.Succeeded() {
		t.Fatalf("the cached PRIVATE resource was not used: %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
	if _, _, out := httpDo(t, "GET", r.AMContainerLogs+"/stdout", "", ""); out != "cached-ran\n" {
		t.Errorf("the run from the cache wrote %q", out)
	}

	for name, adjust := range map[string]func(*yarn.ApplicationSubmissionContext){
		"APPLICATION":   resource(yarn.VisibilityApplication, mtime),
		"new timestamp": resource(yarn.VisibilityPrivate, mtime+1000),
	} {
		r := c.waitDone(t, c.submit(t, command, adjust))
		if r.State != yarn.StateFailed || !strings.Contains(r.Diagnostics, "FileNotFoundException") {
			t.Errorf("%s: a download was not attempted: %s %q", name, r.State, r.Diagnostics)
		}
	}

	other := c.submitBy(t, c.clientAs(t, "otheruser"), command, resource(yarn.VisibilityPrivate, mtime))
	if r := c.waitDone(t, other); r.State != yarn.StateFailed || !strings.Contains(r.Diagnostics, "FileNotFoundException") {
		t.Errorf("another user's PRIVATE request used the first user's copy: %s %q", r.State, r.Diagnostics)
	}
}

// TestPublicResourceMustBePublic: a PUBLIC resource is localized only when
// everyone may read it and traverse every directory above it, with
// FSDownload's message otherwise; once public, it is cached for every user.
func TestPublicResourceMustBePublic(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	dir := filepath.Join(top, "pub")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := writeFile(t, filepath.Join(dir, "run.sh"), "echo public-ran\n")
	size, mtime := statMillis(t, script)
	c := setup(t, miniyarn.Options{Lenient: true})
	public := func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.LocalResources = yarn.EntryMap[yarn.LocalResource]{
			"run.sh": {Resource: "file://" + script, Type: yarn.ResourceFile, Visibility: yarn.VisibilityPublic, Size: size, Timestamp: mtime},
		}
	}
	const command = "bash ./run.sh > <LOG_DIR>/stdout"

	// t.TempDir's directories are 0700: others cannot traverse them.
	r := c.waitDone(t, c.submit(t, command, public))
	want := "Resource file://" + script + " is not publicly accessible and as such cannot be part of the public cache."
	if r.State != yarn.StateFailed || !strings.Contains(r.Diagnostics, want) {
		t.Fatalf("a PUBLIC resource under a private directory: %s %q", r.State, r.Diagnostics)
	}

	for p := dir; ; p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if p == filepath.Dir(top) {
			break
		}
	}
	if err := os.Chmod(script, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(script, time.UnixMilli(mtime), time.UnixMilli(mtime)); err != nil {
		t.Fatal(err)
	}
	if r := c.waitDone(t, c.submit(t, command, public)); r.State != yarn.StateFailed || !strings.Contains(r.Diagnostics, want) {
		t.Fatalf("a PUBLIC resource others may not read: %s %q", r.State, r.Diagnostics)
	}
	if err := os.Chmod(script, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := c.waitDone(t, c.submit(t, command, public)); !r.Succeeded() {
		t.Fatalf("a public resource: %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	if r := c.waitDone(t, c.submit(t, command, public)); !r.Succeeded() {
		t.Fatalf("the cached PUBLIC resource was not used: %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
}

// clientAs is a client of the cluster's RM acting as user.
func (c *cluster) clientAs(t *testing.T, user string) *yarn.Client {
	t.Helper()
	cl, err := yarn.NewClient(yarn.Config{Addresses: []string{c.rm.WebURL()}, Auth: yarn.PseudoAuth{User: user}})
	if err != nil {
		t.Fatal(err)
	}
	return cl
}
