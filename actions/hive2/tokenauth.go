package hive2

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"net"
	"strings"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/digestmd5"
)

// Delegation-token authentication to HiveServer2, as the Hive JDBC driver
// does it in a container that has a HiveServer2 token and no Kerberos
// ticket (HiveConnection with auth=delegationToken and no principal=,
// KerberosSaslHelper.getTokenTransport).
const (
	// AuthDelegationToken is the auth= value that makes the JDBC driver
	// use the HIVE_DELEGATION_TOKEN of the caller's credentials
	// (JdbcConnectionParams.AUTH_TOKEN).
	AuthDelegationToken = "delegationToken"
	// TokenService is the service of the token the driver uses
	// (HiveAuthConstants.HS2_CLIENT_TOKEN); HiveServer2's
	// GetDelegationToken stamps it on its tokens.
	TokenService = "hiveserver2ClientToken"
)

// The digest-uri of Hive's DIGEST-MD5 over Thrift SASL: both sides pass a
// null protocol and the server name "default" to Java's SASL
// (HadoopThriftAuthBridge Client.createClientTransport and
// Server.createSaslServerTransportFactory), which joins them as
// "null/default"; the realm is "default" (SaslRpcServer.SASL_DEFAULT_REALM).
const (
	tokenSASLProtocol   = "null"
	tokenSASLServerName = "default"
)

// digestMD5Mechanism is the SASL mechanism of token authentication.
const digestMD5Mechanism = "DIGEST-MD5"

// DelegationTokenURL returns the JDBC URL a launcher's beeline uses when
// the launch carries a HiveServer2 delegation token: principal= removed
// (with it the driver would insist on Kerberos) and auth=delegationToken
// set, so the driver takes the token from the container's credentials.
func DelegationTokenURL(raw string) string {
	rest, _ := cutSessionVar(raw, "principal")
	rest, _ = cutSessionVar(rest, "auth")
	return addSessionVar(rest, "auth", AuthDelegationToken)
}

// CutPrincipal returns raw without its principal= session variable, and
// the principal ("" when it names none).
func CutPrincipal(raw string) (rest, principal string) {
	return cutSessionVar(raw, "principal")
}

// CutDelegationTokenAuth reports whether raw asks for auth=delegationToken
// and returns it without that session variable, for ParseJDBCURL (which
// refuses delegation tokens: gozie's own hive2 action authenticates with
// Kerberos).
func CutDelegationTokenAuth(raw string) (rest string, ok bool) {
	rest, auth := cutSessionVar(raw, "auth")
	if strings.EqualFold(auth, AuthDelegationToken) {
		return rest, true
	}
	return raw, false
}

// splitURL splits a JDBC URL into the part before its session variables,
// the session variables and the tail (the ?configuration and #variables
// parts, with their separators), as ParseJDBCURL reads them.
func splitURL(raw string) (head, sess, tail string) {
	s := raw
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s, tail = s[:i], s[i:]
	}
	// The session variables start at the first ';' (after the database,
	// or after the authority when there is no database part).
	head, sess, _ = strings.Cut(s, ";")
	return head, sess, tail
}

// cutSessionVar removes every session variable named name (case
// insensitive, as the driver reads them) and returns the last value.
func cutSessionVar(raw, name string) (string, string) {
	head, sess, tail := splitURL(raw)
	var keep []string
	value := ""
	for _, part := range strings.Split(sess, ";") {
		k, v, _ := strings.Cut(part, "=")
		if strings.EqualFold(strings.TrimSpace(k), name) {
			value = strings.TrimSpace(v)
			continue
		}
		if strings.TrimSpace(part) != "" {
			keep = append(keep, part)
		}
	}
	if len(keep) == 0 {
		return head + tail, value
	}
	return head + ";" + strings.Join(keep, ";") + tail, value
}

// addSessionVar appends name=value to the URL's session variables.
func addSessionVar(raw, name, value string) string {
	head, sess, tail := splitURL(raw)
	if !strings.Contains(strings.TrimPrefix(strings.ToLower(head), jdbcPrefix), "/") {
		head += "/" // a URL without a database part gets an empty one
	}
	if strings.TrimSpace(sess) != "" {
		return head + ";" + sess + ";" + name + "=" + value + tail
	}
	return head + ";" + name + "=" + value + tail
}

// TokenFrom returns the HiveServer2 delegation token the JDBC driver
// would use among toks: kind HIVE_DELEGATION_TOKEN, service
// hiveserver2ClientToken (DelegationTokenSelector).
func TokenFrom(toks []hadoop.Token) (hadoop.Token, bool) {
	for _, t := range toks {
		if t.Kind == TokenKind && t.Service == TokenService {
			return t, true
		}
	}
	return hadoop.Token{}, false
}

// SASLToken runs the client side of Hive's Thrift SASL negotiation with
// DIGEST-MD5 and a HiveServer2 delegation token on conn, with qop auth
// (KerberosSaslHelper.getTokenTransport): START "DIGEST-MD5" with an
// empty initial response, the server's challenge, the digest-response
// (user name the base64 of the token's identifier, password the base64 of
// its password), and the server's rspauth with COMPLETE, which is
// verified. It returns conn wrapped in the transport's framing, for gohive
// to speak NOSASL over.
func SASLToken(conn net.Conn, tok hadoop.Token) (net.Conn, error) {
	cl := &digestmd5.Client{
		Username:   base64.StdEncoding.EncodeToString(tok.Identifier),
		Password:   base64.StdEncoding.EncodeToString(tok.Password),
		Protocol:   tokenSASLProtocol,
		ServerName: tokenSASLServerName,
	}
	br := bufio.NewReader(conn)
	if err := writeSASL(conn, saslStart, []byte(digestMD5Mechanism)); err != nil {
		return nil, err
	}
	if err := writeSASL(conn, saslOK, nil); err != nil {
		return nil, err
	}
	challenge, err := readSASL(br, saslOK)
	if err != nil {
		return nil, err
	}
	resp, err := cl.Respond(challenge)
	if err != nil {
		return nil, fmt.Errorf("SASL DIGEST-MD5: %w", err)
	}
	if err := writeSASL(conn, saslOK, resp); err != nil {
		return nil, err
	}
	final, err := readSASL(br, saslComplete)
	if err != nil {
		return nil, err
	}
	if err := cl.Verify(final); err != nil {
		return nil, fmt.Errorf("SASL DIGEST-MD5: %w", err)
	}
	return &saslConn{Conn: conn, r: br}, nil
}
