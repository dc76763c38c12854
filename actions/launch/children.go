package launch

import (
	"context"
	"errors"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// waitsForChildren reports the action types whose tool (hadoop distcp,
// pig, sqoop) runs its MapReduce jobs to their end inside the launcher: the run
// is judged by those jobs once the launcher ended.
func waitsForChildren(typ string) bool {
	return typ == launcher.TypeDistcp || typ == launcher.TypePig || typ == launcher.TypeSqoop
}

// failedChild judges a failed launcher of a type that waits for its
// children: the first child application that ended without success is the
// run's outcome as jobStatus reports a job (its application the external
// id, its diagnostics in the error message), as a failed MapReduce job of
// a map-reduce action is. ok is false when every child the launcher named
// succeeded, or none is known to the RM: the tool's own error stands.
func (e *Executor) failedChild(ctx context.Context, run *actions.Attempt, res *launcher.Result) (actions.Status, bool, error) {
	if res == nil || res.Succeeded() || !waitsForChildren(e.cfg.Type) {
		return actions.Status{}, false, nil
	}
	for _, c := range res.ExternalChildIDs {
		id, err := yarn.ParseApplicationID(c)
		if err != nil {
			continue
		}
		rep, err := e.cfg.YARN.App(ctx, id)
		if errors.Is(err, yarn.ErrAppNotFound) {
			continue
		}
		if err != nil {
			return actions.Status{}, false, yarnError(err, "reading the report of %s", id)
		}
		if rep.Done() && !rep.Succeeded() {
			st := jobStatus(run, rep)
			st.ExternalChildIDs = res.ExternalChildIDs
			return st, true, nil
		}
	}
	return actions.Status{}, false, nil
}
