package jobs

import (
	"time"

	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// bundleJSON converts a bundle job row and its coordinator jobs to Oozie's JSON document,
// dates in loc. The coordinators carry neither actions nor configuration.
func bundleJSON(j *store.BundleJob, coords []store.CoordJob, loc *time.Location) oozieapi.BundleJob {
	out := oozieapi.BundleJob{
		AppPath:      j.AppPath,
		AppName:      j.AppName,
		ID:           j.ID,
		ExternalID:   j.ExternalID,
		Conf:         j.Conf,
		Status:       string(j.Status),
		TimeUnit:     oozieapi.BundleTimeUnit,
		Timeout:      j.TimeOut,
		KickoffTime:  oozieapi.NewDate(j.KickoffTime, loc),
		StartTime:    oozieapi.NewDate(j.StartTime, loc),
		EndTime:      oozieapi.NewDate(j.EndTime, loc),
		PauseTime:    oozieapi.NewDate(j.PauseTime, loc),
		CreatedTime:  oozieapi.NewDate(j.CreatedTime, loc),
		User:         j.User,
		Group:        j.Group,
		ACL:          j.ACL,
		Coordinators: make([]oozieapi.CoordinatorJob, 0, len(coords)),
		ToString:     oozieapi.BundleJobString(j.ID, string(j.Status)),
	}
	for i := range coords {
		c := coordJSON(&coords[i], nil, 0, loc)
		c.Conf = ""
		out.Coordinators = append(out.Coordinators, c)
	}
	return out
}
