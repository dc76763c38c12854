package minihs2

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gozie/gozie/hadoop"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// Transport is how clients reach the server (hive.server2.transport.mode).
type Transport string

// Transports.
const (
	// Binary is Thrift's binary protocol over a TCP socket.
	Binary Transport = "binary"
	// HTTP is Thrift's binary protocol in HTTP POST bodies.
	HTTP Transport = "http"
)

// Auth is the authentication of the binary transport
// (hive.server2.authentication).
type Auth string

// Authentication modes.
const (
	// AuthNone is SASL PLAIN with any user and password (binary), or HTTP
	// basic authentication with any user and password.
	AuthNone Auth = "NONE"
	// AuthNoSASL is the raw binary protocol without SASL; the session user is
	// the one OpenSession names. Binary transport only.
	AuthNoSASL Auth = "NOSASL"
	// AuthKerberos is SASL GSSAPI (binary) or SPNEGO (HTTP) with
	// Options.Kerberos's keytab; PLAIN, NOSASL, basic authentication and
	// unauthenticated requests are refused.
	AuthKerberos Auth = "KERBEROS"
)

// Defaults of Options.
const (
	DefaultWarehouse = "/user/hive/warehouse"
	DefaultHTTPPath  = "cliservice"
)

// Options configures Start.
type Options struct {
	// FS holds the tables' files: LOCATION and DIRECTORY paths are paths on
	// it (a hadoop.Resolver also takes full URIs). Required.
	FS hadoop.FileSystem
	// Warehouse is where managed tables live (hive.metastore.warehouse.dir);
	// default DefaultWarehouse.
	Warehouse string
	// YARN is the ResourceManager web address (host:port or URL). When set,
	// every statement that Hive runs as a Tez DAG (INSERT, aggregations)
	// submits an application there, tagged with the session's tags; when
	// empty, statements run without one.
	YARN string
	// YARNKerberos, for a Kerberized RM, is HiveServer2's own login: its
	// applications are submitted by SPNEGO as that principal acting for
	// the session's user. Nil submits with pseudo authentication.
	YARNKerberos *krbclient.Client
	// Transport is Binary (default) or HTTP.
	Transport Transport
	// Auth is AuthNone (default), AuthNoSASL or AuthKerberos.
	Auth Auth
	// Kerberos is the service principal and keytab of AuthKerberos
	// (required with it).
	Kerberos *KerberosOptions
	// HadoopConf holds core-site properties: the hadoop.proxyuser.<user>.
	// users|groups|hosts rules deciding which Kerberos principals may open
	// sessions for other users (hive.server2.proxy.user, doAs), and
	// hadoop.user.group.static.mapping.overrides.
	HadoopConf map[string]string
	// TokenMaxLifetime and TokenRenewInterval bound HIVE_DELEGATION_TOKENs
	// (hive.cluster.delegation.token.max-lifetime, default 7 days, and
	// .renew-interval, default 1 day).
	TokenMaxLifetime, TokenRenewInterval time.Duration
	// Addr is the host:port to listen on; empty means a free loopback
	// port.
	Addr string
	// HTTPPath is the HTTP endpoint path without the leading slash
	// (hive.server2.thrift.http.path); default DefaultHTTPPath.
	HTTPPath string
	// Now is the clock of operation times and query ids; default time.Now.
	Now func() time.Time
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

func (o *Options) setDefaults() error {
	if o.FS == nil {
		return errors.New("minihs2: Options.FS is required")
	}
	if o.Warehouse == "" {
		o.Warehouse = DefaultWarehouse
	}
	if o.Transport == "" {
		o.Transport = Binary
	}
	if o.Auth == "" {
		o.Auth = AuthNone
	}
	if o.TokenMaxLifetime <= 0 {
		o.TokenMaxLifetime = 7 * 24 * time.Hour
	}
	if o.TokenRenewInterval <= 0 {
		o.TokenRenewInterval = 24 * time.Hour
	}
	if o.HTTPPath == "" {
		o.HTTPPath = DefaultHTTPPath
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	switch o.Transport {
	case Binary, HTTP:
	default:
		return fmt.Errorf("minihs2: unknown transport %q", o.Transport)
	}
	switch o.Auth {
	case AuthNone:
	case AuthNoSASL:
		if o.Transport == HTTP {
			return errors.New("minihs2: NOSASL authentication needs the binary transport")
		}
	case AuthKerberos:
		if o.Kerberos == nil || o.Kerberos.Keytab == nil || o.Kerberos.Principal == "" {
			return errors.New("minihs2: KERBEROS authentication needs Options.Kerberos with a keytab and a principal")
		}
	default:
		return fmt.Errorf("minihs2: unknown authentication %q", o.Auth)
	}
	return nil
}
