package minihs2

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/beltran/gohive/hiveserver"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/delegation"
	"github.com/gozie/gozie/testenv/internal/ugi"
	"github.com/gozie/gozie/yarn"
)

// Delegation token facts (HiveDelegationTokenIdentifier, HiveAuthConstants).
const (
	// TokenKind is the kind of a HiveServer2 delegation token.
	TokenKind = "HIVE_DELEGATION_TOKEN"
	// TokenService is the service GetDelegationToken stamps on its tokens
	// (HS2_CLIENT_TOKEN); the JDBC driver's auth=delegationToken looks the
	// token up by it.
	TokenService = "hiveserver2ClientToken"
)

// tokenInfo is one issued token's state.
type tokenInfo struct {
	owner, renewer string // short names
	password       []byte
	maxDate        time.Time
	expires        time.Time
}

// tokenStore issues and tracks HIVE_DELEGATION_TOKENs
// (AbstractDelegationTokenSecretManager with one master key).
type tokenStore struct {
	masterKey     []byte
	maxLifetime   time.Duration
	renewInterval time.Duration
	// service is the service stamped on issued tokens: TokenService for
	// HiveServer2's, none for the metastore's.
	service string

	mu     sync.Mutex
	seq    int64
	tokens map[string]*tokenInfo // by identifier bytes
}

func newTokenStore(maxLifetime, renewInterval time.Duration) *tokenStore {
	key := make([]byte, 64)
	rand.Read(key)
	return &tokenStore{masterKey: key, maxLifetime: maxLifetime, renewInterval: renewInterval, service: TokenService,
		tokens: map[string]*tokenInfo{}}
}

// masterKeyID is the id of the store's only master key.
const masterKeyID = 1

// issue creates a token for owner, renewable by renewer, issued by real
// (recorded as the identifier's realUser when it differs from owner), and
// returns it in Token.encodeToUrlString form.
func (t *tokenStore) issue(owner, renewer, real string, now time.Time) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	realField := ""
	if ugi.ShortName(real) != owner {
		realField = real
	}
	maxDate := now.Add(t.maxLifetime)
	id := delegation.Identifier{Owner: owner, Renewer: ugi.ShortName(renewer), RealUser: realField,
		IssueDate: now.UnixMilli(), MaxDate: maxDate.UnixMilli(), SequenceNumber: int32(t.seq),
		MasterKeyID: masterKeyID}.Marshal()
	pw := delegation.Password(id, t.masterKey)
	t.tokens[string(id)] = &tokenInfo{owner: owner, renewer: ugi.ShortName(renewer), password: pw,
		maxDate: maxDate, expires: minTime(now.Add(t.renewInterval), maxDate)}
	return yarn.EncodeTokenURLString(hadoop.Token{Identifier: id, Password: pw, Kind: TokenKind, Service: t.service})
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// lookup decodes a token string and returns its identifier and state.
func (t *tokenStore) lookup(tokenStr string) (string, *tokenInfo, error) {
	tok, err := yarn.DecodeTokenURLString(tokenStr)
	if err != nil {
		return "", nil, fmt.Errorf("decoding the delegation token: %w", err)
	}
	id := tok.Identifier
	t.mu.Lock()
	defer t.mu.Unlock()
	info, ok := t.tokens[string(id)]
	if !ok {
		//lint:ignore ST1005 HiveServer2's own message, verbatim
		return "", nil, errors.New("Token not found")
	}
	return string(id), info, nil
}

// renew extends a token by the renew interval (up to its max date);
// only its renewer may.
func (t *tokenStore) renew(tokenStr, caller string, now time.Time) error {
	_, info, err := t.lookup(tokenStr)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	who := ugi.ShortName(caller)
	switch {
	case info.renewer == "":
		return fmt.Errorf("%s tries to renew a token with an empty renewer", who)
	case info.renewer != who:
		return fmt.Errorf("%s tries to renew a token with non-matching renewer %s", who, info.renewer)
	case now.After(info.maxDate):
		return fmt.Errorf("token has expired: max date %s", info.maxDate.UTC().Format(time.RFC3339))
	case now.After(info.expires):
		return errors.New("token has expired and cannot be renewed")
	}
	info.expires = minTime(now.Add(t.renewInterval), info.maxDate)
	return nil
}

