package hive2

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
)

// DefaultPort is HiveServer2's port when a JDBC URL names none.
const DefaultPort = 10000

// JDBCURL is a parsed HiveServer2 JDBC URL:
//
//	jdbc:hive2://host1:port1[,host2:port2...]/[db][;sessVar=value...][?hiveConf=value[;...]][#hiveVar=value[;...]]
//
// The session variables that choose the connection are read into fields;
// the others stay in SessionVars.
type JDBCURL struct {
	// Hosts are host:port pairs, tried in order.
	Hosts []string
	// Database is the database to use; "default" when the URL names none.
	Database string
	// TransportMode is "binary" or "http" (transportMode, or the older
	// hive.server2.transport.mode in the configuration part).
	TransportMode string
	// HTTPPath is the HTTP endpoint (httpPath; default "cliservice").
	HTTPPath string
	// Auth is "NONE" (SASL PLAIN, or basic authentication over HTTP),
	// "NOSASL" (auth=noSasl) or "KERBEROS" (principal=...: SASL GSSAPI, or
	// SPNEGO over HTTP).
	Auth string
	// SSL is ssl=true.
	SSL bool
	// Principal is the server's Kerberos principal (principal=...), e.g.
	// hive/_HOST@REALM; _HOST stands for the host connected to.
	Principal string
	// User and Password are user= and password= (gozie uses the workflow's
	// user, and the action's password when it has one).
	User, Password string
	// SessionVars holds every session variable as written.
	SessionVars map[string]string
	// HiveConf is the configuration part (after '?'), set in the session.
	HiveConf map[string]string
	// HiveVars is the variable part (after '#'), substituted into scripts.
	HiveVars map[string]string
}

// ErrJDBCURL reports a JDBC URL gozie cannot use.
var ErrJDBCURL = errors.New("bad HiveServer2 JDBC URL")

// errUnsupportedURL reports a valid URL asking for what gozie does not do
// yet (ZooKeeper discovery, SASL security layers, delegation tokens).
var errUnsupportedURL = errors.New("unsupported HiveServer2 connection")

const jdbcPrefix = "jdbc:hive2://"

// ParseJDBCURL parses a jdbc:hive2:// URL. Errors wrap ErrJDBCURL, or
// errUnsupportedURL for what is valid but not supported.
func ParseJDBCURL(raw string) (*JDBCURL, error) {
	s := strings.TrimSpace(raw)
	if !strings.HasPrefix(strings.ToLower(s), jdbcPrefix) {
		return nil, fmt.Errorf("%w %q: it must start with %s", ErrJDBCURL, raw, jdbcPrefix)
	}
	s = s[len(jdbcPrefix):]
	u := &JDBCURL{Database: "default", TransportMode: "binary", HTTPPath: "cliservice", Auth: "NONE",
		SessionVars: map[string]string{}, HiveConf: map[string]string{}, HiveVars: map[string]string{}}
	var vars, conf string
	s, vars, _ = strings.Cut(s, "#")
	s, conf, _ = strings.Cut(s, "?")
	authority, rest, _ := strings.Cut(s, "/")
	db, sess, _ := strings.Cut(rest, ";")
	if strings.Contains(authority, ";") {
		// jdbc:hive2://host:port;transportMode=http (no database part)
		authority, sess, _ = strings.Cut(authority, ";")
	}
	if authority == "" {
		return nil, fmt.Errorf("%w: %q names no host (embedded mode is not available)", errUnsupportedURL, raw)
	}
	for _, hp := range strings.Split(authority, ",") {
		hostport, err := hostPort(hp)
		if err != nil {
			return nil, fmt.Errorf("%w %q: %v", ErrJDBCURL, raw, err)
		}
		u.Hosts = append(u.Hosts, hostport)
	}
	if db = strings.TrimSpace(db); db != "" {
		u.Database = db
	}
	var err error
	if u.SessionVars, err = keyValues(sess); err != nil {
		return nil, fmt.Errorf("%w %q: session variables: %v", ErrJDBCURL, raw, err)
	}
	if u.HiveConf, err = keyValues(conf); err != nil {
		return nil, fmt.Errorf("%w %q: configuration: %v", ErrJDBCURL, raw, err)
	}
	if u.HiveVars, err = keyValues(vars); err != nil {
		return nil, fmt.Errorf("%w %q: variables: %v", ErrJDBCURL, raw, err)
	}
	if err := u.readSessionVars(raw); err != nil {
		return nil, err
	}
	return u, nil
}

