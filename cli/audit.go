package cli

import (
	"cmp"
	"context"
	"flag"
	"io"

	"github.com/gozie/gozie/server/client"
)

// auditFlags are the options of the log commands, `job -log`, `-errorlog`
// and `-auditlog`.
type auditFlags struct {
	logFilter string
}

func (a *auditFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.logFilter, "logfilter", "",
		"narrow -log, -errorlog and -auditlog: `OPTIONS` 'recent=3h;start=...;end=...;loglevel=WARN|ERROR;text=...;limit=n;debug'")
}

// auditLog is `job -auditlog ID [-logfilter F] [-timezone Z]`: the audit
// trail of a job (GET job/<id>?show=auditlog), printed as the server sends
// it, times in -timezone (or $OOZIE_TIMEZONE, else GMT).
func (f *jobFlags) auditLog(ctx context.Context, env Env, cl *client.Client, out io.Writer, id string) error {
	return cl.AuditLog(ctx, id, f.audit.logFilter, cmp.Or(f.timezone, env.Getenv("OOZIE_TIMEZONE")), out)
}
