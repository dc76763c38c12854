// Package testreq is the one place where a test says it needs something from
// outside the repository: a service (PostgreSQL, MariaDB, the MIT KDC) or a
// program (a JDK, Chromium, kinit).
//
// `make test` installs and starts all of them, so under CI (CI set to anything
// but "" or "false") a missing one fails the test: a green CI run has run
// everything. Elsewhere the test is skipped with a reason that names what is
// missing and how to get it, and `make test` lists every skip at its end.
package testreq

import (
	"os"
	"os/exec"
	"testing"
)

// CI reports whether the tests run under CI, where nothing may be skipped for
// want of a service.
func CI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// Missing ends tb because what is missing: a failure under CI, a skip
// elsewhere. how says how to get it ("make test installs it", a package name).
func Missing(tb testing.TB, what, how string) {
	tb.Helper()
	if CI() {
		tb.Fatalf("%s is missing (required under CI): %s", what, how)
	}
	tb.Skipf("%s is missing: %s", what, how)
}

// MySQLEnv names the URL (mysql://USER@HOST:PORT/) of the throwaway MySQL
// or MariaDB server that `make test` starts (scripts/test-services.sh).
const MySQLEnv = "GOZIE_TEST_MYSQL"

// MySQL returns the URL of the test MySQL/MariaDB server, or ends tb through
// Missing when MySQLEnv is not set.
func MySQL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(MySQLEnv)
	if u == "" {
		Missing(tb, "MySQL/MariaDB", MySQLEnv+" is not set; make test starts a throwaway MariaDB server and sets it")
	}
	return u
}

// Program returns the path of the first of names found on PATH, or ends tb
// through Missing naming the Debian package that provides it.
func Program(tb testing.TB, pkg string, names ...string) string {
	tb.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Missing(tb, "the program "+names[0], "install the Debian package "+pkg+" (make test installs it)")
	return ""
}
