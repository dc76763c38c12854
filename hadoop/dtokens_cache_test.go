package hadoop

import (
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/delegation"
	"github.com/gozie/gozie/testenv/kdc"
)

// TestDelegationTokenCachedPerUserAndRenewer: the server's cache never
// hands one user's token to another, nor a token of one renewer to a
// caller naming another; it keeps a token while less than three quarters
// of its first life (the renew interval) have passed, and fetches a new
// one after that, while the old one is still valid.
func TestDelegationTokenCachedPerUserAndRenewer(t *testing.T) {
	t.Parallel()
	s := startSecureDFS(t, "authentication", false)
	server := s.resolver(t, ResolverConfig{Kerberos: s.login(t, "gozie/localhost"), RequireUser: true})
	ctx := ctxT(t)
	rm, gozie := "rm/localhost@"+kdc.Realm, "gozie/localhost@"+kdc.Realm
	get := func(user, renewer string) (Token, delegation.Identifier) {
		t.Helper()
		tok, err := server.DelegationToken(ctx, s.m.URI(), user, renewer)
		if err != nil {
			t.Fatalf("DelegationToken(%s, %s): %v", user, renewer, err)
		}
		id, err := delegation.Parse(tok.Identifier)
		if err != nil {
			t.Fatal(err)
		}
		return tok, id
	}
	bob, _ := get("bob", rm)
	if dave, id := get("dave", rm); id.Owner != "dave" || string(dave.Identifier) == string(bob.Identifier) {
		t.Errorf("dave's token %+v: want a token of dave's own", id)
	}
	if other, id := get("bob", gozie); id.Renewer != "gozie" || string(other.Identifier) == string(bob.Identifier) {
		t.Errorf("bob's token for renewer gozie %+v: want a token of its own", id)
	}

	s.clock.advance(testRenewInterval*3/4 - time.Second)
	if again, _ := get("bob", rm); string(again.Identifier) != string(bob.Identifier) {
		t.Error("a token with more than a quarter of its life left was fetched again")
	}
	s.clock.advance(2 * time.Second)
	if fresh, _ := get("bob", rm); string(fresh.Identifier) == string(bob.Identifier) {
		t.Error("a token past three quarters of its life was handed out again")
	}
	// The old token had not expired: it was replaced before, not after.
	if _, err := s.resolver(t, ResolverConfig{User: "bob", Tokens: []Token{bob}}).Stat(ctx, "/user/bob"); err != nil {
		t.Errorf("the replaced token had already expired: %v", err)
	}
}
