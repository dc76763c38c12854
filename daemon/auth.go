package daemon

import (
	"fmt"
	"log/slog"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/auth"
)

// newAuthenticator builds the REST API's authentication from the gozie.http.authentication.*
// and gozie.http.proxyusers settings.
func newAuthenticator(cfg *conf.Server, log *slog.Logger) (*auth.Authenticator, error) {
	proxies := make([]auth.ProxyUser, 0, len(cfg.HTTP.ProxyUsers))
	for _, p := range cfg.HTTP.ProxyUsers {
		proxies = append(proxies, auth.ProxyUser(p))
	}
	a, err := auth.New(auth.Config{
		Type:          cfg.HTTP.AuthenticationType,
		DenyAnonymous: !cfg.HTTP.AnonymousAllowed,
		KeytabFile:    cfg.HTTP.KerberosKeytab,
		Principal:     cfg.HTTP.KerberosPrincipal,
		Secret:        []byte(cfg.HTTP.SignatureSecret),
		Validity:      cfg.HTTP.TokenValidity,
		ProxyUsers:    proxies,
		Logger:        log,
	})
	if err != nil {
		return nil, fmt.Errorf("REST authentication (gozie.http.authentication.*): %w", err)
	}
	return a, nil
}

// authorization is the REST API's authorization policy from the gozie.authorization.* and
// gozie.admin.* settings.
func authorization(cfg *conf.Server) *auth.Policy {
	a := cfg.Authorization
	return &auth.Policy{
		Disabled: !a.Enabled, ReadRequiresACL: a.ReadRequiresACL,
		AdminUsers: a.AdminUsers, AdminGroups: a.AdminGroups, SystemInfoUsers: a.SystemInfoUsers,
	}
}
