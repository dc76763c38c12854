package ugi

import "strings"

// ACL is Hadoop's AccessControlList read from its one-string form (job
// ACLs, mapreduce.cluster.administrators): "*" allows everyone; otherwise
// users before the first blank and groups after it, each comma-separated;
// a blank string allows nobody.
type ACL struct {
	a acl
}

// ParseACL reads an ACL string as AccessControlList(String) does.
func ParseACL(spec string) ACL {
	if strings.TrimSpace(spec) == "*" {
		return ACL{a: acl{all: true}}
	}
	users, groups, _ := strings.Cut(spec, " ")
	return ACL{a: newACL(users, groups)}
}

// Allows is AccessControlList.isUserAllowed for user (a short name) and its
// groups.
func (l ACL) Allows(user string, groups []string) bool {
	return l.a.allows(user, groups)
}
