package daemon

import (
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/yarn"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
)

// rmSPNEGOPrincipal names the ResourceManager's SPNEGO principal.
const rmSPNEGOPrincipal = "yarn.resourcemanager.webapp.spnego-principal"

// webAuth is how the server authenticates to a Hadoop web service (the RM's
// REST API, a NodeManager, the JobHistory server): as itself, by SPNEGO as
// its principal on a Kerberized cluster, else as its user name. Requests
// made for a job add doAs=<job user> (hadoop.AsUser). principalKey names the
// service's SPNEGO principal in the Hadoop configuration ("" lets the
// client derive HTTP/<host>).
func webAuth(cfg *conf.Server, hc *conf.Hadoop, krb *krbclient.Client, principalKey string) (yarn.Authenticator, error) {
	if krb == nil {
		return yarn.PseudoAuth{User: cfg.UserName}, nil
	}
	return yarn.NewSPNEGOAuth(krb, hc.GetDefault(principalKey, ""))
}
