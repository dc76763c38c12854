package hadoop

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/colinmarc/hdfs/v2/hadoopconf"
	"github.com/gozie/gozie/hadoop/delegation"
	"github.com/gozie/gozie/hadoop/hadooppb/commonpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"google.golang.org/protobuf/proto"
)

// HATokenServicePrefix starts the service of a token for an HA
// nameservice: "ha-hdfs:<nameservice>" (HAUtilClient.
// buildTokenServiceForLogicalUri with the hdfs scheme).
const HATokenServicePrefix = "ha-hdfs:"

// Keys of the NameNode's token lifetimes, read from the Resolver's Conf to
// know how long a token it fetched lives unless renewed.
const (
	// TokenRenewIntervalKey is dfs.namenode.delegation.token.renew-interval
	// (milliseconds; default DefaultTokenRenewInterval).
	TokenRenewIntervalKey = "dfs.namenode.delegation.token.renew-interval"
	// DefaultTokenRenewInterval is its hdfs-default.xml value.
	DefaultTokenRenewInterval = 24 * time.Hour
)

// ErrNoDelegationToken reports a NameNode that issues no delegation tokens:
// one without security (SIMPLE authentication) answers getDelegationToken
// with none, as Hadoop's does. A submission to such a cluster needs none.
var ErrNoDelegationToken = errors.New("hadoop: the NameNode issues no delegation tokens (security is off)")

// TokenService returns the service an HDFS delegation token for the
// filesystem of authority carries, as Hadoop's DFSClient sets it: an HA
// nameservice's is "ha-hdfs:<nameservice>", a NameNode's its IP address
// and port (SecurityUtil.buildTokenService with
// hadoop.security.token.service.use_ip's default, true).
func TokenService(conf hadoopconf.HadoopConf, authority string) (string, error) {
	if conf["dfs.ha.namenodes."+authority] != "" {
		return HATokenServicePrefix + authority, nil
	}
	addrs, err := NameNodes(conf, authority)
	if err != nil {
		return "", err
	}
	return addressService(addrs[0]), nil
}

// addressService is SecurityUtil.buildTokenService of host:port: the host's
// IP address (IPv4 preferred) and the port; a host that does not resolve
// stays as it is.
func addressService(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || net.ParseIP(host) != nil {
		return addr
	}
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 {
		return addr
	}
	ip := ips[0]
	for _, c := range ips {
		if c.To4() != nil {
			ip = c
			break
		}
	}
	return net.JoinHostPort(ip.String(), port)
}

// TokenForFilesystem picks the HDFS delegation token for the NameNodes of
// authority among tokens, as Hadoop's client selects one
// (AbstractDelegationTokenSelector: the kind and the service must match):
// for an HA nameservice the token of "ha-hdfs:<nameservice>", else the one
// of the NameNode's IP:port.
func TokenForFilesystem(tokens []Token, conf hadoopconf.HadoopConf, authority string) (Token, bool) {
	if len(tokens) == 0 {
		return Token{}, false
	}
	service, err := TokenService(conf, authority)
	if err != nil {
		return Token{}, false
	}
	for _, t := range tokens {
		if t.Kind == KindHDFSDelegationToken && t.Service == service {
			return t, true
		}
	}
	return Token{}, false
}

// tokenUser returns the short name of the owner of t, the identity every
// call over it has; a call made for another effective user fails, for a
// token cannot act for anyone else (Hadoop's server refuses a context that
// names another user over TOKEN).
func tokenUser(t Token, authority, user string, self bool) (string, error) {
	id, err := delegation.Parse(t.Identifier)
	if err != nil {
		return "", fmt.Errorf("hadoop: the delegation token for hdfs://%s: %w", authority, err)
	}
	owner := shortName(id.Owner)
	if !self && user != owner && user != id.Owner {
		return "", fmt.Errorf("hadoop: hdfs://%s: the delegation token is %s's, the call acts for %s", authority, owner, user)
	}
	return owner, nil
}

// shortName is a principal's short name under the default auth_to_local
// rule: up to its first '/' or '@'.
func shortName(name string) string {
	if i := strings.IndexAny(name, "/@"); i >= 0 {
		return name[:i]
	}
	return name
}

// tokenKey names a cached delegation token.
type tokenKey struct{ authority, user, renewer string }

// tokenSlot holds one cached token; its mutex keeps two callers from
// fetching the same token at once.
type tokenSlot struct {
	mu  sync.Mutex
	tok *Token
}

// tokenCache is the Resolver's delegation tokens by (filesystem, user,
// renewer).
type tokenCache struct {
	mu    sync.Mutex
	slots map[tokenKey]*tokenSlot
}