// cancel forgets a token; only its owner or renewer may.
func (t *tokenStore) cancel(tokenStr, caller string) error {
	id, info, err := t.lookup(tokenStr)
	if err != nil {
		return err
	}
	who := ugi.ShortName(caller)
	if who != info.owner && who != info.renewer {
		return fmt.Errorf("%s is not authorized to cancel the token", who)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.tokens, id)
	return nil
}

// kerberosCaller returns the Kerberos principal behind a session, or an
// error status when the session did not authenticate with Kerberos: Hive
// issues and manages delegation tokens only for those
// (ThriftCLIService.isKerberosAuthMode).
func (v *service) kerberosCaller(h *hiveserver.TSessionHandle) (*session, *hiveserver.TStatus) {
	sess, st := v.session(h)
	if st != nil {
		return nil, st
	}
	if v.s.opts.Auth != AuthKerberos {
		return nil, errStatus(&hiveError{sqlState: "08S01", msg: "Delegation token only supported over remote client with kerberos authentication"})
	}
	return sess, nil
}

// GetDelegationToken issues a HIVE_DELEGATION_TOKEN for req.Owner,
// renewable by req.Renewer. A caller asking for another user's token must
// be allowed to act for that user by the hadoop.proxyuser rules.
func (v *service) GetDelegationToken(ctx context.Context, req *hiveserver.TGetDelegationTokenReq) (*hiveserver.TGetDelegationTokenResp, error) {
	sess, st := v.kerberosCaller(req.SessionHandle)
	if st != nil {
		return &hiveserver.TGetDelegationTokenResp{Status: st}, nil
	}
	owner := ugi.ShortName(req.Owner)
	if owner == "" {
		return &hiveserver.TGetDelegationTokenResp{Status: failStatus("Error retrieving delegation token for user: no owner")}, nil
	}
	if owner != ugi.ShortName(sess.realUser) {
		remote := ""
		if sess.conn != nil {
			remote = sess.conn.remote
		} else {
			_, remote = httpCaller(ctx)
		}
		if err := v.s.proxyUsers.Authorize(sess.realUser, owner, ugi.HostOf(remote)); err != nil {
			return &hiveserver.TGetDelegationTokenResp{Status: errStatus(&hiveError{sqlState: "08S01",
				msg: fmt.Sprintf("Error retrieving delegation token for user %s: %v", owner, err)})}, nil
		}
	}
	tok := v.s.tokens.issue(owner, req.Renewer, sess.realUser, v.s.opts.Now())
	return &hiveserver.TGetDelegationTokenResp{Status: okStatus(), DelegationToken: &tok}, nil
}

// CancelDelegationToken forgets a token; the session's principal must be
// its owner or renewer.
func (v *service) CancelDelegationToken(ctx context.Context, req *hiveserver.TCancelDelegationTokenReq) (*hiveserver.TCancelDelegationTokenResp, error) {
	sess, st := v.kerberosCaller(req.SessionHandle)
	if st != nil {
		return &hiveserver.TCancelDelegationTokenResp{Status: st}, nil
	}
	if err := v.s.tokens.cancel(req.DelegationToken, sess.realUser); err != nil {
		return &hiveserver.TCancelDelegationTokenResp{Status: failStatus("Error canceling delegation token: %v", err)}, nil
	}
	return &hiveserver.TCancelDelegationTokenResp{Status: okStatus()}, nil
}

// RenewDelegationToken extends a token; the session's principal must be
// its renewer.
func (v *service) RenewDelegationToken(ctx context.Context, req *hiveserver.TRenewDelegationTokenReq) (*hiveserver.TRenewDelegationTokenResp, error) {
	sess, st := v.kerberosCaller(req.SessionHandle)
	if st != nil {
		return &hiveserver.TRenewDelegationTokenResp{Status: st}, nil
	}
	if err := v.s.tokens.renew(req.DelegationToken, sess.realUser, v.s.opts.Now()); err != nil {
		return &hiveserver.TRenewDelegationTokenResp{Status: failStatus("Error renewing delegation token: %v", err)}, nil
	}
	return &hiveserver.TRenewDelegationTokenResp{Status: okStatus()}, nil
}
