package auth_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/auth"
)

// The gozie.http.proxyusers setting is parsed by conf.ParseProxyUsers; these tests pin the
// grammar the Authenticator's proxy-user checks rely on.

func TestParseProxyUsers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in      string
		want    []conf.ProxyUser
		errPart string
	}{
		{in: "", want: nil},
		{in: "  \n ", want: nil},
		{in: "hue:hosts=*;groups=*", want: []conf.ProxyUser{{User: "hue", Hosts: []string{"*"}, Groups: []string{"*"}}}},
		{in: "hue:hosts=*;groups=*, oozie:hosts=gw1,gw2;groups=etl", want: []conf.ProxyUser{
			{User: "hue", Hosts: []string{"*"}, Groups: []string{"*"}},
			{User: "oozie", Hosts: []string{"gw1", "gw2"}, Groups: []string{"etl"}},
		}},
		{in: "a:groups=g1,g2;hosts=::1,10.0.0.0/8\n\tb:hosts=h;groups=g", want: []conf.ProxyUser{
			{User: "a", Hosts: []string{"::1", "10.0.0.0/8"}, Groups: []string{"g1", "g2"}},
			{User: "b", Hosts: []string{"h"}, Groups: []string{"g"}},
		}},
		{in: "hue", errPart: "want USER:hosts="},
		{in: ":hosts=*;groups=*", errPart: "want USER:hosts="},
		{in: "hue:hosts=*", errPart: "both hosts and groups are required"},
		{in: "hue:hosts=*;groups=*;hosts=h", errPart: "hosts given twice"},
		{in: "hue:hosts=*;groups=", errPart: "empty item"},
		{in: "hue:hosts=a,,b;groups=*", errPart: "empty item"},
		{in: "hue:hosts=*;users=*", errPart: "unknown field"},
		{in: "hue:hosts=10.0.0.0/33;groups=*", errPart: "invalid CIDR range"},
		{in: "hue:hosts;groups=*", errPart: "has no value"},
		{in: "hue:hosts=*;groups=* hue:hosts=h;groups=g", errPart: `"hue" is listed twice`},
	} {
		got, err := conf.ParseProxyUsers(c.in)
		if c.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), c.errPart) {
				t.Errorf("ParseProxyUsers(%q) = %+v, %v; want an error with %q", c.in, got, err, c.errPart)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseProxyUsers(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestProxyUsersSettingNamesTheKey(t *testing.T) {
	t.Parallel()
	env := map[string]string{"GOZIE_HTTP_PROXYUSERS": "hue:hosts=*"}
	_, err := conf.Load(conf.Sources{ConfigDir: t.TempDir(), LookupEnv: func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}})
	if err == nil || !strings.Contains(err.Error(), "gozie.http.proxyusers") || !strings.Contains(err.Error(), "GOZIE_HTTP_PROXYUSERS") {
		t.Errorf("Load with a bad proxy-user setting: %v, want an error naming the key and its source", err)
	}
	env["GOZIE_HTTP_PROXYUSERS"] = "hue:hosts=*;groups=*"
	env["GOZIE_HTTP_AUTHENTICATION_TYPE"] = "kerberos"
	if _, err := conf.Load(conf.Sources{ConfigDir: t.TempDir(), LookupEnv: func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}}); err == nil || !strings.Contains(err.Error(), "gozie.http.authentication.kerberos.keytab") {
		t.Errorf("Load of kerberos without a keytab: %v", err)
	}
}

// FuzzParseProxyUsers checks that the parser never panics, that what it accepts is
// complete, and that the Authenticator accepts every list the parser accepts.
func FuzzParseProxyUsers(f *testing.F) {
	f.Add("hue:hosts=*;groups=*, oozie:hosts=gw1,gw2;groups=etl")
	f.Add("a:groups=g;hosts=::1,10.0.0.0/8")
	f.Add("x:hosts=;groups=,")
	f.Fuzz(func(t *testing.T, in string) {
		users, err := conf.ParseProxyUsers(in)
		if err != nil {
			return
		}
		var rules []auth.ProxyUser
		for _, u := range users {
			if u.User == "" || len(u.Hosts) == 0 || len(u.Groups) == 0 {
				t.Fatalf("%q: incomplete entry %+v", in, u)
			}
			rules = append(rules, auth.ProxyUser(u))
		}
		if _, err := auth.New(auth.Config{ProxyUsers: rules}); err != nil {
			t.Fatalf("%q parsed to %+v, which New refuses: %v", in, users, err)
		}
	})
}
