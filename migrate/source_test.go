package migrate

import (
	"strings"
	"testing"
)

// -from takes a postgres:// URL, or a mysql:// URL that becomes the MySQL
// driver's DSN (port 3306 by default, times read as stored), with or
// without Oozie's "jdbc:" prefix; anything else is refused.
func TestParseSource(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]source{
		"postgres://u@h:5432/oozie":                 {"postgres", "postgres://u@h:5432/oozie"},
		"jdbc:postgresql://u@h/oozie":               {"postgres", "postgresql://u@h/oozie"},
		"mysql://oozie:s%40cret@db.example:3307/oz": {"mysql", "oozie:s@cret@tcp(db.example:3307)/oz?parseTime=true"},
		"jdbc:mysql://oozie@db.example/oozie?tls=true": {"mysql",
			"oozie@tcp(db.example:3306)/oozie?parseTime=true&tls=true"},
	} {
		got, err := parseSource(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "oracle://h/oozie", "mysql:///oozie", "oozie@tcp(h:3306)/oozie"} {
		if _, err := parseSource(in); err == nil || !strings.Contains(err.Error(), "mysql://") {
			t.Errorf("%q: %v, want a refusal naming the accepted forms", in, err)
		}
	}
}
