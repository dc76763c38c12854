package miniyarn

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/internal/krbaccept"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/gozie/gozie/yarn"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"google.golang.org/protobuf/encoding/protowire"
)

// Authentication types of the hadoop.auth token (AuthenticationToken's
// type, what HttpServletRequest.getAuthType answers behind the filter).
const (
	authSimple   = "simple"
	authKerberos = "kerberos"
)

// Defaults of [KerberosOptions]: yarn.resourcemanager.delegation.token.
// renew-interval and max-lifetime.
const (
	DefaultTokenRenewInterval = 24 * time.Hour
	DefaultTokenMaxLifetime   = 7 * 24 * time.Hour
)

// KerberosOptions turns on the security of a Kerberized RM's web
// endpoints (hadoop.http.authentication.type=kerberos behind
// RMAuthenticationFilter): requests authenticate with SPNEGO only, the
// user.name parameter is ignored, and delegation tokens are issued.
type KerberosOptions struct {
	// Keytab holds the key of Principal
	// (yarn.resourcemanager.webapp.spnego-keytab-file). Required.
	Keytab *keytab.Keytab
	// Principal is the SPNEGO principal with _HOST resolved
	// (yarn.resourcemanager.webapp.spnego-principal), e.g.
	// "HTTP/localhost@TEST.LOCAL". Required. Only clients of its realm map
	// to a user (the DEFAULT auth_to_local rule).
	Principal string
	// TokenRenewInterval and TokenMaxLifetime bound RM delegation tokens;
	// zero means the defaults.
	TokenRenewInterval time.Duration
	TokenMaxLifetime   time.Duration
	// RMPrincipal is the RM's own principal (yarn.resourcemanager.principal
	// with _HOST resolved), whose login cancels the tokens of ended
	// applications: only tokens it owns or whose renewer is its short
	// name. Empty means rm/<host of Principal>@<realm of Principal>.
	RMPrincipal string
	// CancelHDFSToken cancels an HDFS delegation token at its NameNode as
	// RMPrincipal (Token.cancel under the RM's login user), for the
	// tokens of ended applications that asked for it. Nil leaves HDFS
	// tokens alive (the cancellation fails and is logged).
	CancelHDFSToken func(ctx context.Context, t hadoop.Token) error
	// RenewHDFSToken renews an HDFS delegation token at its NameNode as
	// RMPrincipal (Token.renew under the RM's login user) and returns its
	// new expiry: the RM renews each new token of a submission before it
	// accepts the application, and rejects the application when one does
	// not renew (a renewer other than the RM, a cancelled or expired
	// token). Nil leaves HDFS tokens unrenewed, which a real RM never does.
	RenewHDFSToken func(ctx context.Context, t hadoop.Token) (time.Time, error)
	// TokenRemovalDelay is how long, with log aggregation on, the RM waits
	// after an application ends before it lets go of its tokens; zero
	// means DefaultTokenRemovalDelay.
	TokenRemovalDelay time.Duration
}

func (k *KerberosOptions) check() error {
	if k.Keytab == nil || k.Principal == "" {
		return errors.New("miniyarn: Options.Kerberos needs a Keytab and a Principal")
	}
	if !strings.Contains(k.Principal, "@") {
		return fmt.Errorf("miniyarn: Kerberos principal %q names no realm", k.Principal)
	}
	if k.TokenRenewInterval <= 0 {
		k.TokenRenewInterval = DefaultTokenRenewInterval
	}
	if k.TokenMaxLifetime <= 0 {
		k.TokenMaxLifetime = DefaultTokenMaxLifetime
	}
	if k.TokenRemovalDelay <= 0 {
		k.TokenRemovalDelay = DefaultTokenRemovalDelay
	}
	if k.RMPrincipal == "" {
		host, realm, _ := strings.Cut(k.Principal, "@")
		if _, h, ok := strings.Cut(host, "/"); ok {
			host = h
		}
		k.RMPrincipal = "rm/" + host + "@" + realm
	}
	return nil
}

// negotiate authenticates a request of a Kerberized RM by its SPNEGO
// token, as KerberosAuthenticationHandler does: none gets 401 with a bare
// "WWW-Authenticate: Negotiate" challenge, a token that does not verify
// 403. It returns the client's short name and principal.
func (rm *RM) negotiate(w http.ResponseWriter, r *http.Request) (user, principal string, ok bool) {
	principal, ok = krbaccept.Negotiate(w, r, rm.opts.Kerberos.Keytab, rm.opts.Kerberos.Principal, rm.log)
	if !ok {
		return "", "", false
	}
	return ugi.ShortName(principal), principal, true
}

