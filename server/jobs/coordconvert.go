package jobs

import (
	"time"

	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// coordJSON converts a coordinator job row and one page of its actions to Oozie's JSON
// document, dates in loc; total is how many actions matched the request's filter.
func coordJSON(j *store.CoordJob, acts []store.CoordAction, total int, loc *time.Location) oozieapi.CoordinatorJob {
	out := oozieapi.CoordinatorJob{
		AppPath:              j.AppPath,
		AppName:              j.AppName,
		ID:                   j.ID,
		ExternalID:           j.ExternalID,
		BundleID:             j.BundleID,
		Conf:                 j.Conf,
		Status:               string(j.Status),
		ExecutionPolicy:      j.ExecutionOrder,
		Frequency:            j.Frequency,
		TimeUnit:             j.TimeUnit,
		TimeZone:             j.TimeZone,
		Concurrency:          j.Concurrency,
		Timeout:              j.Timeout,
		LastAction:           oozieapi.NewDate(j.LastActionTime, loc),
		NextMaterializedTime: oozieapi.NewDate(j.NextMaterializedTime, loc),
		CreatedTime:          oozieapi.NewDate(j.CreatedTime, loc),
		StartTime:            oozieapi.NewDate(j.StartTime, loc),
		EndTime:              oozieapi.NewDate(j.EndTime, loc),
		PauseTime:            oozieapi.NewDate(j.PauseTime, loc),
		User:                 j.User,
		Group:                j.Group,
		ACL:                  j.ACL,
		Throttle:             j.Throttle,
		ErrorCode:            j.ErrorCode,
		ErrorMessage:         j.ErrorMessage,
		Actions:              coordActionsJSON(acts, loc),
		ToString:             oozieapi.CoordinatorJobString(j.ID, string(j.Status)),
		Total:                total,
	}
	return out
}

// coordActionsJSON converts coordinator action rows, dates in loc; never nil.
func coordActionsJSON(acts []store.CoordAction, loc *time.Location) []oozieapi.CoordinatorAction {
	out := make([]oozieapi.CoordinatorAction, 0, len(acts))
	for i := range acts {
		out = append(out, coordActionJSON(&acts[i], loc))
	}
	return out
}

// coordActionJSON converts a coordinator action row to Oozie's JSON document, dates in loc.
func coordActionJSON(a *store.CoordAction, loc *time.Location) oozieapi.CoordinatorAction {
	return oozieapi.CoordinatorAction{
		ID:                      a.ID,
		JobID:                   a.JobID,
		ActionNumber:            a.ActionNumber,
		CreatedConf:             a.CreatedConf,
		CreatedTime:             oozieapi.NewDate(a.CreatedTime, loc),
		NominalTime:             oozieapi.NewDate(a.NominalTime, loc),
		ExternalID:              a.ExternalID,
		Status:                  string(a.Status),
		RunConf:                 a.RunConf,
		LastModifiedTime:        oozieapi.NewDate(a.LastModified, loc),
		MissingDependencies:     a.MissingDependencies,
		PushMissingDependencies: a.PushMissingDependencies,
		ExternalStatus:          a.ExternalStatus,
		TrackerURI:              a.TrackerURI,
		ConsoleURL:              a.ConsoleURL,
		ErrorCode:               a.ErrorCode,
		ErrorMessage:            a.ErrorMessage,
		ToString:                oozieapi.CoordinatorActionString(a.ID, string(a.Status)),
	}
}
