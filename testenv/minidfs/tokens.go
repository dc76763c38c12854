package minidfs

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"fmt"
	"sync"
	"time"

	"github.com/gozie/gozie/hadoop/delegation"
	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"google.golang.org/protobuf/proto"
)

// Defaults of the delegation token lifetimes (hdfs-default.xml's
// dfs.namenode.delegation.token.renew-interval and .max-lifetime).
const (
	DefaultTokenRenewInterval = 24 * time.Hour
	DefaultTokenMaxLifetime   = 7 * 24 * time.Hour
)

// KindHDFSDelegationToken is the kind of the NameNode's tokens
// (DelegationTokenIdentifier.HDFS_DELEGATION_KIND).
const KindHDFSDelegationToken = "HDFS_DELEGATION_TOKEN"

// tokenManager is the NameNode's delegation token secret manager
// (DelegationTokenSecretManager over AbstractDelegationTokenSecretManager):
// it issues tokens whose password is the HMAC-SHA1 of the identifier under
// its master key, keeps each live token's renew date, renews and cancels
// them, and answers TOKEN authentication. One master key serves the
// NameNode's whole life (Hadoop rolls it every
// dfs.namenode.delegation.key.update-interval; the stand-in does not).
type tokenManager struct {
	now           func() time.Time
	renewInterval time.Duration
	maxLifetime   time.Duration

	mu     sync.Mutex
	keyID  int32
	key    []byte
	seq    int32
	tokens map[string]time.Time // live identifiers' renew dates
}

func newTokenManager(opts Options) *tokenManager {
	key := make([]byte, 64) // HmacSHA1's KeyGenerator default
	if _, err := rand.Read(key); err != nil {
		panic(fmt.Sprintf("minidfs: master key: %v", err))
	}
	return &tokenManager{now: opts.Now, renewInterval: opts.TokenRenewInterval, maxLifetime: opts.TokenMaxLifetime,
		keyID: 1, key: key, tokens: map[string]time.Time{}}
}

// formatID is how messages name a token: formatTokenId's "(" + id + ")".
func formatID(id delegation.Identifier) string {
	return "(" + id.HDFSString(KindHDFSDelegationToken, ugi.ShortName(id.Owner)) + ")"
}

// issue creates a token for owner (realUser acting for it, or "") that
// renewer may renew (AbstractDelegationTokenSecretManager.createPassword).
func (m *tokenManager) issue(owner, realUser, renewer string) *commonpb.TokenProto {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.seq++
	id := delegation.Identifier{
		Owner: owner, Renewer: ugi.ShortName(renewer), RealUser: realUser,
		IssueDate: now.UnixMilli(), MaxDate: now.Add(m.maxLifetime).UnixMilli(),
		SequenceNumber: m.seq, MasterKeyID: m.keyID,
	}
	b := id.Marshal()
	m.tokens[string(b)] = now.Add(m.renewInterval)
	return &commonpb.TokenProto{Identifier: b, Password: delegation.Password(b, m.key),
		Kind: proto.String(KindHDFSDelegationToken), Service: proto.String("")}
}