func hostPort(hp string) (string, error) {
	hp = strings.TrimSpace(hp)
	if hp == "" {
		return "", errors.New("empty host")
	}
	host, port, err := net.SplitHostPort(hp)
	if err != nil {
		if strings.Contains(err.Error(), "missing port") {
			return net.JoinHostPort(strings.Trim(hp, "[]"), strconv.Itoa(DefaultPort)), nil
		}
		return "", err
	}
	if host == "" {
		return "", fmt.Errorf("empty host in %q", hp)
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return "", fmt.Errorf("bad port in %q", hp)
	}
	return net.JoinHostPort(host, port), nil
}

// keyValues splits "k=v;k2=v2" (empty parts are skipped).
func keyValues(s string) (map[string]string, error) {
	m := map[string]string{}
	for _, part := range strings.Split(s, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%q is not key=value", part)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}

// readSessionVars interprets the session variables (case-insensitive
// names, as the Hive JDBC driver reads them).
func (u *JDBCURL) readSessionVars(raw string) error {
	get := func(names ...string) (string, bool) {
		for _, n := range names {
			for k, v := range u.SessionVars {
				if strings.EqualFold(k, n) {
					return v, true
				}
			}
			if v, ok := u.HiveConf[n]; ok {
				return v, true
			}
		}
		return "", false
	}
	if v, ok := get("transportMode", "hive.server2.transport.mode"); ok {
		switch strings.ToLower(v) {
		case "binary", "http":
			u.TransportMode = strings.ToLower(v)
		default:
			return fmt.Errorf("%w %q: transportMode %q is neither binary nor http", ErrJDBCURL, raw, v)
		}
	}
	if v, ok := get("httpPath", "hive.server2.thrift.http.path"); ok && v != "" {
		u.HTTPPath = strings.TrimPrefix(v, "/")
	}
	if v, ok := get("ssl"); ok {
		u.SSL = strings.EqualFold(v, "true")
	}
	u.User, _ = get("user")
	u.Password, _ = get("password")
	if v, ok := get("serviceDiscoveryMode"); ok && !strings.EqualFold(v, "none") {
		return fmt.Errorf("%w: service discovery (%s) in %q", errUnsupportedURL, v, raw)
	}
	if v, ok := get("principal"); ok && v != "" {
		u.Principal, u.Auth = v, "KERBEROS"
	}
	if v, ok := get("sasl.qop"); ok && u.Principal != "" && !strings.EqualFold(v, "auth") {
		return fmt.Errorf("%w: sasl.qop=%s in %q (only auth is supported)", errUnsupportedURL, v, raw)
	}
	if v, ok := get("auth"); ok {
		switch strings.ToLower(v) {
		case "nosasl":
			if u.Principal != "" {
				return fmt.Errorf("%w %q: auth=noSasl contradicts principal=", ErrJDBCURL, raw)
			}
			u.Auth = "NOSASL"
		case "kerberos":
			if u.Principal == "" {
				return fmt.Errorf("%w %q: auth=kerberos needs principal=", ErrJDBCURL, raw)
			}
		case "none", "":
		default:
			return fmt.Errorf("%w: auth=%s in %q", errUnsupportedURL, v, raw)
		}
	}
	if u.Auth == "NOSASL" && u.TransportMode == "http" {
		return fmt.Errorf("%w %q: auth=noSasl needs transportMode=binary", ErrJDBCURL, raw)
	}
	return nil
}
