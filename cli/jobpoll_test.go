package cli

import (
	"strings"
	"testing"
)

// TestJobPoll: -interval and -timeout are minutes and take fractions; -verbose prints
// every status polled, as Oozie's CLI does.
func TestJobPoll(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	f.StartEngine(t)
	id := strings.TrimSpace(strings.TrimPrefix(f.mustRun(t, "job", "-run", "-D", "oozie.wf.application.path="+f.noOp), "job: "))
	out := f.mustRun(t, "job", "-poll", id, "-interval", "0.001", "-timeout", "1", "-verbose")
	if !strings.HasSuffix(out, "SUCCEEDED\n") {
		t.Errorf("-poll printed %q", out)
	}
	// README's fraction: -interval 0.05 (3 seconds) is accepted.
	if out := f.mustRun(t, "job", "-poll", id, "-interval", "0.05", "-verbose"); out != "SUCCEEDED\n" {
		t.Errorf("-poll -interval 0.05 printed %q", out)
	}
}

// TestJobPollTimeout: when -timeout passes first, polling stops with a note on stderr
// and exit 0 (Oozie's pollJob returns normally at its timeout).
func TestJobPollTimeout(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	prep := strings.TrimSpace(strings.TrimPrefix(f.mustRun(t, "job", "-submit", "-D", "oozie.wf.application.path="+f.noOp), "job: "))
	out, errOut, code := f.run(t, "job", "-poll", prep, "-interval", "0.0002", "-timeout", "0.001")
	if code != 0 || out != "" || errOut != prep+" is still PREP after 0.001 minutes; stopped polling (-timeout)\n" {
		t.Errorf("-poll of a job that never ends: exit %d, %q %q", code, out, errOut)
	}
}

// TestJobPollWithoutTimeout: -timeout 0 (or less) means no timeout, as in Oozie: the
// poll goes on until the job ends, here killed meanwhile.
func TestJobPollWithoutTimeout(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	f.StartEngine(t)
	prep := strings.TrimSpace(strings.TrimPrefix(f.mustRun(t, "job", "-submit", "-D", "oozie.wf.application.path="+f.noOp), "job: "))
	for _, timeout := range []string{"0", "-1"} {
		type result struct {
			out, errOut string
			code        int
		}
		done := make(chan result, 1)
		go func() {
			out, errOut, code := f.run(t, "job", "-poll", prep, "-interval", "0.0005", "-timeout", timeout, "-verbose")
			done <- result{out, errOut, code}
		}()
		if timeout == "0" {
			f.mustRun(t, "job", "-kill", prep)
		}
		r := <-done
		lines := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
		if r.code != 0 || r.errOut != "" || lines[len(lines)-1] != "KILLED" {
			t.Fatalf("-timeout %s: exit %d, stdout %q, stderr %q", timeout, r.code, r.out, r.errOut)
		}
		for _, l := range lines[:len(lines)-1] {
			if l != "PREP" {
				t.Fatalf("-timeout %s: -verbose printed %q", timeout, r.out)
			}
		}
	}
}

func TestJobPollErrors(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"job", "-poll", "0000001-250127091857123-gozie-test-W", "-interval", "0"},
			"Error: -interval must be a positive number of minutes, not 0\n"},
		{[]string{"job", "-poll", "0000001-250127091857123-gozie-test-W@step"},
			"Error: invalid job type [0000001-250127091857123-gozie-test-W@step]: -poll takes a workflow, coordinator or bundle job, " +
				"or a coordinator action\n"},
	} {
		out, errOut, code := f.run(t, tc.args...)
		if code != 255 || out != "" || errOut != tc.stderr {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", tc.args, code, out, errOut, tc.stderr)
		}
	}
}
