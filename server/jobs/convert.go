package jobs

import (
	"time"

	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// workflowJSON converts a workflow job row and its action rows to Oozie's JSON document,
// dates in loc. A nil acts gives an empty actions array, as in listings.
func workflowJSON(j *store.WorkflowJob, acts []store.WorkflowAction, loc *time.Location) oozieapi.WorkflowJob {
	out := oozieapi.WorkflowJob{
		AppPath:     j.AppPath,
		AppName:     j.AppName,
		ID:          j.ID,
		ExternalID:  j.ExternalID,
		ParentID:    j.ParentID,
		Conf:        j.Conf,
		Status:      string(j.Status),
		LastModTime: oozieapi.NewDate(j.LastModified, loc),
		CreatedTime: oozieapi.NewDate(j.CreatedTime, loc),
		StartTime:   oozieapi.NewDate(j.StartTime, loc),
		EndTime:     oozieapi.NewDate(j.EndTime, loc),
		User:        j.User,
		Group:       j.Group,
		ACL:         j.ACL,
		Run:         j.Run,
		Actions:     make([]oozieapi.WorkflowAction, 0, len(acts)),
		ToString:    oozieapi.WorkflowJobString(j.ID, string(j.Status)),
	}
	for i := range acts {
		out.Actions = append(out.Actions, actionJSON(&acts[i], loc))
	}
	return out
}

// actionJSON converts a workflow action row to Oozie's JSON document, dates in loc.
func actionJSON(a *store.WorkflowAction, loc *time.Location) oozieapi.WorkflowAction {
	return oozieapi.WorkflowAction{
		ID:                a.ID,
		Name:              a.Name,
		Type:              a.Type,
		Conf:              a.Conf,
		Status:            string(a.Status),
		Retries:           a.Retries,
		StartTime:         oozieapi.NewDate(a.StartTime, loc),
		EndTime:           oozieapi.NewDate(a.EndTime, loc),
		Transition:        a.Transition,
		Data:              a.Data,
		Stats:             a.Stats,
		ExternalChildIDs:  a.ExternalChildIDs,
		ExternalID:        a.ExternalID,
		ExternalStatus:    a.ExternalStatus,
		TrackerURI:        a.TrackerURI,
		ConsoleURL:        a.ConsoleURL,
		ErrorCode:         a.ErrorCode,
		ErrorMessage:      a.ErrorMessage,
		ToString:          oozieapi.WorkflowActionString(a.Name, string(a.Status)),
		UserRetryInterval: a.UserRetryInterval,
		UserRetryCount:    a.UserRetryCount,
		UserRetryMax:      a.UserRetryMax,
	}
}
