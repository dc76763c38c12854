// Package credentials obtains the delegation tokens an action's
// <credential>s name (Oozie's CredentialsProvider), for its launch to hand
// to YARN with the submission: the action's containers then reach
// HiveServer2 and the other services as the job's user with those tokens,
// as on a Kerberized cluster they must.
//
// Types: hive2 (a HiveServer2 delegation token: hive2.jdbc.url,
// hive2.server.principal) and hcat (a Hive metastore delegation token:
// hcat.metastore.uri, hcat.metastore.principal). Any other type, and a cred= name the workflow's
// <credentials> does not define, is refused with JA020 naming it. Without
// Kerberos toward Hadoop (hadoop.security.authentication=simple) nothing
// needs a token, and credentials are skipped, as Oozie does on an
// unsecured cluster.
package credentials

import (
	"context"
	"errors"
	"fmt"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/hadoop"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// CodeUnavailable is the error code of a credential that cannot be had:
// an unknown type or name (Oozie's JA020).
const CodeUnavailable = "JA020"

// Token is one token with the alias it is stored under in the job's
// credentials.
type Token struct {
	Alias string
	Token hadoop.Token
}

// Fetcher obtains the tokens of one credential for user.
type Fetcher func(ctx context.Context, krb *krbclient.Client, c actions.Credential, user string) ([]Token, error)

// Provider obtains the tokens of a run's credentials.
type Provider struct {
	// Kerberos is the server's login; nil means an unsecured cluster,
	// where credentials are skipped.
	Kerberos *krbclient.Client
	// Types maps a credential type to its fetcher; nil means Default.
	Types map[string]Fetcher
}

// Default are the credential types gozie knows.
var Default = map[string]Fetcher{
	hive2.CredentialType: fetchHive2,
	HCatType:             fetchHCat,
}

func fetchHive2(ctx context.Context, krb *krbclient.Client, c actions.Credential, user string) ([]Token, error) {
	t, err := hive2.FetchDelegationToken(ctx, krb, c.Properties, user)
	if err != nil {
		return nil, err
	}
	return []Token{{Alias: hive2.CredentialAlias, Token: t}}, nil
}

// Tokens returns the tokens of run's credentials, for run.User. An error
// is an actions error: JA020 for a credential that cannot be had, and the
// fetcher's failure (a HiveServer2 that refuses, ...) as a transient error
// the engine retries.
func (p *Provider) Tokens(ctx context.Context, run *actions.Attempt) ([]Token, error) {
	if len(run.Credentials) == 0 || p.Kerberos == nil {
		return nil, nil
	}
	types := p.Types
	if types == nil {
		types = Default
	}
	var out []Token
	for _, c := range run.Credentials {
		if c.Type == "" {
			return nil, actions.Errorf(actions.ActionFailed, CodeUnavailable,
				"action %s names credential [%s], which the workflow's <credentials> does not define", run.ActionID, c.Name)
		}
		fetch, ok := types[c.Type]
		if !ok {
			return nil, actions.Errorf(actions.ActionFailed, CodeUnavailable,
				"Could not load credentials of type [%s] with name [%s]: gozie knows no such credential type", c.Type, c.Name)
		}
		toks, err := fetch(ctx, p.Kerberos, c, run.User)
		if errors.Is(err, hive2.ErrCredential) || errors.Is(err, ErrHCatCredential) {
			return nil, actions.Errorf(actions.ActionFailed, CodeUnavailable, "credential [%s]: %v", c.Name, err)
		}
		if err != nil {
			return nil, fmt.Errorf("credential [%s] of type %s for %s: %w", c.Name, c.Type, run.User, err)
		}
		out = append(out, toks...)
	}
	return out, nil
}
