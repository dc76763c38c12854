package coordinator

import (
	"fmt"
	"strings"
	"time"

	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// ParseStored is f.Parse for a datetime that a job keeps (a start, an end, a pause or
// kick-off time): it must also lie in the range the store holds (store.MinTime to
// store.MaxTime, the years 1000 to 9999; 0001-01-01T00:00Z would be stored as "not set"), so
// that it is refused at submission rather than failing, or turning into "not set", when it is
// written. Bundles use it too.
func ParseStored(f oozietime.Format, s string) (time.Time, error) {
	t, err := f.Parse(s)
	if err != nil {
		return t, err
	}
	if t.Before(store.MinTime) || t.After(store.MaxTime) { // a parsed date is never "not set"
		return time.Time{}, fmt.Errorf("[%s] is outside the dates gozie stores, %s to %s", strings.TrimSpace(s),
			f.Format(store.MinTime), f.Format(store.MaxTime))
	}
	return t, nil
}