// rmTokens is the RM's delegation token secret manager
// (RMDelegationTokenSecretManager): one master key, sequence numbers,
// HMAC-SHA1 passwords over the identifier.
type rmTokens struct {
	mu    sync.Mutex
	key   []byte
	keyID int32
	seq   int32
	// renewBy holds each live token's expiry by sequence number.
	renewBy map[int32]time.Time
}

func newRMTokens() (*rmTokens, error) {
	t := &rmTokens{key: make([]byte, 20), keyID: 1, renewBy: map[int32]time.Time{}}
	if _, err := rand.Read(t.key); err != nil {
		return nil, fmt.Errorf("miniyarn: making the delegation token key: %w", err)
	}
	return t, nil
}

// issue returns a token of owner that renewer may renew, with its renew
// date and max date. The identifier is a YARNDelegationTokenIdentifierProto
// (owner 1, renewer 2, realUser 3, issueDate 4, maxDate 5, sequenceNumber
// 6, masterKeyId 7); the renewer is stored by its short name, the service
// is empty (ClientRMService.getDelegationToken).
func (t *rmTokens) issue(owner, renewer string, now time.Time, k *KerberosOptions) (tok hadoop.Token, renewDate, maxDate time.Time) {
	maxDate = now.Add(k.TokenMaxLifetime)
	t.mu.Lock()
	t.seq++
	seq := t.seq
	t.renewBy[seq] = minTime(now.Add(k.TokenRenewInterval), maxDate)
	t.mu.Unlock()
	var id []byte
	id = protowire.AppendTag(id, 1, protowire.BytesType)
	id = protowire.AppendString(id, owner)
	id = protowire.AppendTag(id, 2, protowire.BytesType)
	id = protowire.AppendString(id, ugi.ShortName(renewer))
	id = protowire.AppendTag(id, 3, protowire.BytesType)
	id = protowire.AppendString(id, "")
	id = protowire.AppendTag(id, 4, protowire.VarintType)
	id = protowire.AppendVarint(id, uint64(now.UnixMilli()))
	id = protowire.AppendTag(id, 5, protowire.VarintType)
	id = protowire.AppendVarint(id, uint64(maxDate.UnixMilli()))
	id = protowire.AppendTag(id, 6, protowire.VarintType)
	id = protowire.AppendVarint(id, uint64(seq))
	id = protowire.AppendTag(id, 7, protowire.VarintType)
	id = protowire.AppendVarint(id, uint64(t.keyID))
	m := hmac.New(sha1.New, t.key)
	m.Write(id)
	tok = hadoop.Token{Identifier: id, Password: m.Sum(nil), Kind: hadoop.KindRMDelegationToken}
	return tok, minTime(now.Add(k.TokenRenewInterval), maxDate), maxDate
}

// verify returns the owner of a token this RM issued that has not expired
// (AbstractDelegationTokenSecretManager.verifyToken, checkToken): a wrong
// password or an unknown sequence number is "can't be found in cache", a
// token past its renew date "is expired".
func (t *rmTokens) verify(tok hadoop.Token, now time.Time) (string, error) {
	id, err := parseRMIdentifier(tok.Identifier)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha1.New, t.key)
	m.Write(tok.Identifier)
	t.mu.Lock()
	renewBy, ok := t.renewBy[id.seq]
	t.mu.Unlock()
	if tok.Kind != hadoop.KindRMDelegationToken || id.keyID != t.keyID || !hmac.Equal(m.Sum(nil), tok.Password) || !ok {
		return "", fmt.Errorf("token (%s, owner=%s, sequenceNumber=%d) can't be found in cache", tok.Kind, id.owner, id.seq)
	}
	if now.After(renewBy) {
		return "", fmt.Errorf("token (%s, owner=%s, sequenceNumber=%d) is expired, current time: %s expected renewal time: %s",
			tok.Kind, id.owner, id.seq, now.UTC().Format(time.RFC3339), renewBy.UTC().Format(time.RFC3339))
	}
	return id.owner, nil
}

