package conf

import "testing"

func TestUnresolved(t *testing.T) {
	t.Parallel()
	props := NewProperties("user.name", "joe", "path", "${nameNode}/user/${user.name}/app", "ok", "/user/${user.name}")
	s, err := Substitute(props, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		key, name string
		found     bool
	}{
		{"path", "nameNode", true}, // substitution stopped there
		{"ok", "", false},
		{"user.name", "", false},
	} {
		v, _ := s.Get(tt.key)
		if name, found := Unresolved(v); name != tt.name || found != tt.found {
			t.Errorf("Unresolved(%q) = %q, %v; want %q, %v", v, name, found, tt.name, tt.found)
		}
	}
	// What Substitute does not take for a reference is not one.
	if name, found := Unresolved("${a b}/${}"); found {
		t.Errorf("Unresolved found %q", name)
	}
}
