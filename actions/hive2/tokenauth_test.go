package hive2_test

import (
	"testing"

	"github.com/gozie/gozie/actions/hive2"
)

// TestDelegationTokenURL: principal= (and any auth=) gives way to
// auth=delegationToken among the session variables, whatever follows
// them; the URL still parses.
func TestDelegationTokenURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"jdbc:hive2://h:1/db;principal=hive/_HOST@R":                   "jdbc:hive2://h:1/db;auth=delegationToken",
		"jdbc:hive2://h:1/db;Principal=hive/_HOST@R;ssl=false?a=b#v=1": "jdbc:hive2://h:1/db;ssl=false;auth=delegationToken?a=b#v=1",
		"jdbc:hive2://h:1,g:2/;auth=kerberos;principal=hive/h@R":       "jdbc:hive2://h:1,g:2/;auth=delegationToken",
		"jdbc:hive2://h:1;transportMode=binary;principal=hive/h@R":     "jdbc:hive2://h:1/;transportMode=binary;auth=delegationToken",
		"jdbc:hive2://h:1": "jdbc:hive2://h:1/;auth=delegationToken",
		"jdbc:hive2://h:1/db;principal=hive/_HOST@R?hive.exec.parallel=true": "jdbc:hive2://h:1/db;auth=delegationToken?hive.exec.parallel=true",
	} {
		got := hive2.DelegationTokenURL(in)
		if got != want {
			t.Errorf("DelegationTokenURL(%q) = %q, want %q", in, got, want)
		}
		rest, ok := hive2.CutDelegationTokenAuth(got)
		if !ok {
			t.Errorf("CutDelegationTokenAuth(%q): no auth=delegationToken", got)
		}
		u, err := hive2.ParseJDBCURL(rest)
		if err != nil || u.Principal != "" {
			t.Errorf("ParseJDBCURL(%q) = %+v, %v", rest, u, err)
		}
	}
	rest, principal := hive2.CutPrincipal("jdbc:hive2://h:1/db;principal=hive/_HOST@R;ssl=false")
	if rest != "jdbc:hive2://h:1/db;ssl=false" || principal != "hive/_HOST@R" {
		t.Errorf("CutPrincipal: %q, %q", rest, principal)
	}
	if rest, ok := hive2.CutDelegationTokenAuth("jdbc:hive2://h:1/db;auth=noSasl"); ok || rest != "jdbc:hive2://h:1/db;auth=noSasl" {
		t.Errorf("CutDelegationTokenAuth of auth=noSasl: %q, %v", rest, ok)
	}
}