// renew pushes a token's renew date forward for renewer, a short name
// (AbstractDelegationTokenSecretManager.renewToken): the token must not be
// past its max date, must name renewer as its renewer, must verify, and
// must still be known; it returns the new renew date.
func (t *rmTokens) renew(tok hadoop.Token, renewer string, now time.Time, k *KerberosOptions) (time.Time, error) {
	id, err := parseRMIdentifier(tok.Identifier)
	if err != nil {
		return time.Time{}, err
	}
	maxDate := time.UnixMilli(id.maxDate)
	desc := fmt.Sprintf("(%s owner=%s, sequenceNumber=%d)", tok.Kind, id.owner, id.seq)
	switch {
	case maxDate.Before(now):
		return time.Time{}, fmt.Errorf("%s tried to renew an expired token %s max expiration date: %s currentTime: %s",
			renewer, desc, maxDate.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	case id.renewer == "":
		return time.Time{}, fmt.Errorf("%s tried to renew a token %s without a renewer", renewer, desc)
	case id.renewer != renewer:
		return time.Time{}, fmt.Errorf("%s tries to renew a token %s with non-matching renewer %s", renewer, desc, id.renewer)
	}
	m := hmac.New(sha1.New, t.key)
	m.Write(tok.Identifier)
	if tok.Kind != hadoop.KindRMDelegationToken || id.keyID != t.keyID || !hmac.Equal(m.Sum(nil), tok.Password) {
		return time.Time{}, fmt.Errorf("%s is trying to renew a token %s with wrong password", renewer, desc)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.renewBy[id.seq]; !ok {
		return time.Time{}, fmt.Errorf("renewal request for unknown token %s", desc)
	}
	renewBy := minTime(now.Add(k.TokenRenewInterval), maxDate)
	t.renewBy[id.seq] = renewBy
	return renewBy, nil
}

// cancel forgets a token for canceller, a full principal that must be its
// owner or whose short name is its renewer
// (AbstractDelegationTokenSecretManager.cancelToken).
func (t *rmTokens) cancel(tok hadoop.Token, canceller string) error {
	id, err := parseRMIdentifier(tok.Identifier)
	if err != nil {
		return err
	}
	if canceller != id.owner && (id.renewer == "" || ugi.ShortName(canceller) != id.renewer) {
		return fmt.Errorf("%s is not authorized to cancel the token (%s, owner=%s, sequenceNumber=%d)", canceller, tok.Kind, id.owner, id.seq)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.renewBy[id.seq]; !ok {
		return fmt.Errorf("token not found (%s, owner=%s, sequenceNumber=%d)", tok.Kind, id.owner, id.seq)
	}
	delete(t.renewBy, id.seq)
	return nil
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// handleDelegationToken serves POST /ws/v1/cluster/delegation-token
// (RMWebServices.postDelegationToken): only a caller authenticated with
// Kerberos gets a token, else 403 with the bare message as the body.
func (rm *RM) handleDelegationToken(w http.ResponseWriter, r *http.Request) {
	if !rm.kerberosCaller(w, r) {
		return
	}
	if !requireJSON(w, r) {
		return
	}
	var body yarn.DelegationTokenInfo
	if err := json.NewDecoder(io.LimitReader(r.Body, maxRequestBody)).Decode(&body); err != nil {
		writeError(w, badRequest("Could not parse the delegation token request: %v", err))
		return
	}
	owner := userOf(r)
	tok, renewDate, maxDate := rm.dtokens.issue(owner, body.Renewer, rm.opts.Now(), rm.opts.Kerberos)
	writeJSON(w, http.StatusOK, yarn.DelegationTokenInfo{
		Token: yarn.EncodeTokenURLString(tok), Renewer: body.Renewer, Owner: owner, Kind: tok.Kind,
		ExpirationTime: renewDate.UnixMilli(), MaxValidity: maxDate.UnixMilli(),
	})
}

// handleDelegationTokenOther serves renewal and cancellation, which only
// Kerberos callers may ask for and which MiniYARN does not implement.
func (rm *RM) handleDelegationTokenOther(w http.ResponseWriter, r *http.Request) {
	if !rm.kerberosCaller(w, r) {
		return
	}
	http.Error(w, "miniyarn: renewing and cancelling RM delegation tokens is not implemented", http.StatusNotImplemented)
}

// kerberosCaller refuses callers that did not authenticate with Kerberos
// (RMWebServices.createKerberosUserGroupInformation).
func (rm *RM) kerberosCaller(w http.ResponseWriter, r *http.Request) bool {
	if typ := authTypeOf(r); typ != authKerberos {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, "Delegation token operations can only be carried out on a Kerberos authenticated channel. Expected auth type is %s, got type %s", authKerberos, typ)
		return false
	}
	return true
}
