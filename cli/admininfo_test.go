package cli

import (
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

func TestInfoTimezones(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	out := f.mustRun(t, "info", "-timezones")
	if !strings.HasPrefix(out, "The available timezones are:\n  ") || !strings.Contains(out, "(America/Los_Angeles)\n") {
		t.Errorf("info -timezones printed %.300q", out)
	}
}
