package auth

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os/user"
	"slices"
	"strings"
)

// ProxyUser allows User to act for other users (doAs) when calling from one of Hosts, for
// users in one of Groups. A list holding "*" allows any host or group.
type ProxyUser struct {
	// User is the authenticated (real) user.
	User string
	// Hosts are host names, IP addresses and CIDR ranges.
	Hosts []string
	// Groups are group names of the impersonated user.
	Groups []string
}

// proxyRule is a ProxyUser prepared for matching.
type proxyRule struct {
	anyHost   bool
	prefixes  []netip.Prefix // addresses are one-address prefixes
	hostNames []string       // resolved per check, lower case
	anyGroup  bool
	groups    []string
}

// newProxyRules prepares the proxy-user list; a user listed twice is an error.
func newProxyRules(users []ProxyUser) (map[string]proxyRule, error) {
	rules := make(map[string]proxyRule, len(users))
	for _, u := range users {
		if u.User == "" {
			return nil, fmt.Errorf("proxy user without a name")
		}
		if _, dup := rules[u.User]; dup {
			return nil, fmt.Errorf("proxy user %q is listed twice", u.User)
		}
		var r proxyRule
		for _, h := range u.Hosts {
			h = strings.TrimSpace(h)
			switch {
			case h == "*":
				r.anyHost = true
			case strings.Contains(h, "/"):
				p, err := netip.ParsePrefix(h)
				if err != nil {
					return nil, fmt.Errorf("proxy user %q: invalid CIDR range %q", u.User, h)
				}
				r.prefixes = append(r.prefixes, p.Masked())
			default:
				if a, err := netip.ParseAddr(h); err == nil {
					a = a.Unmap()
					r.prefixes = append(r.prefixes, netip.PrefixFrom(a, a.BitLen()))
				} else if h != "" {
					r.hostNames = append(r.hostNames, strings.ToLower(h))
				}
			}
		}
		for _, g := range u.Groups {
			if g = strings.TrimSpace(g); g == "*" {
				r.anyGroup = true
			} else if g != "" {
				r.groups = append(r.groups, g)
			}
		}
		rules[u.User] = r
	}
	return rules, nil
}

// checkDoAs decides whether realUser, calling from the address remote, may act as doAs.
func (a *Authenticator) checkDoAs(ctx context.Context, realUser, doAs string, remote netip.Addr) error {
	host := remote.String()
	if realUser == "" {
		return doAsRefused("Anonymous request cannot act as user [%s] from host [%s]", doAs, host)
	}
	if doAs == realUser {
		return nil
	}
	rule, ok := a.proxy[realUser]
	if !ok {
		return doAsRefused("User [%s] not defined as proxyuser, cannot act as user [%s] from host [%s]", realUser, doAs, host)
	}
	if !a.hostAllowed(ctx, rule, remote) {
		return doAsRefused("Unauthorized host [%s] for proxyuser [%s] acting as user [%s]", host, realUser, doAs)
	}
	if rule.anyGroup {
		return nil
	}
	groups, err := a.groups(doAs)
	if err != nil {
		a.log.Info("looking up the groups of a doAs user", "user", doAs, "error", err)
	}
	for _, g := range groups {
		if slices.Contains(rule.groups, g) {
			return nil
		}
	}
	return doAsRefused("Unauthorized proxyuser [%s] for user [%s] from host [%s], not in proxyuser groups", realUser, doAs, host)
}

// hostAllowed reports whether remote is one of the rule's hosts. Host names are resolved
// at each check (the resolver's own caching applies), as Hadoop's MachineList does.
func (a *Authenticator) hostAllowed(ctx context.Context, rule proxyRule, remote netip.Addr) bool {
	if rule.anyHost {
		return true
	}
	if !remote.IsValid() {
		return false
	}
	for _, p := range rule.prefixes {
		if p.Contains(remote) {
			return true
		}
	}
	for _, name := range rule.hostNames {
		addrs, err := a.lookupHost(ctx, name)
		if err != nil {
			a.log.Debug("resolving a proxy-user host", "host", name, "error", err)
			continue
		}
		for _, s := range addrs {
			if ip, err := netip.ParseAddr(s); err == nil && ip.Unmap() == remote {
				return true
			}
		}
	}
	return false
}

// remoteAddr is the address of the caller of a request (RemoteAddr, "ip:port").
func remoteAddr(remote string) netip.Addr {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}

// osGroups returns the names of the operating-system groups of a user (os/user).
func osGroups(name string) ([]string, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("looking up user %q: %w", name, err)
	}
	ids, err := u.GroupIds()
	if err != nil {
		return nil, fmt.Errorf("listing the groups of %q: %w", name, err)
	}
	var names []string
	for _, id := range ids {
		g, err := user.LookupGroupId(id)
		if err != nil {
			continue
		}
		names = append(names, g.Name)
	}
	return names, nil
}
