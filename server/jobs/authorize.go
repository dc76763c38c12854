package jobs

import (
	"cmp"
	"context"
	"errors"
	"strings"

	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/store"
)

// maxParentDepth bounds the walk from a child workflow up to the job that started it
// (sub-workflows nest; Oozie's own limit on sub-workflow depth is 50).
const maxParentDepth = 50

// jobACL returns the owner and ACL that authorize requests on target, a job's or an
// action's id. A child workflow (of a coordinator action or a sub-workflow action) also
// admits whom its parents admit, so that whoever may run a coordinator may handle the
// workflows it started. An unknown job answers 404 E0604.
func (a *api) jobACL(ctx context.Context, target string) (auth.Job, error) {
	var job auth.Job
	var acls []string
	err := a.Store.View(ctx, func(x store.Tx) error {
		job, acls = auth.Job{ID: target}, nil
		id, _, _ := strings.Cut(target, "@")
		for depth := 0; id != "" && depth < maxParentDepth; depth++ {
			owner, acl, parent, err := ownerOf(ctx, x, id)
			if errors.Is(err, store.ErrNotFound) && depth > 0 {
				break // the parent was purged: what the child says is all there is
			}
			if err != nil {
				return err
			}
			if depth == 0 {
				job.ID, job.Owner = id, owner
			}
			if acl != "" {
				acls = append(acls, acl)
			}
			id = parent
		}
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return auth.Job{}, errJobNotFound(target)
	}
	job.ACL = strings.Join(acls, ",")
	return job, err
}

// ownerOf reads one job's owner, ACL and parent job (the job of its parent action).
func ownerOf(ctx context.Context, x store.Tx, id string) (owner, acl, parent string, err error) {
	switch kindOfID(id) {
	case idWorkflow:
		j, err := x.GetWorkflowJob(ctx, id)
		parent, _, _ = strings.Cut(j.ParentID, "@")
		return j.User, cmp.Or(j.ACL, j.Group), parent, err
	case idCoordinator:
		j, err := x.GetCoordJob(ctx, id)
		return j.User, cmp.Or(j.ACL, j.Group), j.BundleID, err
	case idBundle:
		j, err := x.GetBundleJob(ctx, id)
		return j.User, cmp.Or(j.ACL, j.Group), "", err
	}
	return "", "", "", store.ErrNotFound
}
