package credentials_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/credentials"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/hadoop"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

func run(creds ...actions.Credential) *actions.Attempt {
	return &actions.Attempt{ActionID: "0000001-x-gozie-W@a", User: "alice", Credentials: creds}
}

func code(err error) string {
	var e *actions.ExecError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestTokensOfEachType(t *testing.T) {
	t.Parallel()
	var asked []string
	p := &credentials.Provider{Kerberos: &krbclient.Client{}, Types: map[string]credentials.Fetcher{
		"hive2": func(_ context.Context, _ *krbclient.Client, c actions.Credential, user string) ([]credentials.Token, error) {
			asked = append(asked, c.Name+"/"+user+"/"+c.Properties.Value("k"))
			return []credentials.Token{{Alias: "a-" + c.Name, Token: hadoop.Token{Kind: "K"}}}, nil
		},
	}}
	toks, err := p.Tokens(context.Background(), run(
		actions.Credential{Name: "one", Type: "hive2", Properties: conf.NewProperties("k", "v1")},
		actions.Credential{Name: "two", Type: "hive2", Properties: conf.NewProperties("k", "v2")}))
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) != 2 || toks[0].Alias != "a-one" || toks[1].Alias != "a-two" {
		t.Errorf("tokens %+v", toks)
	}
	if len(asked) != 2 || asked[0] != "one/alice/v1" || asked[1] != "two/alice/v2" {
		t.Errorf("fetched %v", asked)
	}
}

func TestUnknownTypesAndNamesAreRefused(t *testing.T) {
	t.Parallel()
	p := &credentials.Provider{Kerberos: &krbclient.Client{}}
	// The error names what the workflow got wrong: the type gozie does not
	// know, or the name no <credential> defines.
	for _, tt := range []struct {
		c    actions.Credential
		want string
	}{
		{actions.Credential{Name: "hb", Type: "hbase"}, "type [hbase] with name [hb]"},
		{actions.Credential{Name: "nowhere"}, "credential [nowhere]"},
	} {
		_, err := p.Tokens(context.Background(), run(tt.c))
		if code(err) != credentials.CodeUnavailable || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("credential %+v: %v, want %s naming %q", tt.c, err, credentials.CodeUnavailable, tt.want)
		}
	}
	// A hive2 or hcat credential without its properties names the one
	// missing.
	for _, typ := range []string{hive2.CredentialType, credentials.HCatType} {
		_, err := p.Tokens(context.Background(), run(actions.Credential{Name: "c", Type: typ, Properties: &conf.Properties{}}))
		if code(err) != credentials.CodeUnavailable {
			t.Errorf("%s without properties: %v", typ, err)
		}
	}
}

func TestSkippedWithoutKerberos(t *testing.T) {
	t.Parallel()
	p := &credentials.Provider{}
	toks, err := p.Tokens(context.Background(), run(actions.Credential{Name: "meta", Type: "hcat"}))
	if err != nil || toks != nil {
		t.Errorf("an unsecured cluster: %v, %v", toks, err)
	}
}
