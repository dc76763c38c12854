package yarn

import (
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/delegation"
)

// EncodeTokenURLString returns t as Hadoop's token URL string, the form
// the RM's REST API reads a submission's credentials.tokens in and answers
// delegation tokens in (delegation.EncodeURLString has the layout).
func EncodeTokenURLString(t hadoop.Token) string {
	return delegation.EncodeURLString(delegation.TokenFields{Identifier: t.Identifier, Password: t.Password,
		Kind: t.Kind, Service: t.Service})
}

// DecodeTokenURLString decodes Hadoop's token URL string; trailing
// padding is tolerated, trailing bytes after the token are not.
func DecodeTokenURLString(s string) (hadoop.Token, error) {
	f, err := delegation.DecodeURLString(s)
	if err != nil {
		return hadoop.Token{}, err
	}
	return hadoop.Token{Identifier: f.Identifier, Password: f.Password, Kind: f.Kind, Service: f.Service}, nil
}

// TokenCredentials returns the credentials of a submission holding tokens
// under their service as alias, as Hadoop's clients add delegation tokens
// (Credentials.addToken(token.getService(), token), e.g. in
// DFSClient's and TokenCache's collection); a later token of the same
// service replaces an earlier one. Nil when there are no tokens.
func TokenCredentials(tokens []hadoop.Token) *Credentials {
	if len(tokens) == 0 {
		return nil
	}
	c := &Credentials{Tokens: EntryMap[string]{}}
	for _, t := range tokens {
		alias := t.Service
		if alias == "" {
			alias = t.Kind // a token for no particular service still needs a key
		}
		c.Tokens[alias] = EncodeTokenURLString(t)
	}
	return c
}
