// Package ugi holds the rules Hadoop's servers apply to the users of a
// request, for testenv's stand-ins (MiniDFS, MiniYARN): the groups of a user
// (Hadoop's Groups with its default ShellBasedUnixGroupsMapping and the
// static overrides of hadoop.user.group.static.mapping.overrides), and who
// may act for whom (ProxyUsers with DefaultImpersonationProvider's
// hadoop.proxyuser.<user>.users|groups|hosts rules), read from the same
// core-site.xml properties a Hadoop daemon reads.
package ugi

import (
	"fmt"
	"net"
	"os/user"
	"slices"
	"strings"
	"sync"
)

// Configuration keys (CommonConfigurationKeys, ProxyUsers).
const (
	// GroupOverridesKey is hadoop.user.group.static.mapping.overrides:
	// "user=group1,group2;user2=;…", consulted before the OS.
	GroupOverridesKey = "hadoop.user.group.static.mapping.overrides"
	// DefaultGroupOverrides is its default: dr.who has no groups.
	DefaultGroupOverrides = "dr.who=;"
	// ProxyUserPrefix starts the impersonation rules:
	// hadoop.proxyuser.<real user>.users, .groups and .hosts.
	ProxyUserPrefix = "hadoop.proxyuser."
)

// ShortName is a user's short name: a Kerberos principal up to its first
// '/' or '@' (the default auth_to_local rule), any other name as is.
func ShortName(name string) string {
	if i := strings.IndexAny(name, "/@"); i >= 0 {
		return name[:i]
	}
	return name
}

// Groups maps users to their groups as Hadoop's Groups service does with
// its default mapping: the static overrides first, then the operating
// system's groups of the user on this host (ShellBasedUnixGroupsMapping's
// `id -gn; id -Gn`, primary group first); a user the system does not know
// has no groups. Answers are cached.
type Groups struct {
	overrides map[string][]string
	mu        sync.Mutex
	cache     map[string][]string
}

// NewGroups reads hadoop.user.group.static.mapping.overrides from conf.
func NewGroups(conf map[string]string) *Groups {
	spec, ok := conf[GroupOverridesKey]
	if !ok {
		spec = DefaultGroupOverrides
	}
	g := &Groups{overrides: map[string][]string{}, cache: map[string][]string{}}
	for _, entry := range strings.Split(spec, ";") {
		u, gs, ok := strings.Cut(entry, "=")
		u = strings.TrimSpace(u)
		if !ok || u == "" {
			continue
		}
		g.overrides[u] = splitList(gs)
	}
	return g
}

