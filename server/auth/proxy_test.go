package auth_test

import (
	"context"
	"net/http"
	"net/url"
	"os/user"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server/auth"
)

// osUserAndGroup returns the user running the test and the name of its primary group, the
// real operating-system data the default group lookup reads.
func osUserAndGroup(t *testing.T) (string, string) {
	t.Helper()
	u, err := user.Current()
	if err != nil {
		t.Skipf("no current user: %v", err)
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		t.Skipf("no primary group of %s: %v", u.Username, err)
	}
	return u.Username, g.Name
}

func TestDoAs(t *testing.T) {
	t.Parallel()
	osUser, osGroup := osUserAndGroup(t)
	proxies, err := conf.ParseProxyUsers("hue:hosts=*;groups=*, " +
		"etl:hosts=localhost;groups=" + osGroup + " " +
		"gw:hosts=10.0.0.0/8,192.168.1.7;groups=* " +
		"loop:hosts=127.0.0.0/8;groups=no-such-group-for-gozie-tests")
	if err != nil {
		t.Fatal(err)
	}
	var rules []auth.ProxyUser
	for _, p := range proxies {
		rules = append(rules, auth.ProxyUser(p))
	}
	ts := newServer(t, auth.Config{ProxyUsers: rules})

	for _, c := range []struct {
		name, user, doAs string
		want             string   // effective user; "" means refused
		msgHas           []string // parts of a refusal's message
	}{
		{name: "any host and group", user: "hue", doAs: "alice", want: "alice"},
		{name: "doAs oneself needs no rule", user: "alice", doAs: "alice", want: "alice"},
		{name: "host name resolving to the caller, group of the OS user", user: "etl", doAs: osUser, want: osUser},
		{name: "group the doAs user lacks", user: "etl", doAs: "no-such-user-for-gozie-tests",
			msgHas: []string{"Unauthorized proxyuser [etl]", "[no-such-user-for-gozie-tests]", "127.0.0.1", "not in proxyuser groups"}},
		{name: "caller outside the hosts", user: "gw", doAs: "alice",
			msgHas: []string{"Unauthorized host [127.0.0.1]", "proxyuser [gw]", "[alice]"}},
		{name: "host allowed, groups not", user: "loop", doAs: osUser,
			msgHas: []string{"Unauthorized proxyuser [loop]", "[" + osUser + "]", "127.0.0.1"}},
		{name: "not a proxy user", user: "bob", doAs: "alice",
			msgHas: []string{"User [bob] not defined as proxyuser", "[alice]", "127.0.0.1"}},
		{name: "anonymous", doAs: "alice", msgHas: []string{"Anonymous", "[alice]", "127.0.0.1"}},
	} {
		q := url.Values{auth.ParamDoAs: {c.doAs}}
		if c.user != "" {
			q.Set(auth.ParamUser, c.user)
		}
		r := get(t, ts.URL+whoamiPath, q)
		if c.want != "" {
			if r.status != http.StatusOK || r.who.User != c.want || r.who.RealUser != c.user {
				t.Errorf("%s: %+v, want user %s acting as %s", c.name, r, c.user, c.want)
			}
			continue
		}
		if r.status != http.StatusUnauthorized || r.code != oozieerr.E1400 {
			t.Errorf("%s: %+v, want 401 E1400", c.name, r)
			continue
		}
		for _, part := range c.msgHas {
			if !strings.Contains(r.message, part) {
				t.Errorf("%s: message %q lacks %q", c.name, r.message, part)
			}
		}
	}
}

func TestDoAsLooksUpHostsAndGroupsThroughConfig(t *testing.T) {
	t.Parallel()
	var looked []string
	a, err := auth.New(auth.Config{
		ProxyUsers: []auth.ProxyUser{{User: "hue", Hosts: []string{"gw.example"}, Groups: []string{"etl"}}},
		LookupHost: func(_ context.Context, host string) ([]string, error) {
			looked = append(looked, host)
			return []string{"192.0.2.10"}, nil
		},
		Groups: func(u string) ([]string, error) {
			if u == "alice" {
				return []string{"users", "etl"}, nil
			}
			return []string{"users"}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		remote, doAs string
		ok           bool
	}{
		{"192.0.2.10:5000", "alice", true},
		{"[::ffff:192.0.2.10]:5000", "alice", true},
		{"192.0.2.10:5000", "bob", false},
		{"192.0.2.11:5000", "alice", false},
	} {
		r, _ := http.NewRequest(http.MethodGet, "/oozie/v2/jobs?user.name=hue&doAs="+c.doAs, nil)
		r.RemoteAddr = c.remote
		id, err := a.Authenticate(nopWriter{http.Header{}}, r)
		if got := err == nil; got != c.ok {
			t.Errorf("hue as %s from %s: identity %+v, error %v; want allowed=%v", c.doAs, c.remote, id, err, c.ok)
		}
		if c.ok && id != (auth.Identity{User: c.doAs, RealUser: "hue"}) {
			t.Errorf("hue as %s: identity %+v", c.doAs, id)
		}
	}
	if len(looked) == 0 || looked[0] != "gw.example" {
		t.Errorf("host lookups = %v, want gw.example", looked)
	}
}

// nopWriter is a ResponseWriter that only keeps headers.
type nopWriter struct{ h http.Header }

func (w nopWriter) Header() http.Header         { return w.h }
func (w nopWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w nopWriter) WriteHeader(int)             {}