func (c *tokenCache) slot(k tokenKey) *tokenSlot {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.slots == nil {
		c.slots = map[tokenKey]*tokenSlot{}
	}
	s, ok := c.slots[k]
	if !ok {
		s = &tokenSlot{}
		c.slots[k] = s
	}
	return s
}

// forget drops t wherever it is cached.
func (c *tokenCache) forget(t Token) {
	c.mu.Lock()
	slots := make([]*tokenSlot, 0, len(c.slots))
	for _, s := range c.slots {
		slots = append(slots, s)
	}
	c.mu.Unlock()
	for _, s := range slots {
		s.mu.Lock()
		if s.tok != nil && string(s.tok.Identifier) == string(t.Identifier) {
			s.tok = nil
		}
		s.mu.Unlock()
	}
}

// DelegationToken returns an HDFS delegation token for user on the
// filesystem of uri (hdfs://<nameservice>, hdfs://host:port, or a bare
// path on an HDFS default filesystem) that renewer (typically the
// ResourceManager's principal, which renews the tokens of the applications
// it runs) may renew. The Resolver asks the filesystem's NameNode (the
// active one of an HA nameservice) over its own IPC, as its Kerberos
// principal acting for user by proxy, so the token's owner is user and its
// real user the principal. The token's service is "ha-hdfs:<nameservice>"
// for an HA nameservice and the NameNode's IP:port otherwise (TokenService).
//
// Tokens are cached per (filesystem, user, renewer). The Resolver never
// renews them (it is not their renewer; the RM renews what it was given):
// a cached token is returned while less than three quarters of its first
// life has passed, its first life running from its issue date to the
// earlier of its max date and the issue date plus the renew interval
// (TokenRenewIntervalKey in Conf); after that a new token is fetched and
// cached, and the old one is left to its holders, neither renewed nor
// cancelled. So a returned token has at least a quarter of a renew interval
// before it must first be renewed. Submissions that share a cached token
// must not have the RM cancel it when they finish (YARN's
// cancel-tokens-when-complete false, as Oozie sets
// mapreduce.job.complete.cancel.delegation.tokens false).
//
// A NameNode without security answers with no token: the error then
// matches ErrNoDelegationToken.
func (r *Resolver) DelegationToken(ctx context.Context, uri, user, renewer string) (Token, error) {
	loc, err := r.parse(uri)
	if err != nil {
		return Token{}, err
	}
	if loc.scheme != "hdfs" {
		return Token{}, fmt.Errorf("hadoop: %s: only HDFS issues delegation tokens", uri)
	}
	if user == "" {
		return Token{}, fmt.Errorf("hadoop: a delegation token for hdfs://%s: %w", loc.authority, ErrNoUser)
	}
	s := r.tokens.slot(tokenKey{loc.authority, user, renewer})
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tok != nil && r.tokenFresh(*s.tok) {
		return *s.tok, nil
	}
	t, err := r.fetchDelegationToken(ctx, loc.authority, user, renewer)
	if err != nil {
		return Token{}, err
	}
	s.tok = &t
	return t, nil
}

// tokenFresh is the reuse rule of DelegationToken: less than three
// quarters of the token's first life have passed.
func (r *Resolver) tokenFresh(t Token) bool {
	id, err := delegation.Parse(t.Identifier)
	if err != nil {
		return false
	}
	end := id.Issued().Add(r.tokenRenewInterval())
	if id.Max().Before(end) {
		end = id.Max()
	}
	refetch := id.Issued().Add(end.Sub(id.Issued()) * 3 / 4)
	return r.cfg.Now().Before(refetch)
}

// tokenRenewInterval is Conf's TokenRenewIntervalKey, else the default.
func (r *Resolver) tokenRenewInterval() time.Duration {
	if ms, err := strconv.ParseInt(strings.TrimSpace(r.cfg.Conf[TokenRenewIntervalKey]), 10, 64); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return DefaultTokenRenewInterval
}

// fetchDelegationToken asks the NameNode(s) of authority for a token.
func (r *Resolver) fetchDelegationToken(ctx context.Context, authority, user, renewer string) (Token, error) {
	service, err := TokenService(r.cfg.Conf, authority)
	if err != nil {
		return Token{}, err
	}
	resp := &commonpb.GetDelegationTokenResponseProto{}
	req := &commonpb.GetDelegationTokenRequestProto{Renewer: proto.String(renewer)}
	if err := r.nameNodeCall(ctx, authority, user, "getDelegationToken", req, resp); err != nil {
		return Token{}, fmt.Errorf("hadoop: a delegation token for %s on hdfs://%s: %w", user, authority, err)
	}
	if resp.Token == nil {
		return Token{}, fmt.Errorf("hdfs://%s: %w", authority, ErrNoDelegationToken)
	}
	return Token{Identifier: resp.Token.GetIdentifier(), Password: resp.Token.GetPassword(),
		Kind: resp.Token.GetKind(), Service: service}, nil
}

