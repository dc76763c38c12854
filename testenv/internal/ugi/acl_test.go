package ugi

import "testing"

// TestParseACL reads AccessControlList strings: users, a blank, groups;
// "*" for everyone; a blank for nobody.
func TestParseACL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		spec, user string
		groups     []string
		want       bool
	}{
		{"*", "anyone", nil, true},
		{" ", "alice", []string{"etl"}, false},
		{"", "alice", nil, false},
		{"alice,bob", "bob", nil, true},
		{"alice,bob", "carol", []string{"etl"}, false},
		{"alice etl,ops", "carol", []string{"ops"}, true},
		{" etl", "alice", []string{"etl"}, true},
		{" etl", "etl", nil, false},
	}
	for _, c := range cases {
		if got := ParseACL(c.spec).Allows(c.user, c.groups); got != c.want {
			t.Errorf("ParseACL(%q).Allows(%s, %v) = %v, want %v", c.spec, c.user, c.groups, got, c.want)
		}
	}
}
