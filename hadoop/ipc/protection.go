package ipc

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gozie/gozie/hadoop/digestmd5"
)

// RPCProtectionKey is the core-site.xml key that names the protection
// levels of SASL connections, for servers (what they offer and require)
// and clients (what they accept) alike.
const RPCProtectionKey = "hadoop.rpc.protection"

// Protection is a quality of protection of a SASL connection, named as
// hadoop.rpc.protection names it (SaslRpcServer.QualityOfProtection).
type Protection string

// Protection levels and the SASL qop each stands for.
const (
	// ProtectionAuthentication authenticates the peers only (qop "auth"),
	// Hadoop's default: calls travel in the clear.
	ProtectionAuthentication Protection = "authentication"
	// ProtectionIntegrity adds a MAC and a sequence number to every packet
	// (qop "auth-int").
	ProtectionIntegrity Protection = "integrity"
	// ProtectionPrivacy also encrypts every packet (qop "auth-conf").
	ProtectionPrivacy Protection = "privacy"
)

// ErrNoCommonProtection reports a client and a server that share no
// protection level: the client's hadoop.rpc.protection names none the
// server offers. errors.Is matches it on the client's Dial error.
var ErrNoCommonProtection = errors.New("ipc: the client and the server share no hadoop.rpc.protection level")

// ParseProtection reads a hadoop.rpc.protection value as Hadoop's
// SaslPropertiesResolver does: a comma-separated list whose items are
// trimmed and compared without regard to case, in order of preference.
// An empty value means authentication, the default; an unknown item is an
// error.
func ParseProtection(value string) ([]Protection, error) {
	var out []Protection
	for _, item := range strings.Split(value, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		p := Protection(strings.ToLower(item))
		if p.qop() == "" {
			return nil, fmt.Errorf("ipc: %s: unknown protection %q (want authentication, integrity or privacy)", RPCProtectionKey, item)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		out = []Protection{ProtectionAuthentication}
	}
	return out, nil
}

// qop is the SASL qop of p, or "" for an unknown level.
func (p Protection) qop() string {
	switch p {
	case ProtectionAuthentication:
		return digestmd5.QopAuth
	case ProtectionIntegrity:
		return digestmd5.QopAuthInt
	case ProtectionPrivacy:
		return digestmd5.QopAuthConf
	}
	return ""
}

// protectionOf is the level of a negotiated qop.
func protectionOf(qop string) Protection {
	switch qop {
	case digestmd5.QopAuthInt:
		return ProtectionIntegrity
	case digestmd5.QopAuthConf:
		return ProtectionPrivacy
	}
	return ProtectionAuthentication
}

// qops maps configured levels onto SASL qops, defaulting to
// authentication, and rejects unknown levels.
func qops(levels []Protection) ([]string, error) {
	if len(levels) == 0 {
		return []string{digestmd5.QopAuth}, nil
	}
	out := make([]string, 0, len(levels))
	for _, p := range levels {
		q := p.qop()
		if q == "" {
			return nil, fmt.Errorf("ipc: unknown protection level %q (want authentication, integrity or privacy)", p)
		}
		if !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out, nil
}

// protectionList renders levels as a hadoop.rpc.protection value.
func protectionList(levels []Protection) string {
	if len(levels) == 0 {
		return string(ProtectionAuthentication)
	}
	s := make([]string, len(levels))
	for i, p := range levels {
		s[i] = string(p)
	}
	return strings.Join(s, ",")
}
