package cli

import (
	"context"

	"github.com/gozie/gozie/server/client"
)

// slaCommand is `job -slaenable|-sladisable|-slachange ID`, narrowed by -action or
// -date (a coordinator's actions) or -coordinator (a bundle's coordinators);
// -slachange takes its changes in -value.
func (f *jobFlags) slaCommand(ctx context.Context, cl *client.Client, cmd, id string) error {
	if f.set["action"] && f.set["date"] {
		return &plainError{"Invalid options provided for " + cmd + ": either -date or -action expected. Don't use both at the same time."}
	}
	s := client.SLAScope{ActionList: f.coord.action, Date: f.coord.date, Coordinators: f.coord.coordinators}
	switch cmd {
	case "slaenable":
		return cl.SLAEnable(ctx, id, s)
	case "sladisable":
		return cl.SLADisable(ctx, id, s)
	}
	if !f.set["value"] {
		return &plainError{"-value option is required for -slachange"}
	}
	return cl.SLAChange(ctx, id, f.coord.value, s)
}
