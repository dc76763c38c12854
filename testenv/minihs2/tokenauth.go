package minihs2

import (
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gozie/gozie/hadoop/delegation"
	"github.com/gozie/gozie/hadoop/digestmd5"
)

// Token authentication over the binary transport: with KERBEROS, Hive's
// SASL server takes DIGEST-MD5 besides GSSAPI
// (HadoopThriftAuthBridge.Server.createSaslServerTransportFactory), with
// its own HIVE_DELEGATION_TOKENs: the user name is the base64 of a token's
// identifier, the password the base64 of its password
// (SaslDigestCallbackHandler), and the session's user is the token's
// owner (TUGIAssumingProcessor).
const (
	digestMD5Mechanism = "DIGEST-MD5"
	// Java's SASL joins the null protocol and the server name "default"
	// Hive passes into the digest-uri "null/default"; the realm is the
	// server name (SaslRpcServer.SASL_DEFAULT_REALM).
	tokenSASLProtocol   = "null"
	tokenSASLServerName = "default"
)

// The messages Java's DIGEST-MD5 server (com.sun.security.sasl.digest.
// DigestMD5Server.validateClientResponse) fails with, which Hive's
// TSaslServerTransport sends back with status BAD: a token the secret
// manager refuses (InvalidToken, an IOException from the callback), and a
// response computed with another password.
const (
	msgTokenRefused     = "DIGEST-MD5: IO error acquiring password"
	msgMismatchedDigest = "DIGEST-MD5: digest response format violation. Mismatched response."
)

// tokenSASL is the server side of one DIGEST-MD5 exchange: the challenge
// (to the client's empty initial response), then the client's response,
// answered by rspauth with COMPLETE.
type tokenSASL struct {
	tokens *tokenStore
	now    func() time.Time
	log    *slog.Logger
	srv    *digestmd5.Server
	owner  string
	n      int
}

func (s *Server) newTokenSASL() *tokenSASL {
	m := &tokenSASL{tokens: s.tokens, now: s.opts.Now, log: s.opts.Logger}
	m.srv = &digestmd5.Server{Realm: tokenSASLServerName, Protocol: tokenSASLProtocol, ServerName: tokenSASLServerName,
		Password: m.password}
	return m
}

// password is the callback of the digest: the token's password, when the
// secret manager knows the token and it has not expired.
func (m *tokenSASL) password(username string) (string, error) {
	id, err := base64.StdEncoding.DecodeString(username)
	if err != nil {
		//lint:ignore ST1005 Hive's own message, verbatim
		return "", errTokenRefused{errors.New("Can't de-serialize tokenIdentifier")}
	}
	pw, owner, err := m.tokens.retrievePassword(id, m.now())
	if err != nil {
		return "", errTokenRefused{err}
	}
	m.owner = owner
	return base64.StdEncoding.EncodeToString(pw), nil
}

// errTokenRefused carries the secret manager's InvalidToken, which Hive
// logs and the client never sees.
type errTokenRefused struct{ err error }

func (e errTokenRefused) Error() string { return e.err.Error() }

func (m *tokenSASL) step(resp []byte) ([]byte, string, bool, error) {
	m.n++
	if m.n == 1 {
		ch, err := m.srv.Challenge()
		return ch, "", false, err
	}
	rspauth, err := m.srv.Respond(resp)
	var refused errTokenRefused
	switch {
	case errors.As(err, &refused):
		m.log.Info("minihs2 refused a delegation token", "err", refused.err)
		return nil, "", false, errors.New(msgTokenRefused)
	case errors.Is(err, digestmd5.ErrAuthFailed):
		//lint:ignore ST1005 Java SASL's message, verbatim
		return nil, "", false, errors.New(msgMismatchedDigest)
	case err != nil:
		return nil, "", false, fmt.Errorf("DIGEST-MD5: %w", err)
	}
	return rspauth, m.owner, true, nil
}

// retrievePassword is the secret manager's check of a token presented for
// authentication (TokenStoreDelegationTokenSecretManager.retrievePassword,
// AbstractDelegationTokenSecretManager.checkToken): a token the store does
// not hold (cancelled, or never issued here) is "token expired or does not
// exist", one past its renew date "is expired"; otherwise its password and
// owner.
func (t *tokenStore) retrievePassword(idBytes []byte, now time.Time) ([]byte, string, error) {
	id, err := delegation.Parse(idBytes)
	if err != nil {
		//lint:ignore ST1005 Hive's own message, verbatim
		return nil, "", fmt.Errorf("Can't de-serialize tokenIdentifier: %w", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	info, ok := t.tokens[string(idBytes)]
	if !ok {
		return nil, "", fmt.Errorf("token expired or does not exist: %s", identifierString(id))
	}
	if now.After(info.expires) {
		return nil, "", fmt.Errorf("token (%s) is expired, current time: %s expected renewal time: %s",
			identifierString(id), delegation.FormatTime(now), delegation.FormatTime(info.expires))
	}
	return info.password, info.owner, nil
}

// identifierString is how Hive prints a token identifier
// (AbstractDelegationTokenIdentifier.toString).
func identifierString(id delegation.Identifier) string {
	return fmt.Sprintf("%s owner=%s, renewer=%s, realUser=%s, issueDate=%d, maxDate=%d, sequenceNumber=%d, masterKeyId=%d",
		TokenKind, id.Owner, id.Renewer, id.RealUser, id.IssueDate, id.MaxDate, id.SequenceNumber, id.MasterKeyID)
}
