package launch

import (
	"context"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/yarn"
)

// StatusOf exposes status to the tests: the run's status from a report.
func (e *Executor) StatusOf(ctx context.Context, run *actions.Attempt, rep yarn.AppReport) (actions.Status, error) {
	return e.status(ctx, run, rep)
}
