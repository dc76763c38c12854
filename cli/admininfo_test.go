package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestAdminReports(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	if out := f.mustRun(t, "admin", "-status"); out != "System mode: NORMAL\n" {
		t.Errorf("-status printed %q", out)
	}
	// The status call above went through the server's HTTP metrics.
	out := f.mustRun(t, "admin", "-metrics")
	if !strings.HasPrefix(out, "COUNTERS\n--------\n") || !strings.Contains(out, "\nHISTOGRAMS\n----------\n") ||
		!strings.Contains(out, "gozie_http_requests_total") {
		t.Errorf("-metrics printed\n%s", out)
	}
	out = f.mustRun(t, "admin", "-instrumentation")
	if !strings.HasPrefix(out, "COUNTERS\n--------\nhttp\n\trequests_total") {
		t.Errorf("-instrumentation printed\n%s", out)
	}
	want := "[Server Queue Dump]:\nQueue dump is null!\n******************************************\n" +
		"[Server Uniqueness Map Dump]:\nUniqueness dump is null!\n"
	if out := f.mustRun(t, "admin", "-queuedump"); out != want {
		t.Errorf("-queuedump printed %q", out)
	}
	if out := f.mustRun(t, "admin", "-shareliblist"); out != "[Available ShareLib]\n" {
		t.Errorf("-shareliblist printed %q", out)
	}
	if out := f.mustRun(t, "admin", "-javasysprops"); !strings.Contains(out, "\nos.name : ") {
		t.Errorf("-javasysprops printed %q", out)
	}
	_, errOut, code := f.run(t, "admin", "-servers", "-metrics")
	if code == 0 || !strings.Contains(errOut, "give exactly one of") {
		t.Errorf("two options: exit %d %q", code, errOut)
	}
}

// TestAdminShareLibUpdate: -sharelibupdate prints every key of the server's
// answer as Oozie's client does, the old and new share lib directories
// included (null when the server has none), then an empty line.
func TestAdminShareLibUpdate(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	want := "[ShareLib update status]\n\thost = " + host + "\n\tstatus = Successful\n" +
		"\tsharelibDirOld = null\n\tsharelibDirNew = null\n\n"
	if out := f.mustRun(t, "admin", "-sharelibupdate"); out != want {
		t.Errorf("-sharelibupdate printed\n%q\nwant\n%q", out, want)
	}
}

// TestPrintShareLibUpdate: the answer of an update of every server (an array,
// as Oozie's servers send it) prints one block per server, the directories in
// Oozie's order and any other key after them.
func TestPrintShareLibUpdate(t *testing.T) {
	t.Parallel()
	raw := `[{"sharelibUpdate":{"host":"h1","status":"Server not found"}},
		{"sharelibUpdate":{"sharelibDirNew":"hdfs://nn/lib_2","status":"Successful","sharelibDirOld":"hdfs://nn/lib_1",
		"host":"h2","sharelibMetaFile":"m"}}]`
	var b strings.Builder
	if err := printShareLibUpdate(&b, json.RawMessage(raw)); err != nil {
		t.Fatal(err)
	}
	want := "[ShareLib update status]\n\thost = h1\n\tstatus = Server not found\n\n" +
		"\thost = h2\n\tstatus = Successful\n\tsharelibDirOld = hdfs://nn/lib_1\n\tsharelibDirNew = hdfs://nn/lib_2\n" +
		"\tsharelibMetaFile = m\n\n"
	if b.String() != want {
		t.Errorf("printed\n%q\nwant\n%q", b.String(), want)
	}
}

func TestInfoTimezones(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	out := f.mustRun(t, "info", "-timezones")
	if !strings.HasPrefix(out, "The available timezones are:\n  ") || !strings.Contains(out, "(America/Los_Angeles)\n") {
		t.Errorf("info -timezones printed %.300q", out)
	}
}
