package launch

import (
	"context"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn/launcher"
)

// hiveToken gives a hive run's beeline a way into a Kerberized
// HiveServer2 from a container that has tokens and no Kerberos ticket:
// the HIVE_DELEGATION_TOKEN of the run's <credential>s, or else, when the
// run's JDBC URL is a Kerberos one (principal=), a token for the run's
// user from Config.HiveToken. With a token in the launch, beeline's URL
// loses principal= and gets auth=delegationToken, so that the Hive JDBC
// driver authenticates with the token (as Oozie's Hive2Main has beeline
// do with -a delegationToken). It returns toks with the token added.
func (e *Executor) hiveToken(ctx context.Context, run *actions.Attempt, h *launcher.HiveSpec, toks []hadoop.Token) ([]hadoop.Token, error) {
	if h == nil {
		return toks, nil
	}
	if _, ok := hive2.TokenFrom(toks); !ok {
		if _, principal := hive2.CutPrincipal(h.JDBCURL); principal == "" || e.cfg.HiveToken == nil {
			return toks, nil
		}
		t, err := e.cfg.HiveToken(ctx, run, h.JDBCURL)
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
	}
	h.JDBCURL = hive2.DelegationTokenURL(h.JDBCURL)
	return toks, nil
}