// lookup is the SecretLookup of TOKEN authentication
// (retrievePassword, checkToken): a live token's password and owner.
func (m *tokenManager) lookup(b []byte) ([]byte, string, error) {
	id, err := delegation.Parse(b)
	if err != nil {
		return nil, "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	renewDate, ok := m.tokens[string(b)]
	if !ok {
		return nil, "", fmt.Errorf("token %s can't be found in cache", formatID(id))
	}
	if now := m.now(); renewDate.Before(now) {
		return nil, "", fmt.Errorf("token %s is expired, current time: %s expected renewal time: %s",
			formatID(id), delegation.FormatTime(now), delegation.FormatTime(renewDate))
	}
	return delegation.Password(b, m.key), id.Owner, nil
}

// renew pushes a token's renew date forward for renewer, a short name
// (AbstractDelegationTokenSecretManager.renewToken).
func (m *tokenManager) renew(t *commonpb.TokenProto, renewer string) (time.Time, error) {
	id, err := delegation.Parse(t.GetIdentifier())
	if err != nil {
		return time.Time{}, ipc.Errorf(ipc.IOException, "%v", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	switch {
	case id.Max().Before(now):
		return time.Time{}, ipc.Errorf(ipc.InvalidTokenException, "%s tried to renew an expired token %s max expiration date: %s currentTime: %s",
			renewer, formatID(id), delegation.FormatTime(id.Max()), delegation.FormatTime(now))
	case id.Renewer == "":
		return time.Time{}, ipc.Errorf(ipc.AccessControlException, "%s tried to renew a token %s without a renewer", renewer, formatID(id))
	case id.Renewer != renewer:
		return time.Time{}, ipc.Errorf(ipc.AccessControlException, "%s tries to renew a token %s with non-matching renewer %s", renewer, formatID(id), id.Renewer)
	case id.MasterKeyID != m.keyID:
		return time.Time{}, ipc.Errorf(ipc.InvalidTokenException, "Unable to find master key for keyId=%d from cache. Failed to renew an unexpired token %s with sequenceNumber=%d",
			id.MasterKeyID, formatID(id), id.SequenceNumber)
	case !hmac.Equal(delegation.Password(t.GetIdentifier(), m.key), t.GetPassword()):
		return time.Time{}, ipc.Errorf(ipc.AccessControlException, "%s is trying to renew a token %s with wrong password", renewer, formatID(id))
	}
	if _, ok := m.tokens[string(t.GetIdentifier())]; !ok {
		return time.Time{}, ipc.Errorf(ipc.InvalidTokenException, "Renewal request for unknown token %s", formatID(id))
	}
	renewDate := now.Add(m.renewInterval)
	if id.Max().Before(renewDate) {
		renewDate = id.Max()
	}
	m.tokens[string(t.GetIdentifier())] = renewDate
	return renewDate, nil
}

// cancel forgets a token for canceller, its owner or its renewer
// (AbstractDelegationTokenSecretManager.cancelToken).
func (m *tokenManager) cancel(t *commonpb.TokenProto, canceller string) error {
	id, err := delegation.Parse(t.GetIdentifier())
	if err != nil {
		return ipc.Errorf(ipc.IOException, "%v", err)
	}
	if id.Owner == "" {
		return ipc.Errorf(ipc.InvalidTokenException, "Token with no owner %s", formatID(id))
	}
	if canceller != id.Owner && (id.Renewer == "" || ugi.ShortName(canceller) != id.Renewer) {
		return ipc.Errorf(ipc.AccessControlException, "%s is not authorized to cancel the token %s", canceller, formatID(id))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tokens[string(t.GetIdentifier())]; !ok {
		return ipc.Errorf(ipc.InvalidTokenException, "Token not found %s", formatID(id))
	}
	delete(m.tokens, string(t.GetIdentifier()))
	return nil
}

// secure reports whether the NameNode runs with security (Kerberos): only
// then does its secret manager run (FSNamesystem.shouldUseDelegationTokens).
func (nn *namenode) secure() bool { return nn.opts.Kerberos != nil }

// tokenOpAllowed is FSNamesystem.isAllowedDelegationTokenOp: with security
// on, tokens are issued and renewed only over Kerberos (a proxy counts as
// its real user's method), never over a token.
func tokenOpAllowed(call *ipc.Call) bool { return call.Auth == ipc.AuthKerberos }

func (nn *namenode) getDelegationToken(_ context.Context, call *ipc.Call, req *commonpb.GetDelegationTokenRequestProto) (*commonpb.GetDelegationTokenResponseProto, error) {
	if !nn.secure() {
		// No secret manager runs without security: no token, no error.
		return &commonpb.GetDelegationTokenResponseProto{}, nil
	}
	if !tokenOpAllowed(call) {
		return nil, ipc.Errorf(ipc.IOException, "Delegation Token can be issued only with kerberos or web authentication")
	}
	t := nn.tokens.issue(call.User, call.RealUser, req.GetRenewer())
	return &commonpb.GetDelegationTokenResponseProto{Token: t}, nil
}

func (nn *namenode) renewDelegationToken(_ context.Context, call *ipc.Call, req *commonpb.RenewDelegationTokenRequestProto) (*commonpb.RenewDelegationTokenResponseProto, error) {
	if nn.secure() && !tokenOpAllowed(call) {
		return nil, ipc.Errorf(ipc.IOException, "Delegation Token can be renewed only with kerberos or web authentication")
	}
	expiry, err := nn.tokens.renew(req.GetToken(), ugi.ShortName(call.User))
	if err != nil {
		return nil, err
	}
	return &commonpb.RenewDelegationTokenResponseProto{NewExpiryTime: proto.Uint64(uint64(expiry.UnixMilli()))}, nil
}

func (nn *namenode) cancelDelegationToken(_ context.Context, call *ipc.Call, req *commonpb.CancelDelegationTokenRequestProto) (*commonpb.CancelDelegationTokenResponseProto, error) {
	if err := nn.tokens.cancel(req.GetToken(), call.User); err != nil {
		return nil, err
	}
	return &commonpb.CancelDelegationTokenResponseProto{}, nil
}
