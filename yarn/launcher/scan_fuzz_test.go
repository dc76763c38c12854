package launcher

import (
	"strings"
	"testing"
)

// FuzzOutputScanner feeds arbitrary tool output through the scanner: it
// never panics, every id it reports is an application id, and a reported
// Hive error code is a number.
func FuzzOutputScanner(f *testing.F) {
	f.Add("INFO  : Executing on YARN cluster with App id application_1_2\n", "Created job job_1_2\n")
	f.Add("Error: boom (state=08S01,code=2)\n", "")
	f.Add("Ended Job = job_123_0001\nSubmitted application application_123_0002", "\r\n\n")
	f.Fuzz(func(t *testing.T, stderr, stdout string) {
		sc := &outputScanner{}
		out, errs := sc.stream(false), sc.stream(true)
		out.Write([]byte(stdout))
		errs.Write([]byte(stderr))
		out.flush()
		errs.flush()
		for _, id := range append(sc.childApps(), sc.newID()) {
			if id != "" && !strings.HasPrefix(id, "application_") {
				t.Fatalf("id %q", id)
			}
		}
		if code, _, ok := sc.hiveError(); ok && strings.Trim(code, "-0123456789") != "" {
			t.Fatalf("code %q", code)
		}
	})
}