// RenewDelegationToken renews t on the filesystem of uri as ctx's
// effective user (or the Resolver's own identity), who must be its
// renewer, and returns its new expiry.
func (r *Resolver) RenewDelegationToken(ctx context.Context, uri string, t Token) (time.Time, error) {
	loc, err := r.parse(uri)
	if err != nil {
		return time.Time{}, err
	}
	resp := &commonpb.RenewDelegationTokenResponseProto{}
	req := &commonpb.RenewDelegationTokenRequestProto{Token: t.proto()}
	if err := r.nameNodeCall(ctx, loc.authority, EffectiveUser(ctx), "renewDelegationToken", req, resp); err != nil {
		return time.Time{}, fmt.Errorf("hadoop: renewing a delegation token on hdfs://%s: %w", loc.authority, err)
	}
	return time.UnixMilli(int64(resp.GetNewExpiryTime())), nil
}

// CancelDelegationToken cancels t on the filesystem of uri as ctx's
// effective user (or the Resolver's own identity), who must be its owner
// or renewer; DelegationToken no longer returns it.
func (r *Resolver) CancelDelegationToken(ctx context.Context, uri string, t Token) error {
	loc, err := r.parse(uri)
	if err != nil {
		return err
	}
	r.tokens.forget(t)
	req := &commonpb.CancelDelegationTokenRequestProto{Token: t.proto()}
	if err := r.nameNodeCall(ctx, loc.authority, EffectiveUser(ctx), "cancelDelegationToken", req, &commonpb.CancelDelegationTokenResponseProto{}); err != nil {
		return fmt.Errorf("hadoop: cancelling a delegation token on hdfs://%s: %w", loc.authority, err)
	}
	return nil
}

func (t Token) proto() *commonpb.TokenProto {
	return &commonpb.TokenProto{Identifier: t.Identifier, Password: t.Password, Kind: proto.String(t.Kind), Service: proto.String(t.Service)}
}

// nameNodeCall makes one ClientProtocol call the colinmarc client cannot
// make, over gozie's IPC, as the Resolver's identity acting for user (""
// or User: for no one else): Kerberos when the Resolver has a principal,
// else SIMPLE. The NameNodes of an HA nameservice are tried in order until
// one is active.
func (r *Resolver) nameNodeCall(ctx context.Context, authority, user, method string, req, resp proto.Message) error {
	addrs, err := NameNodes(r.cfg.Conf, authority)
	if err != nil {
		return err
	}
	var errs []error
	for _, addr := range addrs {
		err := r.callNameNode(ctx, addr, user, method, req, resp)
		var re *ipc.RemoteError
		if err == nil {
			return nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
		var refused *SimpleRefusedError
		if (errors.As(err, &re) && re.Class != ipc.StandbyException) || errors.As(err, &refused) {
			return err // the active NameNode's answer, or a refusal of SIMPLE
		}
		if ctx.Err() != nil {
			break
		}
	}
	return errors.Join(errs...)
}

// callNameNode makes one call on one NameNode.
func (r *Resolver) callNameNode(ctx context.Context, addr, user, method string, req, resp proto.Message) error {
	opts := r.nameNodeOptions(addr, user)
	c, err := ipc.Dial(ctx, opts)
	if err != nil {
		return r.simpleRefused(addr, opts, err)
	}
	defer c.Close()
	return r.simpleRefused(addr, opts, c.Call(ctx, method, req, resp))
}

// nameNodeOptions are the options of a ClientProtocol connection to addr
// as the Resolver's identity acting for user ("" or User: for no one else).
func (r *Resolver) nameNodeOptions(addr, user string) ipc.ClientOptions {
	opts := ipc.ClientOptions{Addr: addr, Protocol: ipc.ClientProtocol, Protection: r.protection}
	self := user == "" || user == r.cfg.User
	switch {
	case r.cfg.Kerberos != nil:
		opts.Kerberos, opts.ServicePrincipal = r.cfg.Kerberos, r.cfg.NameNodePrincipal
		if !self {
			opts.User = user
		}
	case self:
		opts.User = r.cfg.User
	default:
		opts.User, opts.RealUser = user, r.cfg.User
	}
	return opts
}

// TokensFromEnv returns the tokens of the token file named by
// HADOOP_TOKEN_FILE_LOCATION as getenv reads it, in alias order, for
// ResolverConfig.Tokens: inside a YARN container the HDFS delegation
// tokens of the submission are there. An unset variable gives none.
func TokensFromEnv(getenv func(string) string) ([]Token, error) {
	creds, err := CredentialsFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	tokens := make([]Token, 0, len(creds.Tokens))
	for _, alias := range sortedKeys(creds.Tokens) {
		tokens = append(tokens, creds.Tokens[alias])
	}
	return tokens, nil
}
