package server

import (
	"net/url"
	"testing"
	"time"

	"github.com/gozie/gozie/oozieerr"
)

// FuzzPurgeParams feeds arbitrary query strings to the admin/purge parser:
// it never panics, and what it accepts is within bounds.
func FuzzPurgeParams(f *testing.F) {
	for _, s := range []string{"", "wf=30&coord=7&bundle=7&limit=100&oldcoordaction=true", "WF=0&oldCoordAction=FALSE",
		"limit=0", "wf=-1", "bundle=100001", "coord=%20", "user.name=joe&limit=5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		req, err := ParsePurgeRequest(q)
		if err != nil {
			if e := ErrorFor(err); e.Status != 400 || e.Code != oozieerr.E0303 {
				t.Fatalf("%q: error %+v, want 400 E0303", query, e)
			}
			return
		}
		for _, age := range []*time.Duration{req.WorkflowAge, req.CoordAge, req.BundleAge} {
			if age != nil && *age < 0 {
				t.Fatalf("%q: negative age accepted", query)
			}
		}
		if req.Limit != nil && (*req.Limit < 1 || *req.Limit > maxPurgeLimit) {
			t.Fatalf("%q: limit %d accepted", query, *req.Limit)
		}
	})
}