// Of returns the groups of user (a short name).
func (g *Groups) Of(name string) []string {
	if gs, ok := g.overrides[name]; ok {
		return gs
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if gs, ok := g.cache[name]; ok {
		return gs
	}
	gs := osGroups(name)
	g.cache[name] = gs
	return gs
}

func osGroups(name string) []string {
	u, err := user.Lookup(name)
	if err != nil {
		return nil
	}
	ids, err := u.GroupIds()
	if err != nil {
		ids = []string{u.Gid}
	}
	// The primary group first, as `id -gn` then `id -Gn` give them.
	slices.SortStableFunc(ids, func(a, b string) int {
		switch {
		case a == u.Gid && b != u.Gid:
			return -1
		case b == u.Gid && a != u.Gid:
			return 1
		}
		return 0
	})
	var out []string
	for _, id := range ids {
		if gr, err := user.LookupGroupId(id); err == nil && !slices.Contains(out, gr.Name) {
			out = append(out, gr.Name)
		}
	}
	return out
}

// splitList splits a comma-separated list, trimming entries and dropping
// empty ones (StringUtils.getTrimmedStringCollection).
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// acl is Hadoop's AccessControlList built from a users and a groups list:
// "*" in either allows everyone.
type acl struct {
	all    bool
	users  []string
	groups []string
}

func newACL(users, groups string) acl {
	if strings.TrimSpace(users) == "*" || strings.TrimSpace(groups) == "*" {
		return acl{all: true}
	}
	return acl{users: splitList(users), groups: splitList(groups)}
}

// allows is AccessControlList.isUserAllowed.
func (a acl) allows(name string, groups []string) bool {
	if a.all || slices.Contains(a.users, name) {
		return true
	}
	for _, g := range groups {
		if slices.Contains(a.groups, g) {
			return true
		}
	}
	return false
}

// machineList is Hadoop's MachineList: "*", IP addresses, CIDR ranges and
// host names. Host names are resolved to their addresses when the rules
// are read (Hadoop compares the caller's canonical host name; on a loopback
// cluster both come to the same).
type machineList struct {
	all   bool
	ips   map[string]bool
	cidrs []*net.IPNet
}

func newMachineList(spec string) machineList {
	m := machineList{ips: map[string]bool{}}
	for _, e := range splitList(spec) {
		switch {
		case e == "*":
			m.all = true
		case strings.Contains(e, "/"):
			if _, n, err := net.ParseCIDR(e); err == nil {
				m.cidrs = append(m.cidrs, n)
			}
		case net.ParseIP(e) != nil:
			m.ips[net.ParseIP(e).String()] = true
		default:
			addrs, _ := net.LookupHost(e)
			for _, a := range addrs {
				if ip := net.ParseIP(a); ip != nil {
					m.ips[ip.String()] = true
				}
			}
		}
	}
	return m
}

// includes is MachineList.includes.
func (m machineList) includes(addr string) bool {
	if m.all {
		return true
	}
	ip := net.ParseIP(addr)
	if ip == nil {
		return false
	}
	if m.ips[ip.String()] {
		return true
	}
	for _, n := range m.cidrs {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// ProxyUsers is Hadoop's DefaultImpersonationProvider: who may act for whom,
// from where.
type ProxyUsers struct {
	acls   map[string]acl         // by real user's short name
	hosts  map[string]machineList // likewise
	groups *Groups
}

// NewProxyUsers reads the hadoop.proxyuser.<user>.users|groups|hosts
// properties of conf; groups resolves the effective users' groups.
func NewProxyUsers(conf map[string]string, groups *Groups) *ProxyUsers {
	p := &ProxyUsers{acls: map[string]acl{}, hosts: map[string]machineList{}, groups: groups}
	for k, v := range conf {
		rest, ok := strings.CutPrefix(k, ProxyUserPrefix)
		if !ok {
			continue
		}
		i := strings.LastIndexByte(rest, '.')
		if i <= 0 {
			continue
		}
		real, kind := rest[:i], rest[i+1:]
		if strings.Contains(real, ".") {
			continue // Hadoop's pattern: hadoop.proxyuser.[^.]*.(users|groups|hosts)
		}
		switch kind {
		case "users", "groups":
			if _, done := p.acls[real]; !done {
				p.acls[real] = newACL(conf[ProxyUserPrefix+real+".users"], conf[ProxyUserPrefix+real+".groups"])
			}
		case "hosts":
			p.hosts[real] = newMachineList(v)
		}
	}
	return p
}

// Authorize is DefaultImpersonationProvider.authorize: realUser (a full
// name; its short name selects the rules) may act for user only if user or
// one of user's groups is allowed and remoteAddr (an IP address) is one of
// the allowed hosts. The errors carry Hadoop's messages.
func (p *ProxyUsers) Authorize(realUser, user, remoteAddr string) error {
	short := ShortName(realUser)
	a, ok := p.acls[short]
	eff := ShortName(user)
	if !ok || !a.allows(eff, p.groups.Of(eff)) {
		return Refusal(fmt.Sprintf("User: %s is not allowed to impersonate %s", realUser, user))
	}
	hosts, ok := p.hosts[short]
	if !ok || !hosts.includes(remoteAddr) {
		return Refusal(fmt.Sprintf("Unauthorized connection for super-user: %s from IP %s", realUser, remoteAddr))
	}
	return nil
}

// Refusal is an AuthorizationException's message.
type Refusal string

// Error implements error.
func (r Refusal) Error() string { return string(r) }

// HostOf returns the IP address of a host:port.
func HostOf(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}
